"""Bit counts of mention groups, for the agreement test of two groups at a cost
that does not grow with their size.

:func:`~.cluster_passes.compatible` reads every member of both groups. A pass
that tests one mention against a cluster that keeps growing (a name repeated
thousands of times) then costs the square of the cluster's size. Here each
group keeps, per bit, how many members set it (name words, each agreement
column) and how many members have a non-zero mask: the OR of the names is
"count > 0", the AND over non-zero masks is "count == non-zero members", and a
member leaves or joins by one subtraction or addition.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

_NAME_BITS, _MASK_BITS = 64, 32


def _bits(values: np.ndarray) -> np.ndarray:
    """(n, k) unsigned integers -> (n, k * width) int64 bits, each column's bits together."""
    raw = np.ascontiguousarray(values)
    return np.unpackbits(raw.view(np.uint8).reshape(len(raw), -1), axis=1).astype(np.int64)


class GroupBits:
    """Per-mention bit rows whose sums over a group decide :func:`compatible`.

    masks (uint32 (n, c) | None): agreement masks (0: no constraint).
    names (uint64 (n,) | None): name words, one bit each.
    """

    def __init__(self, masks: Optional[np.ndarray], names: Optional[np.ndarray]):
        parts, self.n_cols = [], 0
        if names is not None:
            parts.append(_bits(np.asarray(names).astype(np.uint64)[:, None]))
        if masks is not None:
            masks = np.asarray(masks).astype(np.uint32)
            self.n_cols = masks.shape[1]
            parts += [_bits(masks), (masks != 0).astype(np.int64)]
        self.has_names = names is not None
        self.rows = np.concatenate(parts, axis=1) if parts else None

    def of(self, members: Sequence[int]) -> np.ndarray:
        """The sums of a group (a zero row for no members)."""
        if self.rows is None:
            return np.zeros(0, dtype=np.int64)
        return self.rows[list(members)].sum(axis=0) if len(members) else np.zeros(self.rows.shape[1], np.int64)

    def compatible(self, left: np.ndarray, right: np.ndarray) -> bool:
        """:func:`~.cluster_passes.compatible` of two groups given their sums."""
        start = 0
        if self.has_names:
            wl, wr = left[:_NAME_BITS] > 0, right[:_NAME_BITS] > 0
            if wl.any() and wr.any() and not (wl & wr).any():
                return False
            start = _NAME_BITS
        if self.n_cols:
            both = left + right
            counts = both[start:start + self.n_cols * _MASK_BITS].reshape(self.n_cols, _MASK_BITS)
            nonzero = both[start + self.n_cols * _MASK_BITS:]
            for col in range(self.n_cols):
                if nonzero[col] and not (counts[col] == nonzero[col]).any():
                    return False
        return True
