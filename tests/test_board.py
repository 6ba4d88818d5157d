"""Tests of the dev board (``neuralcoref evaluate-board``) on tiny data folders."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EN_PIPELINE, SAMPLE_CONLL
from neuralcoref.apps.board import (
    DATA_ENV, ROWS, WINOBIAS_FILES, Board, conll_pass, find_data_dir, languages, load_challenge, parse_only,
    run_board, run_challenge, winobias_gaps)
from neuralcoref.apps.cli import app
from neuralcoref.corpora.coref_scorer import score_files
from neuralcoref.errors import NeuralcorefError
from test_gap import ROWS as GAP_ROWS, write_gap

runner = CliRunner()

#: A WinoBias-like document: the pronoun and its antecedent in one cluster.
WINOBIAS_DOC = """#begin document (nw/dev_type1/stereotype//0); part 000
nw/dev	0	0	The	-	-	-	-	-	-	*	(1
nw/dev	0	1	developer	-	-	-	-	-	-	*	1)
nw/dev	0	2	argued	-	-	-	-	-	-	*	-
nw/dev	0	3	with	-	-	-	-	-	-	*	-
nw/dev	0	4	the	-	-	-	-	-	-	*	-
nw/dev	0	5	designer	-	-	-	-	-	-	*	-
nw/dev	0	6	because	-	-	-	-	-	-	*	-
nw/dev	0	7	he	-	-	-	-	-	-	*	(1)
nw/dev	0	8	was	-	-	-	-	-	-	*	-
nw/dev	0	9	late	-	-	-	-	-	-	*	-
nw/dev	0	10	.	-	-	-	-	-	-	*	-

