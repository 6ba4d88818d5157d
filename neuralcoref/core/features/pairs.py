"""Candidate antecedents of each mention, in compressed-row (CSR) form.

Mention m's candidates are the previous ``max_dist`` mentions (``max_dist_nominal``
when m is not a pronoun: names and nominals rarely corefer far back unless their
head words match) and, further back up to ``max_dist_match`` mentions, the
non-pronominal ones sharing m's head word.
The cost is linear in the number of mentions, which bounds memory on long
documents.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Tuple

import numpy as np

from .. import _features
from .contract import MentionFeatures

DEFAULT_MAX_DIST = 50
DEFAULT_MAX_DIST_MATCH = 500


def nominal_window(max_dist: int, max_dist_nominal: Optional[int]) -> int:
    """The window of non-pronominal anaphors: ``max_dist_nominal``, or ``max_dist``
    when it is None (the one place an unset value is resolved)."""
    return max_dist if max_dist_nominal is None else max_dist_nominal


def candidate_window(recorded: Mapping[str, Any], max_dist: Optional[int] = None,
                     max_dist_match: Optional[int] = None,
                     max_dist_nominal: Optional[int] = None) -> Tuple[int, int, int]:
    """The candidate window to run a model with: each setting given here, else the
    one the model records (its config's ``defaults``), else this module's default.

    RETURNS (Tuple[int, int, int]): max_dist, max_dist_match, max_dist_nominal.
    """
    dist = max_dist if max_dist is not None else recorded.get("max_dist", DEFAULT_MAX_DIST)
    match = (max_dist_match if max_dist_match is not None
             else recorded.get("max_dist_match", DEFAULT_MAX_DIST_MATCH))
    nominal = max_dist_nominal if max_dist_nominal is not None else recorded.get("max_dist_nominal")
    return dist, match, nominal_window(dist, nominal)


def candidate_antecedents(
    features: MentionFeatures,
    max_dist: int = DEFAULT_MAX_DIST,
    max_dist_match: int = DEFAULT_MAX_DIST_MATCH,
    max_dist_nominal: Optional[int] = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """Candidate antecedents of every mention of one document.

    features (MentionFeatures): the document's mentions, in document order.
    max_dist (int): how many preceding mentions are candidates of a pronoun.
    max_dist_match (int): how far back head-matching mentions are candidates.
    max_dist_nominal (int | None): how many preceding mentions are candidates of
        any other mention; None: ``max_dist``.
    RETURNS (Tuple[ndarray, ndarray]): ``ptr`` (n + 1,) int64 and ``ante``
        (n_pairs,) int32; mention m's candidates are ``ante[ptr[m]:ptr[m + 1]]``,
        nearest first.
    """
    nominal = nominal_window(max_dist, max_dist_nominal)
    if max_dist < 0 or max_dist_match < 0 or nominal < 0:
        raise ValueError("max_dist, max_dist_match and max_dist_nominal must be >= 0")
    return _features.candidate_antecedents(
        np.ascontiguousarray(features.is_pronoun), features.head_hash,
        int(max_dist), int(max(max_dist_match, max_dist, nominal)), int(nominal),
    )


def anaphor_index(ptr: np.ndarray) -> np.ndarray:
    """The anaphor of each pair. RETURNS (n_pairs,) int32."""
    return np.repeat(np.arange(len(ptr) - 1, dtype=np.int32), np.diff(ptr))


def check_top_antecedents(value: Any) -> int:
    """``value`` as a ``top_antecedents`` setting (an integer >= 0; 0 keeps every
    candidate); raises ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"top_antecedents must be an integer >= 0, not {value!r}")
    return int(value)


def top_candidates(scores: np.ndarray, ptr: np.ndarray, k: int) -> np.ndarray:
    """Positions of each anaphor's ``k`` best-scoring candidates (the earlier of
    equal scores), in increasing order: the coarse-to-fine pruning of
    :meth:`~neuralcoref.core.scoring.scoring.Scorers.all_pair_scores`.

    scores (float32 (n_pairs,)): candidate scores; ptr (int64 (n + 1,)): CSR offsets.
    k (int): candidates kept per anaphor, >= 1.
    RETURNS (ndarray): (n_kept,) int64.
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    return _features.top_candidates(np.ascontiguousarray(scores, dtype=np.float32),
                                    np.ascontiguousarray(ptr, dtype=np.int64), int(k))
