"""Worker processes that die with their parent, for ``neuralcoref batch --n-process``
(the REST server's workers use :func:`die_with_parent` too).

A worker must not outlive the run: after ``kill -9`` of the parent nothing can
clean up, so each worker asks the kernel to kill it when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux) and, where that is missing,
watches its parent's pid from a thread. SIGTERM of the parent is turned into an
exception (:func:`terminating`), whose cleanup kills the workers.
"""
from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Iterator, Optional

from ..core.util.threads import one_blas_thread_per_worker

#: prctl option: the signal a process gets when the thread that forked it exits.
PR_SET_PDEATHSIG = 1
#: Seconds between two looks at the parent's pid (the fallback watch).
WATCH_INTERVAL = 0.5

#: The pipeline of a worker process (set by the initializer, or inherited by fork).
_WORKER_STATE: dict = {}


class Terminated(SystemExit):
    """SIGTERM reached the parent: unwinds the run like Ctrl-C (complete lines kept)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


def set_parent_death_signal() -> bool:
    """Have the kernel SIGKILL this process when its parent dies (Linux only).
    RETURNS (bool): whether it was set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent_pid: int) -> None:
    """In a worker: have the kernel kill it when its parent dies (where it can),
    and exit now if ``parent_pid`` is already gone (died before prctl took effect)."""
    set_parent_death_signal()
    if os.getppid() != parent_pid:
        os._exit(1)


def _watch_parent(parent_pid: int) -> None:
    while True:
        if os.getppid() != parent_pid:  # reparented: the parent is gone
            os._exit(1)
        time.sleep(WATCH_INTERVAL)


def _initialize(parent_pid: int, state: Optional[dict]) -> None:
    # Ctrl-C goes to the whole process group: the parent handles it, not the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent_pid)
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True,
                     name="neuralcoref-parent-watch").start()
    if state is not None:  # not inherited (spawn): sent pickled
        _WORKER_STATE.update(state)
    one_blas_thread_per_worker()


def worker_state() -> dict:
    """The state the pool was created with, in a worker process."""
    return _WORKER_STATE


@contextlib.contextmanager
def worker_pool(n_process: int, state: dict) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``n_process`` workers that die with this process; ``state`` (e.g.
    the pipeline) is what :func:`worker_state` returns in them: inherited by fork
    where there is fork, else pickled. The workers are killed when the block ends."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    forked = context.get_start_method() == "fork"
    if forked:
        _WORKER_STATE.clear()
        _WORKER_STATE.update(state)
    pool = ProcessPoolExecutor(n_process, mp_context=context, initializer=_initialize,
                               initargs=(os.getpid(), None if forked else state))
    try:
        yield pool
    finally:
        kill_workers(pool)
        if forked:
            _WORKER_STATE.clear()


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: pending work dropped, running workers killed."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(5)


@contextlib.contextmanager
def terminating() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (in the main thread; a
    no-op elsewhere), so that cleanup runs; the old handler comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    previous: Callable = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
