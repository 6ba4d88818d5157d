"""The short-array fast paths give what numpy's general functions give."""
import numpy as np
import pytest
from spacy.tokens import Doc

from neuralcoref.core.doc.doc_arrays import read_doc
from neuralcoref.core.doc.labels import has_label, has_labels, joined_label_ids, label_ids
from neuralcoref.core.features import featurize
from neuralcoref.core.util.sets import SMALL_PRODUCT, in_increasing, isin

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("n,k", [(0, 3), (4, 0), (1, 1), (12, 3), (40, 40), (300, 12)],
                         ids=lambda v: str(v))
def test_sets_isin_matches_numpy(dtype, n, k):
    rng = np.random.default_rng(n * 100 + k)
    element = rng.integers(0, 20, n).astype(dtype)
    test = rng.integers(0, 20, k).astype(dtype)
    out = isin(element, test)
    assert out.dtype == bool and out.shape == element.shape
    np.testing.assert_array_equal(out, np.isin(element, test))


def test_sets_isin_takes_lists_shapes_and_mixed_kinds():
    element = np.arange(12, dtype=np.int8).reshape(3, 4)
    np.testing.assert_array_equal(isin(element, [1, 5, 11]), np.isin(element, [1, 5, 11]))
    hashes = np.array([2 ** 64 - 1, 5, 7], dtype=np.uint64)  # unsigned against signed: np.isin's rules
    np.testing.assert_array_equal(isin(hashes, np.array([5, -1])), np.isin(hashes, np.array([5, -1])))
    assert isin([1, 2], (2,)).tolist() == [False, True]
    strided = np.arange(24, dtype=np.int64).reshape(6, 4)[:, 1]  # a column view
    np.testing.assert_array_equal(isin(strided, np.array([5, 9, 30], np.int32)[::2]), np.isin(strided, [5, 30]))
    assert isin(np.int32(3), [3]).shape == () and bool(isin(np.int32(3), [3]))
    np.testing.assert_array_equal(isin(np.array([-1, 255], np.int16), np.array([-1], np.int64)), [True, False])
    big = np.arange(SMALL_PRODUCT + 1)
    np.testing.assert_array_equal(isin(big, [3]), np.isin(big, [3]))


@pytest.mark.parametrize("n_tokens", [0, 5, 64, 500])
@pytest.mark.parametrize("n_labels", [0, 1, 6, 9, 20])
def test_has_label_kernel_matches_isin(n_tokens, n_labels):
    words = frozenset(f"w{i}" for i in range(n_labels))
    vocabulary = label_ids(frozenset(f"w{i}" for i in range(0, 20)))
    column = np.random.default_rng(n_tokens).choice(np.append(vocabulary, np.uint64(0)), n_tokens)
    out = has_label(column, words)
    assert out.dtype == bool and out.shape == column.shape
    np.testing.assert_array_equal(out, np.isin(column, label_ids(words)))


def test_has_label_reads_strided_columns_and_other_shapes():
    # A DocArrays column is a strided view of doc.to_array's (n, k) array.
    words = frozenset({"w1", "w3"})
    table = label_ids(frozenset(f"w{i}" for i in range(6)))
    array = np.stack([table, table[::-1], np.zeros(6, np.uint64)], axis=1)
    for column in (array[:, 0], array[:, 1], array[::2, 0], array[:, 2]):
        np.testing.assert_array_equal(has_label(column, words), np.isin(column, label_ids(words)))
    np.testing.assert_array_equal(has_label(array, words), np.isin(array, label_ids(words)))
    assert has_label(list(table), words).tolist() == np.isin(table, label_ids(words)).tolist()


@pytest.mark.parametrize("n_tokens", [0, 1, 64, 500])
def test_has_labels_kernel_matches_has_label_for_each_set(n_tokens):
    vocabulary = label_ids(frozenset(f"w{i}" for i in range(20)))
    column = np.random.default_rng(n_tokens).choice(np.append(vocabulary, np.uint64(0)), n_tokens)
    # Overlapping, empty and repeated sets, and 64 of them (every bit of the table).
    sets = (frozenset({"w1", "w2"}), frozenset(), frozenset({"w2", "w9", "zz"}), frozenset({"w1", "w2"}))
    sets += tuple(frozenset({f"w{i % 20}", f"w{(3 * i) % 20}"}) for i in range(60))
    for chosen in (sets[:4], sets, ()):
        out = has_labels(column, chosen)
        assert out.dtype == bool and out.shape == (len(chosen), n_tokens)
        for row, values in zip(out, chosen):
            np.testing.assert_array_equal(row, has_label(column, values))
    ids, bits = joined_label_ids(sets[:4])
    assert ids.tolist() == sorted(ids.tolist()) and not ids.flags.writeable
    by_id = dict(zip(ids.tolist(), bits.tolist()))
    assert [by_id[int(i)] for i in label_ids(frozenset({"w1"})).tolist() + label_ids(frozenset({"w2"})).tolist()
            + label_ids(frozenset({"zz"})).tolist()] == [0b1001, 0b1101, 0b0100]  # bit s: sets[s]


