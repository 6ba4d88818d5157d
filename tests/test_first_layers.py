"""The scorers' first layers by groups (core/first_layers.py) and the few-rows
kernel (_scoring.add_rows_product) against plain products."""
import numpy as np
import pytest

from neuralcoref.core import _scoring
from neuralcoref.core.scoring.first_layers import SMALL_ROWS, FirstLayers, Head

WIDTH, SHARED = 60, slice(20, 36)


def heads(rng):
    """Four heads: two reading the same columns (one group), one reading all of
    them, one none of the shared columns; output widths not multiples of 16."""
    def head(n_out, read):
        W = np.zeros((WIDTH, n_out), np.float32)
        W[read] = rng.standard_normal((len(read), n_out))
        return Head(W, rng.standard_normal(n_out).astype(np.float32))

    some = np.r_[0:10, 22:30, 40:50]
    return [head(24, some), head(7, some), head(33, np.arange(WIDTH)), head(16, np.r_[0:20, 50:60])]


def inputs(rng, n):
    """Mention inputs whose shared columns repeat in runs (a sentence's mentions)."""
    x = rng.standard_normal((n, WIDTH)).astype(np.float32)
    run = np.sort(rng.integers(0, max(1, n // 4), n))
    x[:, SHARED] = rng.standard_normal((max(n // 4, 1), SHARED.stop - SHARED.start))[run]
    return x


@pytest.mark.parametrize("n", [0, 1, 5, SMALL_ROWS, SMALL_ROWS + 1, 200])
def test_first_layers_equal_the_plain_products(n):
    rng = np.random.default_rng(n)
    hs = heads(rng)
    layers = FirstLayers(hs, SHARED)
    assert len(layers.groups) == 3  # the first two heads read the same columns
    x = inputs(rng, n)
    got = layers(x)
    for h, y in zip(hs, got):
        assert y.shape == (n, h.W.shape[1]) and y.dtype == np.float32
        # Other summation orders: equal but for the last bits.
        np.testing.assert_allclose(y, x.astype(np.float64) @ h.W + h.b, rtol=1e-5, atol=1e-5)


def test_first_layers_one_run_and_no_shared_columns():
    rng = np.random.default_rng(3)
    hs = heads(rng)
    x = inputs(rng, 50)
    x[:, SHARED] = x[0, SHARED]  # one sentence: one product of the shared columns
    for shared in (SHARED, slice(0, 0)):
        for h, y in zip(hs, FirstLayers(hs, shared)(x)):
            np.testing.assert_allclose(y, x.astype(np.float64) @ h.W + h.b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m", [1, 2, 5, 6, 7, 13])
def test_first_layers_rows_kernel_adds_in_the_order_of_the_columns(m):
    rng = np.random.default_rng(m)
    cols = np.array([7, 2, 30, 11, 5], dtype=np.int64)
    W = rng.standard_normal((5, 40)).astype(np.float32)
    x = rng.standard_normal((m, 31)).astype(np.float32)
    out = np.ones((m, 48), np.float32)
    _scoring.add_rows_product(out, x, cols, _scoring.pack_strips(W))
    expected = np.ones((m, 40), np.float32)
    for k, c in enumerate(cols):  # the kernel's order, in float32
        expected += x[:, c:c + 1] * W[k]
    assert np.array_equal(out[:, :40], expected)
    assert np.array_equal(out[:, 40:], np.ones((m, 8), np.float32))  # the padding adds zeros


def test_first_layers_rows_kernel_gives_the_same_bits_in_both_builds():
    rng = np.random.default_rng(9)
    W, x = rng.standard_normal((300, 100)).astype(np.float32), rng.standard_normal((9, 400)).astype(np.float32)
    cols, packed = rng.permutation(400)[:300].astype(np.int64), _scoring.pack_strips(W)
    vector = _scoring.vector_build()
    runs = []
    try:
        for build in (vector, False):
            _scoring.vector_build(build)
            out = np.zeros((9, 112), np.float32)
            _scoring.add_rows_product(out, x, cols, packed)
            runs.append(out)
    finally:
        _scoring.vector_build(vector)
    assert np.array_equal(runs[0], runs[1])


def test_first_layers_rows_kernel_refuses_columns_outside_the_inputs():
    out, x = np.zeros((2, 16), np.float32), np.zeros((2, 4), np.float32)
    packed = _scoring.pack_strips(np.zeros((2, 16), np.float32))
    with pytest.raises(ValueError, match="within the columns"):
        _scoring.add_rows_product(out, x, np.array([1, 4], dtype=np.int64), packed)
    with pytest.raises(ValueError, match="must agree"):
        _scoring.add_rows_product(out, x, np.array([1], dtype=np.int64), packed)


def test_first_layers_rows_kernel_reads_read_only_inputs_and_refuses_other_kinds():
    rng = np.random.default_rng(4)
    W, x = rng.standard_normal((5, 16)).astype(np.float32), rng.standard_normal((3, 8)).astype(np.float32)
    cols, packed = np.array([0, 2, 4, 6, 7], dtype=np.int64), _scoring.pack_strips(W)
    expected = np.zeros((3, 16), np.float32)
    _scoring.add_rows_product(expected, x, cols, packed)
    for a in (x, cols, packed):
        a.flags.writeable = False  # the model's arrays may be read-only (memory-mapped)
    out = np.zeros((3, 16), np.float32)
    _scoring.add_rows_product(out, x, cols, packed)
    assert np.array_equal(out, expected)
    with pytest.raises(ValueError, match="out must be writeable"):
        _scoring.add_rows_product(_read_only(np.zeros((3, 16), np.float32)), x, cols, packed)
    with pytest.raises(ValueError, match="x must be a C-contiguous 2-d array of float32"):
        _scoring.add_rows_product(out, x.astype(np.float64), cols, packed)
    with pytest.raises(ValueError, match="cols must be a C-contiguous 1-d array of int64"):
        _scoring.add_rows_product(out, x, cols.astype(np.int32), packed)
    with pytest.raises(ValueError, match="out must be a C-contiguous"):
        _scoring.add_rows_product(np.zeros((3, 32), np.float32)[:, ::2], x, cols, packed)


def _read_only(a):
    a.flags.writeable = False
    return a
