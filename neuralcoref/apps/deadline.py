"""Deadlines on the work of one text, in the main thread of a process.

spaCy's tokenizer is quadratic on long runs of affixes ("((((...", "'s's's..."):
20,000 such characters take minutes. A deadline stops that work from the inside:
a SIGALRM timer raises :class:`DeadlineExceeded` in the running code (the
tokenizer and the components check for signals), so one text cannot stall a
batch run. Signals reach only a process's main thread: elsewhere (a Dask
worker's threads) :func:`time_limit` sets no timer and the work runs to its end.
"""
from __future__ import annotations

import contextlib
import signal
import threading
import time
from typing import Any, Iterator, Optional

#: The characters a record's deadline is given for: longer texts get
#: proportionally more time (the pipeline's work grows with the text).
DEADLINE_CHARS = 100_000


class DeadlineExceeded(Exception):
    """The work of a text ran past its deadline."""


def record_deadline(length: int, seconds: Optional[float]) -> Optional[float]:
    """The deadline of a text of ``length`` characters: ``seconds`` per
    DEADLINE_CHARS characters, and at least ``seconds``.

    seconds (float | None): the budget; None or 0 means no deadline.
    RETURNS (float | None): seconds, or None for no deadline.
    """
    if not seconds:
        return None
    return seconds * max(1.0, length / DEADLINE_CHARS)


def can_time_limit() -> bool:
    """Whether :func:`time_limit` can stop work here (Unix, the main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_limit(seconds: Optional[float]) -> Iterator[None]:
    """Raise DeadlineExceeded in the block once it has run ``seconds`` (None: no
    limit; nor where :func:`can_time_limit` is false). The timer and the previous
    SIGALRM handler are restored on the way out."""
    if seconds is None or not can_time_limit():
        yield
        return
    armed = [True]

    def expire(signum: int, frame: Any) -> None:
        if armed[0]:  # a signal delivered late, after the block, is ignored
            raise DeadlineExceeded(f"ran past its deadline of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Budget:
    """Seconds of work left to a text (or a batch of texts), spent in pieces:
    the timer runs only within :meth:`spend`, not while the caller does other
    work between two pieces (writes the results)."""

    def __init__(self, seconds: Optional[float]):
        self.left = seconds

    @contextlib.contextmanager
    def spend(self) -> Iterator[None]:
        """Run the block within the seconds left (DeadlineExceeded past them)."""
        if self.left is None:
            yield
            return
        if self.left <= 0:
            raise DeadlineExceeded("no time left")
        start = time.monotonic()
        try:
            with time_limit(self.left):
                yield
        finally:
            self.left -= time.monotonic() - start
