"""From scores to clusters: best-antecedent links, union into clusters, main mentions."""
from __future__ import annotations

import math
from typing import List, Optional, Tuple

import numpy as np

from .features import AGREEMENT, PAIR_CODES
from .mentions import MENTION_TYPES

_PRONOMINAL = MENTION_TYPES.index("pronominal")
_GENDER = PAIR_CODES.index("gender")
_DISAGREE = AGREEMENT.index("disagree")


def without_forbidden_links(pair: np.ndarray, pair_codes: np.ndarray) -> np.ndarray:
    """Pair scores with the links decoding never makes set to -inf: mentions
    whose genders are both known and differ ("my sister" ... "him"). Gold
    coreference almost never has them (43 of 13,785 gender-known coreferent pairs
    of OntoGUM train), while a model trained on a few hundred documents does not
    always learn to avoid them.

    pair (float32 (n_pairs,)), pair_codes (int16 (n_pairs, len(PAIR_CODES))).
    RETURNS (ndarray): a masked copy of ``pair`` (``pair`` itself if nothing is masked).
    """
    forbidden = np.asarray(pair_codes)[:, _GENDER] == _DISAGREE
    if not forbidden.any():
        return pair
    return np.where(forbidden, -np.inf, pair).astype(pair.dtype, copy=False)


def greedyness_offset(greedyness: float) -> float:
    """Score margin a link must clear: log((1 - g) / g); 0 at g = 0.5 (as trained).

    Higher greedyness links more; 0 never links, 1 always links to the best.
    """
    if not 0.0 <= greedyness <= 1.0:
        raise ValueError(f"greedyness must be within [0, 1], got {greedyness}")
    if greedyness == 0.0:
        return math.inf
    if greedyness == 1.0:
        return -math.inf
    return math.log((1.0 - greedyness) / greedyness)


def best_antecedents(single: np.ndarray, pair: np.ndarray, ptr: np.ndarray,
                     ante: np.ndarray, greedyness: float = 0.5,
                     pair_codes: Optional[np.ndarray] = None) -> np.ndarray:
    """Each mention's chosen antecedent, or -1 for none.

    single (float32 (n,)): no-antecedent scores.
    pair (float32 (n_pairs,)): pair scores, in the order of ``ante``.
    ptr (int64 (n + 1,)), ante (int32 (n_pairs,)): candidate antecedents (CSR).
    greedyness (float): 0-1, see :func:`greedyness_offset`.
    pair_codes (int16 (n_pairs, len(PAIR_CODES)) | None): when given, the links
        decoding never makes are ruled out (:func:`without_forbidden_links`).
    RETURNS (ndarray): (n,) int32; a link is made when the best pair score beats
        the single score by the greedyness offset (ties go to the nearest).
    """
    if pair_codes is not None:
        pair = without_forbidden_links(pair, pair_codes)
    n = len(single)
    best = np.full(n, -1, dtype=np.int32)
    counts = np.diff(ptr)
    has = np.flatnonzero(counts > 0)
    if has.size == 0:
        return best
    best_score = np.maximum.reduceat(pair, ptr[:-1][has])
    ana = np.repeat(np.arange(n), counts)
    max_of_pair = np.full(n, -np.inf, dtype=np.float64)
    max_of_pair[has] = best_score
    is_max = np.flatnonzero(pair >= max_of_pair[ana])
    first_ana, first_idx = np.unique(ana[is_max], return_index=True)
    chosen = ante[is_max[first_idx]]
    link = best_score - single[has] > greedyness_offset(greedyness)
    best[first_ana[link]] = chosen[link]
    return best


def clusters_from_links(links: np.ndarray) -> List[List[int]]:
    """Union mentions along links into clusters of two or more mentions.

    links (int (n,)): antecedent of each mention or -1.
    RETURNS (List[List[int]]): mention indices per cluster, sorted, clusters in
        order of their first mention.
    """
    parent = list(range(len(links)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for m, a in enumerate(links.tolist()):
        if a >= 0:
            ra, rm = find(a), find(m)
            if ra != rm:
                parent[max(ra, rm)] = min(ra, rm)
    groups: dict = {}
    for i in range(len(links)):
        groups.setdefault(find(i), []).append(i)
    return [g for _, g in sorted(groups.items()) if len(g) > 1]


def main_mention(cluster: List[int], types: np.ndarray) -> int:
    """The cluster's representative: its first non-pronominal mention, else its first."""
    for i in cluster:
        if types[i] != _PRONOMINAL:
            return i
    return cluster[0]


def spans_of(clusters: List[List[int]], starts: np.ndarray, ends: np.ndarray) -> List[List[Tuple[int, int]]]:
    """Token spans (start, end exclusive) of each cluster's mentions."""
    return [[(int(starts[i]), int(ends[i])) for i in c] for c in clusters]
