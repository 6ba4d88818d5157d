"""Demonstratives that take the last phrase named ("the latter"), for decoding.

French "celui-ci", "celle-ci", "ceux-ci", "celles-ci" refer to the nearest
phrase before them of their gender and number: "Pauline regarda Laurence, et
celle-ci sourit" (Laurence). Grammar decides it, and the shipped models were
trained before these words were mentions (the model linked "celle-ci" to the
subject, Pauline), so decoding links each to that phrase, as a binder (see
:class:`~neuralcoref.core.discourse.binding.Binding`).
"""
from __future__ import annotations

import numpy as np

from ...lang.base import LanguageRules
from ..doc.doc_arrays import DocArrays
from ..doc.labels import has_label
from ..features.contract import C, GENDER, NUMBER
from ..mentions.mentions import PRONOMINAL


def latter_referents(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                     types: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """For each mention of ``rules.latter_words`` (its words joined without
    spaces, lowercase: "celle -ci" and "celle-ci" alike), the nearest earlier
    phrase or name that ends before it and agrees with it in gender and number
    where both are known; -1 for the other mentions and where none agrees.

    arrays (DocArrays): the parsed Doc's arrays; starts, ends, types (int (n,)): the mentions.
    codes (int (n, len(MENTION_CODES))): the mention codes (gender, number).
    RETURNS (ndarray): (n,) int32.
    """
    n = len(starts)
    out = np.full(n, -1, dtype=np.int32)
    if not rules.latter_words or not n:
        return out
    types, codes = np.asarray(types), np.asarray(codes)
    # Only pronouns whose first word opens one of the words ("celle" of "celle -ci").
    openings = frozenset(w.split("-")[0] for w in rules.latter_words) | rules.latter_words
    pronouns = np.flatnonzero((types == PRONOMINAL) & (np.asarray(ends) - np.asarray(starts) <= 3)
                              & has_label(arrays.lower, openings)[np.asarray(starts)])
    doc = arrays.doc
    latter = [m for m in pronouns.tolist()
              if "".join(t.lower_ for t in doc[int(starts[m]):int(ends[m])]) in rules.latter_words]
    if not latter:
        return out
    phrases = np.flatnonzero(types != PRONOMINAL)
    phrase_ends = np.asarray(ends)[phrases]
    gender, number = codes[:, C["gender"]], codes[:, C["number"]]
    unknown_gender, unknown_number = GENDER.index("unknown"), NUMBER.index("unknown")
    for m in latter:
        before = phrases[phrase_ends <= starts[m]]
        agree = ((gender[before] == gender[m]) | (gender[before] == unknown_gender) | (gender[m] == unknown_gender)) \
            & ((number[before] == number[m]) | (number[before] == unknown_number) | (number[m] == unknown_number))
        found = before[agree]
        if len(found):
            # The nearest: the latest end, and of phrases ending there the shortest.
            last = np.asarray(ends)[found].max()
            at = found[np.asarray(ends)[found] == last]
            out[m] = int(at[np.argmax(np.asarray(starts)[at])])
    return out
