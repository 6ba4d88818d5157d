"""Entity-level refinement (in the spirit of Entity Equalization, Kantor & Globerson 2019).

A first pass scores every candidate pair; each mention's antecedent distribution
(softmax over the no-antecedent option and its candidates) then defines, left to
right, a soft cluster: the mention itself plus, with each candidate's probability,
that candidate's soft cluster. A second pass rescores the pairs with each
antecedent represented by the weighted mean over its soft cluster (the pair
net's first layer is linear, so the mean of the antecedent parts is that of the
inputs). Soft clusters are truncated to their ``k`` heaviest members, which bounds
the cost on long documents.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

#: Members kept per soft cluster.
DEFAULT_SUPPORT = 16


def soft_clusters(single: np.ndarray, pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray,
                  k: int = DEFAULT_SUPPORT) -> Tuple[np.ndarray, np.ndarray]:
    """Each mention's soft cluster: its heaviest members and their weights.

    single (float32 (n,)), pair (float32 (n_pairs,)), ptr (int64 (n + 1,)),
    ante (int (n_pairs,)): first-pass scores and candidates of one document (or of
        several, with global indices).
    k (int): members kept per cluster.
    RETURNS (Tuple[ndarray, ndarray]): members (n, k) int64 (the mention itself
        pads) and weights (n, k) float32 summing to 1 per row.
    """
    n = len(single)
    members = np.repeat(np.arange(n, dtype=np.int64)[:, None], k, axis=1)
    weights = np.zeros((n, k), dtype=np.float32)
    weights[:, 0] = 1.0
    sizes = np.ones(n)  # expected cluster sizes, so that the mean weighs every member alike
    for m in range(n):
        lo, hi = int(ptr[m]), int(ptr[m + 1])
        if hi == lo:
            continue
        scores = np.concatenate([[single[m]], pair[lo:hi]]).astype(np.float64)
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        cands = ante[lo:hi]
        # Membership: m itself, plus each candidate's cluster weighted by the
        # candidate's probability and expected size; merged, truncated, normalised.
        sizes[m] = 1.0 + probs[1:] @ sizes[cands]
        ids = np.concatenate([[m], members[cands].reshape(-1)])
        mass = np.concatenate([[1.0], ((probs[1:] * sizes[cands])[:, None] * weights[cands]).reshape(-1)])
        uniq, inverse = np.unique(ids, return_inverse=True)
        total = np.bincount(inverse, weights=mass)
        top = np.argsort(-total, kind="stable")[:k]
        kept = total[top] / total[top].sum()
        members[m, :len(top)] = uniq[top]
        weights[m, :len(top)] = kept
        weights[m, len(top):] = 0.0
        members[m, len(top):] = m
    return members, weights


def refine(ante_part: np.ndarray, members: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Antecedent parts averaged over soft clusters. RETURNS (n, h) float32."""
    return np.einsum("nk,nkh->nh", weights, ante_part[members]).astype(np.float32)
