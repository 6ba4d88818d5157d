"""The word vocabulary: rows of LOWER hashes, conversions, building from counts."""
import numpy as np
import pytest
from spacy.strings import get_string_id

from neuralcoref.core.scoring.embeddings import WordVocab, build_vocab
from neuralcoref.core.scoring.scoring import FIRST_WORD_ROW, NONE_ROW, OOV_ROW

WORDS = ["the", "dog", "woman", "girl", "man"]


def h(*words: str) -> np.ndarray:
    return np.array([get_string_id(w) for w in words], dtype=np.uint64)


def test_embeddings_rows_known_unknown_and_empty():
    vocab = WordVocab(WORDS)
    assert len(vocab) == FIRST_WORD_ROW + len(WORDS)
    got = vocab.rows(np.array([get_string_id("dog"), 0, get_string_id("cat"), get_string_id("the")],
                              dtype=np.uint64))
    assert got.tolist() == [FIRST_WORD_ROW + 1, NONE_ROW, OOV_ROW, FIRST_WORD_ROW]
    assert got.dtype == np.int64


def test_embeddings_rows_keep_the_shape():
    vocab = WordVocab(WORDS)
    hashes = np.stack([h("the", "dog", "zebra"), np.array([0, 0, get_string_id("man")], np.uint64)])
    got = vocab.rows(hashes)
    assert got.shape == (2, 3)
    assert got.tolist() == [[2, 3, OOV_ROW], [NONE_ROW, NONE_ROW, 6]]


def test_embeddings_rows_of_an_empty_vocabulary():
    vocab = WordVocab([])
    assert len(vocab) == FIRST_WORD_ROW
    assert vocab.rows(np.array([0, 5, 2**64 - 1], dtype=np.uint64)).tolist() == [NONE_ROW, OOV_ROW, OOV_ROW]


def test_embeddings_rows_of_large_hashes():
    # hashes above 2**63 must not go through floats or signed ints
    vocab = WordVocab(WORDS)
    big = [w for w in WORDS if get_string_id(w) >= 2**63]
    if big:
        assert vocab.rows(h(*big)).tolist() == [FIRST_WORD_ROW + WORDS.index(w) for w in big]
    near = np.array([get_string_id("dog") + 1, get_string_id("dog") - 1], dtype=np.uint64)
    assert vocab.rows(near).tolist() == [OOV_ROW, OOV_ROW]


def test_embeddings_conv_dict_adds_mean_rows():
    vocab = WordVocab(WORDS)
    table = np.arange(len(vocab) * 2, dtype=np.float32).reshape(len(vocab), 2)
    new, new_table = vocab.with_conversions({"Angela": ["woman", "girl"], "Bob": ["man", "unknownword"],
                                             "nobody": ["zzz"]}, table)
    assert new_table.dtype == np.float32
    assert new_table.shape == (len(vocab) + 2, 2) == (len(new), 2)  # "nobody" has no known word
    assert np.array_equal(new_table[:len(vocab)], table)
    angela, bob, nobody = new.rows(h("angela", "bob", "nobody")).tolist()
    np.testing.assert_allclose(new_table[angela], table[[4, 5]].mean(axis=0))
    np.testing.assert_allclose(new_table[bob], table[6])
    assert nobody == OOV_ROW
    assert new.rows(h("dog")).tolist() == vocab.rows(h("dog")).tolist()
    assert vocab.rows(h("angela")).tolist() == [OOV_ROW]  # the original is unchanged


def test_embeddings_conv_dict_overrides_a_known_word():
    vocab = WordVocab(WORDS)
    table = np.eye(len(vocab), dtype=np.float32)
    new, new_table = vocab.with_conversions({"Dog": ["woman", "man"]}, table)
    row = new.rows(h("dog"))[0]
    assert row == len(vocab) and len(new) == new_table.shape[0] == len(vocab) + 1
    np.testing.assert_allclose(new_table[row], table[[4, 6]].mean(axis=0))


def test_embeddings_conv_dict_same_word_twice_keeps_the_last():
    vocab = WordVocab(WORDS)
    table = np.eye(len(vocab), dtype=np.float32)
    new, new_table = vocab.with_conversions({"Angela": ["woman"], "angela": ["girl"]}, table)
    assert len(new) == new_table.shape[0]
    np.testing.assert_allclose(new_table[new.rows(h("angela"))[0]], table[5])


def test_embeddings_build_vocab_by_count_then_alphabet():
    counts = {"the": 10, "dog": 3, "cat": 3, "rare": 1, "emu": 2}
    vocab = build_vocab(counts, min_count=2)
    assert vocab.words == ["the", "cat", "dog", "emu"]
    assert build_vocab(counts, min_count=2, max_size=2).words == ["the", "cat"]
    assert build_vocab(counts, min_count=1, max_size=None).words[-1] == "rare"
    assert build_vocab({}, min_count=1).words == []
