"""Tests of the ``neuralcoref evaluate`` command."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from neuralcoref.apps.cli import app

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"
CASES_DIR = Path(__file__).resolve().parent / "fixtures" / "scorer_tests"

runner = CliRunner()


def evaluate(*args: str):
    return runner.invoke(app, ["evaluate", *map(str, args)])


def test_cli_evaluate_prints_a_table():
    result = evaluate(SAMPLE, SAMPLE)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Metric", "Recall", "Precision", "F1"]
    assert lines[-1].split() == ["CoNLL", "F1", "100.00"]


def test_cli_evaluate_json():
    result = evaluate(CASES_DIR / "TC-A.key", CASES_DIR / "TC-A-2.response", "--json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert scores["muc"]["recall"] == pytest.approx(100 / 3)
    assert scores["muc"]["precision"] == pytest.approx(100.0)
    assert set(scores) == {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mentions", "conll_f1"}


def test_cli_evaluate_no_singletons(tmp_path: Path):
    key = tmp_path / "key.conll"
    response = tmp_path / "response.conll"
    key.write_text("#begin document (d); part 000\nd 0 0 a (1)\nd 0 1 b (1)\nd 0 2 c (2)\n\n#end document\n")
    response.write_text("#begin document (d); part 000\nd 0 0 a (1)\nd 0 1 b (1)\nd 0 2 c -\n\n#end document\n")
    with_singletons = json.loads(evaluate(key, response, "--json").stdout)
    without = json.loads(evaluate(key, response, "--json", "--no-singletons").stdout)
    assert with_singletons["mentions"]["recall"] == pytest.approx(200 / 3)
    assert without["mentions"]["recall"] == pytest.approx(100.0)


def test_cli_evaluate_missing_file_is_one_clean_line(tmp_path: Path):
    result = evaluate(tmp_path / "missing.conll", SAMPLE)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("[E009]") and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_cli_evaluate_malformed_file_names_file_and_line(tmp_path: Path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 000\nd 0 0 a (1\nd 0 1 b 2)\n#end document\n")
    result = evaluate(bad, SAMPLE)
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert message.startswith("[E005]") and message.endswith(f"({bad}, line 3)")
    assert len(message.splitlines()) == 1


def test_cli_evaluate_token_count_mismatch(tmp_path: Path):
    key = tmp_path / "key.conll"
    key.write_text("#begin document (sample_bakery); part 000\nd 0 0 a -\n#end document\n")
    result = evaluate(key, SAMPLE)
    assert result.exit_code == 1
    assert result.stderr.startswith("[E012]")


def test_cli_evaluate_shared_dev_against_itself(shared_data: Path):
    dev = shared_data / "ontogum" / "dev.english.v4_gold_conll"
    result = evaluate(dev, dev, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["conll_f1"] == pytest.approx(100.0)
