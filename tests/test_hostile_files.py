"""Hostile files (issue 28): each attack on the loaders and the command line gets its
coded error, and nothing is written, inflated or run on the way."""
import json
import random
import shutil
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import spacy
import srsly
from typer.testing import CliRunner

from conftest import SAMPLE_CONLL
from handmade import write_bomb
from neuralcoref.apps.cli import app
from neuralcoref.artifacts.model_dir import (CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE, file_checksums, load_model,
                                             shipped_model_path, write_checksums)
from neuralcoref.core.scoring.scoring import weight_shapes
from neuralcoref.errors import NeuralcorefError, quote

SHIPPED = ["en", "en_fast", "en_portable", "fr", "fr_sm"]


@pytest.fixture
def model_copy(tmp_path, handmade_vector_model) -> Path:
    return Path(shutil.copytree(handmade_vector_model, tmp_path / "model"))


def edit_config(folder: Path, key: str, value) -> None:
    config = json.loads((folder / CONFIG_FILE).read_text())
    *parents, last = key.split(".")
    target = config
    for name in parents:
        target = target[name]
    target[last] = value
    (folder / CONFIG_FILE).write_text(json.dumps(config))


def coded(code: str):
    return pytest.raises(NeuralcorefError, match=rf"^\[{code}\]")


# Checksums -----------------------------------------------------------------------

@pytest.mark.parametrize("name", SHIPPED)
def test_hostile_shipped_models_carry_their_checksums(name):
    folder = shipped_model_path(name)
    recorded = json.loads((folder / CONFIG_FILE).read_text())["checksums"]
    assert recorded == file_checksums(folder) and set(recorded) == {WEIGHTS_FILE, VOCAB_FILE}


def test_hostile_shuffled_vocabulary_is_caught(tmp_path):
    folder = Path(shutil.copytree(shipped_model_path("en_fast"), tmp_path / "en_fast"))
    words = json.loads((folder / VOCAB_FILE).read_text(encoding="utf8"))
    random.Random(0).shuffle(words)  # same words, same size: structurally perfect
    (folder / VOCAB_FILE).write_text(json.dumps(words, ensure_ascii=False), encoding="utf8")
    with coded("E114") as err:
        load_model(folder)
    assert "vocab.json" in str(err.value)


def test_hostile_zeroed_weights_are_caught(model_copy):
    config = load_model(model_copy).config
    zeros = {k: np.zeros(s, np.float32) for k, s in weight_shapes(config.scorer).items()}
    np.savez_compressed(model_copy / WEIGHTS_FILE, **zeros)
    with coded("E114") as err:
        load_model(model_copy)
    assert "weights.npz" in str(err.value)
    write_checksums(model_copy)  # changed on purpose: recorded again, it loads
    assert not np.any(load_model(model_copy).weights()["single.out.W"])


def test_hostile_folder_without_checksums_warns(model_copy):
    config = json.loads((model_copy / CONFIG_FILE).read_text())
    del config["checksums"]
    (model_copy / CONFIG_FILE).write_text(json.dumps(config))
    with pytest.warns(UserWarning, match=r"\[W128\]"):
        load_model(model_copy)


# Weights: bounded before inflating ----------------------------------------------

def test_hostile_zip_bomb_refused_before_inflating(model_copy):
    size = write_bomb(model_copy, 256 << 20)
    assert size < 2 << 20
    tracemalloc.start()
    try:
        with coded("E116") as err:
            load_model(model_copy)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "embeddings" in str(err.value) and "before decompressing" in str(err.value)
    assert peak < 16 << 20  # nothing near the 256 MB was inflated


@pytest.mark.slow
def test_hostile_zip_bomb_of_gigabytes(model_copy):
    size = write_bomb(model_copy, 3 << 30)  # ~3 MB on disk, 3 GB inflated
    start = time.perf_counter()
    with coded("E116"):
        load_model(model_copy)
    assert time.perf_counter() - start < 2 and size < 5 << 20


def test_hostile_npy_header_declaring_another_shape(model_copy):
    with np.load(model_copy / WEIGHTS_FILE) as data:
        weights = {k: data[k] for k in data.files}
    weights["embeddings"] = np.zeros((2, 3), np.float32)  # small, but not the declared shape
    np.savez(model_copy / WEIGHTS_FILE, **weights)
    with coded("E108") as err:
        load_model(model_copy)
    assert "embeddings: shape (2, 3)" in str(err.value)


def test_hostile_too_many_arrays(model_copy):
    with np.load(model_copy / WEIGHTS_FILE) as data:
        weights = {k: data[k] for k in data.files}
    weights.update({f"extra{i}": np.zeros(1, np.float32) for i in range(100)})
    np.savez(model_copy / WEIGHTS_FILE, **weights)
    with coded("E116"):
        load_model(model_copy)


# config.json: every field --------------------------------------------------------