def test_has_labels_on_a_real_doc_and_other_columns(make_doc):
    from neuralcoref.lang import get_rules

    doc = make_doc([("It", 1, "nsubj", "PRON"), ("was", 1, "ROOT", "AUX"), ("cold", 1, "acomp", "ADJ"),
                    ("and", 1, "cc", "CCONJ"), ("it", 5, "nsubj", "PRON"), ("rained", 1, "conj", "VERB"),
                    ("three", 7, "nummod", "NUM"), ("days", 5, "npadvmod", "NOUN")])
    arrays, rules = read_doc(doc), get_rules("en")
    sets = (rules.weather_lemmas, rules.copula_lemmas, rules.predicate_adjective_deps, rules.subject_deps,
            rules.conj_deps, rules.expletive_pronouns, frozenset({"NUM", "NOUN"}))
    for column in (arrays.lemma, arrays.dep, arrays.lower, arrays.pos):  # strided views of one array
        got = has_labels(column, sets)
        for row, values in zip(got, sets):
            np.testing.assert_array_equal(row, has_label(column, values))
    assert has_labels(arrays.dep, sets)[2].tolist() == [False, False, True] + [False] * 5
    # Other kinds than uint64 take has_label's own path.
    as_list = has_labels(list(arrays.pos), sets)
    np.testing.assert_array_equal(as_list, has_labels(arrays.pos, sets))


def test_label_kernels_refuse_ids_of_another_kind():
    from neuralcoref.core import _mentions

    column = label_ids(frozenset({"w1", "w2"}))
    for ids in (np.array([1, 2], np.int64), np.zeros((1, 2), np.uint64), np.arange(4, dtype=np.uint64)[::2]):
        with pytest.raises(ValueError, match="1-d C-contiguous uint64"):
            _mentions.label_mask(column, ids)
        with pytest.raises(ValueError, match="1-d C-contiguous uint64"):
            _mentions.label_masks(column, ids, ids, 1)
    ids = np.sort(column)
    with pytest.raises(ValueError, match="as long as"):
        _mentions.label_masks(column, ids, ids[:1].copy(), 1)
    assert _mentions.label_mask(column, np.zeros(0, np.uint64)).tolist() == [False, False]


def _numpy_same_counts(values):
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    out = counts[inverse.reshape(-1)] - 1
    out[values == 0] = 0
    return out.astype(np.int32)


@pytest.mark.parametrize("n", [1, 2, 7, featurize._SHORT, featurize._SHORT + 1, 200])
def test_featurize_value_counts_short_path_matches_sorting(n, monkeypatch):
    values = np.random.default_rng(n).integers(0, 6, n).astype(np.uint64)
    same, earlier = featurize._same_value_counts(values), featurize._earlier_value_counts(values)
    monkeypatch.setattr(featurize, "_SHORT", 0)  # the sorting path, for every size
    np.testing.assert_array_equal(same, _numpy_same_counts(values))
    np.testing.assert_array_equal(same, featurize._same_value_counts(values))
    np.testing.assert_array_equal(earlier, featurize._earlier_value_counts(values))
    assert same.dtype == earlier.dtype == np.int32
    expected = [sum(values[j] == values[i] for j in range(i)) if values[i] else 0 for i in range(n)]
    assert earlier.tolist() == expected


@pytest.mark.parametrize("n", [1, 9, featurize._SHORT + 5])
def test_featurize_lookup_short_path_matches_distinct_values(n, monkeypatch):
    values = np.random.default_rng(n).integers(0, 5, n).astype(np.uint64)
    table = {1: 7, 3: -2}
    short = featurize._lookup(values, table, default=4)
    monkeypatch.setattr(featurize, "_SHORT", 0)
    np.testing.assert_array_equal(short, featurize._lookup(values, table, default=4))
    assert short.dtype == np.int32 and short.tolist() == [table.get(int(v), 4) for v in values]


def test_label_codes_groups_a_class_map_once_and_codes_each_label():
    from neuralcoref.core.doc.labels import _class_label_sets, label_codes
    classes = {"i": "1s", "me": "1s", "we": "1p", "you": "2"}
    codes = {"1s": 1, "1p": 2, "2": 3}
    column = label_ids(frozenset(["i"])).tolist() + label_ids(frozenset(["we"])).tolist() + [0] \
        + label_ids(frozenset(["me"])).tolist() + label_ids(frozenset(["you"])).tolist()
    out = label_codes(np.array(column, dtype=np.uint64), classes, codes)
    assert out.dtype == np.int8 and out.tolist() == [1, 2, 0, 1, 3]
    before = _class_label_sets.cache_info().hits
    label_codes(np.array(column, dtype=np.uint64), dict(classes), codes)
    assert _class_label_sets.cache_info().hits == before + 1


