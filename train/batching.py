"""Length-sorted batches under a pair budget.

Mentions are sorted by their number of candidate antecedents and cut into batches
whose padded size (rows x longest row) stays within ``pair_budget``, so padding
is small and every batch costs about the same. Within one length, mentions stay
grouped by document and in document order: neighbours share their candidate
antecedents, so a batch computes the per-mention parts of few mentions.
"""
from __future__ import annotations

from typing import List, Optional

import numpy as np


def make_batches(n_candidates: np.ndarray, pair_budget: int, groups: Optional[np.ndarray] = None,
                 rng: Optional[np.random.Generator] = None,
                 subset: Optional[np.ndarray] = None) -> List[np.ndarray]:
    """Split mentions into length-sorted batches.

    n_candidates (int (n,)): candidate antecedents of each mention.
    pair_budget (int): most padded pairs per batch (a row counts at least 1).
    groups (int (n,) | None): document of each mention; kept together per length.
    rng (Generator | None): when given, documents are visited in a random order
        and the batch order is shuffled (training); otherwise all is fixed.
    subset (int array | None): only these mentions (default: all).
    RETURNS (List[ndarray]): int64 mention indices of each batch.
    """
    n = len(n_candidates)
    groups = np.zeros(n, dtype=np.int64) if groups is None else np.asarray(groups)
    if rng is not None and n:
        groups = rng.permutation(int(groups.max()) + 1)[groups]
    order = np.lexsort((np.arange(n), groups, n_candidates))
    if subset is not None:
        order = order[np.isin(order, subset)]
        n = len(order)
    batches, start = [], 0
    while start < n:
        end = start + 1
        # Rows are sorted by length, so the last row of a batch is its longest.
        while end < n and (end + 1 - start) * max(int(n_candidates[order[end]]), 1) <= pair_budget:
            end += 1
        batches.append(order[start:end].astype(np.int64))
        start = end
    if rng is not None:
        rng.shuffle(batches)
    return batches