BAD_CONFIGS = {
    "refine-int": ("scorer.refine", 1, "scorer.refine is 1"),
    "max-dist-bool": ("defaults.max_dist", True, "defaults.max_dist is True"),
    "greedyness-string": ("defaults.greedyness", "high", "defaults.greedyness"),
    "greedyness-range": ("defaults.greedyness", 7, "within [0, 1]"),
    "top-antecedents": ("defaults.top_antecedents", -1, "top_antecedents"),
    "prior-width": ("document_prior", {"mean": [0.0, 1.0], "tokens": 5}, "2 numbers, not scorer.vector_dim (96)"),
    "prior-tokens": ("document_prior", {"mean": [0.0] * 96, "tokens": "many"}, "document_prior.tokens"),
    "prior-nan": ("document_prior", {"mean": [float("nan")] * 96, "tokens": 1}, "document_prior.mean"),
    "pipelines-string": ("vector_pipelines", "en_core_web_sm 3.8.0", "not a list of strings"),
    "fingerprints-string": ("vector_fingerprints", "b3b3f69b", "vector_fingerprints is 'b3b3f69b', not a list"),
    "mention-hidden": ("scorer.mention_hidden", [0], "scorer.mention_hidden"),
    "rules-hash": ("rules_hash", 5, "rules_hash is 5"),
    "unknown-field": ("surprise", 1, "'surprise' is not a known field"),
    "unknown-scorer-field": ("scorer.layers", 3, "scorer.'layers' is not a known field"),
    "defaults-list": ("defaults", [], "defaults is []"),
    "checksum-path": ("checksums", {"../weights.npz": "0" * 64}, "checksums names '../weights.npz'"),
    "checksum-short": ("checksums", {"weights.npz": "abc"}, "not a SHA-256"),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_hostile_bad_config_field(model_copy, case):
    key, value, hint = BAD_CONFIGS[case]
    edit_config(model_copy, key, value)
    with coded("E110") as err:
        load_model(model_copy)
    assert hint in str(err.value)
    nlp = spacy.blank("en")
    with coded("E110"):  # at add_pipe, not at the first document
        nlp.add_pipe("neuralcoref", config={"model": str(model_copy)})


@pytest.mark.parametrize("text", ['{"lang": "en", "scorer": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                  "[1, 2]", '"en"'], ids=["nested-100000-deep", "list", "string"])
def test_hostile_unreadable_config(model_copy, text):
    (model_copy / CONFIG_FILE).write_text(text)
    with coded("E104"):
        load_model(model_copy)


def test_hostile_deep_vocabulary(model_copy):
    (model_copy / VOCAB_FILE).write_text("[" * 100_000 + "]" * 100_000)
    with coded("E104") as err:
        load_model(model_copy)
    assert "nested too deeply" in str(err.value)


# Saved pipelines: cfg.json and the to_bytes blob ----------------------------------

@pytest.fixture
def saved_pipeline(tmp_path, handmade_model) -> Path:
    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    nlp.to_disk(tmp_path / "pipeline")
    return tmp_path / "pipeline"


BAD_SETTINGS = {
    "blacklist-string": ("blacklist", "she", "blacklist is 'she', not a list of words"),
    "max-dist-bool": ("max_dist", True, "max_dist is True"),
    "greedyness-range": ("greedyness", 1.5, "greedyness is 1.5"),
    "store-scores-string": ("store_scores", "yes", "store_scores"),
    "conv-dict-string": ("conv_dict", {"Angela": "woman"}, "conv_dict"),
    "link-offsets-type": ("link_offsets", {"pronoun": 1}, "unknown mention type 'pronoun'"),
    "unknown": ("model_path", "/etc", "'model_path' is not a known field"),
}


@pytest.mark.parametrize("case", list(BAD_SETTINGS))
def test_hostile_bad_saved_settings(saved_pipeline, case):
    key, value, hint = BAD_SETTINGS[case]
    cfg_file = saved_pipeline / "neuralcoref" / "cfg.json"
    cfg = json.loads(cfg_file.read_text())
    cfg[key] = value
    cfg_file.write_text(json.dumps(cfg))
    with coded("E117") as err:
        spacy.load(saved_pipeline)
    assert hint in str(err.value)


def test_hostile_saved_settings_round_trip(saved_pipeline):
    cfg_file = saved_pipeline / "neuralcoref" / "cfg.json"
    cfg = json.loads(cfg_file.read_text())
    cfg.update(blacklist=["she"], max_dist=7)
    cfg_file.write_text(json.dumps(cfg))
    coref = spacy.load(saved_pipeline).get_pipe("neuralcoref")
    assert coref.cfg["blacklist"] == ["she"] and coref.cfg["max_dist"] == 7
    cfg_file.write_text("[" * 50_000 + "]" * 50_000)
    with coded("E117"):
        spacy.load(saved_pipeline)


def crafted_blob(files: dict) -> bytes:
    return srsly.msgpack_dumps(files)


@pytest.mark.parametrize("name", ["../escaped_{}.txt", "/abs_{}.txt", "sub/dir_{}.txt", "cfg.json/../x_{}"],
                         ids=["dotdot", "absolute", "subfolder", "known-prefix"])
def test_hostile_path_traversal_blob(saved_pipeline, tmp_path, name):
    nlp = spacy.load(saved_pipeline)
    coref = nlp.get_pipe("neuralcoref")
    marker = f"{time.time_ns()}"
    target = name.format(marker)
    if target.startswith("/"):
        target = str(tmp_path / target[1:])
    files = srsly.msgpack_loads(coref.to_bytes())
    files[target] = b"written by an attacker"
    with coded("E115") as err:
        coref.from_bytes(crafted_blob(files))
    assert "never a path" in str(err.value)
    # through the whole pipeline's bytes too
    blob = srsly.msgpack_loads(nlp.to_bytes())
    blob["neuralcoref"] = crafted_blob(files)
    with coded("E115"):
        nlp.from_bytes(srsly.msgpack_dumps(blob))
    escaped = list(Path("/tmp").glob(f"*{marker}*")) + list(tmp_path.rglob(f"*{marker}*"))
    assert escaped == []


@pytest.mark.parametrize("blob", [b"\x93\x01\x02\x03", b"\xc1garbage", srsly.msgpack_dumps({"config.json": 5})],
                         ids=["list", "not-msgpack", "not-bytes"])
def test_hostile_malformed_blob(saved_pipeline, blob):
    coref = spacy.load(saved_pipeline).get_pipe("neuralcoref")
    with coded("E115"):
        coref.from_bytes(blob)


# Command line -------------------------------------------------------------------

def test_hostile_predict_refuses_its_input(tmp_path, monkeypatch):
    import neuralcoref.api

    def no_pipeline(*args, **kwargs):
        raise AssertionError("the pipeline was loaded before the output was checked")

    monkeypatch.setattr(neuralcoref.api, "load_spacy", no_pipeline)
    gold = tmp_path / "gold.conll"
    shutil.copy(SAMPLE_CONLL, gold)
    before = gold.read_bytes()
    for output, code in ((gold, "E340"), (tmp_path, "E342"), (tmp_path / "no" / "x.conll", "E342")):
        result = CliRunner().invoke(app, ["predict", str(gold), str(output)])
        assert result.exit_code == 1 and result.output.startswith(f"[{code}]"), result.output
    assert gold.read_bytes() == before


def test_hostile_batch_cli_refuses_its_input(tmp_path):
    data = tmp_path / "in.jsonl"
    data.write_text('{"text": "Anna left."}\n')
    result = CliRunner().invoke(app, ["batch", "--input", str(data), "--output", str(data)])
    assert result.exit_code == 1 and result.output.startswith("[E340]")
    assert data.read_text() == '{"text": "Anna left."}\n'


def test_hostile_cr_only_file_is_not_echoed(tmp_path):
    lines = ["#begin document (a); part 000"] + [f"a 0 {i} word{i} X - - - - - - - -" for i in range(3000)]
    cr_only = tmp_path / "cr.conll"
    cr_only.write_bytes("\r".join(lines + ["#end document"]).encode())
    result = CliRunner().invoke(app, ["evaluate", str(cr_only), str(cr_only)])
    assert result.exit_code == 1 and result.output.startswith("[E002]")
    assert len(result.output) < 600 and "more characters" in result.output
    assert "\r" not in result.output


def test_hostile_quote_keeps_short_text():
    assert quote("Anna") == "Anna"
    assert quote("x" * 300).startswith("x" * 200 + "... (100 more")


@pytest.mark.parametrize("name", [WEIGHTS_FILE, VOCAB_FILE, CONFIG_FILE])
def test_hostile_oversized_file_refused_unread(model_copy, name):
    with open(model_copy / name, "r+b") as f:  # a sparse file: 64 MB that take no disk
        f.truncate(64 << 20)
    with coded("E118") as err:
        load_model(model_copy)
    assert name in str(err.value)


def test_hostile_oversized_saved_settings(saved_pipeline):
    with open(saved_pipeline / "neuralcoref" / "cfg.json", "r+b") as f:
        f.truncate(64 << 20)
    with coded("E117") as err:
        spacy.load(saved_pipeline)
    assert "bytes, more than" in str(err.value)


def test_hostile_oversized_model_card(model_copy):
    with open(model_copy / "model_card.md", "r+b") as f:
        f.truncate(64 << 20)
    with coded("E118") as err:
        spacy.blank("en").add_pipe("neuralcoref", config={"model": str(model_copy)})
    assert "model_card.md" in str(err.value)
