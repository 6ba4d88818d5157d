"""Membership tests sized for the short arrays of a short Doc.

``np.isin`` sorts both arrays and checks their ranges, many numpy calls
whatever the sizes; a short text asks it about a dozen tokens or mentions,
dozens of times per Doc. Up to :data:`SMALL_PRODUCT` comparisons, one kernel
call (``_mentions.small_isin``) compares every pair; longer arrays go to
``np.isin``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _mentions

#: Up to this many element-by-test comparisons, a broadcast comparison is used.
SMALL_PRODUCT = 2048


def isin(element: Any, test_elements: Any) -> np.ndarray:
    """``np.isin(element, test_elements)``, faster on short arrays.

    element (array-like): the values tested.
    test_elements (array-like): the values looked for.
    RETURNS (ndarray): bool, shaped like ``element``.
    """
    element = np.asarray(element)
    test = np.asarray(test_elements)
    if test.ndim != 1:
        test = test.ravel()
    if element.size * test.size <= SMALL_PRODUCT and _same_kind(element.dtype, test.dtype):
        flat = element if element.ndim == 1 else element.reshape(-1)
        out = _mentions.small_isin(flat, test)
        if out is not None:
            return out if element.ndim == 1 else out.reshape(element.shape)
    return np.isin(element, test)


def in_sorted(element: np.ndarray, sorted_test: np.ndarray) -> np.ndarray:
    """``np.isin(element, sorted_test)`` for a 1-d uint64 ``element`` against an
    increasing uint64 ``sorted_test`` (a lexicon's or the rules' word ids): a
    binary search per element in one kernel call, where ``np.isin`` sorts
    both arrays for each of a short Doc's few words.

    RETURNS (ndarray): (len(element),) bool.
    """
    element = np.asarray(element)
    if element.ndim == 1 and element.dtype == np.uint64 and sorted_test.dtype == np.uint64 \
            and sorted_test.ndim == 1 and sorted_test.flags.c_contiguous:
        return _mentions.label_mask(element, sorted_test)
    return isin(element, sorted_test)


def in_increasing(element: np.ndarray, test_elements: Any) -> np.ndarray:
    """``np.isin(element, test_elements)`` for a 1-d integer ``element`` that is
    usually non-decreasing (a long Doc's pair keys): the test values are looked
    up in ``element`` (two binary searches each) and their ranges marked, where
    ``np.isin`` sorts both arrays. Any other ``element`` goes to :func:`isin`.

    RETURNS (ndarray): (len(element),) bool.
    """
    element = np.asarray(element)
    test = np.asarray(test_elements).ravel()
    if element.ndim != 1 or element.size * test.size <= SMALL_PRODUCT \
            or not _same_kind(element.dtype, test.dtype) or element.dtype.kind not in "iu" \
            or not np.all(element[1:] >= element[:-1]):
        return isin(element, test)
    values = np.unique(test)
    lo, hi = np.searchsorted(element, values, "left"), np.searchsorted(element, values, "right")
    found = hi > lo  # the ranges of distinct values: disjoint, increasing
    marks = np.zeros(len(element) + 1, dtype=np.int32)
    marks[lo[found]] += 1
    marks[hi[found]] -= 1
    return np.cumsum(marks[:-1]) > 0


def _same_kind(a: np.dtype, b: np.dtype) -> bool:
    # Signed with unsigned integers (or object arrays) are left to np.isin, whose
    # comparisons of such mixes are exact.
    return a.kind == b.kind and a.kind in "iub"
