"""The spaCy component: settings, attributes, serialization, batching, bad input.

Clusters are those of the hand-made model (string match and agreement) over the
parses of en_core_web_sm 3.8.0.
"""
import json
from importlib.metadata import entry_points
import pickle
import shutil
import subprocess
import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.lang.en import English
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from conftest import EN_PIPELINE
from handmade import SINGLE_SCORE, write_handmade_model
from neuralcoref.component import NeuralCoref, PipelineContext
from neuralcoref.validation import DEFAULT_BLACKLIST, CorefSettings
from neuralcoref.errors import ModelLoadError, NeuralcorefError
from neuralcoref.extensions import MAINS_KEY, SCORES_KEY, set_clusters

ANNA = "Anna said she likes Paris."
COMPANY = "The company said its profits rose. The company is happy."
TEXTS = [ANNA, COMPANY, "My sister has a dog. She loves him.", "", "Hello",
         "Anna met Tom Baker in Rome. Tom Baker said that she was late. Anna agreed."]


def clusters_of(doc: Doc):
    return [[(m.start, m.end) for m in c] for c in doc._.coref_clusters]


def texts_of(doc: Doc):
    return [[m.text for m in c] for c in doc._.coref_clusters]


def test_component_resolves_with_the_handmade_model(nlp_coref):
    doc = nlp_coref(ANNA)
    assert texts_of(doc) == [["Anna", "she"]]
    assert doc._.coref_resolved == "Anna said Anna likes Paris."
    doc = nlp_coref(COMPANY)
    assert texts_of(doc) == [["The company", "its", "The company"]]
    assert doc._.coref_resolved == "The company said the company's profits rose. The company is happy."


def test_component_attaches_a_far_repeated_name_to_its_cluster(nlp_coref):
    # The hand-made scores fade with sentence distance: the last "Anna" scores
    # below the link threshold against the first, yet a repeated name left out of
    # every cluster joins the cluster of its latest earlier mention.
    filler = " ".join(f"The sun rose over hill number {i}." for i in range(30))
    doc = nlp_coref(f"Anna said she was tired. {filler} Anna slept.")
    anna = list(doc._.coref_clusters[0])
    assert [m.text for m in anna] == ["Anna", "she", "Anna"] and anna[-1].start == len(doc) - 3
    assert doc._.coref_scores[anna[-1]][anna[0]] < SINGLE_SCORE  # not a scored link


def test_component_doc_span_token_attributes(nlp_coref):
    doc = nlp_coref(COMPANY)
    assert doc._.has_coref
    cluster = doc._.coref_clusters[0]
    assert cluster.i == 0 and cluster.main.text == "The company" and len(cluster) == 3
    assert [m.text for m in cluster] == [m.text for m in cluster.mentions]
    its = doc[3:4]
    assert its.text == "its" and its._.is_coref and its._.coref_cluster == cluster
    assert not doc[4:5]._.is_coref and doc[4:5]._.coref_cluster is None
    assert doc[1]._.in_coref and doc[1]._.coref_clusters == [cluster]
    assert not doc[2]._.in_coref
    assert set(doc.spans) == {"coref_clusters_1", MAINS_KEY}


def test_component_scores_when_stored(nlp_coref):
    doc = nlp_coref(ANNA)
    scores = doc._.coref_scores
    anna, she = doc[0:1], doc[2:3]
    assert scores[she][she] == pytest.approx(SINGLE_SCORE)  # a mention's own score: no antecedent
    assert scores[she][anna] > SINGLE_SCORE  # the link that was made
    assert she._.coref_scores == scores[she]
    assert anna._.coref_scores == {anna: pytest.approx(SINGLE_SCORE)}  # the first mention has no candidates
    json.dumps(doc.user_data[SCORES_KEY])  # plain lists: serializable


def test_component_no_scores_by_default(make_nlp):
    doc = make_nlp()(ANNA)
    assert doc._.coref_clusters and doc._.coref_scores is None and SCORES_KEY not in doc.user_data


