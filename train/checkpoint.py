"""Checkpoints that load without unpickling code.

A checkpoint is two files in the run folder:

- ``checkpoint.json``: the run state (phase, epoch, best score, log, numpy RNG
  state), the settings, the run's arguments and vocabulary, and the name and
  SHA-256 of the tensors file;
- ``checkpoint-NNNN.pt``: tensors only (model, best model, optimizer, weight
  average, torch RNG), read with ``torch.load(weights_only=True)``, which
  refuses any pickled object other than tensors and plain containers.

The tensors file is written first under a new name and the JSON replaced
atomically after it, so a run killed at any moment leaves a consistent pair.
"""
from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Dict, List, Optional

import torch

from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.validation import file_sha256 as _sha256

CHECKPOINT_JSON = "checkpoint.json"
FORMAT = 1
#: Largest checkpoint.json read (the vocabulary dominates: ~1 MB for 50,000 words).
MAX_JSON_BYTES = 256 << 20


@dataclass
class RunState:
    """What a checkpoint restores: position in the phases and the best model."""

    phase: int = 0
    epoch: int = 0
    phase_best: float = -1.0
    bad_evals: int = 0
    best_f1: float = -1.0
    best_state: Optional[Dict[str, torch.Tensor]] = None
    log: List[dict] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        """The state's plain fields (the best model goes into the tensors file)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "best_state"}


@dataclass
class Checkpoint:
    """A loaded checkpoint.

    state (RunState): position, best score and best model.
    model (Dict[str, Tensor]): the weights at the end of the last saved epoch.
    tensors (Dict[str, Any]): the other tensors ("optimizer", "average", "torch_rng").
    meta (Dict[str, Any]): the JSON: "config", "run", "vocab", "numpy_rng".
    """

    state: RunState
    model: Dict[str, torch.Tensor]
    tensors: Dict[str, Any]
    meta: Dict[str, Any]


def save_checkpoint(folder: Path, state: RunState, tensors: Dict[str, Any], meta: Dict[str, Any]) -> Path:
    """Write the checkpoint of ``state`` into ``folder``; RETURNS (Path): its JSON file.

    tensors (Dict[str, Any]): "model", "optimizer", "average", "torch_rng"... (the
        best model is added from ``state``): tensors and plain containers only.
    meta (Dict[str, Any]): JSON-serialisable run information ("config", "run", "vocab"...).
    """
    name = f"checkpoint-{len(state.log):04d}.pt"
    tmp = folder / (name + ".tmp")
    torch.save({**tensors, "best": state.best_state or {}}, tmp)
    tmp.replace(folder / name)
    record = {"format": FORMAT, "tensors": name, "tensors_sha256": _sha256(folder / name),
              "state": state.to_json(), **meta}
    json_tmp = folder / (CHECKPOINT_JSON + ".tmp")
    json_tmp.write_text(json.dumps(record), encoding="utf8")
    json_tmp.replace(folder / CHECKPOINT_JSON)
    for old in folder.glob("checkpoint-*.pt"):
        if old.name != name:
            old.unlink(missing_ok=True)
    return folder / CHECKPOINT_JSON


def remove_checkpoint(folder: Path) -> None:
    """Delete the checkpoint of an earlier run in ``folder``: a fresh run must not
    leave it for ``--resume`` or ``neuralcoref export`` to mistake for its own."""
    (folder / CHECKPOINT_JSON).unlink(missing_ok=True)
    for old in folder.glob("checkpoint-*.pt*"):
        old.unlink(missing_ok=True)


def load_checkpoint(folder: Path, device: torch.device) -> Checkpoint:
    """Read the checkpoint of the run in ``folder``.

    RAISES (NeuralcorefError): E209 when there is none, E216 when it is damaged
        or does not match its tensors file, E217 when the tensors file holds
        anything but tensors (e.g. a pickled object that would run code).
    """
    path = folder / CHECKPOINT_JSON
    if not path.is_file():
        raise NeuralcorefError(Errors.E209.format(path=folder))
    try:
        with path.open("rb") as f:
            data = f.read(MAX_JSON_BYTES + 1)
        if len(data) > MAX_JSON_BYTES:
            raise ValueError(f"more than {MAX_JSON_BYTES} bytes")
        record = json.loads(data.decode("utf8"))
    except (OSError, ValueError, RecursionError) as err:  # RecursionError: JSON nested too deep
        raise NeuralcorefError(Errors.E216.format(path=path, error=f"{type(err).__name__}: {err}"[:200])) from err
    problems = record_problems(record)
    if problems:
        raise NeuralcorefError(Errors.E216.format(path=path, error="; ".join(problems[:3])))
    state = RunState(**record["state"])
    tensors_path = folder / record["tensors"]
    expected = record["tensors_sha256"]
    if Path(record["tensors"]).name != record["tensors"] or not tensors_path.is_file():
        raise NeuralcorefError(Errors.E216.format(path=path, error=f"no tensors file {record['tensors']!r:.100}"))
    if _sha256(tensors_path) != expected:
        raise NeuralcorefError(Errors.E216.format(
            path=path, error=f"{tensors_path.name} is not the file it was saved with (SHA-256 differs)"))
    tensors = _load_tensors(tensors_path, device)
    state.best_state = tensors.pop("best", None) or None
    meta = {k: v for k, v in record.items() if k not in ("format", "tensors", "tensors_sha256", "state")}
    return Checkpoint(state, tensors.pop("model"), tensors, meta)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


#: The fields of a checkpoint's run state and what each must be.
STATE_FIELDS = {"phase": ("an integer >= 0", _is_int), "epoch": ("an integer >= 0", _is_int),
                "phase_best": ("a number", _is_number), "bad_evals": ("an integer >= 0", _is_int),
                "best_f1": ("a number", _is_number),
                "log": ("a list of objects", lambda v: isinstance(v, list) and all(isinstance(e, dict) for e in v))}
#: The run's recorded arguments (train/trainer.py's prepare_run): all strings.
RUN_FIELDS = ("train", "dev", "spacy_model", "cache_dir", "device")


def record_problems(record: Any) -> List[str]:
    """What is wrong with a checkpoint.json's content (types and fields), as short
    sentences; [] for a good one. Checked before anything is used, so that a
    damaged or crafted file fails with E216, never with a TypeError later."""
    if not isinstance(record, dict):
        return [f"it holds {type(record).__name__}, not a JSON object"]
    problems = [f"'{key}' is missing" for key in ("tensors", "tensors_sha256", "state") if key not in record]
    problems += [f"'{key}' is not a string" for key in ("tensors", "tensors_sha256")
                 if key in record and not isinstance(record[key], str)]
    state = record.get("state", {})
    if not isinstance(state, dict):
        problems.append("'state' is not an object")
    else:
        problems += [f"state.{key} is unknown" for key in state if key not in STATE_FIELDS]
        problems += [f"state.{key} is {str(state[key])[:40]!r}, not {what}"
                     for key, (what, valid) in STATE_FIELDS.items() if key in state and not valid(state[key])]
    for key, kind in (("config", dict), ("run", dict), ("numpy_rng", dict), ("vocab", list)):
        if key in record and not isinstance(record[key], kind):
            problems.append(f"'{key}' is not a JSON {'object' if kind is dict else 'array'}")
    run = record.get("run")
    if isinstance(run, dict):
        problems += [f"run.{key} is not a string" for key in RUN_FIELDS if key in run and not isinstance(run[key], str)]
    if isinstance(record.get("vocab"), list) and not all(isinstance(w, str) for w in record["vocab"]):
        problems.append("'vocab' holds values that are not strings")
    return problems


def _load_tensors(path: Path, device: torch.device) -> Dict[str, Any]:
    try:
        data = torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError as err:
        # weights_only refuses pickled callables before calling them: nothing ran.
        raise NeuralcorefError(Errors.E217.format(path=path, error=str(err).splitlines()[0])) from err
    except Exception as err:  # a damaged file: zip, pickle framing, storage errors of any kind
        raise NeuralcorefError(Errors.E216.format(path=path, error=f"{type(err).__name__}: {err}"[:200])) from err
    if not isinstance(data, dict) or "model" not in data:
        raise NeuralcorefError(Errors.E216.format(path=path, error="no 'model' tensors"))
    for key in ("model", "best"):
        weights = data.get(key, {})
        if not (isinstance(weights, dict) and all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                                  for k, v in weights.items())):
            raise NeuralcorefError(Errors.E216.format(path=path, error=f"'{key}' is not a dict of named tensors"))
    return data


