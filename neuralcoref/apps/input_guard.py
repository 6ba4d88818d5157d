"""A cheap check, before tokenizing, for texts that spaCy's tokenizer takes
quadratic time on: long runs of characters without a space, split one prefix or
suffix at a time ("((((...", "'s's's...").

The tokenizer strips affixes one at a time, each step on the whole rest of the
run: 1,000 brackets take ~0.3 s, 20,000 take minutes (measured in
docs/experiments/2026-12-07-hostile-batch-models.md and
docs/experiments/2026-12-07-serving.md). The cost is estimated in linear time;
the REST server (per request) and batch runs (per record) refuse a text above
their budget before any tokenizer sees it.
"""
from __future__ import annotations

import re
from typing import Tuple

#: Runs of characters without a space shorter than this cost the tokenizer
#: little (at most this many steps per character): not counted.
_SHORT_RUN = 17
_LONG_RUN = re.compile(r"\S{%d,}" % _SHORT_RUN)
_WORD_CHARS = re.compile(r"\w+")
#: Default budget of one request or record, in cost units (:func:`tokenizer_cost`):
#: about 1,400 brackets in one run; no text of words comes near it.
MAX_TOKENIZER_COST = 2_000_000


def tokenizer_cost(text: str) -> Tuple[int, int, str]:
    """An estimate of what ``text`` costs spaCy's tokenizer, in linear time.

    A run of characters without a space costs about its length times its
    punctuation and symbols (40 KB of "(" takes minutes; 1,000 take 0.3 s).
    Runs shorter than ``_SHORT_RUN`` are left out: their cost is bounded by the
    text's length.

    RETURNS (Tuple[int, int, str]): the text's cost, and the offset and first
        characters of its costliest run.
    """
    total, worst, offset, start = 0, 0, 0, ""
    for match in _LONG_RUN.finditer(text):
        run = match.group()
        cost = len(run) * len(_WORD_CHARS.sub("", run))
        total += cost
        if cost > worst:
            worst, offset, start = cost, match.start(), run[:20]
    return total, offset, start
