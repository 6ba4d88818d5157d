"""One decode (issue 29): training's dev evaluation, the tuner and the component
decode the same inputs the same way, so they give the same clusters."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from conftest import EN_PIPELINE, SAMPLE_CONLL  # noqa: E402
from decode_calls import decode_clusters  # noqa: E402
from neuralcoref.api import add_neuralcoref, load_spacy  # noqa: E402
from neuralcoref.artifacts.tuning import tune_link_offsets, tune_offsets  # noqa: E402
from neuralcoref.core.discourse.decode_signals import link_offsets_of  # noqa: E402
from neuralcoref.core.features.contract import MentionFeatures  # noqa: E402
from neuralcoref.core.decode.decoding import DecodeSettings, DocScores, decode  # noqa: E402
from neuralcoref.corpora.conll import read_conll_path  # noqa: E402
from neuralcoref.corpora.gold import parse_conll_docs  # noqa: E402
from neuralcoref.corpora.mention_eval import evaluate_mentions  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.evaluation import scored_dev  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus  # noqa: E402
from neuralcoref.train.storage import read_corpus  # noqa: E402

#: Short real documents: the sample, and one written to exercise what the old
#: training decode left out (names, binding, quoted speakers, lexicon classes).
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "decode_parity.english.v4_gold_conll"
MODEL = "en_fast"


@pytest.fixture(scope="module")
def nlp():
    pytest.importorskip(EN_PIPELINE)
    return add_neuralcoref(load_spacy(EN_PIPELINE), model=MODEL)


@pytest.fixture(scope="module", params=[SAMPLE_CONLL, FIXTURE], ids=["sample", "fixture"])
def stored(request, nlp, tmp_path_factory):
    """Training's path: featurized (cached) corpus, candidates, runtime scores."""
    path = request.param
    resolver = nlp.get_pipe("neuralcoref").resolver
    corpus = featurize_corpus(path, nlp, resolver.rules, tmp_path_factory.mktemp("cache"), progress=False)
    data = TrainingData(corpus, resolver.vocab, resolver.max_dist, resolver.max_dist_match,
                        max_dist_nominal=resolver.max_dist_nominal)
    f = corpus.features  # the model reads no token vectors (as train.epochs.training_data drops them)
    features = MentionFeatures(np.asarray(f.codes), np.asarray(f.hashes), np.asarray(f.words),
                               np.zeros((len(f), 0), np.float32))
    parts = resolver.scorers.mention_parts(features, resolver.vocab.rows(features.words))
    pair, _ = resolver.scorers.all_pair_scores(parts, data.ptr, data.ante, data.pair_codes, 0)
    return path, data, (parts.single, pair, parts.mention)


def component_clusters(nlp, path):
    docs = parse_conll_docs(nlp, read_conll_path(path), disable=())
    return [[[(m.start, m.end) for m in c.mentions] for c in doc._.coref_clusters] for _, doc in docs]


def test_decode_training_dev_clusters_equal_the_component(nlp, stored):
    path, data, scores = stored
    offsets = nlp.get_pipe("neuralcoref").resolver.link_offsets
    assert offsets  # the shipped model's per-type offsets take part
    training = scored_dev(data, *scores).clusters(offsets)
    expected = component_clusters(nlp, path)
    assert training == expected
    assert sum(len(c) for c in expected) >= 3


def test_decode_fixture_needs_the_inputs_training_used_to_leave_out(nlp, stored):
    # without names, classes, speakers, binding and the rescue (the old training
    # decode) the fixture's clusters differ: the parity above is not trivial
    path, data, scores = stored
    if path != FIXTURE:
        pytest.skip("the sample is too plain to tell the decodes apart")
    dev = scored_dev(data, *scores)
    settings = DecodeSettings(link_offsets=nlp.get_pipe("neuralcoref").resolver.link_offsets)
    full = [decode(d.scores, d.inputs, settings) for d in dev.docs]
    bare = [decode_clusters(d.scores.single, d.scores.pair, d.scores.ptr, d.scores.ante, d.inputs.heads,
                            0.5, d.inputs.agreement, link_offsets_of(d.inputs.types, settings.link_offsets),
                            d.inputs.repeats, span_scores=d.scores.mention) for d in dev.docs]
    assert full != bare


def test_decode_inputs_stored_equal_the_runtime(nlp, stored):
    path, data, _ = stored
    resolver = nlp.get_pipe("neuralcoref").resolver
    for d, (_, doc) in enumerate(parse_conll_docs(nlp, read_conll_path(path))):
        runtime, saved = resolver.featurize_doc(doc).inputs, data.corpus.decode_inputs(d)
        for name in ("heads", "types", "agreement", "repeats", "names", "classes", "persons", "speakers"):
            np.testing.assert_array_equal(getattr(saved, name), getattr(runtime, name), err_msg=name)
        assert saved.binding.pairs() == runtime.binding.pairs()
        np.testing.assert_array_equal(saved.binding.binder, runtime.binding.binder)
        assert saved.binding.fallback == runtime.binding.fallback


def test_decode_tuner_on_stored_features_equals_the_tuner_on_parsed_dev(nlp, stored):
    path, data, scores = stored
    stored_result = tune_offsets(scored_dev(data, *scores), grid=(0.0, -0.5, 0.5), rounds=1, progress=False)
    parsed_result = tune_link_offsets(nlp, path, grid=(0.0, -0.5, 0.5), rounds=1, progress=False)
    assert stored_result.offsets == parsed_result.offsets
    assert stored_result.after.conll_f1 == pytest.approx(parsed_result.after.conll_f1, abs=1e-9)
    assert stored_result.before.conll_f1 == pytest.approx(parsed_result.before.conll_f1, abs=1e-9)


def test_decode_featurize_recall_is_mention_eval(nlp, stored):
    path, data, _ = stored
    rules = nlp.get_pipe("neuralcoref").resolver.rules
    stats = evaluate_mentions(parse_conll_docs(nlp, read_conll_path(path)), rules)
    manifest = data.corpus.manifest
    assert manifest["mention_recall"] == stats.recall > 0
    assert manifest["n_gold"] == stats.n_gold and manifest["n_candidates"] == stats.n_candidates


def test_decode_old_cache_without_inputs_is_a_coded_error(nlp, tmp_path):
    featurize_corpus(SAMPLE_CONLL, nlp, get_rules("en"), tmp_path, progress=False)
    (folder,) = tmp_path.iterdir()
    (folder / "decode_names.npy").unlink()  # as in a folder an older version wrote
    with pytest.raises(NeuralcorefError, match=r"\[E222\].*decode_names\.npy"):
        read_corpus(folder)


def test_decode_scores_of_other_mentions_are_a_coded_error(stored):
    _, data, scores = stored
    inputs = data.corpus.decode_inputs(0)
    n = len(inputs)
    wrong = DocScores(np.zeros(n + 1, np.float32), np.zeros(0, np.float32), np.zeros(n + 2, np.int64),
                      np.zeros(0, np.int32))
    with pytest.raises(NeuralcorefError, match=r"\[E119\]"):
        decode(wrong, inputs, DecodeSettings())
