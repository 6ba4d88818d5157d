"""The feature contract: layouts and schema hash, kernels against their references,
and the features of hand-built Docs."""
import json
import subprocess
import sys
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc

from neuralcoref.core import _features
from neuralcoref.core.features import contract, featurize as F, featurize as featurizer
from neuralcoref.core.features.contract import (AGREEMENT, C, COUNT_BINS, DEFINITENESS, DEP_CLASSES,
                                                DISTANCE_BINS, DISTANCE_CAP, ENTITY_CLASSES, GENDER, H,
                                                LENGTH_BINS, MENTION_CODES, MENTION_HASHES, MENTION_LAYOUT,
                                                NUMBER, PAIR_CODES, PAIR_LAYOUT, PERSON, SCHEMA_HASH,
                                                SPAN_VECTORS, WORD_SLOTS, Block, Layout, MentionFeatures,
                                                schema_hash)
from neuralcoref.core.features.expand import expand_mention_codes, expand_pair_codes, pair_tables
from neuralcoref.core.features.featurize import FeatureTables, featurize, hash_words, pair_codes
from neuralcoref.core.features.pairs import candidate_antecedents
from neuralcoref.core.mentions.mentions import MENTION_TYPES, Mentions, extract_mentions
from neuralcoref.corpora.gold import set_speakers
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang.en import RULES

from oracles import (bin_values_reference, candidate_antecedents_reference, hash_spans_reference,
                     nesting_reference, pair_codes_reference, span_vectors_reference)

TABLES = FeatureTables(RULES)
PRON_MORPH = "Case=Nom|Gender={g}|Number=Sing|Person=3|PronType=Prs"

