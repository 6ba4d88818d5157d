"""The scorers' first layers over mention inputs, in as few products as exact.

Every layer that reads a mention's input vector is a *head* here: each ensemble
member's fused single, antecedent and anaphor units, and the mention scorer's
first layer. Heads that read the same input columns are joined into one matrix
(one product instead of several; a BLAS product gives each output column the
same bits either way). The columns that a sentence's mentions share (their
"sentence" and "document" span vectors) are multiplied once per run of
consecutive mentions with equal values and added to the product of the other
columns: a long document has ~10 mentions per sentence, and those columns are a
fifth of a shipped member's input. A batch of a few mentions (a short text)
runs instead through ``_scoring.add_rows_product``, which reads each weight once
where a BLAS product packs the whole matrix first. Both move scores in their
last bits only (the tests hold them to the single product).
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .. import _scoring

#: Up to this many mentions, the first layers run in ``_scoring.add_rows_product``.
SMALL_ROWS = 12


class Head(NamedTuple):
    """A first layer ``x @ W + b`` over whole mention inputs (W: (width, n_out))."""

    W: np.ndarray
    b: np.ndarray


class _Group(NamedTuple):
    """Heads that read the same columns: ``x[:, rows] @ W + x[:, shared] @ W_shared + b``,
    then head k's outputs are ``y[:, cols[k]]``."""

    rows: Optional[np.ndarray]
    W: np.ndarray
    shared: Optional[np.ndarray]
    W_shared: Optional[np.ndarray]
    b: np.ndarray
    heads: List[Tuple[int, slice]]
    small_cols: np.ndarray
    small_W: np.ndarray
    small_b: np.ndarray


def _read_rows(W: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.any(W != 0, axis=1))


class FirstLayers:
    """The heads' outputs for mention inputs, computed by groups.

    heads (Sequence[Head]): the first layers, over inputs of ``width`` columns.
    shared (slice): the input columns equal for the mentions of one sentence
        (empty: none).
    """

    def __init__(self, heads: Sequence[Head], shared: slice):
        self.n_heads = len(heads)
        width = heads[0].W.shape[0] if heads else 0
        is_shared = np.zeros(width, dtype=bool)
        is_shared[shared] = True
        by_rows: Dict[bytes, List[int]] = {}
        reads = [_read_rows(h.W) for h in heads]
        for k, rows in enumerate(reads):
            by_rows.setdefault(rows.tobytes(), []).append(k)
        self.groups = [self._group([heads[k] for k in ks], ks, reads[ks[0]], is_shared)
                       for ks in by_rows.values()]
        self.shared = shared if any(g.shared is not None for g in self.groups) else None

    @staticmethod
    def _group(heads: List[Head], ks: List[int], rows: np.ndarray, is_shared: np.ndarray) -> _Group:
        W = np.concatenate([h.W for h in heads], axis=1)
        b = np.concatenate([h.b for h in heads]).astype(np.float32)
        own, shared = rows[~is_shared[rows]], rows[is_shared[rows]]
        widths = np.cumsum([0] + [h.W.shape[1] for h in heads])
        cols = [(k, slice(int(lo), int(hi))) for k, lo, hi in zip(ks, widths[:-1], widths[1:])]
        small_W = _scoring.pack_strips(np.concatenate([W[own], W[shared]]))
        small_b = np.zeros(small_W.shape[0] * 16, dtype=np.float32)
        small_b[:len(b)] = b
        return _Group(None if len(own) == len(is_shared) else own, np.ascontiguousarray(W[own]),
                      shared if len(shared) else None,
                      np.ascontiguousarray(W[shared]) if len(shared) else None, b, cols,
                      np.concatenate([own, shared]).astype(np.int64), small_W, small_b)

    def __call__(self, x: np.ndarray) -> List[np.ndarray]:
        """Each head's outputs for inputs ``x`` (n, width). RETURNS (List[ndarray]):
        (n, n_out) float32 per head, in the heads' order (views of shared arrays)."""
        if len(x) <= SMALL_ROWS:
            return self._few(np.ascontiguousarray(x, dtype=np.float32))
        runs = _runs(x[:, self.shared]) if self.shared is not None else None
        out: List[Optional[np.ndarray]] = [None] * self.n_heads
        for g in self.groups:
            y = (x if g.rows is None else x[:, g.rows]) @ g.W
            if g.shared is None or runs is None:
                y += g.b
            else:
                starts, index = runs
                per_run = x[starts][:, g.shared] @ g.W_shared
                per_run += g.b
                y += per_run if index is None else per_run[index]
            for k, cols in g.heads:
                out[k] = y[:, cols]
        return out

    def _few(self, x: np.ndarray) -> List[np.ndarray]:
        """:meth:`__call__` for a few rows: one kernel call per group, the bias first."""
        out: List[Optional[np.ndarray]] = [None] * self.n_heads
        for g in self.groups:
            y = np.repeat(g.small_b[None], len(x), axis=0)
            _scoring.add_rows_product(y, x, g.small_cols, g.small_W)
            for k, cols in g.heads:
                out[k] = y[:, cols]
        return out


def _runs(values: np.ndarray) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """Runs of equal consecutive rows: the first row of each, and each row's run
    (None when there is a single run, to be broadcast)."""
    change = np.any(values[1:] != values[:-1], axis=1)
    if not change.any():
        return np.zeros(1, dtype=np.int64), None
    starts = np.flatnonzero(np.concatenate([[True], change]))
    return starts, np.cumsum(np.concatenate([[0], change]), dtype=np.int64)
