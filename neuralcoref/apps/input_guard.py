"""A cheap check, before tokenizing, for texts that spaCy's tokenizer takes
quadratic time on: long runs of punctuation without a space ("((((...").

The tokenizer strips prefixes and suffixes one at a time, copying the rest of the
run each time: 1,000 brackets take ~0.4 s, 20,000 take minutes (measured in
docs/experiments/2026-12-07-hostile-batch-models.md). No text of words holds such a
run, so refusing it costs nothing and answers in microseconds; slower texts of
other shapes ("'s's's...") are left to the caller's deadline.
Shared by the batch runner; meant for the server too.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

#: Longest run of punctuation and symbols (no letter, digit or space) accepted.
MAX_PUNCTUATION_RUN = 1000

#: Maximal runs: each character is looked at once (a bounded repeat such as
#: ``{1000,}`` would rescan every run from each of its characters).
_PUNCTUATION_RUN = re.compile(r"[^\w\s]+")


def punctuation_run(text: str, limit: int = MAX_PUNCTUATION_RUN) -> Optional[Tuple[int, int]]:
    """The first run of more than ``limit`` punctuation or symbol characters
    without a space, as (offset, length); None when there is none.

    text (str): the text to resolve.
    limit (int): the longest run accepted.
    RETURNS (Tuple[int, int] | None): where the run starts and how long it is.
    """
    if len(text) <= limit:
        return None
    for match in _PUNCTUATION_RUN.finditer(text):
        if match.end() - match.start() > limit:
            return match.start(), match.end() - match.start()
    return None
