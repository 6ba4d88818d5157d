"""``neuralcoref tune``: per-type link offsets fitted on dev data, saved in a copy of the model."""
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EN_PIPELINE, SAMPLE_CONLL
from neuralcoref.api import add_neuralcoref, load_spacy
from neuralcoref.apps.cli import app
from neuralcoref.artifacts.model_dir import load_model, shipped_model_path
from neuralcoref.artifacts.tuning import DEFAULT_GRID, tune_link_offsets
from neuralcoref.core.mentions.mentions import MENTION_TYPES

runner = CliRunner()


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    pytest.importorskip(EN_PIPELINE)
    out = tmp_path_factory.mktemp("tune") / "tuned"
    result = runner.invoke(app, ["tune", "en_fast", str(SAMPLE_CONLL), "--out", str(out),
                                 "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 0, result.output
    return out, result.stdout


def printed_f1(stdout: str):
    match = re.search(r"dev CoNLL F1: ([0-9.]+) -> ([0-9.]+)", stdout)
    assert match, stdout
    return float(match.group(1)), float(match.group(2))


def test_tune_records_the_offsets_it_prints(tuned):
    out, stdout = tuned
    offsets = load_model(out).config.defaults["link_offsets"]
    assert set(offsets) <= set(MENTION_TYPES) and all(v in DEFAULT_GRID for v in offsets.values())
    for name in MENTION_TYPES:
        assert re.search(rf"^{name}\s+{re.escape(format(offsets.get(name, 0.0), '+.1f'))}$", stdout, re.M)
    before, after = printed_f1(stdout)
    assert after >= before
    assert "## Link offsets (`neuralcoref tune`)" in (out / "model_card.md").read_text()


def test_tune_keeps_the_weights_and_vocabulary(tuned):
    out, _ = tuned
    source = shipped_model_path("en_fast")
    for name in ("weights.npz", "vocab.json"):
        assert (out / name).read_bytes() == (source / name).read_bytes()
    config, original = (json.loads((p / "config.json").read_text()) for p in (out, source))
    config["defaults"].pop("link_offsets")
    original["defaults"].pop("link_offsets", None)
    assert config == original


def test_tuned_model_scores_what_tune_printed(tuned, tmp_path):
    # the component reads the offsets from the folder: predict + evaluate give the tuned F1
    out, stdout = tuned
    pred = tmp_path / "pred.conll"
    assert runner.invoke(app, ["predict", str(SAMPLE_CONLL), str(pred), "--model", str(out),
                               "--spacy-model", EN_PIPELINE]).exit_code == 0
    result = runner.invoke(app, ["evaluate", str(SAMPLE_CONLL), str(pred), "--json"])
    assert json.loads(result.stdout)["conll_f1"] == pytest.approx(printed_f1(stdout)[1], abs=0.006)


def test_tune_finds_an_offset_that_helps():
    # the untuned component with every name refused scores lower; tuning from
    # there (the grid holds 0) gets back at least the untuned score
    pytest.importorskip(EN_PIPELINE)
    nlp = add_neuralcoref(load_spacy(EN_PIPELINE), model="en_fast", link_offsets={})
    result = tune_link_offsets(nlp, SAMPLE_CONLL, grid=(0.0, 50.0), rounds=1, progress=False)
    assert result.offsets == {}  # refusing every link of a type never helps on this sample
    assert result.after.conll_f1 == result.before.conll_f1 > 0


def test_tune_never_overwrites(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = runner.invoke(app, ["tune", "en_fast", str(SAMPLE_CONLL), "--out", str(out),
                                 "--spacy-model", EN_PIPELINE])
    assert result.exit_code != 0 and "E112" in result.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_tune_needs_gold_clusters(tmp_path):
    pytest.importorskip(EN_PIPELINE)
    plain = tmp_path / "plain.conll"
    lines = []
    for line in Path(SAMPLE_CONLL).read_text(encoding="utf8").splitlines():
        cols = line.split()
        lines.append(line if not cols or line.startswith("#") else "\t".join(cols[:-1] + ["-"]))
    plain.write_text("\n".join(lines) + "\n", encoding="utf8")
    result = runner.invoke(app, ["tune", "en_fast", str(plain), "--out", str(tmp_path / "out"),
                                 "--spacy-model", EN_PIPELINE])
    assert result.exit_code != 0 and "E113" in result.output
    assert not (tmp_path / "out").exists()
