"""Stopping a training run on SIGINT / SIGTERM without losing it.

The first signal asks the run to stop after the current batch (the trainer then
exports the best model so far); a second one aborts at once.
"""
from __future__ import annotations

import logging
import signal
import threading
from typing import Dict, Optional

from neuralcoref.errors import Warnings

logger = logging.getLogger("neuralcoref.train")

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class TrainingInterrupted(KeyboardInterrupt):
    """A run stopped by a signal; a KeyboardInterrupt, so ``except Exception`` lets it through.

    signum (int): the signal (``exit code = 128 + signum``: 130 for SIGINT, 143 for SIGTERM).
    model_path (Path | None): the exported best model so far, None when aborted.
    """

    def __init__(self, signum: int, model_path=None):
        self.signum = signum
        self.model_path = model_path
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


class GracefulStop:
    """Context manager that turns the first SIGINT/SIGTERM into a stop request.

    Inside the block, ``requested`` becomes the signal number once one arrives;
    a second signal raises :class:`TrainingInterrupted` (no model) wherever the
    main thread is. Outside the main thread (where Python cannot install signal
    handlers) it does nothing and ``requested`` stays None.
    """

    def __init__(self) -> None:
        self.requested: Optional[int] = None
        self._previous: Dict[int, object] = {}

    def __enter__(self) -> "GracefulStop":
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _handle(self, signum: int, frame) -> None:
        if self.requested is not None:
            raise TrainingInterrupted(signum)
        self.requested = signum
        logger.warning(Warnings.W110.format(signal=signal.Signals(signum).name))
