"""Type stub of the Cython kernel of the pair scorer (see scoring.py). Arrays are
C-contiguous; the kernel reads them through ``const`` memoryviews."""
from typing import Any, Optional, Tuple

import numpy as np

def vector_build(on: Optional[bool] = None) -> bool:
    """Whether the AVX2 build runs; False switches to the generic build, True back."""
class PairNet:
    """A pair net of two hidden layers, bundled once at load: ``PairNet(tables, edges,
    second)`` with tables a ``PairTables``, edges int64 (n_blocks + 1,) and second a
    ``scoring._PairNet`` (w2, starts, edges, b2, w_out, b_out)."""
    b_out: float
    n_blocks: int
    def __init__(self, tables: Any, edges: np.ndarray, second: Any) -> None: ...
def pair_net(
    net: PairNet,
    a_part: np.ndarray,
    m_part: np.ndarray,
    ante: np.ndarray,
    ana: np.ndarray,
    codes: np.ndarray,
    blocks: Tuple[int, int],
    bias: bool,
) -> np.ndarray:
    """a_part, m_part float32 (n, h); ante, ana int64; codes int16 (n_pairs, 16); blocks
    (first, end) of the net's blocks; bias: add the output bias. RETURNS: (n_pairs,)
    float32 scores."""
def add_rows_product(out: np.ndarray, x: np.ndarray, cols: np.ndarray, Wp: np.ndarray) -> None:
    """out += x[:, cols] @ W (float32; cols int64; Wp = pack_strips(W); out (m, 16 s)),
    summed in the order of cols."""
def pack_strips(W: np.ndarray) -> np.ndarray:
    """W (k, n) as (ceil(n / 16), k, 16) float32 strips, the last zero-padded."""