@pytest.mark.parametrize("n", [1, 5, 64, 65, 200])
def test_lexicon_classes_short_path_matches_unique(n, en_vocab, monkeypatch):
    from neuralcoref.lang import lexicon
    words = ["doctor", "nurse", "table", "Mary", "zzq", "shop"]
    keys = np.array([en_vocab.strings.add(words[i % len(words)]) for i in range(n)], dtype=np.uint64)
    keys[::7] = 12345  # an id the StringStore does not know: code 0
    table = {"doctor": "person", "nurse": "female", "table": "inanimate"}
    doc = Doc(en_vocab, words=["x"])
    short = lexicon._classes(doc, keys, table)
    monkeypatch.setattr(lexicon, "_FEW_KEYS", 0)  # the np.unique path, for every size
    assert short.dtype == np.int8
    np.testing.assert_array_equal(short, lexicon._classes(doc, keys, table))


def test_resolver_settings_follow_greedyness_and_offsets(handmade_model):
    from neuralcoref.artifacts.model_dir import load_model
    from neuralcoref.core.resolver import Resolver
    from neuralcoref.lang.en import RULES
    resolver = Resolver(load_model(handmade_model), RULES)
    first = resolver.settings
    assert resolver.settings is first  # built once, not per Doc
    resolver.greedyness = 0.7
    assert resolver.settings.greedyness == 0.7
    resolver.link_offsets["proper"] = -0.3
    assert resolver.settings.link_offsets["proper"] == -0.3


@pytest.mark.parametrize("n", [0, 3, 64, 65, 150])
def test_mentions_word_types_short_path_matches_unique(n, en_vocab, monkeypatch):
    from neuralcoref.core.doc.doc_arrays import read_doc
    from neuralcoref.core.mentions import mentions
    words = [["The", "cat", "saw", "the", "Cat", ",", "😀"][i % 7] for i in range(n)]
    arrays = read_doc(Doc(en_vocab, words=words))
    texts, inverse = mentions._word_types(arrays)
    monkeypatch.setattr(mentions, "_FEW_TOKENS", -1)  # np.unique for every size
    ref_texts, ref_inverse = mentions._word_types(arrays)
    assert texts == ref_texts and inverse.dtype == ref_inverse.dtype
    np.testing.assert_array_equal(inverse, ref_inverse)
    assert [texts[i] for i in inverse.tolist()] == words


def test_early_exits_answer_as_the_whole_computation(en_vocab):
    # A Doc with no neuter pronoun to ask about, or no pronoun at all.
    from neuralcoref.core.discourse.cataphora import forward_subjects
    from neuralcoref.core.doc.doc_arrays import read_doc
    from neuralcoref.core.mentions.expletives import in_predicative_frame
    from neuralcoref.lang.en import RULES
    arrays = read_doc(Doc(en_vocab, words=["After", "Mary", "left", ",", "John", "slept"],
                          heads=[2, 2, 5, 5, 5, 5], deps=["mark", "nsubj", "advcl", "punct", "nsubj", "ROOT"],
                          pos=["SCONJ", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"]))
    empty = in_predicative_frame(RULES, arrays, np.zeros(0, dtype=np.int64))
    assert empty.dtype == bool and empty.shape == (0,)
    assert in_predicative_frame(RULES, arrays, np.array([1, 4])).shape == (2,)
    heads = np.array([1, 4], dtype=np.int32)
    out = forward_subjects(arrays, RULES, heads, heads + 1, heads, np.array([2, 2], dtype=np.int8))
    assert out.dtype == np.int32 and out.tolist() == [-1, -1]


def test_sets_union_find_and_owner_map():
    from neuralcoref.core.util.cluster_sets import UnionFind, owner_map

    sets = UnionFind(6)
    for a, b in [(0, 1), (2, 3), (1, 3), (5, 5)]:
        sets.join(a, b)
    roots = [sets.find(x) for x in range(6)]
    assert len({roots[0], roots[1], roots[2], roots[3]}) == 1
    assert roots[4] == 4 and roots[5] == 5 and roots[0] != 4
    assert owner_map([[0, 2], [1], [2, 5]]) == {0: 0, 2: 2, 1: 1, 5: 2}


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("n, k", [(5000, 300), (3000, 1), (40, 10), (0, 5)])
def test_sets_in_increasing_matches_numpy(sort, n, k):
    rng = np.random.default_rng(n + k)
    element = rng.integers(0, n // 3 + 2, n).astype(np.int64)  # repeated values
    if sort:
        element.sort()
    test = np.concatenate([rng.choice(element, min(k, n)) if n else [], rng.integers(-5, 3 * n + 5, k)])
    assert np.array_equal(in_increasing(element, test.astype(np.int64)), np.isin(element, test))
