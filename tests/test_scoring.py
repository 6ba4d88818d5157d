"""The numpy scorers: weight shapes from the config, and the factorised, chunked
forward passes against a naive forward."""
from typing import Dict

import numpy as np
import pytest

from neuralcoref.core.features.contract import (C, COUNT_BINS, DEFINITENESS, DEP_CLASSES, ENTITY_CLASSES, GENDER,
                                                MENTION_CODES, MENTION_HASHES, MENTION_LAYOUT, NUMBER, PAIR_CODES,
                                                PAIR_LAYOUT, PERSON, SPAN_VECTORS, WORD_SLOTS, MentionFeatures)
from neuralcoref.core.features.expand import expand_mention_codes, expand_pair_codes
from neuralcoref.core.features.featurize import pair_codes
from neuralcoref.core.features.pairs import anaphor_index, candidate_antecedents
from neuralcoref.core.mentions.mentions import MENTION_TYPES
from neuralcoref.core.scoring import scoring
from neuralcoref.core.scoring.scoring import ScorerConfig, Scorers, weight_shapes

CONFIGS = {
    "vectors-and-embeddings": ScorerConfig(vector_dim=5, vocab_size=9, embedding_dim=3,
                                           single_hidden=[7, 4], pair_hidden=[6, 5, 3]),
    "codes-only": ScorerConfig(vector_dim=0, vocab_size=2, embedding_dim=0,
                               single_hidden=[4], pair_hidden=[3]),
    "no-single-hidden": ScorerConfig(vector_dim=2, vocab_size=4, embedding_dim=2,
                                     single_hidden=[], pair_hidden=[8, 2]),
}


def random_weights(config: ScorerConfig, rng: np.random.Generator) -> Dict[str, np.ndarray]:
    return {name: rng.normal(0, 0.5, shape).astype(np.float32)
            for name, shape in weight_shapes(config).items()}


