"""One BLAS thread around the small matrix products of a short batch.

The products of a few mentions (a short text) are short on one core; handed to
BLAS's thread pool they wait for its sleeping threads, and on a busy machine
for a free core, far longer than the products themselves. Large batches keep
the caller's setting: their products are long enough to pay for the threads.

``threadpoolctl.threadpool_limits`` rescans the loaded libraries at every use;
the BLAS libraries are found once here, so that a limit per Doc costs little.
OpenBLAS's result for a few rows can differ in the last bit with its thread
count, so one thread for short batches also makes their scores the same on
every machine (the board measures on one thread).
See docs/experiments/2026-12-07-short-text-latency.md.
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
