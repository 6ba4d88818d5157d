"""Crafted model folders, round two (issue 58): sizes bounded whatever config.json
declares, files that cannot be read (a link into /proc) answered with coded errors."""
import json
import shutil
import tracemalloc
from pathlib import Path

import pytest

from neuralcoref.artifacts.model_dir import CONFIG_FILE, WEIGHTS_FILE, load_model, load_model_bytes
from neuralcoref.errors import NeuralcorefError


@pytest.fixture
def model_copy(tmp_path, handmade_vector_model) -> Path:
    return Path(shutil.copytree(handmade_vector_model, tmp_path / "model"))


def edit_scorer(folder: Path, **values) -> None:
    config = json.loads((folder / CONFIG_FILE).read_text())
    config["scorer"].update(values)
    (folder / CONFIG_FILE).write_text(json.dumps(config))


def coded(code: str, match: str = ""):
    return pytest.raises(NeuralcorefError, match=rf"^\[{code}\].*{match}")


def test_hostile_models_huge_pair_layers_refused_before_allocation(model_copy):
    """The probe's folder: pair_hidden [20000, 20000] loaded to 4.1 GB (checksums
    are in the same config, so they catch damage, not this)."""
    edit_scorer(model_copy, pair_hidden=[20000, 20000])
    tracemalloc.start()
    try:
        with coded("E435", r"scorer\.pair_hidden = \[20000, 20000\].*at most 8192 units a layer"):
            load_model(model_copy)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20


BEYOND = {
    "vector_dim": ({"vector_dim": 100_000}, "scorer.vector_dim = 100000"),
    "embedding_dim": ({"embedding_dim": 50_000}, "scorer.embedding_dim"),
    "vocab_size": ({"vocab_size": 3_000_000}, "scorer.vocab_size"),
    "similarity_rank": ({"similarity_rank": 10_000}, "scorer.similarity_rank"),
    "type_classes": ({"type_classes": 100_000}, "scorer.type_classes"),
    "layers": ({"single_hidden": [8] * 9}, "9 layers in scorer.single_hidden"),
    "mention_hidden": ({"mention_hidden": [30_000]}, "scorer.mention_hidden"),
    "type_hidden": ({"type_classes": 4, "type_hidden": [9000]}, "scorer.type_hidden"),
    "one-array": ({"pair_hidden": [8000, 8000]}, "numbers in the array pair.1.W"),
    "all-weights": ({"pair_hidden": [5000] * 4, "single_hidden": [5000] * 4}, "at most 64,000,000 in all"),
}


@pytest.mark.parametrize("case", list(BEYOND), ids=list(BEYOND))
def test_hostile_models_sizes_beyond_the_bounds(model_copy, case):
    values, message = BEYOND[case]
    edit_scorer(model_copy, **values)
    with coded("E435", message.replace("[", r"\[").replace(".", r"\.")):
        load_model(model_copy)


def test_hostile_models_bounds_hold_for_bytes(model_copy):
    """from_bytes (a saved pipeline's blob) goes through the same checks."""
    edit_scorer(model_copy, pair_hidden=[20000, 20000])
    files = {p.name: p.read_bytes() for p in model_copy.iterdir() if p.is_file()}
    with coded("E435"):
        load_model_bytes(files, "a blob")


def test_hostile_models_type_hidden_of_wrong_type(model_copy):
    edit_scorer(model_copy, type_classes=4, type_hidden=["a"])
    with coded("E110", "scorer.type_hidden is"):
        load_model(model_copy)


@pytest.mark.skipif(not Path("/proc/self/pagemap").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("name", [CONFIG_FILE, WEIGHTS_FILE])
def test_hostile_models_file_linked_to_proc_pagemap(model_copy, name):
    """A file that tells size 0 and fails to read (OSError 22 where reads must be
    aligned) or holds gigabytes: coded (E104 unreadable, E118 too large), never a
    traceback or a whole read."""
    (model_copy / name).unlink()
    (model_copy / name).symlink_to("/proc/self/pagemap")
    with coded("E1(04|18)", name):
        load_model(model_copy)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc")
def test_hostile_models_proc_file_read_within_bounds(model_copy):
    """A /proc file tells size 0 but holds bytes: read within the bounds, then refused."""
    (model_copy / CONFIG_FILE).unlink()
    (model_copy / CONFIG_FILE).symlink_to("/proc/self/maps")
    with coded("E104", "Cannot read the config"):
        load_model(model_copy)
