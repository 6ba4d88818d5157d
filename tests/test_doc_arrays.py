"""A Doc read once: the shared token arrays, their use by every stage, and
bit-identical outputs against snapshots made before the stages shared them."""
import json

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc

from doc_arrays_cases import EXPECTED, PIPELINES, parsed_docs, resolvers, snapshot
from neuralcoref.artifacts.model_dir import load_model
from neuralcoref.core.doc.doc_arrays import ATTRS, DocArrays, read_doc
from neuralcoref.core.features.featurize import FeatureTables, featurize
from neuralcoref.core.mentions.mentions import ATTRS as MENTION_ATTRS
from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.core.resolver import Resolver
from neuralcoref.errors import NeuralcorefError
from neuralcoref.lang import en

# "Anna met Tom. She thanked him ." in two sentences, by hand.
ROWS = [("Anna", 1, "nsubj", "PROPN"), ("met", 1, "ROOT", "VERB"), ("Tom", 1, "dobj", "PROPN"),
        (".", 1, "punct", "PUNCT"), ("She", 5, "nsubj", "PRON"), ("thanked", 5, "ROOT", "VERB"),
        ("him", 5, "dobj", "PRON"), ("!", 5, "punct", "PUNCT")]


class CountingDoc:
    """A Doc that counts its ``to_array`` calls, everything else passed through."""

    def __init__(self, doc: Doc):
        self.doc, self.calls = doc, 0

    def to_array(self, *args, **kwargs):
        self.calls += 1
        return self.doc.to_array(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.doc, name)

    def __len__(self):
        return len(self.doc)

    def __getitem__(self, key):
        return self.doc[key]

    def __iter__(self):
        return iter(self.doc)


@pytest.fixture(scope="module")
def nlps(nlp_en):
    try:
        return {"en": nlp_en, "fr": spacy.load(PIPELINES["fr"])}
    except OSError:
        pytest.skip(f"spaCy pipeline {PIPELINES['fr']} is not installed")


@pytest.fixture(scope="module")
def cases(nlps):
    return {name: (lang, doc) for name, lang, doc in parsed_docs(nlps)}


@pytest.fixture(scope="module")
def by_lang(handmade_model):
    with pytest.warns(UserWarning, match="W100"):  # the English test model on French rules
        return resolvers(handmade_model)


def test_doc_arrays_fields_match_tokens(make_doc):
    doc = make_doc(ROWS, ents=["B-PERSON", "O", "B-PERSON", "O", "O", "O", "O", "O"])
    a = read_doc(doc)
    assert isinstance(a, DocArrays) and len(a) == len(doc)
    assert a.columns.shape == (len(ATTRS), len(doc)) and a.columns.dtype == np.uint64
    assert a.table.shape == (len(doc), len(ATTRS))
    assert np.array_equal(a.table[:, :len(MENTION_ATTRS)], doc.to_array(list(MENTION_ATTRS)))
    assert a.head.dtype == np.int32 and a.head.tolist() == [t.head.i for t in doc]
    assert a.left.tolist() == [t.left_edge.i for t in doc]
    assert a.right.tolist() == [t.right_edge.i for t in doc]
    assert a.sent.dtype == np.int32 and a.sent.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert a.lower.tolist() == [t.lower for t in doc] and a.orth.tolist() == [t.orth for t in doc]
    assert a.pos.tolist() == [t.pos for t in doc] and a.dep.tolist() == [t.dep for t in doc]
    assert a.ent_type.tolist() == [t.ent_type for t in doc]
    assert a.is_punct.dtype == bool and a.is_punct.tolist() == [t.is_punct for t in doc]
    assert a.length.tolist() == [len(t) for t in doc]
    assert a.speakers is None


def test_doc_arrays_are_read_only(make_doc):
    # Shared by every stage: one writing into them would change the next one's input.
    a = read_doc(make_doc(ROWS))
    for field in ("columns", "lower", "head", "left", "sent", "is_punct", "length"):
        with pytest.raises(ValueError):
            getattr(a, field)[0] = 1


def test_doc_arrays_of_another_doc_are_refused(make_doc):
    doc, other = make_doc(ROWS), make_doc(ROWS[:4])
    with pytest.raises(NeuralcorefError, match="E125"):
        extract_mentions(doc, en.RULES, read_doc(other))


@pytest.mark.parametrize("n_words", [0, 1], ids=["empty", "one-space"])
def test_doc_arrays_empty_docs(en_vocab, n_words):
    a = read_doc(Doc(en_vocab, words=[" "] * n_words, spaces=[False] * n_words))
    assert len(a) == n_words and a.columns.shape == (len(ATTRS), n_words)
    assert a.is_space.tolist() == [True] * n_words


def test_doc_arrays_resolved_doc_read_once(cases, by_lang):
    # Mentions, expletives, features, quotations, names, lexicon classes and
    # binding of a Doc all read one doc.to_array call.
    for name, (lang, doc) in cases.items():
        counting = CountingDoc(doc)
        by_lang[lang].predict([counting])
        assert counting.calls == 1, name


def test_doc_arrays_training_path_read_once(cases):
    # train/featurize.py calls extract_mentions and featurize with one DocArrays.
    _, doc = cases["en_dialogue"]
    counting = CountingDoc(doc)
    arrays = read_doc(counting)
    featurize(counting, extract_mentions(counting, en.RULES, arrays), FeatureTables(en.RULES),
              use_vectors=True, arrays=arrays)
    assert counting.calls == 1


def test_doc_arrays_public_functions_read_the_doc_themselves(cases):
    # Without arrays each stage reads the Doc itself, with the same results.
    _, doc = cases["en_story"]
    counting = CountingDoc(doc)
    alone = extract_mentions(counting, en.RULES)
    assert counting.calls == 1
    shared = extract_mentions(doc, en.RULES, read_doc(doc))
    assert alone.spans() == shared.spans()


def test_doc_arrays_outputs_equal_snapshots(cases, by_lang):
    expected = json.loads(EXPECTED.read_text(encoding="utf8"))
    assert set(expected) == set(cases)
    for name, (lang, doc) in cases.items():
        got = json.loads(json.dumps(snapshot(doc, by_lang[lang])))
        differ = [key for key in expected[name] if expected[name][key] != got[key]]
        assert not differ, f"{name}: {differ}"
