"""Prepositional phrases a verb governs, hung by the parser on its object.

"The guard protected the designer from harm": "from harm" is an argument of
"protect" (protect someone from something), yet parsers often attach it to
"the designer", and the candidate "the designer from harm" then stands for the
person. A verb's frames (``LanguageRules.verb_frames``: "protect from",
"accuse of", "thank for") say which phrases belong to the verb
(:func:`frame_verbs`): decoding puts the candidate without such a phrase in
the cluster instead (:func:`~neuralcoref.core.decode.cluster_passes.without_verb_phrases`),
and binding counts the phrase's object as the verb's argument.
"""
from __future__ import annotations

from functools import lru_cache
from typing import FrozenSet, Optional, Tuple

import numpy as np
from spacy.strings import get_string_id as hash_string

from ...lang.base import LanguageRules
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.labels import has_label


def verb_phrase_trims(doc, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray, heads: np.ndarray,
                      arrays: Optional[DocArrays] = None) -> np.ndarray:
    """For each mention that ends with a prepositional phrase the verb of its
    head takes by its frames (:func:`frame_verbs`: the head an object of that
    verb), the longest candidate of the same start and head that ends before
    the phrase.

    doc (Doc): the parsed Doc; starts, ends, heads (int (n,)): the mentions.
    rules (LanguageRules): ``verb_frames`` (empty: none).
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (ndarray): (n,) int32 mention indices, -1 where nothing is trimmed.
    """
    starts, ends, heads = (np.asarray(a, dtype=np.int64) for a in (starts, ends, heads))
    out = np.full(len(heads), -1, dtype=np.int32)
    if not rules.verb_frames or not len(heads):
        return out
    arrays = arrays_of(doc, arrays)
    _, object_deps = _frame_tables(rules)
    objects = has_label(arrays.dep[heads], object_deps).nonzero()[0]
    if not len(objects):
        return out  # no mention headed by an object: no frame to read
    verbs = frame_verbs(arrays, rules)
    kids, ptr = arrays.children
    for m in objects.tolist():
        h = int(heads[m])
        # A phrase of the frame of h's verb, hung on h, ending where the mention ends.
        tails = [c for c in kids[ptr[h]:ptr[h + 1]].tolist()
                 if c > h and verbs[c] == arrays.head[h] and arrays.right[c] + 1 == ends[m]]
        if not tails:
            continue
        same = np.flatnonzero((starts == starts[m]) & (heads == h) & (ends <= tails[0]))
        if len(same):
            out[m] = same[np.argmax(ends[same])]
    return out


def frame_verbs(arrays: DocArrays, rules: LanguageRules) -> np.ndarray:
    """For each preposition (``binding_preposition_deps``) whose phrase belongs
    to a verb's frame, that verb: its head ("discussed trade [with] him"), or
    the verb of the object (``dep_classes`` "object") it hangs on ("protected
    [the designer] [from] him"); -1 for other tokens.

    arrays (DocArrays): the Doc's arrays; rules (LanguageRules): ``verb_frames``.
    RETURNS (ndarray): (n_tokens,) int64.
    """
    key = ("frame_verbs", rules)
    out = arrays.memo.get(key)
    if out is None:  # binding and the trims both read it: computed once per Doc
        out = arrays.memo[key] = _frame_verbs(arrays, rules)
        out.flags.writeable = False
    return out


def _frame_verbs(arrays: DocArrays, rules: LanguageRules) -> np.ndarray:
    out = np.full(len(arrays.head), -1, dtype=np.int64)
    if not rules.verb_frames:
        return out
    frames, object_deps = _frame_tables(rules)
    objects = has_label(arrays.dep, object_deps)
    head, lemma, lower = arrays.head, arrays.lemma, arrays.lower
    for c in has_label(arrays.dep, rules.binding_preposition_deps).nonzero()[0].tolist():
        verb = int(head[c])
        for v in (verb, int(head[verb])) if objects[verb] else (verb,):
            if (int(lemma[v]), int(lower[c])) in frames:
                out[c] = v
                break
    return out


@lru_cache(maxsize=None)
def _frame_tables(rules: LanguageRules) -> Tuple[FrozenSet[Tuple[int, int]], FrozenSet[str]]:
    """The rules' frames as (verb lemma id, preposition id) pairs, and their object labels."""
    frames = frozenset((hash_string(verb), hash_string(prep))
                       for verb, prep in (frame.split() for frame in rules.verb_frames))
    objects = frozenset(dep for dep, kind in rules.class_map("dep_classes").items() if kind == "object")
    return frames, objects
