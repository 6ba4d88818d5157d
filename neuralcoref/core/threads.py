"""One BLAS thread around the small matrix products of a short batch.

The products of a few mentions (a short text: 5 mentions by 800 inputs by 384
units per ensemble member) take tens of microseconds on one core; handed to
BLAS's thread pool they wait for its sleeping threads, and on a busy machine for
a core, milliseconds per Doc. Large batches keep the caller's setting: their
products are long enough to pay for the threads.

``threadpoolctl.threadpool_limits`` rescans the loaded libraries at every use
(about 2 ms); the BLAS libraries are found once here, and a limit costs a few
microseconds. OpenBLAS splits a product among threads by rows and columns of
the output, never along the summed dimension, so each output value is the same
sum in the same order: scores do not change with the thread count.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator, List, Optional

#: Up to this many mentions in a batch, its products run on one BLAS thread.
SMALL_BATCH_MENTIONS = 2048

_lock = threading.Lock()
_libraries: Optional[List] = None
_depth = 0  # callers inside one_blas_thread (threads of one process share BLAS)
_saved: List[int] = []


def _blas_libraries() -> List:
    """threadpoolctl's controllers of the loaded BLAS libraries (found once)."""
    global _libraries
    if _libraries is None:
        from threadpoolctl import ThreadpoolController

        _libraries = [lib for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas"]
    return _libraries


@contextmanager
def one_blas_thread(n_mentions: int = 0) -> Iterator[None]:
    """Within the block, BLAS runs on one thread, when the batch is small.

    n_mentions (int): mentions of the batch; above SMALL_BATCH_MENTIONS the
        threads are left as they are.
    """
    if n_mentions > SMALL_BATCH_MENTIONS:
        yield
        return
    global _depth
    with _lock:
        if _depth == 0:
            _saved[:] = [lib.get_num_threads() for lib in _blas_libraries()]
            for lib, n in zip(_libraries, _saved):
                if n != 1:
                    lib.set_num_threads(1)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                for lib, n in zip(_libraries, _saved):
                    if n != 1:
                        lib.set_num_threads(n)


def one_blas_thread_per_worker() -> None:
    """Put BLAS on one thread for the rest of this process's life: for a worker
    process of a pool that has a worker per core (the server's, ``neuralcoref
    batch``'s), whose own BLAS threads would only compete with its siblings."""
    for lib in _blas_libraries():
        lib.set_num_threads(1)
