"""Prepositional phrases a verb governs, hung by the parser on its object.

"The guard protected the designer from harm": "from harm" is an argument of
"protect" (protect someone from something), yet parsers often attach it to
"the designer", and the candidate "the designer from harm" then stands for the
person. A verb's frames (``LanguageRules.verb_frames``: "protect from",
"accuse of", "thank for") say which phrases belong to the verb; decoding puts
the candidate without such a phrase in the cluster instead
(:func:`~neuralcoref.core.clustering.without_verb_phrases`).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..lang.base import LanguageRules
from .doc_arrays import DocArrays, arrays_of
from .expletives import has_label


def verb_phrase_trims(doc, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray, heads: np.ndarray,
                      arrays: Optional[DocArrays] = None) -> np.ndarray:
    """For each mention that ends with a prepositional phrase the verb of its
    head takes by its frames (the head a direct object of that verb), the
    longest candidate of the same start and head that ends before the phrase.

    doc (Doc): the parsed Doc; starts, ends, heads (int (n,)): the mentions, sorted by start.
    rules (LanguageRules): ``verb_frames`` (empty: none), ``verb_frame_object_deps``.
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (ndarray): (n,) int32 mention indices, -1 where nothing is trimmed.
    """
    starts, ends, heads = (np.asarray(a, dtype=np.int64) for a in (starts, ends, heads))
    out = np.full(len(heads), -1, dtype=np.int32)
    if not rules.verb_frames or not len(heads):
        return out
    arrays = arrays_of(doc, arrays)
    objects = np.flatnonzero(has_label(arrays.dep[heads], rules.verb_frame_object_deps))
    for m in objects.tolist():
        head = doc[int(heads[m])]
        verb = head.head.lemma_.lower()
        tails = [c.i for c in head.rights
                 if c.dep_ in rules.verb_frame_prep_deps and f"{verb} {c.lower_}" in rules.verb_frames
                 and c.right_edge.i + 1 == ends[m]]
        if not tails:
            continue
        same = np.flatnonzero((starts == starts[m]) & (heads == heads[m]) & (ends <= tails[0]))
        if len(same):
            out[m] = same[np.argmax(ends[same])]
    return out