def test_component_settings_in_cfg(make_nlp, handmade_model):
    nlp = make_nlp(greedyness=0.7, max_dist=10, max_dist_match=20, blacklist=True)
    pipe = nlp.get_pipe("neuralcoref")
    assert isinstance(pipe, NeuralCoref) and nlp.pipe_names[-1] == "neuralcoref"
    assert pipe.cfg["greedyness"] == 0.7 and pipe.cfg["blacklist"] == list(DEFAULT_BLACKLIST)
    resolver = pipe.resolver
    assert (resolver.greedyness, resolver.max_dist, resolver.max_dist_match) == (0.7, 10, 20)
    assert nlp.config["components"]["neuralcoref"]["model"] == str(handmade_model)


def test_component_candidate_window_defaults_to_the_models(make_nlp, handmade_model, tmp_path):
    import shutil
    model = tmp_path / "model"
    shutil.copytree(handmade_model, model)
    config = json.loads((model / "config.json").read_text())
    config["defaults"] = {**config.get("defaults", {}), "max_dist": 7, "max_dist_match": 70}
    (model / "config.json").write_text(json.dumps(config))
    resolver = make_nlp(model=str(model)).get_pipe("neuralcoref").resolver
    assert (resolver.max_dist, resolver.max_dist_match) == (7, 70)
    resolver = make_nlp(model=str(model), max_dist=3).get_pipe("neuralcoref").resolver
    assert (resolver.max_dist, resolver.max_dist_match) == (3, 70)


@pytest.mark.parametrize("setting,value", [
    ("greedyness", -0.1), ("greedyness", 1.5), ("max_dist", -1), ("max_dist_match", -5)],
    ids=["greedyness-negative", "greedyness-above-one", "max-dist", "max-dist-match"])
def test_component_bad_settings(handmade_model, setting, value):
    nlp = spacy.blank("en")
    with pytest.raises(NeuralcorefError, match=rf"\[E170\] Setting '{setting}'.*expected"):
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), setting: value})


def test_component_nan_greedyness(handmade_model):
    # NaN cannot pass through a spaCy config, but the class may be built directly
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'greedyness'"):
        NeuralCoref(spacy.blank("en").vocab, settings=CorefSettings(greedyness=float("nan")), model=str(handmade_model))


def test_component_missing_model_folder(tmp_path):
    # refused when added, as the command line refuses it at once (not at the first Doc)
    nlp = spacy.blank("en")
    with pytest.raises(ModelLoadError, match=r"\[E102\].*nowhere"):
        nlp.add_pipe("neuralcoref", config={"model": str(tmp_path / "nowhere")})
    assert "neuralcoref" not in nlp.pipe_names


def test_component_missing_model_folder_built_from_a_config(tmp_path, handmade_model):
    # spaCy builds a saved pipeline from its config before from_disk brings the
    # model: no error then, and initialize (or the first Doc) says what is missing.
    source = spacy.blank("en")
    source.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    config = source.config.copy()
    config["components"]["neuralcoref"]["model"] = str(tmp_path / "nowhere")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nlp = spacy.blank("en").from_config(config)
    with pytest.raises(ModelLoadError, match=r"\[E102\].*nowhere"):
        nlp.initialize()
    nlp.get_pipe("neuralcoref").from_bytes(source.get_pipe("neuralcoref").to_bytes())
    assert nlp.get_pipe("neuralcoref").model is not None


def test_component_damaged_model_folder(tmp_path, handmade_model):
    folder = Path(shutil.copytree(handmade_model, tmp_path / "model"))
    (folder / "weights.npz").write_bytes(b"not a zip")
    with pytest.raises(ModelLoadError, match=r"\[E107\]"):
        spacy.blank("en").add_pipe("neuralcoref", config={"model": str(folder)})