#end document
"""


def test_board_finds_the_data_folder_given_beside_the_checkout_or_by_env(tmp_path, monkeypatch):
    monkeypatch.delenv(DATA_ENV, raising=False)
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    with pytest.raises(NeuralcorefError, match=rf"\[E031\].*{DATA_ENV} \(unset\)"):
        find_data_dir(root=checkout)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv(DATA_ENV, str(elsewhere))
    assert find_data_dir(root=checkout) == elsewhere
    beside = tmp_path / "shared" / "data"
    beside.mkdir(parents=True)
    assert find_data_dir(root=checkout) == beside
    assert find_data_dir(elsewhere, root=checkout) == elsewhere
    with pytest.raises(NeuralcorefError, match=r"\[E031\].*missing"):
        find_data_dir(tmp_path / "missing", root=checkout)


def test_board_only_keeps_board_order_and_rejects_unknown_rows():
    assert parse_only(None) == list(ROWS)
    assert parse_only("speed, gap,ontogum") == ["ontogum", "gap", "speed"]
    with pytest.raises(NeuralcorefError, match=r"\[E033\].*\['gap-val'\]"):
        parse_only("gap-val")
    assert languages(["gap", "speed"]) == ["en"]
    assert languages(["fr-litbank"]) == ["fr"]
    assert languages(["challenge"]) == ["en", "fr"]


def test_board_stops_before_running_when_a_file_is_missing(tmp_path):
    with pytest.raises(NeuralcorefError, match=r"\[E032\] No GAP development file"):
        run_board(tmp_path, ["gap"], log=lambda _: None)


def test_board_table_has_one_row_per_figure():
    board = Board()
    board.add("OntoGUM dev", "CoNLL F1", "60.57")
    board.add("challenge EN: gender", "passed / total", "3/5")
    assert board.format().splitlines() == [
        "| dev set | measure | value |", "| --- | --- | ---: |",
        "| OntoGUM dev | CoNLL F1 | 60.57 |", "| challenge EN: gender | passed / total | 3/5 |"]


def test_board_winobias_gaps_are_absolute_per_type():
    figures = {"type1_pro": {"muc_f1": 60.0, "conll_f1": 50.0}, "type1_anti": {"muc_f1": 45.0, "conll_f1": 52.5},
               "type2_pro": {"muc_f1": 80.0, "conll_f1": 70.0}}
    assert winobias_gaps(figures) == {"type1": {"muc_f1": 15.0, "conll_f1": 2.5}}


def test_board_conll_pass_scores_as_predict_and_evaluate_do(nlp_coref, tmp_path):
    from neuralcoref.apps.predict import predict_conll

    nlp = nlp_coref
    result = conll_pass(nlp, SAMPLE_CONLL, keep_singletons=False)
    predict_conll(nlp, SAMPLE_CONLL, tmp_path / "pred.conll", progress=False)
    expected = score_files(SAMPLE_CONLL, tmp_path / "pred.conll", keep_singletons=False)
    for metric in ("muc", "bcub", "ceafe", "lea", "mentions"):
        assert getattr(result.scores, metric) == getattr(expected, metric)
    assert 0 < result.scores.conll_f1 < 1
    assert result.docs == 3 and result.tokens == 135 and result.coref_s > 0 and result.spacy_s > 0


def test_board_runs_gap_and_winobias_rows_on_tiny_files(handmade_model, tmp_path):
    data = tmp_path / "data"
    (data / "gap").mkdir(parents=True)
    (data / "winobias").mkdir()
    for name in ("gap-development.tsv", "gap-validation.tsv"):
        write_gap(data / "gap" / name, GAP_ROWS[:2 if "val" in name else 3])
    for relative in WINOBIAS_FILES.values():
        (data / relative).write_text(WINOBIAS_DOC, encoding="utf8")
    board = run_board(data, ["gap", "winobias"], model=str(handmade_model), spacy_model=EN_PIPELINE,
                      log=lambda _: None)
    figures = board.figures
    assert figures["gap"]["development"]["examples"] == 3 and figures["gap"]["validation"]["examples"] == 2
    assert set(figures["winobias"]) == {*WINOBIAS_FILES, "gaps"}
    # The four files are the same: the same scores, no gaps.
    assert figures["winobias"]["gaps"] == {"type1": {"muc_f1": 0.0, "conll_f1": 0.0},
                                           "type2": {"muc_f1": 0.0, "conll_f1": 0.0}}
    labels = [row.board for row in board.rows]
    assert labels == ["GAP development (3 pronouns)", "GAP validation (2 pronouns)",
                      "WinoBias dev type1 pro", "WinoBias dev type1 anti", "WinoBias dev type2 pro",
                      "WinoBias dev type2 anti", "WinoBias dev type1", "WinoBias dev type2"]
    dev = figures["gap"]["development"]
    assert board.rows[0].value.endswith(f" / {dev['overall']['f1']:.1f}")
    assert figures["meta"]["models"]["en"]["model"] == str(handmade_model)
    assert "fr" not in figures["meta"]["models"]  # no French row: no French pipeline loaded


def test_board_challenge_counts_every_case_by_category(nlp_coref):
    module = load_challenge()
    cases = [c for c in module.CASES if c.name in ("gender_john_mary", "title_ms", "gender_king_queen")]
    by_category, failed = run_challenge(nlp_coref, cases, module)
    assert {k: v[1] for k, v in by_category.items()} == {"gender": 2, "title": 1}
    assert list(by_category) == ["gender", "title"]  # categories in first-seen order
    assert sum(v[0] for v in by_category.values()) + len(failed) == len(cases)
    assert set(failed) <= {c.name for c in cases}


def test_cli_evaluate_board_without_data_is_a_coded_error(tmp_path, monkeypatch):
    monkeypatch.delenv(DATA_ENV, raising=False)
    result = runner.invoke(app, ["evaluate-board", "--data", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert "[E031]" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["evaluate-board", "--data", str(tmp_path), "--only", "litbank"])
    assert result.exit_code == 1 and "[E032] No LitBank dev (no singletons) file" in result.output


def test_cli_evaluate_board_prints_the_table_and_writes_json(handmade_model, tmp_path):
    (tmp_path / "winobias").mkdir()
    for relative in WINOBIAS_FILES.values():
        (tmp_path / relative).write_text(WINOBIAS_DOC, encoding="utf8")
    out = tmp_path / "board.json"
    result = runner.invoke(app, ["evaluate-board", "--data", str(tmp_path), "--only", "winobias",
                                 "--model", str(handmade_model), "--spacy-model", EN_PIPELINE,
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "| WinoBias dev type2 anti | MUC F1 / CoNLL F1 |" in result.stdout
    assert json.loads(out.read_text())["meta"]["rows"] == ["winobias"]


def test_board_knows_which_gold_ends_possessors_before_their_marker(nlp_en):
    from neuralcoref.apps.board import ends_before_possessives, trim_possessive
    from neuralcoref.corpora.conll import ConllDocument

    doc = nlp_en("The nurse's bag fell, and she picked it up.")
    assert [t.text for t in doc[:3]] == ["The", "nurse", "'s"] and doc[2].tag_ == "POS"
    assert trim_possessive(doc[0:3]) == (0, 2) and trim_possessive(doc[0:2]) == (0, 2)
    assert trim_possessive(doc[2:3]) == (2, 3)  # a marker alone stays
    gold = lambda spans: ConllDocument("d", "0", [], [], [spans])  # noqa: E731
    assert ends_before_possessives([gold([(0, 2), (7, 8)])], [doc])  # WinoBias: "[The nurse] 's"
    assert not ends_before_possessives([gold([(0, 3), (7, 8)])], [doc])  # OntoNotes: "[The nurse 's]"
    assert not ends_before_possessives([gold([(3, 5)])], [doc])  # no possessor: no convention


POSSESSIVE_DOC = WINOBIAS_DOC.replace("developer\t-\t-\t-\t-\t-\t-\t*\t1)", "developer\t-\t-\t-\t-\t-\t-\t*\t1)\n"
                                      "nw/dev\t0\t2\t's\t-\t-\t-\t-\t-\t-\t*\t-\nnw/dev\t0\t2\tboss\t-\t-\t-\t-\t-\t-\t*\t-")


def test_board_adds_winobias_rows_scored_in_its_possessor_convention(handmade_model, tmp_path):
    (tmp_path / "winobias").mkdir()
    for relative in WINOBIAS_FILES.values():
        (tmp_path / relative).write_text(POSSESSIVE_DOC, encoding="utf8")
    board = run_board(tmp_path, ["winobias"], model=str(handmade_model), spacy_model=EN_PIPELINE,
                      log=lambda _: None)
    trimmed = board.figures["winobias"]["gold_possessors"]
    assert set(trimmed) == set(WINOBIAS_FILES)
    labels = [row.board for row in board.rows]
    assert "WinoBias dev type2 anti, possessors spanned as in its gold" in labels
    assert labels.index("WinoBias dev type2 anti") < labels.index("WinoBias dev type1 pro, possessors spanned "
                                                                  "as in its gold")


def test_board_adds_a_conll_row_scored_in_its_possessor_convention(handmade_model, tmp_path):
    (tmp_path / "litbank").mkdir()
    (tmp_path / "litbank" / "dev.english.v4_gold_conll").write_text(POSSESSIVE_DOC, encoding="utf8")
    board = run_board(tmp_path, ["litbank"], model=str(handmade_model), spacy_model=EN_PIPELINE,
                      log=lambda _: None)
    assert [row.board for row in board.rows] == ["LitBank dev (no singletons)",
                                                 "LitBank dev (no singletons), possessors spanned as in its gold"]
    assert set(board.figures["conll"]) == {"litbank", "gold_possessors"}
    assert set(board.figures["conll"]["gold_possessors"]["litbank"]) == set(board.figures["conll"]["litbank"])


def test_board_scores_democrat_without_and_with_its_gold_singletons(handmade_model, tmp_path):
    (tmp_path / "democrat").mkdir()
    # "the designer" is a gold singleton.
    doc = WINOBIAS_DOC.replace("the\t-\t-\t-\t-\t-\t-\t*\t-", "the\t-\t-\t-\t-\t-\t-\t*\t(2") \
        .replace("designer\t-\t-\t-\t-\t-\t-\t*\t-", "designer\t-\t-\t-\t-\t-\t-\t*\t2)")
    assert "(2" in doc and "2)" in doc
    (tmp_path / "democrat" / "dev.french.v4_gold_conll").write_text(doc, encoding="utf8")
    board = run_board(tmp_path, ["democrat"], fr_model=str(handmade_model), fr_spacy_model=EN_PIPELINE,
                      log=lambda _: None)
    labels = [row.board for row in board.rows]
    assert labels[0] == "DEMOCRAT dev (no singletons)" and labels[-1].startswith("DEMOCRAT dev (gold singletons kept")
    conll = board.figures["conll"]
    # The model predicts no singletons: with the gold's, recall can only fall.
    assert conll["democrat_singletons"]["muc"] == conll["democrat"]["muc"]
    assert conll["democrat_singletons"]["bcub"]["recall"] < conll["democrat"]["bcub"]["recall"]
    assert languages(["democrat"]) == ["fr"]
