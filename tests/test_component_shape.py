"""The component in spaCy's shape (issue 29): one model load, serialization
through named parts that honour ``exclude``, no temporary folder in
``from_bytes``, errors through the pipeline's error handler, ``Resolver.score``
without side effects, and the model card kept out of ``to_bytes``."""
import pickle
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Callable, List

import numpy as np
import pytest
import spacy
import srsly
from spacy.tokens import Doc

import neuralcoref.component as component
from neuralcoref.artifacts.model_dir import CARD_FILE, CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE
from neuralcoref.errors import NeuralcorefError

ANNA = "Anna said she likes Paris."
COMPANY = "The company said its profits rose. The company is happy."
LONG = COMPANY + " Its boss said the company and its staff like it. Anna said she likes them."


def texts_of(doc: Doc) -> List[List[str]]:
    return [[m.text for m in cluster] for cluster in doc._.coref_clusters]


@pytest.fixture
def loads(monkeypatch) -> List[str]:
    """Counts the component's model loads, from a folder or from bytes."""
    seen: List[str] = []
    read_model, load_model_bytes = component.read_model, component.load_model_bytes

    def from_folder(path):
        seen.append(f"folder {path}")
        return read_model(path)

    def from_bytes(files, where):
        seen.append(f"bytes {where}")
        return load_model_bytes(files, where)

    monkeypatch.setattr(component, "read_model", from_folder)
    monkeypatch.setattr(component, "load_model_bytes", from_bytes)
    return seen


@pytest.fixture
def blank_coref(handmade_model) -> Callable[..., spacy.language.Language]:
    """``blank_coref(**settings)``: a blank English pipeline with neuralcoref (the
    hand-made model), for Docs parsed by ``nlp_en``."""
    def make(**settings):
        nlp = spacy.blank("en")
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), **settings})
        return nlp
    return make


def test_component_shape_add_pipe_loads_at_first_use(blank_coref, nlp_en, loads):
    nlp = blank_coref()
    assert loads == [] and nlp.get_pipe("neuralcoref").model is None
    coref = nlp.get_pipe("neuralcoref")
    assert texts_of(coref(nlp_en(ANNA))) == [["Anna", "she"]]
    assert texts_of(coref(nlp_en(COMPANY)))
    assert len(loads) == 1


def test_component_shape_initialize_loads_once(blank_coref, loads):
    nlp = blank_coref()
    nlp.initialize()
    assert len(loads) == 1 and nlp.get_pipe("neuralcoref").model is not None
    nlp.get_pipe("neuralcoref").resolver
    assert len(loads) == 1


def test_component_shape_spacy_load_loads_once(blank_coref, nlp_en, tmp_path, loads):
    source = blank_coref(greedyness=0.6)
    expected = texts_of(source.get_pipe("neuralcoref")(nlp_en(LONG)))
    source.to_disk(tmp_path / "pipeline")
    loads.clear()
    loaded = spacy.load(tmp_path / "pipeline")
    assert loads == [f"folder {tmp_path / 'pipeline' / 'neuralcoref'}"]
    coref = loaded.get_pipe("neuralcoref")
    assert coref.cfg["greedyness"] == 0.6
    assert texts_of(coref(nlp_en(LONG))) == expected
    assert len(loads) == 1


def test_component_shape_nlp_from_bytes_loads_once(blank_coref, loads):
    source = blank_coref()
    data = source.to_bytes()
    loads.clear()
    target = spacy.blank("en").from_config(source.config)
    target.from_bytes(data)
    assert len(loads) == 1 and loads[0].startswith("bytes")


def _no_temporary_files(*args, **kwargs):
    raise AssertionError("from_bytes made a temporary file or folder")