def test_component_extensions_registered_by_import_and_factory(handmade_model):
    # Importing neuralcoref registers them (for Docs read from a DocBin); the
    # factory registers them too, for spacy.load without the import.
    code = f"""
import spacy
from spacy.tokens import Doc, Span, Token
assert not Doc.has_extension("coref_clusters") and not Span.has_extension("is_coref")
import neuralcoref
assert Doc.has_extension("coref_clusters") and Span.has_extension("is_coref")
assert Token.has_extension("in_coref")
neuralcoref.register_extensions()  # idempotent
nlp = spacy.blank("en")
nlp.add_pipe("neuralcoref", config={{"model": {str(handmade_model)!r}}})
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_component_factory_registered_as_entry_point():
    # so that spacy.load finds the factory without anyone importing neuralcoref
    points = entry_points(group="spacy_factories")
    assert any(p.name == "neuralcoref" and p.value == "neuralcoref.component:make_neuralcoref"
               for p in points)


def test_component_to_disk_and_spacy_load(tmp_path, handmade_model):
    folder = Path(shutil.copytree(handmade_model, tmp_path / "model"))
    nlp = spacy.load(EN_PIPELINE)
    nlp.add_pipe("neuralcoref", config={"model": str(folder), "greedyness": 0.6, "store_scores": True})
    expected = nlp(COMPANY)
    nlp.to_disk(tmp_path / "pipeline")
    shutil.rmtree(folder)  # the pipeline folder carries its own copy of the model
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to say: the model comes with the pipeline
        loaded = spacy.load(tmp_path / "pipeline")
    pipe = loaded.get_pipe("neuralcoref")
    assert pipe.cfg["greedyness"] == 0.6 and pipe.cfg["store_scores"]
    doc = loaded(COMPANY)
    assert clusters_of(doc) == clusters_of(expected)
    assert doc.user_data[SCORES_KEY] == expected.user_data[SCORES_KEY]
    assert (tmp_path / "pipeline" / "neuralcoref" / "weights.npz").is_file()


def test_component_to_bytes_and_from_bytes(make_nlp, tmp_path, handmade_model):
    folder = Path(shutil.copytree(handmade_model, tmp_path / "model"))
    source = make_nlp(model=str(folder), greedyness=0.9)
    data = source.get_pipe("neuralcoref").to_bytes()
    shutil.rmtree(folder)
    target = make_nlp(greedyness=0.1)
    pipe = target.get_pipe("neuralcoref").from_bytes(data)
    assert pipe.cfg["greedyness"] == 0.9 and pipe.resolver.greedyness == 0.9
    assert clusters_of(target(COMPANY)) == clusters_of(source(COMPANY))
    # what was loaded from bytes can be saved again (its temporary folder is gone)
    again = make_nlp().get_pipe("neuralcoref").from_bytes(pipe.to_bytes())
    assert again.cfg == pipe.cfg
    pipe.to_disk(tmp_path / "again")
    assert (tmp_path / "again" / "config.json").is_file()


def test_component_nlp_to_bytes_round_trip(nlp_coref):
    nlp = English.from_config(nlp_coref.config)
    nlp.from_bytes(nlp_coref.to_bytes())
    assert clusters_of(nlp(COMPANY)) == clusters_of(nlp_coref(COMPANY))


def test_component_pickle(nlp_coref):
    pipe = pickle.loads(pickle.dumps(nlp_coref.get_pipe("neuralcoref")))
    pipe = pickle.loads(pickle.dumps(pipe))  # twice: the first copy has no model folder
    assert pipe.cfg == nlp_coref.get_pipe("neuralcoref").cfg
    with nlp_coref.select_pipes(disable=["neuralcoref"]):
        doc = nlp_coref(ANNA)
    assert texts_of(pipe(doc)) == [["Anna", "she"]]


@pytest.mark.slow
def test_component_pickle_whole_pipeline(nlp_coref):
    nlp = pickle.loads(pickle.dumps(nlp_coref))
    assert clusters_of(nlp(COMPANY)) == clusters_of(nlp_coref(COMPANY))


def test_component_docbin_round_trip(nlp_coref):
    docs = list(nlp_coref.pipe(TEXTS))
    restored = list(DocBin(docs=docs).from_bytes(DocBin(docs=docs).to_bytes()).get_docs(nlp_coref.vocab))
    assert [clusters_of(d) for d in restored] == [clusters_of(d) for d in docs]
    assert restored[1]._.coref_resolved == docs[1]._.coref_resolved


def test_component_pipe_equals_calls(nlp_coref):
    one_by_one = [nlp_coref(t) for t in TEXTS]
    for batch_size in (1, 2, 64):
        batched = list(nlp_coref.pipe(TEXTS, batch_size=batch_size))
        assert [clusters_of(d) for d in batched] == [clusters_of(d) for d in one_by_one]
        for a, b in zip(batched, one_by_one):
            ra, rb = a.user_data[SCORES_KEY], b.user_data[SCORES_KEY]
            assert ra["mentions"] == rb["mentions"]
            np.testing.assert_allclose(ra["single"], rb["single"], rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose([p[2] for p in ra["pairs"]], [p[2] for p in rb["pairs"]],
                                       rtol=1e-5, atol=1e-5)


def test_component_pipe_with_two_processes(nlp_coref):
    texts = TEXTS * 3
    parallel = list(nlp_coref.pipe(texts, n_process=2, batch_size=2))
    sequential = list(nlp_coref.pipe(texts))
    assert [clusters_of(d) for d in parallel] == [clusters_of(d) for d in sequential]
    assert any(clusters_of(d) for d in parallel)


def test_component_predict_is_pure(nlp_coref):
    with nlp_coref.select_pipes(disable=["neuralcoref"]):
        doc = nlp_coref(ANNA)
    pipe = nlp_coref.get_pipe("neuralcoref")
    results = pipe.predict([doc])
    assert not doc._.has_coref and not doc.spans
    pipe.set_annotations([doc], results)
    assert texts_of(doc) == [["Anna", "she"]]


@pytest.mark.parametrize("text", ["", " ", "   \n\t ", "Hello", "Hello.", "!!!", "\u200b", "日本語"],
                         ids=["empty", "space", "whitespace", "one-word", "one-sentence", "punct",
                              "zero-width-space", "cjk"])
def test_component_tiny_texts(nlp_coref, text):
    doc = nlp_coref(text)
    assert not doc._.has_coref and doc._.coref_clusters == []
    assert doc._.coref_resolved == text


def test_component_vector_model(make_nlp, handmade_vector_model):
    nlp = make_nlp(model=str(handmade_vector_model))
    docs = list(nlp.pipe(["", ANNA, "   ", COMPANY]))
    assert texts_of(docs[1]) == [["Anna", "she"]] and docs[0]._.coref_clusters == []


def test_component_vectors_missing(make_nlp, handmade_vector_model, make_doc):
    nlp = make_nlp(model=str(handmade_vector_model))
    doc = make_doc([("He", 1, "nsubj", "PRON"), ("left", 1, "ROOT", "VERB")])
    with pytest.raises(NeuralcorefError, match=r"\[E100\].*tok2vec"):
        nlp.get_pipe("neuralcoref")(doc)


def test_component_vector_width_mismatch(make_nlp, tmp_path):
    nlp = make_nlp(model=str(write_handmade_model(tmp_path / "m", vector_dim=8)))
    with pytest.raises(NeuralcorefError, match=r"\[E109\].*96.*8"):
        nlp(ANNA)


def _model_with_prior(folder, dim: int, value: float, tokens: float) -> str:
    path = write_handmade_model(folder, vector_dim=dim)
    config = json.loads((path / "config.json").read_text())
    config["document_prior"] = {"mean": [value] * dim, "tokens": tokens}
    (path / "config.json").write_text(json.dumps(config))
    return str(path)


def test_component_vector_width_mismatch_with_a_document_prior(make_nlp, tmp_path):
    nlp = make_nlp(model=_model_with_prior(tmp_path / "m", 8, 0.5, 100.0))
    with pytest.raises(NeuralcorefError, match=r"\[E109\].*96.*8"):  # not a numpy error
        nlp(ANNA)


def test_component_document_prior_reaches_the_features(make_nlp, tmp_path):
    from neuralcoref.core.features.contract import SPAN_VECTORS
    nlp = make_nlp(model=_model_with_prior(tmp_path / "m", 96, 1.0, 50.0))
    doc = nlp(ANNA)
    item = nlp.get_pipe("neuralcoref").resolver.featurize_doc(doc)
    k = SPAN_VECTORS.index("document")
    expected = (doc.tensor.sum(axis=0) + 50.0) / (len(doc) + 50.0)
    np.testing.assert_allclose(item.features.vectors[0, k * 96:(k + 1) * 96], expected, rtol=1e-4, atol=1e-5)


def test_component_unparsed_doc(handmade_model, nlp_coref):
    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    with pytest.raises(NeuralcorefError, match=r"\[E051\].*'parser'"):
        nlp(ANNA)
    with pytest.raises(NeuralcorefError, match=r"\[E051\]"):
        nlp_coref.get_pipe("neuralcoref")(nlp_coref.make_doc(ANNA))
    assert nlp("")._.coref_clusters == []  # nothing to parse, nothing to complain about


@pytest.mark.parametrize("lang", ["xx", "de"])
def test_component_language_without_rules(handmade_model, lang):
    nlp = spacy.blank(lang)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # generic rules may come with a warning
            nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    except NeuralcorefError as err:  # no rules for the language
        assert "[E050]" in str(err) and f"'{lang}'" in str(err)
        return
    # generic rules: a blank pipeline still lacks the parse they need
    with pytest.raises(NeuralcorefError, match=r"\[E051\].*'parser'"):
        nlp("Ein Satz.")


def test_component_rules_of_the_pipeline_language(handmade_model):
    from neuralcoref.lang import get_rules

    nlp = spacy.blank("xx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            pipe = nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
        except NeuralcorefError:
            pytest.skip("no generic rules")
    # the model was trained on English, but mentions follow the pipeline's labels
    assert pipe.resolver.rules == get_rules("xx") != get_rules("en")
    with pytest.warns(UserWarning, match="W100"):
        assert pickle.loads(pickle.dumps(pipe)).resolver.rules == pipe.rules


def test_component_warns_when_model_rules_differ(handmade_model):
    nlp = spacy.blank("xx")
    with pytest.warns(UserWarning, match=r"W100.*'en' mention rules.*'xx' rules"):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*W050.*")
            nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})


def test_component_blacklist(make_nlp):
    text = "I said I like my dog. You know why."
    assert texts_of(make_nlp()(text)) == [["I", "I", "my"]]
    assert make_nlp(blacklist=True)(text)._.coref_clusters == []
    assert texts_of(make_nlp(blacklist=["my"])(text)) == [["I", "I"]]


ANNA_DOCTOR = "Anna thinks the doctor is kind, she said."


@pytest.mark.parametrize("greedyness,expected", [
    (0.0, []), (0.5, [["Anna", "she"]]), (1.0, [["Anna", "the doctor", "she"]])], ids=["0", "0.5", "1"])
def test_component_greedyness(make_nlp, greedyness, expected):
    # at 1 every mention with an allowed candidate links, at 0 none does (a
    # person noun, as "the city" may not join "she" by the lexicon's classes; put
    # before "she", as "she thinks the doctor" would keep them apart by binding
    # principle C, and in a clause of its own, as "Anna likes the doctor" would
    # by N)
    assert texts_of(make_nlp(greedyness=greedyness)(ANNA_DOCTOR)) == expected


def test_component_never_joins_different_names(make_nlp):
    # Even linking every mention it can, "Paris" may not join the cluster of
    # "Anna": names that share no word are not one entity.
    assert texts_of(make_nlp(greedyness=1.0)(ANNA)) == [["Anna", "she"]]
    # names that share a word may
    assert texts_of(make_nlp()("Tom Baker arrived. Baker smiled.")) == [["Tom Baker", "Baker"]]


@pytest.mark.parametrize("offsets,expected", [
    ({}, [["Anna", "she"]]), ({"pronominal": 100.0}, []),
    ({"nominal": -100.0}, [["Anna", "the doctor", "she"]]),
    ({"proper": -100.0, "list": 100.0}, [["Anna", "she"]])],
    ids=["none", "pronouns-never", "nominals-always", "other-types"])
def test_component_link_offsets(make_nlp, offsets, expected):
    # a per-type offset moves only that type's threshold ("she" is a pronoun, "the doctor" a nominal)
    assert texts_of(make_nlp(link_offsets=offsets)(ANNA_DOCTOR)) == expected


def test_component_link_offsets_default_to_the_models(make_nlp, handmade_model, tmp_path):
    model = Path(shutil.copytree(handmade_model, tmp_path / "model"))
    config = json.loads((model / "config.json").read_text())
    config["defaults"] = {**config.get("defaults", {}), "link_offsets": {"pronominal": 100.0}}
    (model / "config.json").write_text(json.dumps(config))
    assert make_nlp(model=str(model))(ANNA)._.coref_clusters == []
    assert texts_of(make_nlp(model=str(model), link_offsets={})(ANNA)) == [["Anna", "she"]]


@pytest.mark.parametrize("value", [{"verbal": 1.0}, {"proper": "low"}, {"proper": True}, [0.1]],
                         ids=["unknown-type", "string", "bool", "list"])
def test_component_bad_link_offsets(handmade_model, value):
    # spaCy's config validation rejects wrong types before the component sees
    # them; the class, built directly, checks them itself
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'link_offsets'"):
        NeuralCoref(spacy.blank("en").vocab, settings=CorefSettings(link_offsets=value), model=str(handmade_model))


def test_component_unknown_link_offset_type_in_config(handmade_model):
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'link_offsets'.*unknown mention type 'verbal'"):
        spacy.blank("en").add_pipe("neuralcoref", config={"model": str(handmade_model),
                                                          "link_offsets": {"verbal": 1.0}})


def test_component_max_dist_zero(make_nlp):
    assert make_nlp(max_dist=0, max_dist_match=0)(COMPANY)._.coref_clusters == []
    # head matches reach back beyond max_dist: "The company" ... "its profits" ... "The company"
    assert texts_of(make_nlp(max_dist=1, max_dist_match=1)(COMPANY)) == [["The company", "its"]]
    assert texts_of(make_nlp(max_dist=1)(COMPANY)) == [["The company", "its", "The company"]]


def test_component_score(nlp_coref):
    predicted = nlp_coref(COMPANY)
    reference = predicted.copy()
    set_clusters(reference, [[(0, 2), (3, 4), (7, 9)]], [(0, 2)])
    scores = nlp_coref.get_pipe("neuralcoref").score([Example(predicted, reference)])
    assert set(scores) == {"coref_f", "coref_muc_f", "coref_bcub_f", "coref_ceafe_f"}
    assert scores["coref_f"] == pytest.approx(scores["coref_muc_f"]) and scores["coref_f"] > 0
    set_clusters(reference, [[(0, 2), (7, 9)]], [(0, 2)])
    worse = nlp_coref.get_pipe("neuralcoref").score([Example(predicted, reference)])
    assert worse["coref_f"] < scores["coref_f"]


def _long_doc(nlp_coref, n_tokens: int) -> Doc:
    """A parsed Doc of at least ``n_tokens`` tokens, by repetition (parsed once)."""
    with nlp_coref.select_pipes(disable=["neuralcoref"]):
        base = nlp_coref(" ".join(t for t in TEXTS if t))
    return Doc.from_docs([base] * (n_tokens // len(base) + 1))


def _peak_memory(pipe, doc: Doc) -> int:
    tracemalloc.start()
    try:
        pipe(doc)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_component_long_document_bounded_memory(nlp_coref, make_nlp):
    doc = _long_doc(nlp_coref, 20_000)
    peak = _peak_memory(make_nlp().get_pipe("neuralcoref"), doc)  # without stored scores
    assert len(doc) >= 20_000 and doc._.has_coref
    assert peak < 200 * 2**20  # about 70 MB: the candidate window bounds the pairs


@pytest.mark.slow
def test_component_memory_linear_in_length(nlp_coref, make_nlp):
    pipe = make_nlp().get_pipe("neuralcoref")
    small = _peak_memory(pipe, _long_doc(nlp_coref, 5_000))
    large = _peak_memory(pipe, _long_doc(nlp_coref, 40_000))
    assert large < 8 * 1.5 * small


def test_component_nothing_to_save_without_a_model(tmp_path):
    pipe = NeuralCoref(spacy.blank("en").vocab, model=str(tmp_path / "none"), context=PipelineContext(model_later=True))
    assert pipe.model is None  # spaCy looks at pipe.model while building pipelines
    with pytest.raises(ModelLoadError, match=r"\[E102\]"):
        pipe.to_bytes()


@pytest.fixture(scope="module")
def handmade_twice(handmade_model, tmp_path_factory) -> Path:
    from neuralcoref.artifacts.ensemble import save_ensemble
    return save_ensemble([handmade_model, handmade_model], tmp_path_factory.mktemp("twice") / "m")


def test_component_top_antecedents_prunes_an_ensembles_candidates(make_nlp, handmade_twice):
    text = COMPANY + " Its boss said the company and its staff like it."
    full = make_nlp(model=str(handmade_twice), store_scores=True)(text)
    pruned = make_nlp(model=str(handmade_twice), store_scores=True, top_antecedents=1)(text)
    # Identical members rank candidates alike: the best one survives, so the clusters do.
    assert texts_of(full) and texts_of(pruned) == texts_of(full)
    full_pairs, pruned_pairs = (d.user_data[SCORES_KEY]["pairs"] for d in (full, pruned))
    best = {}
    for ana, ante, score in full_pairs:
        best[ana] = max(best.get(ana, -np.inf), score)
    assert len(full_pairs) > len(best) + 3  # several mentions had several candidates
    # One candidate per mention now, scored as the full ensemble scores its best.
    assert sorted(ana for ana, _, _ in pruned_pairs) == sorted(best)
    for ana, _, score in pruned_pairs:
        assert score == pytest.approx(best[ana], abs=1e-5)


def test_component_top_antecedents_batches_like_single_docs(make_nlp, handmade_twice):
    # Pruning drops pairs from every Doc of a batch scored together: each Doc
    # must keep its own pairs and scores.
    nlp = make_nlp(model=str(handmade_twice), store_scores=True, top_antecedents=2)
    texts = [COMPANY, "", ANNA + " " + COMPANY + " She said it grew.", "Hello.", COMPANY * 3]
    alone = [nlp(t) for t in texts]
    batched = list(nlp.pipe(texts, batch_size=5))
    for a, b in zip(alone, batched):
        assert texts_of(a) == texts_of(b)
        pairs_a, pairs_b = (np.array(d.user_data[SCORES_KEY]["pairs"]).reshape(-1, 3) for d in (a, b))
        np.testing.assert_allclose(pairs_a, pairs_b, atol=1e-5)
    assert any(texts_of(d) for d in batched)
    assert len(batched[-1].user_data[SCORES_KEY]["pairs"]) < 2 * len(batched[-1].user_data[SCORES_KEY]["single"])


@pytest.mark.parametrize("value", [-1, 2.5, "5", True], ids=["negative", "float", "string", "bool"])
def test_component_bad_top_antecedents(handmade_model, value):
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'top_antecedents'"):
        NeuralCoref(spacy.blank("en").vocab, settings=CorefSettings(top_antecedents=value), model=str(handmade_model))
