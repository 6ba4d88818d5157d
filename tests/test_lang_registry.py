"""Language rules in spaCy's registry, named in the component's ``rules`` setting."""
import pickle
import warnings
from dataclasses import replace

import catalogue
import pytest
import spacy
from spacy.util import registry

from conftest import EN_PIPELINE
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang import available_languages, en, fr, get_rules, registered_rules, rules_name, ud
from neuralcoref.lang.base import SECTIONS, BindingRules, LanguageRules, fingerprinted_fields, labels
from neuralcoref.lang.registry import resolve_rules

#: A third-party language as a package would register it: a copy of the English
#: rules without binding constraints (which keeps their fingerprint).
CUSTOM = "neuralcoref.rules.entest.v1"
CUSTOM_RULES = replace(en.RULES, binding=BindingRules())


@pytest.fixture
def registered():
    """Register rules under names for one test, as an imported package would."""
    names = []

    def register(name: str, rules: LanguageRules) -> None:
        registry.misc.register(name, func=lambda: rules)
        names.append(name)
    yield register
    for name in names:
        catalogue.REGISTRY.pop(registry.misc.namespace + (name,), None)


def test_lang_registry_built_in_languages_are_registered():
    assert {"neuralcoref.rules.en.v1", "neuralcoref.rules.fr.v1", "neuralcoref.rules.ud.v1"} <= set(registered_rules())
    assert get_rules("en") is en.RULES and get_rules("fr") is fr.RULES and get_rules("xx") is ud.RULES
    assert resolve_rules("neuralcoref.rules.fr.v1") is fr.RULES and resolve_rules("ud") is ud.RULES
    assert available_languages() == ("en", "fr")


def test_lang_registry_a_registered_language_is_found_by_its_code(registered):
    assert rules_name("qq") is None
    first, second = replace(ud.RULES, lang="qq"), replace(ud.RULES, lang="qq", noun_pos=labels("N"))
    registered("neuralcoref.rules.qq.v1", first)
    registered("neuralcoref.rules.qq.v2", second)
    assert rules_name("qq") == "neuralcoref.rules.qq.v2"  # the highest version
    assert "qq" in available_languages()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its own rules: no W050 (generic rules)
        assert get_rules("qq") is second


@pytest.mark.parametrize("value", ["zz", "neuralcoref.rules.zz.v1", "neuralcoref.rules.en.v9"],
                         ids=["code", "name", "version"])
def test_lang_registry_unknown_names_are_a_coded_error_listing_the_registered(value):
    with pytest.raises(NeuralcorefError, match=r"\[E460\].*neuralcoref\.rules\.en\.v1"):
        resolve_rules(value)


def test_lang_registry_bad_registered_function_and_bad_value(registered):
    registered("neuralcoref.rules.broken.v1", "not rules")
    with pytest.raises(NeuralcorefError, match=r"\[E461\]"):
        resolve_rules("neuralcoref.rules.broken.v1")
    with pytest.raises(NeuralcorefError, match=r"\[E462\]"):
        resolve_rules(["en"])


def test_lang_registry_custom_rules_travel_in_the_pipeline_config(registered, tmp_path, handmade_model):
    registered(CUSTOM, CUSTOM_RULES)
    nlp = spacy.load(EN_PIPELINE, exclude=["ner", "lemmatizer"])
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), "rules": CUSTOM})
    assert nlp.get_pipe("neuralcoref").rules is CUSTOM_RULES
    nlp.to_disk(tmp_path / "pipeline")
    assert f'rules = "{CUSTOM}"' in (tmp_path / "pipeline" / "config.cfg").read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # same fingerprint as the English rules: no W101
        loaded = spacy.load(tmp_path / "pipeline")
    pipe = loaded.get_pipe("neuralcoref")
    assert pipe.rules is CUSTOM_RULES and pipe.rules != get_rules("en")
    assert not pipe.resolver.rules.binding_principles
    assert loaded("John saw him.")._.has_coref is not None
    # Without the package that registers them, loading is the coded error.
    catalogue.REGISTRY.pop(registry.misc.namespace + (CUSTOM,))
    with pytest.raises(NeuralcorefError, match=r"\[E460\]"):
        spacy.load(tmp_path / "pipeline")


def test_lang_registry_rules_setting_by_code_block_and_default(handmade_model):
    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    assert nlp.get_pipe("neuralcoref").rules is en.RULES  # the pipeline's language
    with pytest.warns(UserWarning, match=r"\[W10[01]\]"):  # French rules, English model
        nlp.add_pipe("neuralcoref", name="by_code", config={"model": str(handmade_model), "rules": "fr"})
    assert nlp.get_pipe("by_code").rules is fr.RULES
    with pytest.warns(UserWarning, match=r"\[W10[01]\]"):
        nlp.add_pipe("neuralcoref", name="by_block",
                     config={"model": str(handmade_model), "rules": {"@misc": "neuralcoref.rules.ud.v1"}})
    assert nlp.get_pipe("by_block").rules is ud.RULES
    with pytest.raises(NeuralcorefError, match=r"\[E460\]"):
        nlp.add_pipe("neuralcoref", name="bad", config={"model": str(handmade_model), "rules": "klingon"})


def test_lang_registry_sections_compose_the_rules():
    # Each field reads flat and from its section; only the fingerprinted
    # sections change the fingerprint.
    for section in en.RULES.sections():
        for name, value in section.items():
            assert getattr(en.RULES, name) is value
    assert {s.NAME for s in SECTIONS if s.FINGERPRINTED} == {"mentions", "features"}
    assert "noun_pos" in fingerprinted_fields() and "weather_lemmas" not in fingerprinted_fields()
    copy = pickle.loads(pickle.dumps(en.RULES))
    assert copy == en.RULES and copy.noun_pos == en.RULES.noun_pos and copy.fingerprint() == en.RULES.fingerprint()
    built = LanguageRules(lang="en", mentions=en.RULES.mentions, noun_pos=["NOUN", "X"])
    assert built.noun_pos == labels("NOUN", "X") and built.proper_pos == en.RULES.proper_pos
    with pytest.raises(TypeError, match="nouns_pos"):
        LanguageRules(lang="en", nouns_pos=["NOUN"])


@pytest.mark.parametrize("name", ["en", "en_fast", "en_portable", "fr", "fr_sm"])
def test_lang_registry_shipped_models_load_their_registered_rules_without_w101(name):
    # The fingerprint each shipped model recorded is the one of the rules its
    # language's registered name gives (sections change no fingerprint).
    from neuralcoref.artifacts.model_dir import read_config, shipped_model_path
    from neuralcoref.core.resolver import warn_rules

    config = read_config(shipped_model_path(name))
    rules = resolve_rules(config.rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_rules(config, rules)
    assert rules.fingerprint() == config.rules_hash
