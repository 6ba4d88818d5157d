"""Type stub of the Cython kernels of mention extraction (see mentions.py)."""
from typing import Any, Optional, Tuple

import numpy as np

def subtree_bounds(heads: np.ndarray) -> Tuple[np.ndarray, np.ndarray]: ...
def token_classes(
    array: np.ndarray,
    head_column: int,
    columns: np.ndarray,
    table_keys: np.ndarray,
    table_masks: np.ndarray,
    bounds: np.ndarray,
) -> Tuple[np.ndarray, np.ndarray]: ...
def extract_candidates(
    tokens: Any, left: np.ndarray, right: np.ndarray
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """tokens: a ``TokenArrays`` (heads int32, tag/pos/dep/word/ent uint32, iob uint64);
    left, right int32 subtree bounds."""
def sort_unique(
    n_tokens: int,
    starts: np.ndarray,
    ends: np.ndarray,
    heads: np.ndarray,
    types: np.ndarray,
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
def label_mask(column: np.ndarray, sorted_ids: np.ndarray) -> np.ndarray: ...
def label_masks(column: np.ndarray, sorted_ids: np.ndarray, bits: np.ndarray, n_sets: int) -> np.ndarray: ...
def small_isin(element: np.ndarray, test: np.ndarray) -> Optional[np.ndarray]: ...
