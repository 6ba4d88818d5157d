"""Type stub of the Cython kernels of features, pairs, scoring and decoding
(see featurize.py, expand.py, pairs.py, scoring.py, clustering.py). Arrays are
C-contiguous; the kernels read them through ``const`` memoryviews, so read-only
(memory-mapped) arrays work. Dtypes and shapes are given per argument."""
from typing import Any, Tuple

import numpy as np

def bin_values(values: np.ndarray, lower_bounds: np.ndarray) -> np.ndarray:
    """values, lower_bounds: int64. RETURNS: (n,) int8 bin indices."""
def hash_spans(words: np.ndarray, keep: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """words uint64 (n_tokens,), keep uint8 (n_tokens,), starts/ends int32 (n_spans,).
    RETURNS: (n_spans,) uint64."""
def candidate_antecedents(
    is_pronoun: np.ndarray,
    head_hash: np.ndarray,
    max_dist: int,
    max_dist_match: int,
    max_dist_nominal: int,
) -> Tuple[np.ndarray, np.ndarray]:
    """is_pronoun int8 (n,), head_hash uint64 (n,). RETURNS: ptr (n + 1,) int64, ante int32."""
def pair_codes(
    codes: np.ndarray,
    hashes: np.ndarray,
    ptr: np.ndarray,
    ante: np.ndarray,
    code_cols: np.ndarray,
    hash_cols: np.ndarray,
    n_types: int,
) -> np.ndarray:
    """codes int32 (n, k), hashes uint64 (n, h), ptr int64, ante int32, code_cols and
    hash_cols int32. RETURNS: (n_pairs, 16) int16."""
def pair_first_layer(
    a_part: np.ndarray,
    m_part: np.ndarray,
    ante: np.ndarray,
    ana: np.ndarray,
    codes: np.ndarray,
    pair_tables: Any,
    edges: np.ndarray,
) -> np.ndarray:
    """a_part, m_part float32 (n, h); ante, ana, edges int64; codes int16 (n_pairs, 16);
    pair_tables a ``PairTables`` (columns, caps, strides, starts int32; tables float32 (rows, h)).
    RETURNS: (n_pairs * (edges[-1] - edges[0]),) float32."""
def top_candidates(scores: np.ndarray, ptr: np.ndarray, k: int) -> np.ndarray:
    """scores float32 (n_pairs,), ptr int64 (n + 1,). RETURNS: int64 kept positions."""
def consistent_antecedents(
    scores: Any,
    offset: float,
    gender: np.ndarray,
    number: np.ndarray,
    names: np.ndarray,
    binding: Any,
) -> np.ndarray:
    """scores a ``DocScores`` (single float32 (n,), pair float32 (n_pairs,), ptr int64, ante
    int32); gender and number uint32 (n,), names uint64 (n,); binding a ``Binding``
    (forbid_ptr int64, forbid and binder int32, fallback). RETURNS: (n,) int32 antecedent
    index or -1."""
def one_hot_codes(
    codes: np.ndarray,
    columns: np.ndarray,
    offsets: np.ndarray,
    bound_ptr: np.ndarray,
    bounds: np.ndarray,
    out: np.ndarray,
) -> None: ...
def word_slots(
    lower: np.ndarray,
    token_heads: np.ndarray,
    sent_ids: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    heads: np.ndarray,
) -> np.ndarray: ...
def span_vectors(
    tensor: np.ndarray,
    sent_bounds: np.ndarray,
    sent_ids: np.ndarray,
    mentions: Tuple[np.ndarray, np.ndarray, np.ndarray],
    windows: Tuple[np.ndarray, np.ndarray],
    document_prior: Tuple[np.ndarray, float],
    context: int,
) -> np.ndarray:
    """mentions (starts, ends, heads) int32; windows (doc_lo, doc_hi) int64, empty for the
    whole Doc; document_prior (mean float64 (dim,), weight), an empty mean for none."""
def value_counts(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]: ...
def nesting(starts: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray]: ...
