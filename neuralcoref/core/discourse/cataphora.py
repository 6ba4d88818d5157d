"""Backward anaphora from a preposed adverbial clause or phrase, for decoding.

A pronoun in an adverbial clause or phrase that precedes its main clause refers
forward to the main clause's subject: "When he was minister, Kallergis formed a
government", "As she does not have a passport, Adi stays", "Over the course of
his career, Wade served ...". Principle C allows it (the pronoun does not c-command the
subject), and writers put the pronoun first precisely because the subject is
the topic; a scorer that only looks back ties the pronoun to an earlier name.

Computed once per Doc from its :class:`~neuralcoref.core.doc.doc_arrays.DocArrays`:
for each pronoun, the mention headed by the main clause's subject when the
pronoun is in such a preposed clause or phrase (``LanguageRules.preposed_deps``).
Decoding (:func:`~neuralcoref.core.decode.pronoun_chains.refer_forward`) moves the pronoun
to that subject's cluster when agreement and binding allow.
"""
from __future__ import annotations

import numpy as np

from ...lang.base import LanguageRules
from ..doc.doc_arrays import DocArrays
from ..doc.labels import has_label
from ..mentions.mentions import PRONOMINAL

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
    heads, types = np.asarray(heads, dtype=np.int64), np.asarray(types)
    pronouns = (types == PRONOMINAL).nonzero()[0]
    if not len(pronouns):
        return out
    head_of, dep, pos = arrays.head, arrays.dep, arrays.pos
    preposed = has_label(dep, rules.preposed_deps)
    subject = has_label(dep, rules.binding_subject_deps)
    verb = has_label(pos, _VERB_POS)
    # A pronoun climbs to a preposed dependent before its verb: a Doc without one
    # (most short texts) has no main verb to find.
    if not np.count_nonzero(preposed & verb[head_of] & (np.arange(len(head_of)) < head_of)):
        return out
    mains = _main_verbs(heads[pronouns], head_of, verb, preposed)
    found = mains >= 0
    if not found.any():
        return out
    by_head = _longest_by_head(heads, np.asarray(starts), np.asarray(ends), types, len(head_of))
    kids, kid_ptr = arrays.children
    for m, main in zip(pronouns[found].tolist(), mains[found].tolist()):
        for s in kids[kid_ptr[main]:kid_ptr[main + 1]].tolist():
            if subject[s] and s > heads[m] and by_head[s] >= 0:
                out[m] = by_head[s]
                break
    return out


def _main_verbs(tokens: np.ndarray, head_of: np.ndarray, verb: np.ndarray,
                preposed: np.ndarray) -> np.ndarray:
    """For each token, the verb that the first preposed clause or phrase above
    it modifies, else -1: the token climbs its heads (all tokens at once) to a
    dependent that precedes its verb ("When [he] was minister, Kallergis
    formed": "formed"; "After completing [his] clerkship, Dzurilla moved":
    "moved")."""
    out = np.full(len(tokens), -1, dtype=np.int64)
    t = np.asarray(tokens, dtype=np.int64)
    alive = np.ones(len(t), dtype=bool)
    for _ in range(_MAX_CLIMB):
        up = head_of[t]
        hit = alive & verb[up] & preposed[t] & (t < up)
        out[hit] = up[hit]
        alive &= ~hit & (up != t)
        if not np.count_nonzero(alive):
            break
        t = up
    return out


def _longest_by_head(heads: np.ndarray, starts: np.ndarray, ends: np.ndarray, types: np.ndarray,
                     n_tokens: int) -> np.ndarray:
    """(n_tokens,) int32: the longest non-pronominal mention each token heads
    (the first of equal ones), else -1."""
    out = np.full(n_tokens, -1, dtype=np.int32)
    named = np.flatnonzero(types != PRONOMINAL)
    # Shortest first, later mentions first among equals: the last write wins.
    order = named[np.lexsort((-named, (ends - starts)[named]))]
    out[heads[order]] = order
    return out


__all__ = ["forward_subjects"]