def test_component_shape_from_bytes_writes_no_temporary_folder(blank_coref, nlp_en, monkeypatch, loads):
    source = blank_coref(greedyness=0.9)
    data = source.get_pipe("neuralcoref").to_bytes()
    target = blank_coref().get_pipe("neuralcoref")
    for name in ("TemporaryDirectory", "mkdtemp", "mkstemp", "NamedTemporaryFile", "TemporaryFile",
                 "SpooledTemporaryFile"):
        monkeypatch.setattr(tempfile, name, _no_temporary_files)
    loads.clear()
    target.from_bytes(data)
    assert [entry.split(" ")[0] for entry in loads] == ["bytes"]
    assert target.cfg["greedyness"] == 0.9 and target.resolver.greedyness == 0.9
    assert target.model.path is None  # nothing on disk behind it
    assert texts_of(target(nlp_en(LONG))) == texts_of(source.get_pipe("neuralcoref")(nlp_en(LONG)))


def test_component_shape_to_disk_exclude(blank_coref, tmp_path, loads):
    coref = blank_coref().get_pipe("neuralcoref")
    coref.to_disk(tmp_path / "settings", exclude=["model"])
    assert sorted(p.name for p in (tmp_path / "settings").iterdir()) == ["cfg.json"]
    assert loads == []  # nothing to save of the model: it was not even loaded
    coref.to_disk(tmp_path / "model", exclude=["cfg"])
    assert sorted(p.name for p in (tmp_path / "model").iterdir()) == sorted(
        [CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE, CARD_FILE])
    # spaCy's own exclude=["vocab"] (its Vocab) keeps the model's vocab.json
    coref.to_disk(tmp_path / "all", exclude=["vocab"])
    assert (tmp_path / "all" / VOCAB_FILE).is_file() and (tmp_path / "all" / "cfg.json").is_file()


def test_component_shape_from_disk_exclude(blank_coref, tmp_path, loads):
    blank_coref(greedyness=0.9).get_pipe("neuralcoref").to_disk(tmp_path / "saved")
    target = blank_coref(greedyness=0.2).get_pipe("neuralcoref")
    loads.clear()
    target.from_disk(tmp_path / "saved", exclude=["cfg"])
    assert target.cfg["greedyness"] == 0.2 and target.resolver.greedyness == 0.2
    assert loads == [f"folder {tmp_path / 'saved'}"]
    other = blank_coref(greedyness=0.2).get_pipe("neuralcoref")
    other.from_disk(tmp_path / "saved", exclude=["model"])
    assert other.cfg["greedyness"] == 0.9 and other.model is None
    assert other.resolver.greedyness == 0.9  # its own model, loaded at first use


def test_component_shape_bytes_exclude(blank_coref, loads):
    source = blank_coref(greedyness=0.9).get_pipe("neuralcoref")
    settings_only = srsly.msgpack_loads(source.to_bytes(exclude=["model"]))
    assert list(settings_only) == ["cfg"] and loads == []
    data = source.to_bytes()
    assert sorted(srsly.msgpack_loads(data)) == ["cfg", "model"]
    target = blank_coref(greedyness=0.2).get_pipe("neuralcoref")
    loads.clear()
    target.from_bytes(data, exclude=["model"])
    assert target.cfg["greedyness"] == 0.9 and loads == []
    target.from_bytes(data, exclude=["cfg"])
    assert target.cfg["greedyness"] == 0.9 and [entry.split(" ")[0] for entry in loads] == ["bytes"]
    again = blank_coref(greedyness=0.2).get_pipe("neuralcoref").from_bytes(data, exclude=["cfg"])
    assert again.cfg["greedyness"] == 0.2


@pytest.fixture
def carded_model(tmp_path, handmade_model) -> Path:
    folder = Path(shutil.copytree(handmade_model, tmp_path / "carded"))
    (folder / CARD_FILE).write_text("# A card\n\nCARD-MARKER-29: trained on nothing at all.\n")
    return folder


