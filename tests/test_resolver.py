"""The resolver: a batch scored in shared matrix products equals one Doc at a time."""
import numpy as np
import pytest

from handmade import write_handmade_model
from neuralcoref.artifacts.model_dir import load_model
from neuralcoref.core.features.pairs import anaphor_index
from neuralcoref.core.resolver import Resolver
from neuralcoref.lang.en import RULES

TEXTS = ["Anna said she likes Paris.", "", "The company said its profits rose. The company is happy.",
         "Hello", "My sister has a dog. She loves him. I think my sister likes it."]


@pytest.fixture(scope="module")
def parsed(nlp_en):
    return list(nlp_en.pipe(TEXTS))


@pytest.fixture(scope="module")
def vector_resolver(handmade_vector_model):
    return Resolver(load_model(handmade_vector_model), RULES)


def test_resolver_batch_equals_one_by_one(vector_resolver, parsed):
    batch = vector_resolver.predict(parsed, store_scores=True)
    for doc, got in zip(parsed, batch):
        alone = vector_resolver.predict([doc], store_scores=True)[0]
        assert got.clusters == alone.clusters and got.mains == alone.mains
        np.testing.assert_allclose(got.single, alone.single, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got.pair, alone.pair, rtol=1e-5, atol=1e-6)


def test_resolver_results(vector_resolver, parsed):
    result = vector_resolver.predict([parsed[0]], store_scores=True)[0]
    doc = parsed[0]
    assert [[doc[s:e].text for s, e in c] for c in result.cluster_spans()] == [["Anna", "she"]]
    n = len(result.mentions)
    assert result.single.shape == (n,) and result.single.dtype == np.float32
    assert result.pair.shape == result.ante.shape == (result.ptr[-1],)
    assert np.all(result.ante < anaphor_index(result.ptr))  # antecedents come first
    assert result.mains == [result.clusters[0][0]]


def test_resolver_without_scores(vector_resolver, parsed):
    result = vector_resolver.predict([parsed[2]])[0]
    assert result.single is None and result.pair is None and result.clusters


def test_resolver_no_docs_and_no_mentions(vector_resolver, parsed):
    assert vector_resolver.predict([]) == []
    results = vector_resolver.predict([parsed[1], parsed[3]])
    assert [r.clusters for r in results] == [[], []]


def test_resolver_blacklist(handmade_model, parsed):
    model = load_model(handmade_model)
    doc = parsed[4]
    plain = Resolver(model, RULES).predict([doc])[0]
    assert any(doc[s:e].text == "my" for c in plain.cluster_spans() for s, e in c)
    blacklisted = Resolver(model, RULES, blacklist=["My", "i"]).predict([doc])[0]
    texts = [doc[s:e].text.lower() for s, e in blacklisted.mentions.spans()]
    assert "my" not in texts and "i" not in texts and "my sister" in texts


def test_resolver_conv_dict_adds_embedding_rows(tmp_path, parsed):
    model = load_model(write_handmade_model(tmp_path / "m", vector_dim=96))
    resolver = Resolver(model, RULES, conv_dict={"Anna": ["the", "dog"], "Zed": ["unknown"]})
    table = resolver.scorers.w["embeddings"]
    assert table.shape[0] == model.scorers.w["embeddings"].shape[0] + 1 == len(resolver.vocab)
    np.testing.assert_allclose(table[-1], model.scorers.w["embeddings"][[2, 3]].mean(axis=0))
    assert resolver.scorers.config.vocab_size == table.shape[0]
    assert model.scorers.w["embeddings"].shape[0] == 4  # the loaded model is unchanged
    assert resolver.predict([parsed[0]])[0].clusters


def test_resolver_rules_default_to_the_model_language(handmade_model):
    assert Resolver(load_model(handmade_model)).rules == RULES


def test_resolver_batch_with_a_doc_without_mentions_or_vectors(vector_resolver, parsed, make_doc):
    # no mentions, hence no need for doc.tensor, in the same batch as Docs with vectors
    bare = make_doc([("Hello", 0, "ROOT", "INTJ"), ("!", 0, "punct", "PUNCT")])
    results = vector_resolver.predict([bare, parsed[0]])
    assert results[0].clusters == [] and len(results[1].clusters) == 1


def test_resolver_keep_candidates_splits_kept_pairs_per_doc():
    # Pruned candidates (kept positions over the batch's pairs laid end to end)
    # go back to their Docs with each anaphor's CSR bounds recounted.
    from neuralcoref.core.resolver import _Featurized, _keep_candidates

    rng = np.random.default_rng(5)
    for _ in range(100):
        items = []
        for _ in range(int(rng.integers(1, 5))):
            ptr = np.concatenate([[0], np.cumsum(rng.integers(0, 5, int(rng.integers(0, 8))))]).astype(np.int64)
            n_pairs = int(ptr[-1])
            items.append(_Featurized(None, None, ptr, rng.integers(0, 9, n_pairs).astype(np.int32),
                                     rng.integers(0, 9, (n_pairs, 3)).astype(np.int16), None))
        offsets = np.cumsum([0] + [len(it.ante) for it in items])
        kept = np.flatnonzero(rng.random(offsets[-1]) < 0.5).astype(np.int64)
        for it, got, lo, hi in zip(items, _keep_candidates(items, kept), offsets[:-1], offsets[1:]):
            local = kept[(kept >= lo) & (kept < hi)] - lo
            counts = np.bincount(anaphor_index(it.ptr)[local], minlength=len(it.ptr) - 1)
            assert got.ptr.dtype == it.ptr.dtype
            assert got.ptr.tolist() == [0] + np.cumsum(counts).tolist()
            assert np.array_equal(got.ante, it.ante[local]) and np.array_equal(got.codes, it.codes[local])
