"""The exported numpy runtime scores exactly what the PyTorch scorers score."""
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from runtime_scores import runtime_scores  # noqa: E402
from neuralcoref.artifacts.model_dir import load_model, save_model  # noqa: E402
from neuralcoref.core.features.contract import MentionFeatures  # noqa: E402
from neuralcoref.core.scoring.embeddings import build_vocab  # noqa: E402
from neuralcoref.core.scoring.model import ModelConfig
from neuralcoref.core.scoring.scoring import ScorerConfig, weight_shapes  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.evaluation import option_scores, to_tensors  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "conll_data" / "sample.english.v4_gold_conll"


@pytest.fixture(scope="module")
def data(nlp_en, tmp_path_factory):
    corpus = featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path_factory.mktemp("c"),
                              progress=False)
    vocab = build_vocab(corpus.word_counts, min_count=1)
    return TrainingData(corpus, vocab, max_dist=50, max_dist_match=500), vocab


def test_torch_parameters_are_the_runtime_weights(data):
    _, vocab = data
    config = ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=8,
                          single_hidden=[32, 16], pair_hidden=[24, 12, 6])
    weights = CorefScorers(config).export_weights()
    assert {k: v.shape for k, v in weights.items()} == weight_shapes(config)
    assert all(v.dtype == np.float32 for v in weights.values())


@pytest.mark.parametrize("single_hidden,pair_hidden,embedding_dim,rank,mention_hidden,types",
                         [([32], [16], 8, 0, None, None), ([32, 16], [24, 12, 6], 0, 0, None, None),
                          ([32], [16], 8, 4, None, None), ([32], [16], 8, 0, [8], None),
                          ([32], [16], 8, 0, None, (12, None)), ([32], [16], 8, 4, None, (12, [10]))],
                         ids=["small", "deep-no-emb", "similarity", "mention-scorer", "type-head-linear",
                              "type-head-hidden-and-similarity"])
def test_runtime_scores_equal_torch_scores(data, tmp_path, single_hidden, pair_hidden, embedding_dim,
                                           rank, mention_hidden, types):
    data, vocab = data
    torch.manual_seed(1)
    config = ScorerConfig(vector_dim=96, vocab_size=len(vocab) if embedding_dim else 2,
                          embedding_dim=embedding_dim, single_hidden=single_hidden,
                          pair_hidden=pair_hidden, similarity_rank=rank,
                          mention_hidden=mention_hidden, type_classes=types[0] if types else 0,
                          type_hidden=types[1] if types else None)
    model = CorefScorers(config, dropout=0.5).eval()
    with torch.no_grad():
        for name, param in model.params.items():
            if name.startswith("pair__sim"):
                param.normal_(0, 0.05)  # make the similarity term matter
            elif name in ("types__pair", "types__single"):
                param.normal_(0, 0.5)  # and the type terms (they start at 0)
    words = vocab.words if embedding_dim else []
    path = save_model(tmp_path / "m", ModelConfig(lang="en", scorer=config), model.export_weights(), words)
    runtime = load_model(path)

    anaphors = np.arange(len(data))
    batch = data.batch(anaphors)
    with torch.no_grad():
        expected = option_scores(model, to_tensors(batch, torch.device("cpu"))).numpy()

    features = data.corpus.features
    all_features = MentionFeatures(*(np.asarray(getattr(features, f))
                                     for f in ("codes", "hashes", "words", "vectors")))
    parts = runtime.scorers.mention_parts(all_features, runtime.vocab.rows(all_features.words))
    single = parts.single
    ana = np.repeat(np.arange(len(data)), data.n_candidates)
    pair = runtime.scorers.pair_scores(parts, data.ante, ana, data.pair_codes)
    np.testing.assert_allclose(single, expected[:, 0], atol=1e-5)
    rows, cols = np.nonzero(batch.mask)
    np.testing.assert_allclose(pair[data.ptr[anaphors][rows] + cols], expected[rows, cols + 1], atol=1e-5)


def test_runtime_refined_scores_equal_torch_scores(data, tmp_path):
    """The entity-level second pass gives the same scores in both implementations."""
    from neuralcoref.train.evaluation import predict_scores

    data, vocab = data
    torch.manual_seed(2)
    config = ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=8,
                          single_hidden=[32], pair_hidden=[16, 8], refine=True)
    model = CorefScorers(config).eval()
    single_t, pair_t, mention_t = predict_scores(model, data, torch.device("cpu"), pair_budget=10_000)
    path = save_model(tmp_path / "m", ModelConfig(lang="en", scorer=config), model.export_weights(),
                      vocab.words)
    runtime = load_model(path)
    parts, pair, _, plain = runtime_scores(runtime, data)
    np.testing.assert_allclose(parts.single, single_t, atol=1e-5)
    np.testing.assert_allclose(parts.mention, mention_t, atol=1e-5)
    np.testing.assert_allclose(pair, pair_t, atol=1e-4)
    assert not np.allclose(pair, plain, atol=1e-3)  # the second pass changes the scores
