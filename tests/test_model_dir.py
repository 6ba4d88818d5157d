"""Model folders: the save/load round trip and a coded error for every kind of damage."""
import json
import shutil
from pathlib import Path
from typing import Callable, Dict

import numpy as np
import pytest

from handmade import handmade_weights, write_handmade_model
from neuralcoref.artifacts.model_dir import (CARD_FILE, CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE, read_config,
                                             load_model, resolve_model_path, save_model, shipped_model_path)
from neuralcoref.core.features.contract import SCHEMA_HASH
from neuralcoref.core.scoring.model import ModelConfig
from neuralcoref.core.scoring.scoring import ScorerConfig, weight_shapes
from neuralcoref.errors import ModelLoadError


@pytest.fixture
def model_copy(tmp_path, handmade_vector_model) -> Path:
    """A fresh copy of the hand-made model with vectors and embeddings, to damage."""
    return Path(shutil.copytree(handmade_vector_model, tmp_path / "model"))


def read_weights(folder: Path) -> Dict[str, np.ndarray]:
    with np.load(folder / WEIGHTS_FILE) as data:
        return {k: data[k] for k in data.files}


def write_weights(folder: Path, weights: Dict[str, np.ndarray]) -> None:
    np.savez(folder / WEIGHTS_FILE, **weights)


def edit_json(folder: Path, name: str, edit: Callable) -> None:
    data = json.loads((folder / name).read_text())
    data = edit(data) or data
    (folder / name).write_text(json.dumps(data))


def test_model_dir_round_trip(tmp_path):
    config = ModelConfig(lang="en", scorer=ScorerConfig(vector_dim=3, vocab_size=5, embedding_dim=2,
                                                        single_hidden=[4], pair_hidden=[3, 2]),
                         spacy_pipeline="en_core_web_sm 3.8.0", defaults={"greedyness": 0.6})
    rng = np.random.default_rng(0)
    weights = {k: rng.normal(size=s).astype(np.float32) for k, s in weight_shapes(config.scorer).items()}
    path = save_model(tmp_path / "m", config, weights, ["a", "b", "c"], card="# card\n")
    files = sorted(p.name for p in path.iterdir())
    assert files == sorted([CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE, CARD_FILE])
    model = load_model(path)
    assert model.path == path
    assert model.config.to_dict() == config.to_dict()
    assert model.config.schema_hash == SCHEMA_HASH and model.config.defaults == {"greedyness": 0.6}
    assert model.vocab.words == ["a", "b", "c"] and len(model.vocab) == 5
    loaded = model.weights()
    assert loaded.keys() == weights.keys()
    for name in weights:
        assert loaded[name].dtype == np.float32 and np.array_equal(loaded[name], weights[name])
    assert (path / CARD_FILE).read_text() == "# card\n"
    assert json.loads((path / CONFIG_FILE).read_text())["scorer"]["pair_hidden"] == [3, 2]


def test_model_dir_handmade_model_loads(handmade_model):
    model = load_model(handmade_model)
    assert model.config.lang == "en" and model.config.scorer.vector_dim == 0
    assert model.config.spacy_pipeline == "test"


def test_model_dir_missing_folder(tmp_path):
    with pytest.raises(ModelLoadError, match=r"\[E102\].*neuralcoref train"):
        load_model(tmp_path / "nowhere")


@pytest.mark.parametrize("name", [CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE])
def test_model_dir_missing_file(model_copy, name):
    (model_copy / name).unlink()
    with pytest.raises(ModelLoadError, match=r"\[E103\].*copy the whole folder") as err:
        load_model(model_copy)
    assert name in str(err.value)


def test_model_dir_model_card_is_optional(model_copy):
    (model_copy / CARD_FILE).unlink()
    load_model(model_copy)


@pytest.mark.parametrize("name,text", [(CONFIG_FILE, "{not json"), (CONFIG_FILE, '{"scorer": {}}'),
                                       (VOCAB_FILE, "[\"a\", ")],
                         ids=["config-not-json", "config-without-lang", "vocab-not-json"])
def test_model_dir_unreadable_json(model_copy, name, text):
    (model_copy / name).write_text(text)
    with pytest.raises(ModelLoadError, match=r"\[E104\].*corrupted"):
        load_model(model_copy)


