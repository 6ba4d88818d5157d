"""Type stub of the Cython kernel of the pair scorer (see scoring.py). Arrays are
C-contiguous; the kernel reads them through ``const`` memoryviews."""
from typing import Optional

import numpy as np

def vector_build(on: Optional[bool] = None) -> bool:
    """Whether the AVX2 build runs; False switches to the generic build, True back."""
def pair_net(
    a_part: np.ndarray,
    m_part: np.ndarray,
    ante: np.ndarray,
    ana: np.ndarray,
    codes: np.ndarray,
    columns: np.ndarray,
    caps: np.ndarray,
    strides: np.ndarray,
    starts: np.ndarray,
    tables: np.ndarray,
    edges: np.ndarray,
    w2: np.ndarray,
    w2_starts: np.ndarray,
    edges2: np.ndarray,
    b2: np.ndarray,
    w_out: np.ndarray,
    b_out: float,
) -> np.ndarray:
    """a_part, m_part float32 (n, h); ante, ana, edges, w2_starts, edges2 int64;
    codes int16 (n_pairs, 16); columns, caps, strides, starts int32; tables float32
    (rows, h); w2, b2, w_out float32. RETURNS: (n_pairs,) float32 scores."""
def add_rows_product(out: np.ndarray, x: np.ndarray, cols: np.ndarray, Wp: np.ndarray) -> None:
    """out += x[:, cols] @ W (float32; cols int64; Wp = pack_strips(W); out (m, 16 s)),
    summed in the order of cols."""
def pack_strips(W: np.ndarray) -> np.ndarray:
    """W (k, n) as (ceil(n / 16), k, 16) float32 strips, the last zero-padded."""
