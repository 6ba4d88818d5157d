"""The mention-type head: typed mentions read and aligned, its loss trains it, the fold
run with it (tiny data, one epoch)."""
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from conftest import EN_PIPELINE, SAMPLE_CONLL  # noqa: E402
from neuralcoref.core.features.contract import C  # noqa: E402
from neuralcoref.core.scoring.embeddings import build_vocab  # noqa: E402
from neuralcoref.core.scoring.scoring import ScorerConfig  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import TrainConfig  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.evaluation import batch_outputs, to_tensors  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus  # noqa: E402
from neuralcoref.train.folds import SCORED_FILE, run_folds  # noqa: E402
from neuralcoref.train.model import CorefScorers  # noqa: E402
from neuralcoref.train.types import (attach_types, read_typed_mentions, type_head, type_labels,  # noqa: E402
                                     type_loss)

#: Typed mentions of the sample's first document (sentence, start, end inclusive, type):
#: "Maria Lopez", "a bakery in the old station", "Her brother Tom", "her".
SAMPLE_TYPES = [(0, 0, 1, "person"), (0, 3, 8, "place"), (1, 0, 2, "person"), (1, 4, 4, "person")]
NAMES = ["person", "place"]


def write_types(path: Path, rows) -> Path:
    lines = ["doc_id\tsentence\tstart\tend\tcluster\tentity_type"]
    lines += [f"sample_bakery\t{s}\t{a}\t{b}\t1\t{kind}" for s, a, b, kind in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def test_types_typed_mentions_become_document_spans(tmp_path):
    typed = read_typed_mentions(SAMPLE_CONLL, write_types(tmp_path / "t.tsv", SAMPLE_TYPES))
    # The second sentence starts after the first one's 10 tokens; ends become exclusive.
    assert typed["sample_bakery"] == {(0, 2): "person", (3, 9): "place", (10, 13): "person", (14, 15): "person"}
    with pytest.raises(NeuralcorefError, match=r"\[E240\].*line 2"):
        read_typed_mentions(SAMPLE_CONLL, write_types(tmp_path / "bad.tsv", [(99, 0, 0, "person")]))


@pytest.fixture(scope="module")
def sample(nlp_en, tmp_path_factory):
    corpus = featurize_corpus(SAMPLE_CONLL, nlp_en, get_rules("en"), tmp_path_factory.mktemp("c"), progress=False)
    vocab = build_vocab(corpus.word_counts, min_count=1)
    return TrainingData(corpus, vocab, max_dist=50, max_dist_match=500), vocab


def test_types_label_candidates_by_exact_span_and_leave_untyped_documents_out(sample, tmp_path):
    data, _ = sample
    typed = read_typed_mentions(SAMPLE_CONLL, write_types(tmp_path / "t.tsv", SAMPLE_TYPES))
    labels = type_labels(data.corpus, typed, NAMES)
    codes = np.asarray(data.corpus.features.codes)
    first = data.corpus.doc_slice(0)
    spans = {(int(s), int(e)): int(k) for s, e, k in zip(codes[first, C["start"]], codes[first, C["end"]],
                                                         labels[first])}
    assert spans[(0, 2)] == 0 and spans[(10, 13)] == 0 and spans[(14, 15)] == 0  # person
    assert set(spans.values()) <= {0, 1, 2}
    assert 2 in spans.values()  # candidates that are no typed mention: "not a mention"
    assert (labels[first.stop:] == -1).all()  # the other documents are not typed


def test_types_head_learns_the_typed_classes(sample, tmp_path):
    data, vocab = sample
    cfg = TrainConfig(type_names=NAMES, type_hidden=[8],
                      type_data=[[str(SAMPLE_CONLL), str(write_types(tmp_path / "t.tsv", SAMPLE_TYPES))]])
    attach_types(cfg, [data])
    torch.manual_seed(0)
    model = CorefScorers(ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=8, single_hidden=[16],
                                      pair_hidden=[16], **type_head(cfg)))
    assert model.config.type_classes == 3
    t = to_tensors(data.batch(np.arange(len(data))), torch.device("cpu"))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for _ in range(30):
        loss = type_loss(batch_outputs(model, t, with_types=True).types, t["type_gold"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    typed = t["type_gold"] >= 0
    predicted = model.type_logits(model.mention_inputs(t["vectors"], t["mention_feats"], t["word_rows"])).argmax(1)
    assert (predicted[typed] == t["type_gold"][typed]).float().mean() > 0.9


def test_types_logits_come_with_the_scores_of_the_same_pass(sample):
    data, vocab = sample
    torch.manual_seed(0)
    model = CorefScorers(ScorerConfig(vector_dim=96, vocab_size=len(vocab), embedding_dim=8, single_hidden=[16],
                                      pair_hidden=[16], type_classes=3, type_hidden=[8])).eval()
    t = to_tensors(data.batch(np.arange(len(data))), torch.device("cpu"))
    out = batch_outputs(model, t, with_types=True)
    x = model.mention_inputs(t["vectors"], t["mention_feats"], t["word_rows"])
    assert out.types.shape == (len(t["type_gold"]), 3)
    assert torch.allclose(out.types, model.type_logits(x))
    assert batch_outputs(model, t).types is None  # scoring alone computes no type logits
    assert torch.equal(batch_outputs(model, t).options, out.options)


def test_types_recipe_without_type_data_is_a_coded_error(sample):
    with pytest.raises(NeuralcorefError, match=r"\[E241\]"):
        attach_types(TrainConfig(type_names=NAMES), [sample[0]])


def test_folds_run_trains_and_scores_every_fold_with_a_type_head(tmp_path):
    cfg = TrainConfig(embedding_dim=4, single_hidden=[8], pair_hidden=[8], max_dist=20,
                      phases=[{"loss": "softmax", "max_epochs": 1, "lr": 0.01}],
                      type_names=NAMES, type_data=[[str(SAMPLE_CONLL), str(write_types(tmp_path / "t.tsv",
                                                                                         SAMPLE_TYPES))]])
    cfg = TrainConfig.from_dict(cfg.to_dict())
    result = run_folds([SAMPLE_CONLL], EN_PIPELINE, tmp_path / "runs" / "typed", cfg, k=3, progress=False)
    assert [f["fold"] for f in result["folds"]] == [0, 1, 2]
    assert all(0.0 <= f["conll_f1"] <= 100.0 and len(f["losses"]) == 1 for f in result["folds"])
    written = json.loads((tmp_path / "runs" / "typed" / "folds.json").read_text(encoding="utf8"))
    assert written["name"] == "typed" and written["conll_f1"]["mean"] == pytest.approx(result["conll_f1"]["mean"])
    assert (tmp_path / "runs" / "cache" / "folds" / "fold_2.conll").is_file()
    # each fold's held-out documents are kept scored: decoding them again gives the fold's F1
    with open(tmp_path / "runs" / "typed" / SCORED_FILE.format(fold=1), "rb") as f:
        kept = pickle.load(f)
    assert 100 * kept.scores({}).conll_f1 == pytest.approx(result["folds"][1]["conll_f1"])
    assert (tmp_path / "runs" / "typed" / "fold_1.pt").is_file()
