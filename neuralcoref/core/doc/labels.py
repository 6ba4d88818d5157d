"""Token labels and words matched against the rules' sets: string ids of a label
set, which entries of a ``DocArrays`` column carry one of its labels, class codes
by a rules' class map, and a span's lowercase words for the rules' phrases.

The language rules (:class:`~neuralcoref.lang.base.LanguageRules`) hold labels and
words as frozen sets of strings; the Doc is read as columns of string ids
(:mod:`~neuralcoref.core.doc.doc_arrays`). Every stage that reads the parse matches
them here.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, FrozenSet, Mapping, Tuple

import numpy as np
from spacy.strings import get_string_id
from spacy.tokens import Doc

from .. import _mentions
from ..util.sets import isin


@lru_cache(maxsize=256)
def label_ids(values: FrozenSet[str]) -> np.ndarray:
    """The string ids of a rules' label set (cached: rules are frozen).

    values (FrozenSet[str]): labels or words.
    RETURNS (ndarray): (len(values),) uint64, read-only.
    """
    out = np.array([get_string_id(v) for v in values], dtype=np.uint64)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=256)
def sorted_label_ids(values: FrozenSet[str]) -> np.ndarray:
    """:func:`label_ids`, increasing (cached), for the binary search of
    ``_mentions.label_mask``. RETURNS (ndarray): (len(values),) uint64, read-only."""
    out = np.sort(label_ids(values))
    out.flags.writeable = False
    return out


def has_label(column: np.ndarray, values: FrozenSet[str]) -> np.ndarray:
    """Which entries of a column of string ids are one of a rules' label set.

    column (ndarray): (n,) uint64 string ids (a DocArrays column).
    values (FrozenSet[str]): labels or words.
    RETURNS (ndarray): (n,) bool.
    """
    if not isinstance(column, np.ndarray):
        column = np.asarray(column)
    if column.ndim == 1 and column.dtype == np.uint64:
        # One kernel call: a short text asks this about a hundred times per Doc.
        return _mentions.label_mask(column, sorted_label_ids(values))
    return isin(column, label_ids(values))


@lru_cache(maxsize=64)
def joined_label_ids(sets: Tuple[FrozenSet[str], ...]) -> Tuple[np.ndarray, np.ndarray]:
    """The string ids of several label sets joined, for ``_mentions.label_masks``
    (cached: rules are frozen).

    sets (Tuple[FrozenSet[str], ...]): at most 64 label sets.
    RETURNS (Tuple[ndarray, ndarray]): the ids of all the sets, increasing,
        (k,) uint64; and for each id the sets that hold it, (k,) uint64 (bit s:
        ``sets[s]``). Read-only.
    """
    held: Dict[int, int] = {}
    for s, values in enumerate(sets):
        for value in label_ids(values).tolist():
            held[value] = held.get(value, 0) | (1 << s)
    ids = np.array(sorted(held), dtype=np.uint64)
    bits = np.array([held[v] for v in ids.tolist()], dtype=np.uint64)
    ids.flags.writeable = bits.flags.writeable = False
    return ids, bits


def has_labels(column: np.ndarray, sets: Tuple[FrozenSet[str], ...]) -> np.ndarray:
    """:func:`has_label` for several label sets at once: one kernel call where a
    Doc's tables ask about a dozen sets of one column.

    column (ndarray): (n,) uint64 string ids (a DocArrays column).
    sets (Tuple[FrozenSet[str], ...]): labels or words, at most 64 sets.
    RETURNS (ndarray): (len(sets), n) bool; row s is ``has_label(column, sets[s])``.
    """
    if not isinstance(column, np.ndarray):
        column = np.asarray(column)
    if column.ndim == 1 and column.dtype == np.uint64 and len(sets) <= 64:
        ids, bits = joined_label_ids(sets)
        return _mentions.label_masks(column, ids, bits, len(sets))
    return np.array([has_label(column, values) for values in sets], dtype=bool).reshape(len(sets), -1)


def label_codes(column: np.ndarray, classes: Mapping[str, str], codes: Mapping[str, int]) -> np.ndarray:
    """Each entry's code by a rules' class map: ``codes[classes[label]]`` for
    the labels or words the map lists ("me" -> "1s" -> 1), 0 for the others.

    column (ndarray): (n,) uint64 string ids (a DocArrays column).
    RETURNS (ndarray): (n,) int8.
    """
    out = np.zeros(np.shape(column), dtype=np.int8)
    for labels, value in _class_label_sets(tuple(classes.items())):
        out[has_label(column, labels)] = codes[value]
    return out


@lru_cache(maxsize=64)
def _class_label_sets(items: Tuple[Tuple[str, str], ...]) -> Tuple[Tuple[FrozenSet[str], str], ...]:
    """A class map's (label, class) items grouped by class: (labels, class) per
    class, built once per map rather than once per Doc."""
    groups: Dict[str, set] = {}
    for label, value in items:
        groups.setdefault(value, set()).add(label)
    return tuple((frozenset(labels), value) for value, labels in groups.items())


def lower_words(doc: Doc, start: int, length: int) -> Tuple[str, ...]:
    """The lowercase words of ``doc[start:start + length]``, to match a phrase
    of the rules (idioms, interjections) written as words joined by spaces."""
    return tuple(t.lower_ for t in doc[start:start + length])