@pytest.mark.parametrize("keep", [0, 10, 0.5, -1], ids=["empty", "10-bytes", "half", "last-byte-cut"])
def test_model_dir_truncated_weights(model_copy, keep):
    data = (model_copy / WEIGHTS_FILE).read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep if keep >= 0 else len(data) - 1
    (model_copy / WEIGHTS_FILE).write_bytes(data[:cut])
    with pytest.raises(ModelLoadError, match=r"\[E107\].*truncated or corrupted"):
        load_model(model_copy)


def test_model_dir_corrupted_compressed_weights(model_copy):
    data = bytearray((model_copy / WEIGHTS_FILE).read_bytes())
    middle = len(data) // 3
    data[middle:middle + 64] = bytes(64)
    (model_copy / WEIGHTS_FILE).write_bytes(bytes(data))
    with pytest.raises(ModelLoadError, match=r"\[E10[78]\]"):
        load_model(model_copy)


def test_model_dir_randomly_damaged_weights_never_load_as_garbage(model_copy):
    original = (model_copy / WEIGHTS_FILE).read_bytes()
    expected = read_weights(model_copy)
    rng = np.random.default_rng(0)
    for offset in range(100, len(original) - 100, max(len(original) // 60, 1)):
        data = bytearray(original)
        data[offset:offset + 16] = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        (model_copy / WEIGHTS_FILE).write_bytes(bytes(data))
        try:
            model = load_model(model_copy)
        except ModelLoadError as err:
            assert "[E107]" in str(err) or "[E108]" in str(err)
            continue
        # damage in a field nobody reads (e.g. a timestamp): the weights are intact
        assert all(np.array_equal(w, expected[k]) for k, w in model.weights().items())


def test_model_dir_pickled_weights_refused(model_copy):
    weights = read_weights(model_copy)
    weights["pair.out.b"] = np.array([{"evil": "pickle"}], dtype=object)
    np.savez(model_copy / WEIGHTS_FILE, **weights)  # np.savez pickles object arrays
    with pytest.raises(ModelLoadError, match=r"\[E107\]") as err:
        load_model(model_copy)
    assert "pickle" in str(err.value).lower()


def _wrong_shape(w):
    w["pair.0.W_pair"] = w["pair.0.W_pair"][:, :-1]


def _unexpected(w):
    w["pair.9.W"] = np.zeros((2, 2), np.float32)


def _missing(w):
    del w["single.out.b"]


def _nan(w):
    w["single.0.W"][0, 0] = np.nan


def _inf(w):
    w["embeddings"][1, 1] = -np.inf


def _huge(w):
    w["single.0.W"][0, 0] = 1e30  # finite, but scores would overflow to inf / NaN


def _strings(w):
    w["pair.out.b"] = np.array(["1"])


@pytest.mark.parametrize("damage,expected", [
    (_wrong_shape, "pair.0.W_pair: shape"), (_unexpected, "pair.9.W: unexpected"),
    (_missing, "single.out.b: missing"), (_nan, "single.0.W: not finite"),
    (_inf, "embeddings: not finite"), (_huge, "single.0.W: values up to"),
    (_strings, "pair.out.b: dtype")],
    ids=["wrong-shape", "unexpected-name", "missing-name", "nan", "inf", "huge", "not-numeric"])
def test_model_dir_weights_not_matching_config(model_copy, damage, expected):
    weights = read_weights(model_copy)
    damage(weights)
    write_weights(model_copy, weights)
    with pytest.raises(ModelLoadError, match=r"\[E108\].*copy it again or retrain") as err:
        load_model(model_copy)
    assert expected in str(err.value)


@pytest.mark.parametrize("offsets,expected", [
    ({"verbal": 0.1}, "unknown mention type"), ({"proper": "x"}, "finite number"), ([0.1], "not an object")],
    ids=["unknown-type", "not-a-number", "not-an-object"])
def test_model_dir_bad_link_offsets(model_copy, offsets, expected):
    edit_json(model_copy, CONFIG_FILE, lambda c: c["defaults"].update(link_offsets=offsets))
    with pytest.raises(ModelLoadError, match=r"\[E110\].*defaults.link_offsets") as err:
        load_model(model_copy)
    assert expected in str(err.value)


def test_model_dir_schema_hash_mismatch(model_copy):
    edit_json(model_copy, CONFIG_FILE, lambda c: c.update(schema_hash="0000000000000000"))
    with pytest.raises(ModelLoadError, match=r"\[E101\].*retrain the model") as err:
        load_model(model_copy)
    assert "0000000000000000" in str(err.value) and SCHEMA_HASH in str(err.value)


@pytest.mark.parametrize("vocab", [["the"], ["the", "dog", "cat"], {"the": 0, "dog": 1}],
                         ids=["too-short", "too-long", "not-a-list"])
def test_model_dir_vocabulary_size_mismatch(model_copy, vocab):
    (model_copy / VOCAB_FILE).write_text(json.dumps(vocab))
    with pytest.raises(ModelLoadError, match=r"\[E105\].*copy it again"):
        load_model(model_copy)


def test_model_dir_save_checks_weights_first(tmp_path):
    config = ModelConfig(lang="en", scorer=ScorerConfig(vector_dim=0, embedding_dim=0,
                                                        single_hidden=[1], pair_hidden=[2]))
    weights = handmade_weights(config.scorer)
    weights["single.0.W"] = np.zeros((3, 3), np.float32)
    with pytest.raises(ModelLoadError, match=r"\[E108\]"):
        save_model(tmp_path / "m", config, weights, [])
    assert not (tmp_path / "m").exists()


def test_model_dir_weights_loaded_without_pickle(monkeypatch, handmade_model):
    calls = []
    real_load = np.load

    def spy(*args, **kwargs):
        calls.append(kwargs.get("allow_pickle"))
        return real_load(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    load_model(handmade_model)
    assert calls == [False]


def test_model_dir_resolve_model_path(tmp_path):
    assert resolve_model_path(tmp_path, "en") == tmp_path
    assert resolve_model_path(str(tmp_path), "xx") == tmp_path
    assert resolve_model_path(None, "en") == shipped_model_path("en")
    assert resolve_model_path("en", "fr") == shipped_model_path("en")
    # the default follows the pipeline's token vectors (model_dir.FALLBACK_MODELS)
    assert resolve_model_path(None, "fr", "fr_core_news_md 3.8.0") == shipped_model_path("fr")
    assert resolve_model_path(None, "fr", "fr_core_news_sm 3.8.0") == shipped_model_path("fr_sm")
    assert resolve_model_path(None, "fr", "fr_core_news_lg 3.8.0") == shipped_model_path("fr")
    assert resolve_model_path(None, "en", "en_core_web_sm 3.8.0") == shipped_model_path("en")
    assert resolve_model_path(None, "en", "en_core_web_lg 3.8.0") == shipped_model_path("en_portable")
    assert resolve_model_path("fr_sm", "fr", "fr_core_news_md 3.8.0") == shipped_model_path("fr_sm")
    assert shipped_model_path("en").parts[-2:] == ("models", "en")
    with pytest.raises(ModelLoadError, match=r"\[E106\].*'xx'.*neuralcoref train"):
        resolve_model_path(None, "xx")


def test_model_dir_handmade_writer_is_deterministic(tmp_path):
    a = load_model(write_handmade_model(tmp_path / "a", vector_dim=4, seed=3))
    b = load_model(write_handmade_model(tmp_path / "b", vector_dim=4, seed=3))
    for name, w in a.weights().items():
        assert np.array_equal(w, b.weights()[name])


@pytest.mark.parametrize("value", [-1, 2.5, "5", True], ids=["negative", "float", "string", "bool"])
def test_model_dir_bad_top_antecedents(model_copy, value):
    edit_json(model_copy, CONFIG_FILE, lambda c: c["defaults"].update(top_antecedents=value))
    with pytest.raises(ModelLoadError, match=r"\[E110\].*defaults.top_antecedents"):
        load_model(model_copy)


def test_read_config_needs_only_the_config_file(tmp_path, model_copy):
    (tmp_path / "only_config").mkdir()
    shutil.copy(model_copy / CONFIG_FILE, tmp_path / "only_config" / CONFIG_FILE)
    config = read_config(tmp_path / "only_config")
    assert config.lang == json.loads((model_copy / CONFIG_FILE).read_text())["lang"]
    (tmp_path / "only_config" / CONFIG_FILE).unlink()
    with pytest.raises(ModelLoadError, match=r"\[E103\].*config.json"):
        read_config(tmp_path / "only_config")
    with pytest.raises(ModelLoadError, match=r"\[E102\]"):
        read_config(tmp_path / "missing")