# "John saw his dog . He liked it ."
JOHN_DOG = [
    ("John", 1, "nsubj", "PROPN", "NNP", "Number=Sing"),
    ("saw", 1, "ROOT", "VERB", "VBD", "Tense=Past|VerbForm=Fin"),
    ("his", 3, "poss", "PRON", "PRP$", "Gender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
    ("dog", 1, "dobj", "NOUN", "NN", "Number=Sing"),
    (".", 1, "punct", "PUNCT", "."),
    ("He", 6, "nsubj", "PRON", "PRP", PRON_MORPH.format(g="Masc")),
    ("liked", 6, "ROOT", "VERB", "VBD", "Tense=Past|VerbForm=Fin"),
    ("it", 6, "dobj", "PRON", "PRP", "Case=Acc|Gender=Neut|Number=Sing|Person=3|PronType=Prs"),
    (".", 6, "punct", "PUNCT", "."),
]


def features_of(doc: Doc, use_vectors: bool = False) -> Tuple[Mentions, MentionFeatures]:
    mentions = extract_mentions(doc, RULES)
    return mentions, featurize(doc, mentions, TABLES, use_vectors=use_vectors)


def codes_by_text(doc: Doc) -> Dict[str, Dict[str, int]]:
    """{mention text: {code name: value}} (texts must be unique in the Doc)."""
    mentions, feats = features_of(doc)
    out = {}
    for (s, e), row in zip(mentions.spans(), feats.codes):
        out[doc[s:e].text] = dict(zip(MENTION_CODES, row.tolist()))
    return out


def random_features(rng: np.random.Generator, n: int) -> MentionFeatures:
    """Random but well-formed mention features: sorted positions, small hash pools
    (so that matches occur), zeros among the hashes and speakers unknown (-1)."""
    codes = np.zeros((n, len(MENTION_CODES)), dtype=np.int32)
    starts = np.sort(rng.integers(0, 5 * n + 1, n))
    codes[:, C["start"]] = starts
    codes[:, C["end"]] = starts + rng.integers(1, 6, n)
    codes[:, C["head"]] = starts
    # Far-apart sentences as well, to reach the int16 clipping of distances.
    codes[:, C["sent"]] = np.sort(rng.choice([0, 1, 2, 40000], n) + rng.integers(0, 3, n))
    codes[:, C["speaker"]] = rng.integers(-1, 3, n)
    codes[:, C["index"]] = np.arange(n)
    codes[:, C["type"]] = rng.integers(0, len(MENTION_TYPES), n)
    codes[:, C["number"]] = rng.integers(0, len(NUMBER), n)
    codes[:, C["gender"]] = rng.integers(0, len(GENDER), n)
    codes[:, C["person"]] = rng.integers(0, len(PERSON), n)
    pool = np.array([0, 1, 2**63 + 5, 2**64 - 1, 12345678901234567890], dtype=np.uint64)
    hashes = rng.choice(pool, (n, len(MENTION_HASHES)))
    words = rng.choice(pool, (n, len(WORD_SLOTS)))
    return MentionFeatures(codes, hashes, words, np.zeros((n, 0), np.float32))


# Layouts and the schema hash

@pytest.mark.parametrize("layout", [MENTION_LAYOUT, PAIR_LAYOUT], ids=["mention", "pair"])
def test_features_layout_blocks_are_contiguous(layout):
    position = 0
    for block in layout.blocks:
        assert layout.offset(block.name) == position
        assert layout.slice(block.name) == slice(position, position + block.width)
        position += block.width
    assert layout.width == position
    assert len({b.name for b in layout.blocks}) == len(layout.blocks)
    with pytest.raises(KeyError):
        layout.offset("no such block")


def test_features_layout_widths_follow_classes():
    assert MENTION_LAYOUT.slice("type").stop - MENTION_LAYOUT.offset("type") == len(MENTION_TYPES)
    assert MENTION_LAYOUT.to_list()[2] == ("entity", len(ENTITY_CLASSES))
    assert dict(PAIR_LAYOUT.to_list())["type_pair"] == len(MENTION_TYPES) ** 2
    assert dict(PAIR_LAYOUT.to_list())["sent_dist"] == len(DISTANCE_BINS)


def test_features_schema_hash_is_stable():
    assert schema_hash() == SCHEMA_HASH
    assert len(SCHEMA_HASH) == 16 and int(SCHEMA_HASH, 16) >= 0
    # Not salted per process (json + sha1, never Python's hash()).
    code = "from neuralcoref.core.features.contract import SCHEMA_HASH; print(SCHEMA_HASH)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == SCHEMA_HASH


@pytest.mark.parametrize("name,value", [
    ("PAIR_LAYOUT", Layout(PAIR_LAYOUT.blocks + (Block("extra", 1),))),
    ("MENTION_LAYOUT", Layout(MENTION_LAYOUT.blocks[::-1])),
    ("DISTANCE_BINS", DISTANCE_BINS + (128,)),
    ("WORD_SLOTS", WORD_SLOTS[:-1]),
    ("SPAN_VECTORS", SPAN_VECTORS[:-1]),
    ("NUMBER", NUMBER + ("dual",)),
    ("CONTEXT_WINDOW", 3),
], ids=["pair-block-added", "mention-blocks-reordered", "distance-bins", "word-slots",
        "span-vectors", "number-classes", "context-window"])
def test_features_schema_hash_changes_with_the_contract(monkeypatch, name, value):
    monkeypatch.setattr(contract, name, value)
    assert schema_hash() != SCHEMA_HASH


def test_features_check_schema_error():
    contract.check_schema(SCHEMA_HASH, "x")
    with pytest.raises(NeuralcorefError, match=r"\[E101\].*retrain") as err:
        contract.check_schema("0123456789abcdef", "The data in /somewhere")
    assert SCHEMA_HASH in str(err.value) and "0123456789abcdef" in str(err.value)


# Kernels against their references

@pytest.mark.parametrize("bounds", [DISTANCE_BINS, LENGTH_BINS, COUNT_BINS, (5,)],
                         ids=["distance", "length", "count", "one-bin"])
@given(values=st.lists(st.integers(-100, 10**6), max_size=60))
@settings(max_examples=40, deadline=None)
def test_features_bin_values_matches_reference(bounds, values):
    values = np.array(values, dtype=np.int64)
    bounds = np.array(bounds, dtype=np.int64)
    assert np.array_equal(_features.bin_values(values, bounds), bin_values_reference(values, bounds))


@pytest.mark.parametrize("value,expected", [(-3, 0), (0, 0), (1, 1), (4, 4), (5, 5), (7, 5),
                                            (8, 6), (15, 6), (16, 7), (63, 8), (64, 9), (10**6, 9)])
def test_features_distance_bins(value, expected):
    got = _features.bin_values(np.array([value], np.int64), np.array(DISTANCE_BINS, np.int64))
    assert got.dtype == np.int8 and got[0] == expected


@st.composite
def span_inputs(draw):
    n_tokens = draw(st.integers(0, 30))
    words = draw(st.lists(st.integers(0, 2**64 - 1), min_size=n_tokens, max_size=n_tokens))
    keep = draw(st.lists(st.integers(0, 1), min_size=n_tokens, max_size=n_tokens))
    bounds = draw(st.lists(st.tuples(st.integers(0, n_tokens), st.integers(0, n_tokens)),
                           max_size=20))
    spans = [(min(a, b), max(a, b)) for a, b in bounds]
    return (np.array(words, dtype=np.uint64), np.array(keep, dtype=np.uint8),
            np.array([s for s, _ in spans], dtype=np.int32),
            np.array([e for _, e in spans], dtype=np.int32))


@given(span_inputs())
@settings(max_examples=150, deadline=None)
def test_features_hash_spans_matches_reference(inputs):
    got = _features.hash_spans(*inputs)
    assert got.dtype == np.uint64
    assert np.array_equal(got, hash_spans_reference(*inputs))


@pytest.mark.parametrize("seed", range(3))
def test_features_kernels_accept_read_only_arrays(array_kind, seed):
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 2**64 - 1, 40, dtype=np.uint64, endpoint=True)
    keep = rng.integers(0, 2, 40).astype(np.uint8)
    starts = rng.integers(0, 35, 25).astype(np.int32)
    ends = (starts + rng.integers(0, 6, 25)).astype(np.int32)
    expected = hash_spans_reference(words, keep, starts, ends)
    args = [array_kind(a) for a in (words, keep, starts, ends)]
    assert np.array_equal(_features.hash_spans(*args), expected)

    values = array_kind(rng.integers(-5, 100, 50))
    bounds = array_kind(np.array(DISTANCE_BINS, dtype=np.int64))
    assert np.array_equal(_features.bin_values(values, bounds), bin_values_reference(values, bounds))

    feats = random_features(rng, 30)
    ptr, ante = candidate_antecedents_reference(feats.is_pronoun, feats.head_hash, 5, 20)
    expected = pair_codes_reference(feats, ptr, ante)
    ro = MentionFeatures(array_kind(feats.codes), array_kind(feats.hashes), feats.words, feats.vectors)
    assert np.array_equal(pair_codes(ro, array_kind(ptr), array_kind(ante)), expected)


@pytest.mark.parametrize("seed", range(12))
def test_features_pair_codes_match_reference(seed):
    rng = np.random.default_rng(seed)
    feats = random_features(rng, int(rng.integers(0, 80)))
    ptr, ante = candidate_antecedents(feats, int(rng.integers(0, 10)), int(rng.integers(0, 60)))
    got = pair_codes(feats, ptr, ante)
    assert got.dtype == np.int16 and got.shape == (len(ante), len(PAIR_CODES))
    assert np.array_equal(got, pair_codes_reference(feats, ptr, ante))


def test_features_pair_codes_clip_long_distances():
    feats = random_features(np.random.default_rng(0), 2)
    feats.codes[:, C["sent"]] = [0, 100000]
    ptr, ante = np.array([0, 0, 1]), np.array([0], dtype=np.int32)
    assert pair_codes(feats, ptr, ante)[0, PAIR_CODES.index("sent_dist")] == 32767


def test_features_hash_words_equals_the_exact_mention_hash(make_doc):
    doc = make_doc(JOHN_DOG)
    mentions, feats = features_of(doc)
    for (s, e), exact in zip(mentions.spans(), feats.hashes[:, H["exact"]]):
        assert hash_words([t.text for t in doc[s:e]]) == exact
    assert hash_words([]) == 0
    assert hash_words(["Big", "DOG"]) == hash_words(["big", "dog"]) != hash_words(["dog", "big"])


# Features of hand-built Docs

def _sentence(*rows) -> List[tuple]:
    return list(rows)


