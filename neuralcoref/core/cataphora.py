"""Backward anaphora from a preposed adverbial clause, for decoding.

A pronoun in an adverbial clause that precedes its main clause refers forward
to the main clause's subject: "When he was minister, Kallergis formed a
government", "As she does not have a passport, Adi stays", "When his daughter
was born, Jude ...". Principle C allows it (the pronoun does not c-command the
subject), and writers put the pronoun first precisely because the subject is
the topic; a scorer that only looks back ties the pronoun to an earlier name.

Computed once per Doc from its :class:`~neuralcoref.core.doc_arrays.DocArrays`:
for each pronoun, the mention headed by the main clause's subject when the
pronoun's clause is such a preposed clause (``LanguageRules.preposed_clause_deps``).
Decoding (:func:`~neuralcoref.core.clustering.refer_forward`) moves the pronoun
to that subject's cluster when agreement and binding allow.
"""
from __future__ import annotations

import numpy as np

from ..lang.base import LanguageRules
from .doc_arrays import DocArrays
from .expletives import label_ids
from .mentions import PRONOMINAL

#: Universal part-of-speech tags of a clause's verb ("was" in "When he was minister").
_VERB_POS = frozenset(("VERB", "AUX"))
#: How many heads a pronoun climbs to reach its clause's verb ("his" ->
#: "daughter" -> "born").
_MAX_CLIMB = 3


def forward_subjects(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                     heads: np.ndarray, types: np.ndarray) -> np.ndarray:
    """For each pronoun in a preposed adverbial clause, the mention its main
    clause's subject heads.

    arrays (DocArrays): the parsed Doc's arrays.
    rules (LanguageRules): ``preposed_clause_deps`` and ``binding_subject_deps``
        are read; no ``preposed_clause_deps``: none.
    starts, ends, heads, types (int (n,)): the mentions.
    RETURNS (ndarray): (n,) int32, the subject's mention (the longest span of
        that head), else -1.
    """
    n = len(heads)
    out = np.full(n, -1, dtype=np.int32)
    if not rules.preposed_clause_deps or n == 0:
        return out
    head_of, dep, pos = arrays.head, arrays.dep, arrays.pos
    preposed = np.isin(dep, label_ids(rules.preposed_clause_deps))
    subject = np.isin(dep, label_ids(rules.binding_subject_deps))
    verb = np.isin(pos, label_ids(_VERB_POS))
    heads, types = np.asarray(heads, dtype=np.int64), np.asarray(types)
    by_head = _longest_by_head(heads, np.asarray(starts), np.asarray(ends), types, len(head_of))
    for m in np.flatnonzero(types == PRONOMINAL).tolist():
        v = _clause_verb(int(heads[m]), head_of, verb)
        if v < 0 or not preposed[v] or head_of[v] <= v:
            continue
        main = int(head_of[v])
        for s in np.flatnonzero((head_of == main) & subject).tolist():
            if s > v and by_head[s] >= 0:
                out[m] = by_head[s]
                break
    return out


def _clause_verb(t: int, head_of: np.ndarray, verb: np.ndarray) -> int:
    """The first verb above token t, within ``_MAX_CLIMB`` heads, else -1."""
    for _ in range(_MAX_CLIMB):
        up = int(head_of[t])
        if up == t:
            return -1
        if verb[up]:
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