def test_component_shape_card_stays_on_disk(carded_model, tmp_path):
    nlp = spacy.blank("en")
    coref = nlp.add_pipe("neuralcoref", config={"model": str(carded_model)})
    assert b"CARD-MARKER-29" not in coref.to_bytes()
    assert b"CARD-MARKER-29" not in pickle.dumps(coref)
    assert b"CARD-MARKER-29" not in nlp.to_bytes()
    nlp.to_disk(tmp_path / "pipeline")
    assert "CARD-MARKER-29" in (tmp_path / "pipeline" / "neuralcoref" / CARD_FILE).read_text()
    # and it is copied on from the saved pipeline's folder
    spacy.load(tmp_path / "pipeline").to_disk(tmp_path / "again")
    assert "CARD-MARKER-29" in (tmp_path / "again" / "neuralcoref" / CARD_FILE).read_text()


def test_component_shape_error_handler(blank_coref, nlp_en):
    nlp = blank_coref()
    unparsed = Doc(nlp.vocab, words=["Anna", "said", "she", "left", "."])
    good = [nlp_en(ANNA), nlp_en(COMPANY)]
    with pytest.raises(NeuralcorefError, match=r"\[E051\]"):  # spaCy's default handler raises
        nlp(unparsed)
    seen = []
    nlp.set_error_handler(lambda name, proc, docs, err: seen.append((name, proc, docs, err)))
    out = list(nlp.pipe([good[0], unparsed, good[1]], batch_size=8))
    # only the failing Doc goes to the handler, and is left out, as spaCy's pipes do
    assert [texts_of(d) for d in out] == [[["Anna", "she"]], texts_of(nlp(nlp_en(COMPANY)))]
    assert len(seen) == 1
    name, proc, docs, err = seen[0]
    assert name == "neuralcoref" and proc is nlp.get_pipe("neuralcoref") and docs == [unparsed]
    assert isinstance(err, NeuralcorefError) and "[E051]" in str(err)
    doc = nlp(Doc(nlp.vocab, words=["He", "left"]))
    assert len(seen) == 2 and isinstance(doc, Doc) and not doc._.coref_clusters


@pytest.fixture(scope="module")
def handmade_twice(handmade_model, tmp_path_factory) -> Path:
    from neuralcoref.artifacts.ensemble import save_ensemble
    return save_ensemble([handmade_model, handmade_model], tmp_path_factory.mktemp("twice") / "m")


def test_component_shape_score_leaves_its_items(handmade_twice, nlp_en):
    nlp = spacy.blank("en")
    coref = nlp.add_pipe("neuralcoref", config={"model": str(handmade_twice), "top_antecedents": 1})
    resolver = coref.resolver
    items = [resolver.featurize_doc(nlp_en(text)) for text in (LONG, ANNA, "")]
    before = [(it.ptr.copy(), it.ante.copy(), it.codes.copy()) for it in items]
    scores = resolver.score(items)
    for it, (ptr, ante, codes) in zip(items, before):
        assert np.array_equal(it.ptr, ptr) and np.array_equal(it.ante, ante) and np.array_equal(it.codes, codes)
    assert len(scores.items[0].ante) < len(items[0].ante)  # pruned: in the copies only
    for pair, scored in zip(scores.pair, scores.items):
        assert len(pair) == len(scored.ante) and scored.ptr[-1] == len(scored.ante)
    # scoring the same items again gives the same scores
    again = resolver.score(items)
    for a, b in zip(scores.pair, again.pair):
        np.testing.assert_array_equal(a, b)
    decided = [resolver.decide_featurized(it, s, p, mention=m).clusters
               for s, p, m, it in zip(*scores)]
    assert decided == [r.clusters for r in resolver.predict([nlp_en(t) for t in (LONG, ANNA, "")])]


def test_component_shape_pickle_after_lazy_load(blank_coref, nlp_en):
    coref = blank_coref().get_pipe("neuralcoref")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning on the way
        copy = pickle.loads(pickle.dumps(coref))
    assert texts_of(copy(nlp_en(ANNA))) == [["Anna", "she"]]