MORPH_CASES = {
    "definite-plural": (
        [("the", 1, "det", "DET", "DT", "Definite=Def|PronType=Art"),
         ("dogs", 2, "nsubj", "NOUN", "NNS", "Number=Plur"), ("bark", 2, "ROOT", "VERB", "VBP")],
        "the dogs", {"number": "plur", "gender": "unknown", "person": "unknown",
                     "definiteness": "definite", "dep": "subject"}),
    "indefinite-singular": (
        [("a", 1, "det", "DET", "DT", "Definite=Ind|PronType=Art"),
         ("cat", 2, "nsubj", "NOUN", "NN", "Number=Sing"), ("sleeps", 2, "ROOT", "VERB", "VBZ")],
        "a cat", {"number": "sing", "definiteness": "indefinite"}),
    "demonstrative": (
        [("this", 1, "det", "DET", "DT", "Number=Sing|PronType=Dem"),
         ("cat", 2, "nsubj", "NOUN", "NN", "Number=Sing"), ("sleeps", 2, "ROOT", "VERB", "VBZ")],
        "this cat", {"definiteness": "demonstrative"}),
    "possessive": (
        [("her", 1, "poss", "PRON", "PRP$", "Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
         ("cat", 2, "nsubj", "NOUN", "NN", "Number=Sing"), ("sleeps", 2, "ROOT", "VERB", "VBZ")],
        "her cat", {"definiteness": "possessive", "gender": "unknown", "number": "sing"}),
    "feminine-pronoun": (
        [("she", 1, "nsubj", "PRON", "PRP", PRON_MORPH.format(g="Fem")),
         ("sleeps", 1, "ROOT", "VERB", "VBZ")],
        "she", {"gender": "fem", "number": "sing", "person": "3", "definiteness": "none"}),
    "first-person": (
        [("I", 1, "nsubj", "PRON", "PRP", "Case=Nom|Number=Sing|Person=1|PronType=Prs"),
         ("sleep", 1, "ROOT", "VERB", "VBP")],
        "I", {"person": "1", "gender": "unknown"}),
    "second-person": (
        [("you", 1, "nsubj", "PRON", "PRP", "Case=Nom|Person=2|PronType=Prs"),
         ("sleep", 1, "ROOT", "VERB", "VBP")],
        "you", {"person": "2", "number": "unknown"}),
    "list-is-plural": (
        [("Ann", 3, "nsubj", "PROPN", "NNP", "Number=Sing"), ("and", 0, "cc", "CCONJ"),
         ("Bob", 0, "conj", "PROPN", "NNP", "Number=Sing"), ("left", 3, "ROOT", "VERB")],
        "Ann and Bob", {"number": "plur", "type": "list"}),
}
CLASSES = {"number": NUMBER, "gender": GENDER, "person": PERSON, "definiteness": DEFINITENESS,
           "dep": DEP_CLASSES, "entity": ENTITY_CLASSES, "type": MENTION_TYPES}


@pytest.mark.parametrize("rows,text,expected", MORPH_CASES.values(), ids=MORPH_CASES.keys())
def test_features_morph_and_dep_classes(make_doc, rows, text, expected):
    codes = codes_by_text(make_doc(rows))[text]
    for name, value in expected.items():
        assert CLASSES[name][codes[name]] == value, name


def test_features_reflexive_and_expletive(make_doc):
    doc = make_doc([
        ("He", 1, "nsubj", "PRON", "PRP", PRON_MORPH.format(g="Masc")),
        ("hurt", 1, "ROOT", "VERB", "VBD"),
        ("himself", 1, "dobj", "PRON", "PRP",
         "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs|Reflex=Yes"),
        (".", 1, "punct", "PUNCT"),
        ("It", 5, "nsubj", "PRON", "PRP", PRON_MORPH.format(g="Neut")),
        ("rains", 5, "ROOT", "VERB", "VBZ"),
        ("and", 5, "cc", "CCONJ"),
        ("I", 8, "nsubj", "PRON", "PRP", "Case=Nom|Number=Sing|Person=1|PronType=Prs"),
        ("like", 5, "conj", "VERB", "VBP"),
        ("it", 8, "dobj", "PRON", "PRP", "Case=Acc|Gender=Neut|Number=Sing|Person=3|PronType=Prs"),
    ])
    mentions, feats = features_of(doc)
    by_start = {s: row for (s, _), row in zip(mentions.spans(), feats.codes)}
    assert by_start[2][C["reflexive"]] == 1 and by_start[0][C["reflexive"]] == 0
    assert by_start[4][C["expletive"]] == 1  # "It" as subject may be pleonastic
    assert by_start[9][C["expletive"]] == 0  # "it" as object refers


def test_features_entity_and_dep_classes(make_doc):
    doc = make_doc([
        ("John", 1, "nsubj", "PROPN", "NNP", "Number=Sing"), ("met", 1, "ROOT", "VERB"),
        ("Mary", 1, "dobj", "PROPN", "NNP", "Number=Sing"), ("in", 1, "prep", "ADP"),
        ("Paris", 3, "pobj", "PROPN", "NNP", "Number=Sing"), ("with", 1, "prep", "ADP"),
        ("IBM", 7, "poss", "PROPN", "NNP", "Number=Sing"), ("staff", 5, "pobj", "NOUN", "NN"),
        (".", 1, "punct", "PUNCT"),
    ], ents=["B-PERSON", "O", "B-PERSON", "O", "B-GPE", "O", "B-ORG", "O", "O"])
    codes = codes_by_text(doc)
    expected = {"John": ("person", "subject"), "Mary": ("person", "object"),
                "Paris": ("place", "oblique"), "IBM": ("org", "possessive"),
                "IBM staff": ("none", "oblique")}
    for text, (entity, dep) in expected.items():
        assert ENTITY_CLASSES[codes[text]["entity"]] == entity, text
        assert DEP_CLASSES[codes[text]["dep"]] == dep, text
    assert codes["John"]["type"] == MENTION_TYPES.index("proper")


def test_features_positions_sentences_and_lengths(make_doc):
    doc = make_doc(JOHN_DOG)
    mentions, feats = features_of(doc)
    assert [doc[s:e].text for s, e in mentions.spans()] == ["John", "his", "his dog", "He", "it"]
    codes = feats.codes
    assert codes[:, C["sent"]].tolist() == [0, 0, 0, 1, 1]
    assert codes[:, C["index"]].tolist() == [0, 1, 2, 3, 4]
    assert set(codes[:, C["n_mentions"]]) == {5} and set(codes[:, C["n_sents"]]) == {2}
    assert codes[:, C["length"]].tolist() == [1, 1, 2, 1, 1]
    assert codes[:, C["speaker"]].tolist() == [-1] * 5  # no speakers set
    assert codes.dtype == np.int32 and feats.hashes.dtype == np.uint64


def test_features_nested_and_contains_flags(make_doc):
    doc = make_doc([("The", 2, "det", "DET"), ("old", 2, "amod", "ADJ"),
                    ("man", 6, "nsubj", "NOUN"), ("in", 2, "prep", "ADP"),
                    ("the", 5, "det", "DET"), ("car", 3, "pobj", "NOUN"),
                    ("smiled", 6, "ROOT", "VERB")])
    codes = codes_by_text(doc)
    flags = {text: (c["nested"], c["contains"]) for text, c in codes.items()}
    assert flags == {"The old man": (1, 0), "The old man in the car": (0, 1), "the car": (1, 0)}


@given(st.sets(st.tuples(st.integers(0, 12), st.integers(1, 5)), max_size=15))
@settings(max_examples=100, deadline=None)
def test_features_nesting_matches_brute_force(spans):
    spans = sorted((s, s + length) for s, length in spans)
    starts = np.array([s for s, _ in spans], dtype=np.int32)
    ends = np.array([e for _, e in spans], dtype=np.int32)
    nested, contains = featurizer._nesting(starts, ends)
    for i, (s, e) in enumerate(spans):
        others = [(a, b) for j, (a, b) in enumerate(spans) if j != i]
        assert nested[i] == any(a <= s and e <= b for a, b in others)
        assert contains[i] == any(s <= a and b <= e for a, b in others)


def test_features_head_and_string_counts(make_doc):
    # "the dog saw a dog . The dog saw it . It ran"
    doc = make_doc([
        ("the", 1, "det", "DET"), ("dog", 2, "nsubj", "NOUN"), ("saw", 2, "ROOT", "VERB"),
        ("a", 4, "det", "DET"), ("dog", 2, "dobj", "NOUN"), (".", 2, "punct", "PUNCT"),
        ("The", 7, "det", "DET"), ("dog", 8, "nsubj", "NOUN"), ("saw", 8, "ROOT", "VERB"),
        ("it", 8, "dobj", "PRON"), (".", 8, "punct", "PUNCT"),
        ("It", 12, "nsubj", "PRON"), ("ran", 12, "ROOT", "VERB"),
    ])
    mentions, feats = features_of(doc)
    got = {(doc[s:e].text, s): (row[C["head_count"]], row[C["string_count"]])
           for (s, e), row in zip(mentions.spans(), feats.codes)}
    assert got == {("the dog", 0): (2, 1), ("a dog", 3): (2, 0), ("The dog", 6): (2, 1),
                   ("it", 9): (0, 0), ("It", 11): (0, 0)}  # pronouns never count


# "I like Mary . John Smith likes me ." spoken by John_Smith, then by Mary.
SPEECH = [
    ("I", 1, "nsubj", "PRON", "PRP", "Case=Nom|Number=Sing|Person=1|PronType=Prs"),
    ("like", 1, "ROOT", "VERB", "VBP"), ("Mary", 1, "dobj", "PROPN", "NNP", "Number=Sing"),
    (".", 1, "punct", "PUNCT"), ("John", 5, "compound", "PROPN", "NNP", "Number=Sing"),
    ("Smith", 6, "nsubj", "PROPN", "NNP", "Number=Sing"), ("likes", 6, "ROOT", "VERB", "VBZ"),
    ("me", 6, "dobj", "PRON", "PRP", "Case=Acc|Number=Sing|Person=1|PronType=Prs"),
    (".", 6, "punct", "PUNCT"),
]


def _pairs_by_text(doc: Doc) -> Dict[Tuple[str, str], Dict[str, int]]:
    mentions, feats = features_of(doc)
    ptr, ante = candidate_antecedents(feats)
    codes = pair_codes(feats, ptr, ante)
    texts = [doc[s:e].text for s, e in mentions.spans()]
    out = {}
    for m in range(len(mentions)):
        for k in range(ptr[m], ptr[m + 1]):
            out[(texts[ante[k]], texts[m])] = dict(zip(PAIR_CODES, codes[k].tolist()))
    return out


def test_features_speakers_and_speaker_names(make_doc):
    doc = make_doc(SPEECH, ents=["O", "O", "B-PERSON", "O", "B-PERSON", "I-PERSON", "O", "O", "O"])
    set_speakers(doc, ["John_Smith"] * 4 + ["Mary"] * 5)
    mentions, feats = features_of(doc)
    texts = [doc[s:e].text for s, e in mentions.spans()]
    speaker = dict(zip(texts, feats.codes[:, C["speaker"]].tolist()))
    assert speaker["I"] == speaker["Mary"] == 0 and speaker["John Smith"] == speaker["me"] == 1
    name = dict(zip(texts, feats.hashes[:, H["speaker_name"]].tolist()))
    assert name["I"] == hash_words(["john", "smith"]) and name["me"] == hash_words(["mary"])

    pairs = _pairs_by_text(doc)
    assert pairs[("I", "Mary")]["same_speaker"] == 1
    assert pairs[("I", "me")]["same_speaker"] == 0
    # "John Smith" (spoken by Mary) is the speaker of "I"
    assert pairs[("I", "John Smith")]["ana_is_speaker"] == 1
    assert pairs[("I", "John Smith")]["ante_is_speaker"] == 0
    # "Mary" is the speaker of "me"
    assert pairs[("Mary", "me")]["ante_is_speaker"] == 1
    # "John Smith" also spoke the sentence with "Mary"
    assert pairs[("Mary", "John Smith")]["ana_is_speaker"] == 1
    assert pairs[("I", "me")]["ante_is_speaker"] == pairs[("I", "me")]["ana_is_speaker"] == 0


def test_features_unknown_speakers_never_match(make_doc):
    doc = make_doc(SPEECH)
    set_speakers(doc, ["-"] * len(doc))
    mentions, feats = features_of(doc)
    assert set(feats.codes[:, C["speaker"]].tolist()) == {-1}
    assert not feats.hashes[:, H["speaker_name"]].any()
    codes = np.array([list(v.values()) for v in _pairs_by_text(doc).values()])
    assert not codes[:, [PAIR_CODES.index(c) for c in
                         ("same_speaker", "ante_is_speaker", "ana_is_speaker")]].any()


def test_features_string_and_agreement_pair_codes(make_doc):
    pairs = _pairs_by_text(make_doc(JOHN_DOG))
    john_he = pairs[("John", "He")]
    # "John" has no morphological gender: the English gender lexicon gives it.
    assert (john_he["number"], john_he["gender"]) == (AGREEMENT.index("agree"), AGREEMENT.index("agree"))
    assert john_he["sent_dist"] == 1 and john_he["mention_dist"] == 3 and john_he["overlap"] == 0
    his_he = pairs[("his", "He")]
    assert his_he["gender"] == AGREEMENT.index("agree") and his_he["person"] == AGREEMENT.index("agree")
    assert pairs[("He", "it")]["gender"] == AGREEMENT.index("disagree")
    assert pairs[("his", "his dog")]["overlap"] == 1
    pron, proper = MENTION_TYPES.index("pronominal"), MENTION_TYPES.index("proper")
    assert john_he["type_pair"] == proper * len(MENTION_TYPES) + pron


def test_features_word_slots_stay_within_the_sentence(make_doc):
    doc = make_doc(JOHN_DOG)
    mentions, feats = features_of(doc)
    lower = [t.lower for t in doc]  # exact uint64 hashes: no float round trip allowed
    words = {doc[s:e].text: dict(zip(WORD_SLOTS, row.tolist()))
             for (s, e), row in zip(mentions.spans(), feats.words)}
    assert feats.words.dtype == np.uint64
    assert words["his dog"] == {"head": lower[3], "first": lower[2], "last": lower[3],
                                "prev1": lower[1], "prev2": lower[0], "next1": lower[4],
                                "next2": 0, "head_head": lower[1]}
    # "He" starts sentence 2: nothing before it, although "." precedes it.
    assert words["He"]["prev1"] == words["He"]["prev2"] == 0
    assert (words["He"]["next1"], words["He"]["next2"]) == (lower[6], lower[7])
    assert (words["it"]["next1"], words["it"]["next2"]) == (lower[8], 0)  # end of the Doc
    assert words["John"]["head_head"] == lower[1]
    assert words["John"]["prev1"] == 0


def _generic_doc(make_doc, lengths: List[int]) -> Doc:
    """Sentences of the given lengths, each token a noun under its sentence's last token."""
    rows, start = [], 0
    for length in lengths:
        root = start + length - 1
        for i in range(start, start + length):
            rows.append((f"w{i}", root, "ROOT" if i == root else "dep", "NOUN"))
        start += length
    return make_doc(rows)


def test_features_span_vectors_are_plain_means(make_doc):
    doc = _generic_doc(make_doc, [4, 13, 2])
    rng = np.random.default_rng(0)
    dim = 3
    doc.tensor = rng.normal(size=(len(doc), dim)).astype(np.float32)
    sents = [(s.start, s.end) for s in doc.sents]
    spans = [(s, e) for s in range(len(doc)) for e in range(s + 1, min(s + 4, len(doc)) + 1)
             if any(a <= s and e <= b for a, b in sents)]
    mentions = Mentions(np.array([s for s, _ in spans], np.int32), np.array([e for _, e in spans], np.int32),
                        np.array([e - 1 for _, e in spans], np.int32), np.ones(len(spans), np.int8))
    got = featurize(doc, mentions, TABLES, use_vectors=True).vectors
    assert got.shape == (len(spans), len(SPAN_VECTORS) * dim) and got.dtype == np.float32

    def mean(lo: int, hi: int) -> np.ndarray:
        return doc.tensor[lo:hi].mean(axis=0) if hi > lo else np.zeros(dim, np.float32)

    for row, (s, e) in zip(got, spans):
        a, b = next((a, b) for a, b in sents if a <= s < b)
        expected = {"mention": mean(s, e), "before": mean(max(s - 5, a), s),
                    "after": mean(e, min(e + 5, b)), "sentence": mean(a, b),
                    "document": mean(0, len(doc)), "head": doc.tensor[e - 1]}
        for i, name in enumerate(SPAN_VECTORS):
            np.testing.assert_allclose(row[i * dim:(i + 1) * dim], expected[name],
                                       rtol=1e-5, atol=1e-6, err_msg=f"{name} of {(s, e)}")


def test_features_without_vectors_have_no_vector_columns(make_doc):
    _, feats = features_of(make_doc(JOHN_DOG), use_vectors=False)
    assert feats.vectors.shape == (5, 0) and feats.vectors.dtype == np.float32


def test_features_vectors_needed_but_missing(make_doc):
    doc = make_doc(JOHN_DOG)
    with pytest.raises(NeuralcorefError, match=r"\[E100\].*tok2vec"):
        features_of(doc, use_vectors=True)


@pytest.mark.parametrize("use_vectors", [True, False], ids=["vectors", "no-vectors"])
def test_features_empty_doc(en_vocab, use_vectors):
    doc = Doc(en_vocab, words=[])
    mentions, feats = features_of(doc, use_vectors=use_vectors)
    assert len(mentions) == len(feats) == 0
    assert feats.codes.shape == (0, len(MENTION_CODES)) and feats.hashes.shape == (0, len(MENTION_HASHES))
    assert feats.words.shape == (0, len(WORD_SLOTS)) and feats.vectors.shape[0] == 0
    ptr, ante = candidate_antecedents(feats)
    assert ptr.tolist() == [0] and pair_codes(feats, ptr, ante).shape == (0, len(PAIR_CODES))
    assert expand_mention_codes(feats.codes).shape == (0, MENTION_LAYOUT.width)


def test_features_slice_and_concat(make_doc):
    _, feats = features_of(make_doc(JOHN_DOG))
    parts = [feats[:2], feats[2:]]
    joined = MentionFeatures.concat(parts)
    for name in ("codes", "hashes", "words", "vectors"):
        assert np.array_equal(getattr(joined, name), getattr(feats, name))
    picked = feats[np.array([0, 3])]
    assert len(picked) == 2 and picked.is_pronoun.tolist() == [0, 1]
    assert picked.head_hash.flags.c_contiguous



def test_features_expand_mention_codes_kernel_matches_numpy(make_doc):
    from neuralcoref.core.features.expand import _expand_mention_codes_numpy
    _, feats = features_of(make_doc(JOHN_DOG))
    rng = np.random.default_rng(0)
    random = rng.integers(0, 3, (40, len(MENTION_CODES))).astype(np.int32)
    random[:, C["length"]] = rng.integers(0, 40, 40)  # every bin of the binned blocks
    random[:, C["head_count"]] = rng.integers(0, 30, 40)
    for codes in (feats.codes, feats.codes[1:3], random, random[::3]):
        out = expand_mention_codes(codes)
        assert out.dtype == np.float32
        assert np.array_equal(out, _expand_mention_codes_numpy(codes))
    bad = random.copy()
    bad[0, C["type"]] = 10 ** 6  # past the matrix: numpy's IndexError, not a write elsewhere
    with pytest.raises(IndexError):
        expand_mention_codes(bad)
    with pytest.raises(IndexError):
        _expand_mention_codes_numpy(bad)



def test_features_word_slots_kernel_matches_numpy():
    from neuralcoref.core.features import featurize as F
    rng = np.random.default_rng(3)
    n_tok = 30
    lower = rng.integers(1, 2 ** 63, n_tok, dtype=np.uint64)
    token_heads = rng.integers(0, n_tok, n_tok).astype(np.int32)
    sent_ids = np.repeat(np.arange(4), [1, 9, 12, 8]).astype(np.int32)  # a one-token sentence too
    starts = rng.integers(0, n_tok, 60).astype(np.int32)
    ends = np.minimum(starts + rng.integers(1, 5, 60), n_tok).astype(np.int32)
    heads = (ends - 1).astype(np.int32)
    args = (lower, token_heads, sent_ids, starts, ends, heads)
    out = F._word_slots(*args)
    assert out.dtype == np.uint64 and out.shape == (60, len(WORD_SLOTS))
    assert np.array_equal(out, F._word_slots_numpy(*args))
    assert (out == 0).any()  # slots across a sentence boundary read 0
    wide = tuple(a.astype(np.int64) if a.dtype == np.int32 else a for a in args)  # the numpy path
    assert np.array_equal(F._word_slots(*wide), out)
    assert F._word_slots(lower, token_heads, sent_ids, *(a[:0] for a in args[3:])).shape == (0, len(WORD_SLOTS))


@pytest.mark.parametrize("windows,prior", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["whole-doc", "windows", "prior", "windows-prior"])
def test_features_span_vectors_kernel_matches_numpy_bits(windows, prior):
    # The kernel's float64 running sums and divisions are numpy's, in numpy's
    # order: the same float32 bits, mentions across a sentence boundary and
    # empty windows (-0.0 included) alike.
    assert SPAN_VECTORS == F._KERNEL_VECTORS  # the kernel's fixed order
    rng = np.random.default_rng(7)
    for _ in range(40):
        n_tok, dim, n = int(rng.integers(1, 60)), int(rng.integers(1, 12)), int(rng.integers(1, 25))
        tensor = (rng.standard_normal((n_tok, dim)) * 10.0 ** rng.integers(-3, 4)).astype(np.float32)
        flags = rng.integers(0, 2, n_tok)
        flags[0] = 1
        sent_ids = (np.cumsum(flags) - 1).astype(np.int32)
        starts = rng.integers(0, n_tok, n).astype(np.int32)
        ends = np.minimum(starts + rng.integers(1, 6, n), n_tok).astype(np.int32)
        heads = np.array([rng.integers(a, b) for a, b in zip(starts, ends)], dtype=np.int32)
        lo = rng.integers(0, n_tok, n)
        win = (lo, np.minimum(lo + rng.integers(0, 10, n), n_tok)) if windows else None
        pri = (rng.standard_normal(dim).astype(np.float32), float(rng.integers(1, 50))) if prior else None
        args = (tensor, sent_ids, starts, ends, heads, win, pri)
        out, ref = F._span_vectors(*args), span_vectors_reference(*args)
        assert out.dtype == np.float32 and out.shape == (n, len(SPAN_VECTORS) * dim)
        assert np.array_equal(out.view(np.uint32), ref.view(np.uint32))


def test_features_span_vectors_rejects_a_mention_outside_the_doc():
    tensor = np.ones((3, 2), dtype=np.float32)
    sent = np.zeros(3, dtype=np.int32)
    with pytest.raises(IndexError):
        F._span_vectors(tensor, sent, np.array([1], np.int32), np.array([5], np.int32), np.array([1], np.int32))


def test_features_value_counts_and_nesting_kernels_match_numpy():
    rng = np.random.default_rng(11)
    for _ in range(200):
        n = int(rng.integers(1, 70))
        values = rng.integers(0, 4, n).astype(np.uint64)  # 0 never matches
        same, earlier = F._value_counts(values)
        assert same.dtype == earlier.dtype == np.int32
        assert np.array_equal(same, F._same_value_counts(values))
        assert np.array_equal(earlier, F._earlier_value_counts(values))
        spans = sorted({(int(a), int(a + w)) for a, w in zip(rng.integers(0, 30, n), rng.integers(1, 6, n))})
        starts, ends = (np.array(x, dtype=np.int32) for x in zip(*spans))
        for got, ref in zip(F._nesting(starts, ends), nesting_reference(starts, ends)):
            assert got.dtype == ref.dtype == np.int32 and np.array_equal(got, ref)


def test_features_clause_persons_from_morphology_and_auxiliaries(en_vocab):
    from neuralcoref.core.discourse.frames import frame_verbs
    from neuralcoref.core.doc.doc_arrays import read_doc

    words = ["She", "has", "left", "and", "I", "have", "stayed", "with", "them"]
    doc = Doc(en_vocab, words=words, heads=[2, 2, 2, 2, 6, 6, 2, 6, 7],
              deps=["nsubj", "aux", "ROOT", "cc", "nsubj", "aux", "conj", "prep", "pobj"],
              pos=["PRON", "AUX", "VERB", "CCONJ", "PRON", "AUX", "VERB", "ADP", "PRON"],
              morphs=["Person=3|PronType=Prs", "Person=3|Tense=Pres", "VerbForm=Part", "", "Person=1|PronType=Prs",
                      "Person=1|Tense=Pres", "VerbForm=Part", "", "Person=3|PronType=Prs"])
    arrays = read_doc(doc)
    persons = F.clause_persons(arrays)
    # "left" takes "has"'s third person, "stayed" "have"'s first; none for "and", "with".
    assert persons.tolist() == [3, 3, 3, 0, 1, 1, 1, 0, 3]
    # One array per Doc, read-only, shared by the stages that ask (and frame_verbs alike).
    assert F.clause_persons(arrays) is persons and not persons.flags.writeable
    verbs = frame_verbs(arrays, RULES)
    assert frame_verbs(arrays, RULES) is verbs and not verbs.flags.writeable
    assert F.clause_persons(read_doc(doc)).tolist() == persons.tolist()


# Expansion to the scorers' inputs

def test_features_expand_mention_codes_one_hot_blocks(make_doc):
    _, feats = features_of(make_doc(JOHN_DOG))
    x = expand_mention_codes(feats.codes)
    assert x.shape == (5, MENTION_LAYOUT.width) and x.dtype == np.float32
    for block in ("type", "length", "entity", "dep", "definiteness", "number", "gender",
                  "person", "head_count", "string_count"):
        part = x[:, MENTION_LAYOUT.slice(block)]
        assert np.array_equal(part.sum(axis=1), np.ones(5)), block
    for name in ("type", "entity", "dep", "number", "gender", "person"):
        assert np.array_equal(x[:, MENTION_LAYOUT.slice(name)].argmax(axis=1), feats.codes[:, C[name]])
    flags = x[:, MENTION_LAYOUT.slice("flags")]
    assert np.array_equal(flags, feats.codes[:, [C["nested"], C["contains"], C["reflexive"], C["expletive"]]])
    position = x[:, MENTION_LAYOUT.slice("position")]
    np.testing.assert_allclose(position[:, 0], np.arange(5) / 5)
    np.testing.assert_allclose(position[:, 1], [0, 0, 0, 0.5, 0.5])


@pytest.mark.parametrize("distance", [0, 3, 6, 40, 64, 5000])
def test_features_expand_pair_codes_distances(distance):
    codes = np.zeros((1, len(PAIR_CODES)), dtype=np.int16)
    codes[0, PAIR_CODES.index("sent_dist")] = distance
    codes[0, PAIR_CODES.index("mention_dist")] = distance
    x = expand_pair_codes(codes)
    expected_bin = bin_values_reference(np.array([distance]), DISTANCE_BINS)[0]
    for block in ("sent_dist", "mention_dist"):
        one_hot = x[0, PAIR_LAYOUT.slice(block)]
        assert one_hot.sum() == 1 and one_hot.argmax() == expected_bin
        assert x[0, PAIR_LAYOUT.offset(block + "_scalar")] == pytest.approx(
            min(distance, DISTANCE_CAP) / DISTANCE_CAP)


@pytest.mark.parametrize("seed", range(3))
def test_features_expand_pair_codes_blocks(seed):
    rng = np.random.default_rng(seed)
    feats = random_features(rng, 40)
    ptr, ante = candidate_antecedents(feats, 10, 30)
    codes = pair_codes(feats, ptr, ante)
    x = expand_pair_codes(codes)
    assert x.shape == (len(codes), PAIR_LAYOUT.width) and x.dtype == np.float32
    P = {name: i for i, name in enumerate(PAIR_CODES)}
    for block in ("number", "gender", "person", "type_pair"):
        assert np.array_equal(x[:, PAIR_LAYOUT.slice(block)].argmax(axis=1), codes[:, P[block]])
    assert np.array_equal(x[:, PAIR_LAYOUT.slice("string_match")],
                          codes[:, [P["head_match"], P["exact_match"], P["relaxed_match"]]])
    assert np.array_equal(x[:, PAIR_LAYOUT.offset("overlap")], codes[:, P["overlap"]])
    assert expand_pair_codes(codes[:0]).shape == (0, PAIR_LAYOUT.width)


@pytest.mark.parametrize("seed", range(3))
def test_features_pair_tables_sum_the_weight_rows_of_every_input(seed):
    """A pair's table rows add up to its expanded inputs times the weights, for
    distances within and beyond the cap; every group stays within its row budget."""
    rng = np.random.default_rng(seed)
    w_pair = rng.normal(size=(PAIR_LAYOUT.width, 6)).astype(np.float32)
    tables = pair_tables(w_pair, max_rows=200)
    feats = random_features(rng, 40)
    ptr, ante = candidate_antecedents(feats, 10, 30)
    codes = pair_codes(feats, ptr, ante)
    codes[:5, PAIR_CODES.index("sent_dist")] = [0, 63, 64, 65, 32000]
    starts = list(np.flatnonzero(tables.starts >= 0)) + [len(tables.starts)]
    rows_per_group = np.diff([tables.starts[i] for i in starts[:-1]] + [len(tables.tables)])
    assert len(starts) > 2 and np.all(rows_per_group <= 200)
    summed = np.zeros((len(codes), 6))
    for lo, hi in zip(starts[:-1], starts[1:]):
        values = np.minimum(codes[:, tables.columns[lo:hi]], tables.caps[lo:hi])
        summed += tables.tables[tables.starts[lo] + values @ tables.strides[lo:hi]]
    np.testing.assert_allclose(summed, expand_pair_codes(codes) @ w_pair, rtol=1e-5, atol=1e-5)


def test_features_tables_cache_morph_codes(make_doc):
    doc = make_doc(JOHN_DOG)
    tables = FeatureTables(RULES)
    key = doc[5].morph.key
    assert tables.morph(doc, key) == (NUMBER.index("sing"), GENDER.index("masc"),
                                      PERSON.index("3"), DEFINITENESS.index("none"), 0)
    assert (key, 0) in tables._morph and tables.morph(doc, 0) == (0, 0, 0, 0, 0)


def test_features_schema_lists_every_code_column():
    schema = json.loads(json.dumps(contract._schema()))
    assert schema["mention_codes"] == list(MENTION_CODES)
    assert schema["pair_codes"] == list(PAIR_CODES)
    feats = random_features(np.random.default_rng(0), 3)
    ptr, ante = candidate_antecedents(feats)
    raw = _features.pair_codes(feats.codes, feats.hashes, ptr, ante, featurizer._PAIR_CODE_COLS,
                               featurizer._PAIR_HASH_COLS, len(MENTION_TYPES))
    assert raw.shape == (3, len(PAIR_CODES))  # the kernel writes every column


def test_features_earlier_value_counts_count_only_preceding_equal_values():
    from neuralcoref.core.features.featurize import _earlier_value_counts

    values = np.array([5, 0, 5, 3, 5, 3, 0], dtype=np.uint64)
    assert _earlier_value_counts(values).tolist() == [0, 0, 1, 0, 2, 1, 0]
    assert _earlier_value_counts(np.zeros(0, dtype=np.uint64)).tolist() == []


def test_features_gender_lexicon_fills_names_and_nouns(nlp_en):
    from neuralcoref.core.features.contract import GENDER

    doc = nlp_en("Mary Smith met my brother and the doctor.")
    mentions, feats = features_of(doc)
    gender = {doc[s:e].text: GENDER[g] for (s, e), g in zip(mentions.spans(), feats.codes[:, C["gender"]])}
    assert gender["Mary Smith"] == "fem"      # first name of a proper mention
    assert gender["my brother"] == "masc"     # head noun
    assert gender["the doctor"] == "unknown"  # not gendered


def test_features_french_name_lexicon_overrides_the_parsers_guess():
    import spacy
    from conftest import build_doc
    from neuralcoref.core.features.contract import GENDER
    from neuralcoref.core.features.featurize import FeatureTables
    from neuralcoref.lang import get_rules

    rules = get_rules("fr")
    # "Jean dit que Mme Pictet et la servante riaient ." with the gender a French
    # pipeline gives such names: "Jean" feminine, "Pictet" masculine.
    rows = [("Jean", 1, "nsubj", "PROPN", "", "Gender=Fem|Number=Sing"),
            ("dit", 1, "ROOT", "VERB"), ("que", 9, "mark", "SCONJ"),
            ("Mme", 9, "nsubj", "PROPN", "", "Gender=Fem|Number=Sing"),
            ("Pictet", 3, "flat:name", "PROPN", "", "Gender=Masc|Number=Sing"),
            ("et", 7, "cc", "CCONJ"), ("la", 7, "det", "DET", "", "Definite=Def|Gender=Fem"),
            ("servante", 3, "conj", "NOUN", "", "Gender=Fem|Number=Sing"),
            ("Laurent", 9, "obl", "PROPN"),
            ("riaient", 1, "ccomp", "VERB"), (".", 1, "punct", "PUNCT")]
    doc = build_doc(spacy.blank("fr").vocab, rows)
    mentions = extract_mentions(doc, rules)
    feats = featurize(doc, mentions, FeatureTables(rules), use_vectors=False)
    gender = {doc[s:e].text: GENDER[g] for (s, e), g in zip(mentions.spans(), feats.codes[:, C["gender"]])}
    assert gender["Jean"] == "masc"         # the list wins over the morphology for names
    assert gender["Mme Pictet"] == "fem"    # by the title, the first word
    assert gender["la servante"] == "fem"   # nouns: the morphology
    assert gender["Laurent"] == "masc"      # no morphology: the list


def test_features_document_windows_replace_the_whole_doc_mean(make_doc):
    doc = _generic_doc(make_doc, [4, 6, 3])
    dim = 3
    doc.tensor = np.random.default_rng(1).normal(size=(len(doc), dim)).astype(np.float32)
    mentions = Mentions(np.array([0, 5, 11], np.int32), np.array([2, 7, 13], np.int32),
                        np.array([1, 6, 12], np.int32), np.ones(3, np.int8))
    windows = (np.array([0, 4, 4]), np.array([4, 10, 13]))
    whole = featurize(doc, mentions, TABLES, use_vectors=True).vectors
    part = featurize(doc, mentions, TABLES, use_vectors=True, document_windows=windows).vectors
    block = slice(SPAN_VECTORS.index("document") * dim, (SPAN_VECTORS.index("document") + 1) * dim)
    for row, lo, hi in zip(part, *windows):
        np.testing.assert_allclose(row[block], doc.tensor[lo:hi].mean(axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(whole[:, block], np.tile(doc.tensor.mean(axis=0), (3, 1)), rtol=1e-5,
                               atol=1e-6)
    others = np.ones(whole.shape[1], bool)
    others[block] = False
    np.testing.assert_array_equal(part[:, others], whole[:, others])


def test_features_document_prior_weighs_as_extra_tokens(make_doc):
    doc = _generic_doc(make_doc, [3, 2])
    dim = 2
    doc.tensor = np.random.default_rng(2).normal(size=(len(doc), dim)).astype(np.float32)
    mentions = Mentions(np.array([0], np.int32), np.array([2], np.int32), np.array([1], np.int32),
                        np.ones(1, np.int8))
    prior = np.array([10.0, -10.0], np.float32)
    got = featurize(doc, mentions, TABLES, use_vectors=True, document_prior=(prior, 5.0)).vectors
    k = SPAN_VECTORS.index("document")
    expected = (doc.tensor.sum(axis=0) + 5.0 * prior) / (len(doc) + 5.0)
    np.testing.assert_allclose(got[0, k * dim:(k + 1) * dim], expected, rtol=1e-5)
    plain = featurize(doc, mentions, TABLES, use_vectors=True).vectors
    others = np.ones(got.shape[1], bool)
    others[k * dim:(k + 1) * dim] = False
    np.testing.assert_array_equal(got[:, others], plain[:, others])
