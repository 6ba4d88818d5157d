"""Candidate antecedents: the Cython kernel against the Python reference, and the window rules."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuralcoref.core import _features
from neuralcoref.core.features.contract import MentionFeatures
from neuralcoref.core.features.pairs import (DEFAULT_MAX_DIST, DEFAULT_MAX_DIST_MATCH, anaphor_index,
                                             candidate_antecedents, candidate_window, nominal_window,
                                             top_candidates)

from oracles import candidate_antecedents_reference, top_candidates_reference


def features(is_pronoun, head_hash) -> MentionFeatures:
    """Mention features with only the columns candidate_antecedents reads set."""
    from neuralcoref.core.features.contract import C, H, MENTION_CODES, MENTION_HASHES, WORD_SLOTS
    n = len(is_pronoun)
    codes = np.zeros((n, len(MENTION_CODES)), dtype=np.int32)
    codes[:, C["type"]] = np.where(np.asarray(is_pronoun, dtype=bool), 0, 1)
    hashes = np.zeros((n, len(MENTION_HASHES)), dtype=np.uint64)
    hashes[:, H["head"]] = head_hash
    return MentionFeatures(codes, hashes, np.zeros((n, len(WORD_SLOTS)), np.uint64),
                           np.zeros((n, 0), np.float32))


def rows(ptr, ante):
    return [ante[ptr[m]:ptr[m + 1]].tolist() for m in range(len(ptr) - 1)]


@given(is_pronoun=st.lists(st.booleans(), max_size=60),
       heads=st.data(), max_dist=st.integers(0, 12), max_dist_match=st.integers(0, 40),
       nominal=st.one_of(st.none(), st.integers(0, 12)))
@settings(max_examples=150, deadline=None)
def test_pairs_kernel_matches_reference(is_pronoun, heads, max_dist, max_dist_match, nominal):
    n = len(is_pronoun)
    head_hash = np.array(heads.draw(st.lists(st.sampled_from([0, 7, 9, 2**64 - 1]),
                                             min_size=n, max_size=n)), dtype=np.uint64)
    is_pronoun = np.array(is_pronoun, dtype=np.int8)
    near = max_dist if nominal is None else nominal
    got = _features.candidate_antecedents(is_pronoun, head_hash, max_dist,
                                          max(max_dist_match, max_dist, near), near)
    expected = candidate_antecedents_reference(is_pronoun, head_hash, max_dist, max_dist_match, nominal)
    assert got[0].dtype == np.int64 and got[1].dtype == np.int32
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    wrapped = candidate_antecedents(features(is_pronoun, head_hash), max_dist, max_dist_match, nominal)
    assert np.array_equal(wrapped[1], expected[1])


@pytest.mark.parametrize("seed", range(3))
def test_pairs_kernel_accepts_read_only_arrays(array_kind, seed):
    rng = np.random.default_rng(seed)
    is_pronoun = rng.integers(0, 2, 200).astype(np.int8)
    head_hash = rng.choice(np.array([0, 3, 5, 2**63 + 1], dtype=np.uint64), 200)
    expected = candidate_antecedents_reference(is_pronoun, head_hash, 5, 60)
    ptr, ante = _features.candidate_antecedents(array_kind(is_pronoun), array_kind(head_hash), 5, 60, 5)
    assert np.array_equal(ptr, expected[0]) and np.array_equal(ante, expected[1])


def test_pairs_shorter_window_for_non_pronouns_keeps_head_matches():
    # mentions 0-4 nominal with heads 1, 2, 1, 3, 1; mention 5 a pronoun
    feats = features([0, 0, 0, 0, 0, 1], [1, 2, 1, 3, 1, 9])
    ptr, ante = candidate_antecedents(feats, max_dist=4, max_dist_match=10, max_dist_nominal=1)
    got = rows(ptr, ante)
    assert got[4] == [3, 2, 0]  # the nearest one, then the head matches further back
    assert got[3] == [2]
    assert got[5] == [4, 3, 2, 1]  # a pronoun keeps max_dist
    assert rows(*candidate_antecedents(feats, 4, 10, None)) == rows(*candidate_antecedents(feats, 4, 10))
    with pytest.raises(ValueError, match="max_dist_nominal"):
        candidate_antecedents(feats, 4, 10, -1)


def test_pairs_nearest_first_within_max_dist():
    ptr, ante = candidate_antecedents(features([0] * 5, [1, 2, 3, 4, 5]), max_dist=2)
    assert rows(ptr, ante) == [[], [0], [1, 0], [2, 1], [3, 2]]
    assert ptr.tolist() == [0, 0, 1, 3, 5, 7]


def test_pairs_head_match_reaches_further_back():
    # mention 5 shares its head with 0 (a noun) and 1 (a pronoun): only 0 qualifies
    heads = [9, 9, 1, 2, 3, 9]
    pronoun = [0, 1, 0, 0, 0, 0]
    ptr, ante = candidate_antecedents(features(pronoun, heads), max_dist=2, max_dist_match=10)
    assert rows(ptr, ante)[5] == [4, 3, 0]
    ptr, ante = candidate_antecedents(features(pronoun, heads), max_dist=2, max_dist_match=4)
    assert rows(ptr, ante)[5] == [4, 3]  # 0 is 5 mentions back


def test_pairs_pronouns_and_empty_heads_get_no_far_candidates():
    ptr, ante = candidate_antecedents(features([0, 0, 0, 1], [7, 1, 2, 7]), max_dist=1,
                                      max_dist_match=10)
    assert rows(ptr, ante)[3] == [2]  # a pronoun anaphor: the near window only
    ptr, ante = candidate_antecedents(features([0, 0, 0, 0], [0, 1, 2, 0]), max_dist=1,
                                      max_dist_match=10)
    assert rows(ptr, ante)[3] == [2]  # head hash 0 means no head word: never matches


def test_pairs_max_dist_zero_and_match_below_max_dist():
    ptr, ante = candidate_antecedents(features([0] * 4, [5] * 4), max_dist=0, max_dist_match=0)
    assert len(ante) == 0 and ptr.tolist() == [0] * 5
    # max_dist_match below max_dist acts as max_dist
    a = candidate_antecedents(features([0] * 6, [5] * 6), max_dist=3, max_dist_match=1)
    b = candidate_antecedents(features([0] * 6, [5] * 6), max_dist=3, max_dist_match=3)
    assert np.array_equal(a[1], b[1])


@pytest.mark.parametrize("max_dist,max_dist_match", [(-1, 10), (5, -1)], ids=["max_dist", "max_dist_match"])
def test_pairs_negative_windows_rejected(max_dist, max_dist_match):
    with pytest.raises(ValueError, match=">= 0"):
        candidate_antecedents(features([0, 0], [1, 1]), max_dist, max_dist_match)


def test_pairs_defaults():
    assert (DEFAULT_MAX_DIST, DEFAULT_MAX_DIST_MATCH) == (50, 500)


def test_pairs_anaphor_index():
    ptr = np.array([0, 0, 1, 3, 3, 5])
    assert anaphor_index(ptr).tolist() == [1, 2, 2, 4, 4]
    assert anaphor_index(ptr).dtype == np.int32
    assert anaphor_index(np.array([0])).tolist() == []


def test_pairs_linear_in_mentions():
    n = 50_000
    rng = np.random.default_rng(0)
    feats = features(rng.integers(0, 2, n), rng.integers(1, 1000, n).astype(np.uint64))
    ptr, ante = candidate_antecedents(feats, 50, 500)
    # near window plus at most (500 - 50) head matches, which are rare here
    assert len(ante) <= n * 50 + n * 450 // 100
    assert ptr[-1] == len(ante) and np.all(np.diff(ptr) >= 0)


def test_pairs_nominal_window_resolves_only_an_unset_value():
    assert nominal_window(100, None) == 100
    assert nominal_window(100, 30) == 30
    assert nominal_window(100, 0) == 0  # a window of 0 is a setting, not "unset"


def test_pairs_candidate_window_settings_then_model_then_defaults():
    assert candidate_window({}) == (DEFAULT_MAX_DIST, DEFAULT_MAX_DIST_MATCH, DEFAULT_MAX_DIST)
    recorded = {"max_dist": 100, "max_dist_match": 400, "max_dist_nominal": 30}
    assert candidate_window(recorded) == (100, 400, 30)
    assert candidate_window(recorded, max_dist=10, max_dist_nominal=0) == (10, 400, 0)
    assert candidate_window({"max_dist": 100}) == (100, DEFAULT_MAX_DIST_MATCH, 100)


@pytest.mark.parametrize("seed", range(20))
def test_top_candidates_matches_reference(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 40, rng.integers(0, 30))
    ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    # Few distinct values on odd seeds, so that ties decide which candidates stay.
    scores = (rng.integers(0, 4, ptr[-1]) if seed % 2 else rng.normal(size=ptr[-1])).astype(np.float32)
    k = int(rng.integers(1, 12))
    kept = top_candidates(scores, ptr, k)
    np.testing.assert_array_equal(kept, top_candidates_reference(scores, ptr, k))
    assert np.all(np.diff(kept) > 0)


def test_top_candidates_keeps_the_best_and_earliest_ties():
    ptr = np.array([0, 5, 7, 7], np.int64)
    scores = np.array([1, 3, 3, 2, 3, 0, 5], np.float32)
    assert top_candidates(scores, ptr, 2).tolist() == [1, 2, 5, 6]
    assert top_candidates(scores, ptr, 4).tolist() == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="at least 1"):
        top_candidates(scores, ptr, 0)