def random_mentions(config: ScorerConfig, n: int, rng: np.random.Generator) -> MentionFeatures:
    """Mentions with every code within its class range (so one-hot blocks are valid)."""
    codes = np.zeros((n, len(MENTION_CODES)), dtype=np.int32)
    ranges = {"type": len(MENTION_TYPES), "entity": len(ENTITY_CLASSES), "dep": len(DEP_CLASSES),
              "definiteness": len(DEFINITENESS), "number": len(NUMBER), "gender": len(GENDER),
              "person": len(PERSON), "nested": 2, "contains": 2, "reflexive": 2, "expletive": 2,
              "head_count": 20, "string_count": 20, "speaker": 3}
    for name, high in ranges.items():
        codes[:, C[name]] = rng.integers(0, high, n)
    starts = np.sort(rng.integers(0, 4 * n + 1, n))
    codes[:, C["start"]], codes[:, C["end"]] = starts, starts + rng.integers(1, 30, n)
    codes[:, C["length"]] = codes[:, C["end"]] - codes[:, C["start"]]
    codes[:, C["sent"]] = np.sort(rng.integers(0, max(n // 3, 1), n))
    codes[:, C["index"]], codes[:, C["n_mentions"]] = np.arange(n), n
    codes[:, C["n_sents"]] = codes[:, C["sent"]].max(initial=0) + 1
    hashes = rng.choice(np.array([0, 3, 8, 2**63 + 7], np.uint64), (n, len(MENTION_HASHES)))
    words = rng.integers(0, config.vocab_size, (n, len(WORD_SLOTS)))
    vectors = rng.normal(size=(n, len(SPAN_VECTORS) * config.vector_dim)).astype(np.float32)
    return MentionFeatures(codes, hashes, words.astype(np.uint64), vectors)


def naive_mention_inputs(config, weights, feats, word_rows) -> np.ndarray:
    parts = [feats.vectors, expand_mention_codes(feats.codes)]
    if config.embedding_dim:
        parts += [weights["embeddings"][word_rows[:, k]] for k in range(len(WORD_SLOTS))]
    return np.concatenate(parts, axis=1).astype(np.float64)


def naive_mlp(x, layers) -> float:
    for W, b in layers[:-1]:
        x = np.maximum(W @ x + b, 0)
    W, b = layers[-1]
    return float((W @ x + b)[0])


def naive_single(config, weights, x) -> np.ndarray:
    layers = [(weights[f"single.{i}.W"], weights[f"single.{i}.b"]) for i in range(len(config.single_hidden))]
    layers.append((weights["single.out.W"], weights["single.out.b"]))
    return np.array([naive_mlp(row, layers) for row in x])


def naive_pairs(config, weights, x, ante, ana, pair_feats) -> np.ndarray:
    """Each pair through the unfactorised first layer: W_first @ [x_ante; x_ana; pair] + b."""
    W_first = np.concatenate([weights["pair.0.W_ante"], weights["pair.0.W_ana"],
                              weights["pair.0.W_pair"]], axis=1)
    layers = [(W_first, weights["pair.0.b"])]
    layers += [(weights[f"pair.{i}.W"], weights[f"pair.{i}.b"]) for i in range(1, len(config.pair_hidden))]
    layers.append((weights["pair.out.W"], weights["pair.out.b"]))
    return np.array([naive_mlp(np.concatenate([x[a], x[m], p]), layers)
                     for a, m, p in zip(ante, ana, pair_feats)])


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_scoring_weight_shapes_follow_the_config(config):
    shapes = weight_shapes(config)
    d_m = config.mention_width
    assert d_m == (len(SPAN_VECTORS) * config.vector_dim + MENTION_LAYOUT.width
                   + len(WORD_SLOTS) * config.embedding_dim)
    assert config.pair_width == PAIR_LAYOUT.width
    assert ("embeddings" in shapes) == bool(config.embedding_dim)
    if config.embedding_dim:
        assert shapes["embeddings"] == (config.vocab_size, config.embedding_dim)
    # single: a chain from d_m to 1
    n_in = d_m
    for i, n_out in enumerate(config.single_hidden):
        assert shapes[f"single.{i}.W"] == (n_out, n_in) and shapes[f"single.{i}.b"] == (n_out,)
        n_in = n_out
    assert shapes["single.out.W"] == (1, n_in) and shapes["single.out.b"] == (1,)
    # pair: the first layer split in three, then a chain to 1
    first = config.pair_hidden[0]
    assert shapes["pair.0.W_ante"] == shapes["pair.0.W_ana"] == (first, d_m)
    assert shapes["pair.0.W_pair"] == (first, PAIR_LAYOUT.width) and shapes["pair.0.b"] == (first,)
    n_in = first
    for i, n_out in enumerate(config.pair_hidden[1:], start=1):
        assert shapes[f"pair.{i}.W"] == (n_out, n_in)
        n_in = n_out
    assert shapes["pair.out.W"] == (1, n_in)
    expected_names = 2 * len(config.single_hidden) + 2 + 4 + 2 * (len(config.pair_hidden) - 1) + 2
    assert len(shapes) == expected_names + bool(config.embedding_dim)


def test_scoring_pair_scorer_needs_a_hidden_layer():
    with pytest.raises(ValueError, match="at least one hidden layer"):
        weight_shapes(ScorerConfig(pair_hidden=[]))


def test_scoring_config_round_trip():
    config = CONFIGS["vectors-and-embeddings"]
    assert ScorerConfig.from_dict(config.to_dict()) == config
    assert ScorerConfig.from_dict({**config.to_dict(), "unknown": 1}) == config
    assert ScorerConfig.from_dict({}) == ScorerConfig()


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
@pytest.mark.parametrize("chunks", [(scoring.MENTION_CHUNK, scoring.PAIR_CHUNK), (4, 7), (1, 1)],
                         ids=["one-chunk", "small-chunks", "chunks-of-one"])
def test_scoring_factorised_pairs_equal_naive_forward(monkeypatch, config, chunks):
    monkeypatch.setattr(scoring, "MENTION_CHUNK", chunks[0])
    monkeypatch.setattr(scoring, "PAIR_CHUNK", chunks[1])
    rng = np.random.default_rng(len(config.pair_hidden))
    weights = random_weights(config, rng)
    scorers = Scorers(config, weights)
    feats = random_mentions(config, 23, rng)
    word_rows = feats.words.astype(np.int64)
    ptr, ante = candidate_antecedents(feats, 6, 20)
    ana = anaphor_index(ptr)
    codes = pair_codes(feats, ptr, ante)

    parts = scorers.mention_parts(feats, word_rows)
    single = parts.single
    pair = scorers.pair_scores(parts, ante, ana, codes)
    assert single.dtype == pair.dtype == np.float32
    assert single.shape == (23,) and pair.shape == (len(ante),)

    x = naive_mention_inputs(config, weights, feats, word_rows)
    np.testing.assert_allclose(single, naive_single(config, weights, x), rtol=1e-4, atol=1e-4)
    expected = naive_pairs(config, weights, x, ante, ana, expand_pair_codes(codes))
    np.testing.assert_allclose(pair, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [4, scoring.SMALL_INPUTS + 37], ids=["concatenated", "in-place"])
def test_scoring_mention_inputs_layout(n):
    config = CONFIGS["vectors-and-embeddings"]
    rng = np.random.default_rng(1)
    weights = random_weights(config, rng)
    feats = random_mentions(config, n, rng)
    word_rows = feats.words.astype(np.int64)
    x = Scorers(config, weights).mention_inputs(feats, word_rows)
    assert x.shape == (n, config.mention_width) and x.dtype == np.float32
    n_vec = len(SPAN_VECTORS) * config.vector_dim
    assert np.array_equal(x[:, :n_vec], feats.vectors)
    assert np.array_equal(x[:, n_vec:n_vec + MENTION_LAYOUT.width], expand_mention_codes(feats.codes))
    emb = x[:, n_vec + MENTION_LAYOUT.width:].reshape(n, len(WORD_SLOTS), config.embedding_dim)
    assert np.array_equal(emb, weights["embeddings"][word_rows])


def test_scoring_mention_parts_hold_one_chunk_of_inputs_at_a_time(monkeypatch):
    """A long Doc's peak memory: beyond the parts it returns, mention_parts holds
    one chunk's inputs and their first-layer outputs, not the last chunk's too."""
    import tracemalloc

    config = ScorerConfig(vector_dim=16, vocab_size=50, embedding_dim=16, single_hidden=[32, 8],
                          pair_hidden=[32, 8])
    rng = np.random.default_rng(0)
    scorers = Scorers(config, random_weights(config, rng))
    feats = random_mentions(config, 2048, rng)
    monkeypatch.setattr(scoring, "MENTION_CHUNK", 512)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        parts = scorers.mention_parts(feats, feats.words.astype(np.int64))
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    chunk_inputs = 512 * config.mention_width * 4
    # One chunk: its inputs, the first layers' copy of the columns they read, and
    # their outputs (2.4 chunks of inputs here); two chunks at once were 3.0.
    assert (peak - kept) / chunk_inputs < 2.7
    assert parts.ante.shape == (2048, 32)


def test_scoring_no_mentions_no_pairs():
    config = CONFIGS["codes-only"]
    rng = np.random.default_rng(2)
    scorers = Scorers(config, random_weights(config, rng))
    feats = random_mentions(config, 0, rng)
    parts = scorers.mention_parts(feats, np.zeros((0, len(WORD_SLOTS)), np.int64))
    single = parts.single
    assert single.shape == (0,) and parts.ante.shape == parts.ana.shape == (0, config.pair_hidden[0])
    empty = np.zeros(0, np.int64)
    pair = scorers.pair_scores(parts, empty, empty, np.zeros((0, len(PAIR_CODES)), np.int16))
    assert pair.shape == (0,) and pair.dtype == np.float32


def test_scoring_weights_are_float32_and_not_shared():
    config = CONFIGS["codes-only"]
    weights = {k: v.astype(np.float64) for k, v in random_weights(config, np.random.default_rng(3)).items()}
    scorers = Scorers(config, weights)
    assert all(w.dtype == np.float32 for w in scorers.w.values())
    weights["single.0.b"][:] = 100.0  # the caller's arrays are copies, not views
    assert not np.any(scorers.w["single.0.b"] == 100.0)


#: Pair nets of two hidden layers (the fused kernel's) with widths that are and
#: are not multiples of the kernel's vector widths, merged or not into blocks.
KERNEL_CONFIGS = {
    "one-block": ScorerConfig(vector_dim=4, vocab_size=9, embedding_dim=3, single_hidden=[5],
                              pair_hidden=[13, 70]),
    "four-blocks": ScorerConfig(vector_dim=4, vocab_size=9, embedding_dim=4, single_hidden=[8, 4],
                                pair_hidden=[44, 148], single_blocks=[[2, 2, 2, 2], [1, 1, 1, 1]],
                                pair_blocks=[[8, 16, 4, 16], [64, 8, 3, 73]]),
}


def block_diagonal(weights: Dict[str, np.ndarray], name: str, rows: list, cols: list) -> None:
    """Zero the weights of ``name`` (shaped (out, in)) outside its diagonal blocks."""
    mask = np.zeros(weights[name].shape, dtype=bool)
    for r0, r1, c0, c1 in zip(np.cumsum([0] + rows), np.cumsum(rows), np.cumsum([0] + cols), np.cumsum(cols)):
        mask[r0:r1, c0:c1] = True
    weights[name] = np.where(mask, weights[name], 0).astype(np.float32)


def kernel_case(name: str, seed: int = 0):
    config = KERNEL_CONFIGS[name]
    rng = np.random.default_rng(seed)
    weights = random_weights(config, rng)
    if config.pair_blocks:
        block_diagonal(weights, "single.1.W", config.single_blocks[1], config.single_blocks[0])
        block_diagonal(weights, "pair.1.W", config.pair_blocks[1], config.pair_blocks[0])
    scorers = Scorers(config, weights)
    feats = random_mentions(config, 40, rng)
    ptr, ante = candidate_antecedents(feats, 12, 40)
    parts = scorers.mention_parts(feats, feats.words.astype(np.int64))
    return scorers, parts, ante.astype(np.int64), anaphor_index(ptr).astype(np.int64), pair_codes(feats, ptr, ante)


@pytest.mark.parametrize("name", KERNEL_CONFIGS)
def test_scoring_pair_kernel_equals_the_layered_forward(name):
    scorers, parts, ante, ana, codes = kernel_case(name)
    assert scorers._pair_net is not None and len(ante) > 100
    k = scorers.n_members
    for first, end, bias in [(0, k, True), (0, 1, False), (1, k, True), (k - 1, k, False)]:
        if first >= end:
            continue
        fused = scorers._pair_net_scores(parts, ante, ana, codes, first, end, bias)
        layered = scorers._layered_pair_scores(parts, ante, ana, codes, first, end, bias)
        assert fused.dtype == np.float32 and fused.shape == (len(ante),)
        # Another summation order: equal but for the last bits.
        np.testing.assert_allclose(fused, layered, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", KERNEL_CONFIGS)
def test_scoring_pair_kernel_gives_the_same_bits_in_both_builds(name):
    from neuralcoref.core import _scoring

    scorers, parts, ante, ana, codes = kernel_case(name, seed=1)
    vector = _scoring.vector_build()
    try:
        fast = scorers.pair_scores(parts, ante, ana, codes)
        assert _scoring.vector_build(False) is False
        generic = scorers.pair_scores(parts, ante, ana, codes)
    finally:
        _scoring.vector_build(vector)
    assert np.array_equal(fast, generic)


def test_scoring_pair_net_bundle_pickles_and_keeps_the_bits():
    import pickle

    from neuralcoref.core import _scoring

    scorers, parts, ante, ana, codes = kernel_case("four-blocks")
    net = scorers._pair_net
    assert isinstance(net, _scoring.PairNet) and net.n_blocks == 4
    copy = pickle.loads(pickle.dumps(net))
    args = (np.ascontiguousarray(parts.ante), np.ascontiguousarray(parts.ana), ante, ana, codes)
    for blocks, bias in [((0, 4), True), ((1, 3), False)]:
        assert np.array_equal(_scoring.pair_net(net, *args, blocks, bias), _scoring.pair_net(copy, *args, blocks, bias))
    with pytest.raises(ValueError, match="run of the net's blocks"):
        _scoring.pair_net(net, *args, (2, 5), True)


def test_scoring_pair_net_bundle_checks_the_weights_once_at_load():
    from neuralcoref.core import _scoring

    scorers = kernel_case("one-block")[0]
    second = scoring._pair_net_weights(scorers._pair)
    _scoring.PairNet(scorers._tables, scorers._pair.edges, second)
    with pytest.raises(ValueError, match="second-layer blocks"):
        _scoring.PairNet(scorers._tables, scorers._pair.edges, second._replace(w2=second.w2[:-1]))
    with pytest.raises(ValueError, match="block edges"):
        _scoring.PairNet(scorers._tables, scorers._pair.edges + 1, second)


def test_scoring_pair_kernel_refuses_pairs_outside_the_parts():
    scorers, parts, ante, ana, codes = kernel_case("one-block")
    ante[3] = len(parts.single)
    with pytest.raises(ValueError, match="within the parts"):
        scorers.pair_scores(parts, ante, ana, codes)
