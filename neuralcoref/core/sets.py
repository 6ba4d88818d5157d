"""Membership tests sized for the short arrays of a short Doc.

``np.isin`` sorts both arrays and checks their ranges, many numpy calls
whatever the sizes; a short text asks it about a dozen tokens or mentions,
dozens of times per Doc. Up to :data:`SMALL_PRODUCT` comparisons, one
broadcast comparison answers the same; longer arrays go to ``np.isin``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

#: Up to this many element-by-test comparisons, a broadcast comparison is used.
SMALL_PRODUCT = 2048


def isin(element: Any, test_elements: Any) -> np.ndarray:
    """``np.isin(element, test_elements)``, faster on short arrays.

    element (array-like): the values tested.
    test_elements (array-like): the values looked for.
    RETURNS (ndarray): bool, shaped like ``element``.
    """
    element = np.asarray(element)
    test = np.asarray(test_elements).ravel()
    if element.size * test.size <= SMALL_PRODUCT and _same_kind(element.dtype, test.dtype):
        return (element.reshape(-1, 1) == test).any(axis=1).reshape(element.shape)
    return np.isin(element, test)


def _same_kind(a: np.dtype, b: np.dtype) -> bool:
    # Signed with unsigned integers (or object arrays) are left to np.isin, whose
    # comparisons of such mixes are exact.
    return a.kind == b.kind and a.kind in "iub"
