"""Speakers read from quotation marks, for texts without a speaker column.

Fiction marks speech with quotation marks and dialogue dashes but names no
speakers. Telling narration from each quotation still helps: a narrator's "je"
is one person, and "je" inside and outside a quotation mostly are not (on
fr-litbank train, pairs of first-person pronouns within 30 mentions corefer 96%
of the time when both are narration, 48% when one is quoted). So narration is
speaker 0 and every quotation a speaker of its own, fed to the same speaker
features as a CoNLL speaker column.

A quotation runs from an opening mark to the next closing mark; an opening mark
inside an open quotation continues it (French opens each paragraph of a long
quotation again: the letters and tales told within fr-litbank's novels). A
sentence that opens with a dialogue dash is a turn of speech to its end.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from spacy.attrs import ORTH, SENT_START
from spacy.strings import get_string_id as hash_string
from spacy.tokens import Doc

from .lang.base import LanguageRules


def quote_ids(doc: Doc, rules: LanguageRules) -> Optional[np.ndarray]:
    """One speaker number per token: (n_tokens,) int64, 0 for narration, K inside
    the K-th quotation or dialogue turn; None when the rules name no marks.

    doc (Doc): a Doc, with sentence boundaries for dialogue dashes.
    rules (LanguageRules): ``quote_open_marks``, ``quote_close_marks``, ``turn_dashes``.
    Only the marks and sentence starts are visited: the rest are filled as ranges.
    """
    if not (rules.quote_open_marks or rules.turn_dashes) or not len(doc):
        return None
    arr = doc.to_array([ORTH, SENT_START])
    orth, n = arr[:, 0].astype(np.uint64), len(doc)
    sents = np.flatnonzero(arr[:, 1] == 1)
    sents = np.union1d([0], sents)
    dashed = np.isin(orth[sents], _hashes(rules.turn_dashes))
    ends = np.append(sents[1:], n)[dashed]
    # Events in document order. A closing mark acts after its own token, so at
    # one position: a turn's end, the previous token's closing mark, a new turn
    # (only outside quotations), then an opening mark.
    TURN_END, CLOSE, TURN, OPEN = range(4)
    events = sorted([(int(p), TURN_END) for p in ends] + [(int(p), TURN) for p in sents[dashed]]
                    + [(int(p), OPEN) for p in np.flatnonzero(np.isin(orth, _hashes(rules.quote_open_marks)))]
                    + [(int(p) + 1, CLOSE) for p in np.flatnonzero(np.isin(orth, _hashes(rules.quote_close_marks)))])
    out = np.zeros(n, np.int64)
    count = quote = turn = 0
    for i, (pos, kind) in enumerate(events):
        if kind == TURN_END:
            turn = 0
        elif kind == CLOSE:
            quote = 0
        elif kind == TURN and not quote:
            count += 1
            turn = count
        elif kind == OPEN and not quote:
            count += 1
            quote = count
        end = events[i + 1][0] if i + 1 < len(events) else n
        out[pos:end] = quote or turn
    return out


def _hashes(words) -> np.ndarray:
    return np.array(sorted(hash_string(w) for w in words), dtype=np.uint64)
