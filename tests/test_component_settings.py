"""The component's settings as one frozen object (issue 59): listed once
(``CorefSettings``' fields), checked once, ``cfg`` their read-only JSON form;
and the component's scorer registered in spaCy's registry."""
import dataclasses
import inspect
import json
from typing import Dict

import pytest
import spacy
from spacy.training import Example
from spacy.util import registry

from neuralcoref.component import DEFAULT_CONFIG, SCORER, make_neuralcoref, score_coref
from neuralcoref.errors import NeuralcorefError
from neuralcoref.validation import COMPONENT_FIELDS, DEFAULT_BLACKLIST, CorefSettings

COMPANY = "The company said its profits rose. The company is happy."
SETTINGS = [f.name for f in dataclasses.fields(CorefSettings)]


def test_component_settings_are_listed_once():
    factory = [p for p in inspect.signature(make_neuralcoref).parameters if p not in ("nlp", "name")]
    assert factory == SETTINGS + ["model", "rules", "scorer"]
    assert list(DEFAULT_CONFIG) == factory
    assert COMPONENT_FIELDS == set(SETTINGS)
    assert {k: DEFAULT_CONFIG[k] for k in SETTINGS} == {f.name: f.default for f in dataclasses.fields(CorefSettings)}


def test_component_settings_checked_when_made_and_frozen():
    settings = CorefSettings(greedyness=1, blacklist=True, conv_dict={"Anna": ["woman"]})
    assert settings.greedyness == 1.0 and type(settings.greedyness) is float
    assert settings.blacklist == DEFAULT_BLACKLIST
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.greedyness = 0.2
    with pytest.raises(TypeError):
        settings.conv_dict["Zed"] = ("man",)
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'max_dist'"):
        dataclasses.replace(settings, max_dist=-1)
    # made again from its JSON form, it is the same
    assert CorefSettings(**settings.to_dict()) == settings
    assert json.loads(json.dumps(settings.to_dict())) == settings.to_dict()


def test_component_settings_cfg_is_their_read_only_dict(blank_settings_pipe):
    nlp = blank_settings_pipe(greedyness=0.7, blacklist=True)
    pipe = nlp.get_pipe("neuralcoref")
    assert isinstance(pipe.cfg, dict) and pipe.cfg == pipe.settings.to_dict()
    assert pipe.cfg["greedyness"] == 0.7 and pipe.cfg["blacklist"] == list(DEFAULT_BLACKLIST)
    with pytest.raises(NeuralcorefError, match=r"\[E479\]"):
        pipe.cfg["greedyness"] = 0.1
    with pytest.raises(NeuralcorefError, match=r"\[E479\]"):
        pipe.cfg.update(greedyness=0.1)
    assert pipe.resolver.greedyness == 0.7
    pipe.settings = dataclasses.replace(pipe.settings, greedyness=0.2)
    assert pipe.cfg["greedyness"] == 0.2 and pipe.resolver.greedyness == 0.2  # the resolver follows
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'greedyness'"):
        pipe.settings = {**pipe.cfg, "greedyness": 2}


@pytest.fixture
def blank_settings_pipe(handmade_model):
    def make(**config):
        nlp = spacy.blank("en")
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), **config})
        return nlp
    return make


def test_component_settings_scorer_is_registered(blank_settings_pipe, nlp_en):
    assert registry.scorers.get(SCORER)() is score_coref
    nlp = blank_settings_pipe()
    assert nlp.config["components"]["neuralcoref"]["scorer"] == {"@scorers": SCORER}
    doc = nlp(nlp_en(COMPANY))
    assert doc._.coref_clusters  # the hand-made model finds "The company ... its"
    scores = nlp.get_pipe("neuralcoref").score([Example(doc, doc)])
    assert scores["coref_f"] == pytest.approx(1.0)
    assert nlp.evaluate([Example(doc, doc)])["coref_f"] == pytest.approx(1.0)


@registry.scorers("neuralcoref.test_scorer.v1")
def _counting_scorer():
    def score(examples, **kwargs) -> Dict[str, float]:
        return {"coref_f": float(len(list(examples)))}
    return score


def test_component_settings_scorer_from_the_config(blank_settings_pipe, nlp_en):
    nlp = blank_settings_pipe(scorer={"@scorers": "neuralcoref.test_scorer.v1"})
    doc = nlp(nlp_en(COMPANY))
    assert nlp.get_pipe("neuralcoref").score([Example(doc, doc)] * 3) == {"coref_f": 3.0}


def test_component_settings_pipeline_saved_without_a_scorer_loads(blank_settings_pipe, nlp_en, tmp_path):
    nlp = blank_settings_pipe(greedyness=0.6)
    nlp.to_disk(tmp_path / "pipeline")
    # a pipeline saved before the scorer setting existed: its config has none
    config = spacy.util.load_config(tmp_path / "pipeline" / "config.cfg")
    del config["components"]["neuralcoref"]["scorer"]
    config.to_disk(tmp_path / "pipeline" / "config.cfg")
    loaded = spacy.load(tmp_path / "pipeline")
    pipe = loaded.get_pipe("neuralcoref")
    assert pipe.settings == CorefSettings(greedyness=0.6) and pipe.scorer is score_coref
    clusters = [[[m.text for m in c] for c in pipeline(nlp_en(COMPANY))._.coref_clusters] for pipeline in (loaded, nlp)]
    assert clusters[0] == clusters[1] and clusters[0]
