"""Backward anaphora from a preposed adverbial clause or phrase, for decoding.

A pronoun in an adverbial clause or phrase that precedes its main clause refers
forward to the main clause's subject: "When he was minister, Kallergis formed a
government", "As she does not have a passport, Adi stays", "Over the course of
his career, Wade served ...". Principle C allows it (the pronoun does not c-command the
subject), and writers put the pronoun first precisely because the subject is
the topic; a scorer that only looks back ties the pronoun to an earlier name.

Computed once per Doc from its :class:`~neuralcoref.core.doc_arrays.DocArrays`:
for each pronoun, the mention headed by the main clause's subject when the
pronoun is in such a preposed clause or phrase (``LanguageRules.preposed_deps``).
Decoding (:func:`~neuralcoref.core.clustering.refer_forward`) moves the pronoun
to that subject's cluster when agreement and binding allow.
"""
from __future__ import annotations

import numpy as np

from ..lang.base import LanguageRules
from .doc_arrays import DocArrays
from .expletives import children_index, label_ids
from .mentions import PRONOMINAL

#: Universal part-of-speech tags of a clause's verb ("was" in "When he was minister").
_VERB_POS = frozenset(("VERB", "AUX"))
#: How many heads a pronoun climbs to the preposed clause or phrase ("his"
#: -> "career" -> "of" -> "course" -> "Over").
_MAX_CLIMB = 10


def forward_subjects(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                     heads: np.ndarray, types: np.ndarray) -> np.ndarray:
    """For each pronoun in a preposed adverbial clause or phrase, the mention
    its main clause's subject heads.

    arrays (DocArrays): the parsed Doc's arrays.
    rules (LanguageRules): ``preposed_deps`` and ``binding_subject_deps`` are
        read; no ``preposed_deps``: none.
    starts, ends, heads, types (int (n,)): the mentions.
    RETURNS (ndarray): (n,) int32, the subject's mention (the longest span of
        that head), else -1.
    """
    n = len(heads)
    out = np.full(n, -1, dtype=np.int32)
    if not rules.preposed_deps or n == 0:
        return out
    head_of, dep, pos = arrays.head, arrays.dep, arrays.pos
    preposed = np.isin(dep, label_ids(rules.preposed_deps))
    subject = np.isin(dep, label_ids(rules.binding_subject_deps))
    verb = np.isin(pos, label_ids(_VERB_POS))
    heads, types = np.asarray(heads, dtype=np.int64), np.asarray(types)
    by_head = _longest_by_head(heads, np.asarray(starts), np.asarray(ends), types, len(head_of))
    kids, kid_ptr = children_index(head_of)
    for m in np.flatnonzero(types == PRONOMINAL).tolist():
        main = _main_verb(int(heads[m]), head_of, verb, preposed)
        if main < 0:
            continue
        for s in kids[kid_ptr[main]:kid_ptr[main + 1]].tolist():
            if subject[s] and s > heads[m] and by_head[s] >= 0:
                out[m] = by_head[s]
                break
    return out


def _main_verb(p: int, head_of: np.ndarray, verb: np.ndarray, preposed: np.ndarray) -> int:
    """The verb of the first preposed clause or phrase above token p, else -1:
    p climbs its heads to a dependent that precedes the verb it modifies
    ("When [he] was minister, Kallergis formed": "was"; "After completing
    [his] clerkship, Dzurilla": "After")."""
    t = p
    for _ in range(_MAX_CLIMB):
        up = int(head_of[t])
        if up == t:
            return -1
        if verb[up] and preposed[t] and t < up:
            return up
        t = up
    return -1


def _longest_by_head(heads: np.ndarray, starts: np.ndarray, ends: np.ndarray, types: np.ndarray,
                     n_tokens: int) -> np.ndarray:
    """(n_tokens,) int32: the longest non-pronominal mention each token heads, else -1."""
    out = np.full(n_tokens, -1, dtype=np.int32)
    best = np.zeros(n_tokens, dtype=np.int64)
    for m in np.flatnonzero(types != PRONOMINAL).tolist():
        h, width = int(heads[m]), int(ends[m] - starts[m])
        if width > best[h]:
            out[h], best[h] = m, width
    return out


__all__ = ["forward_subjects"]
