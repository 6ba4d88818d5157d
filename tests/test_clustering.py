"""From scores to clusters: best antecedents, greedyness, union, main mentions."""
import math
from typing import List

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decode_calls import best_antecedents, decode_clusters
from neuralcoref.core.decode.antecedents import prefer_near
from neuralcoref.core.decode.cluster_passes import (attach_repeats, clusters_from_links, main_mention, merge_repeats,
                                                    merge_shared_heads, one_span_per_head, spans_of)
from neuralcoref.core.discourse.decode_signals import (check_link_offsets, coordination_preference, greedyness_offset,
                                                       link_offsets_of, name_words, repeat_keys, subject_salience)
from neuralcoref.core.features.contract import DEP_CLASSES, GENDER, MENTION_CODES, MENTION_HASHES, NUMBER, PERSON
from neuralcoref.core.mentions.mentions import MENTION_TYPES

PRON, NOM, PROPER, LIST = (MENTION_TYPES.index(t) for t in ("pronominal", "nominal", "proper", "list"))


def csr(rows: List[List[int]]):
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(r) for r in rows])
    return ptr, np.array([a for r in rows for a in r], dtype=np.int32)


def decide(single, pair_rows, greedyness=0.5):
    """pair_rows: per mention, [(antecedent, score)...] nearest first."""
    ptr, ante = csr([[a for a, _ in row] for row in pair_rows])
    pair = np.array([s for row in pair_rows for _, s in row], dtype=np.float32)
    return best_antecedents(np.array(single, np.float32), pair, ptr, ante, greedyness).tolist()


@pytest.mark.parametrize("greedyness,expected", [
    (0.5, 0.0), (0.25, math.log(3)), (0.75, -math.log(3)), (0.0, math.inf), (1.0, -math.inf)],
    ids=["as-trained", "cautious", "greedy", "never", "always"])
def test_clustering_greedyness_offset(greedyness, expected):
    assert greedyness_offset(greedyness) == pytest.approx(expected)


@pytest.mark.parametrize("greedyness", [-0.1, 1.5, float("nan")], ids=["negative", "above-one", "nan"])
def test_clustering_greedyness_out_of_range(greedyness):
    with pytest.raises(ValueError, match="greedyness"):
        greedyness_offset(greedyness)


def test_clustering_best_antecedent_beats_single_score():
    single = [0.0, 0.0, 1.0, 5.0]
    rows = [[], [(0, 2.0)], [(1, 0.5), (0, 3.0)], [(2, 1.0), (1, 4.0), (0, 2.0)]]
    # 1 -> 0 (2 > 0); 2 -> 0 (3 > 1); 3: best 4 < 5, no link
    assert decide(single, rows) == [-1, 0, 0, -1]


def test_clustering_ties_go_to_the_nearest():
    rows = [[], [(0, 1.0)], [(1, 2.0), (0, 2.0)], [(2, 1.0), (1, 3.0), (0, 3.0)]]
    assert decide([0.0] * 4, rows) == [-1, 0, 1, 1]


def test_clustering_link_needs_strictly_higher_score_at_half():
    assert decide([0.0, 1.0], [[], [(0, 1.0)]]) == [-1, -1]
    assert decide([0.0, 1.0], [[], [(0, 1.0 + 1e-3)]]) == [-1, 0]


@pytest.mark.parametrize("greedyness,expected", [
    (0.0, [-1, -1, -1]), (0.5, [-1, 0, -1]), (0.9, [-1, 0, 1]), (1.0, [-1, 0, 1])],
    ids=["0", "0.5", "0.9", "1"])
def test_clustering_greedyness_links_more_when_higher(greedyness, expected):
    # margins: mention 1 +1.0, mention 2 -1.0 (log(0.1/0.9) = -2.2 lets it link at 0.9)
    rows = [[], [(0, 1.0)], [(1, -1.0), (0, -3.0)]]
    assert decide([0.0, 0.0, 0.0], rows, greedyness) == expected


def test_clustering_greedyness_one_links_even_hopeless_pairs():
    assert decide([0.0, 1e30], [[], [(0, -1e30)]], 1.0) == [-1, 0]


def test_clustering_no_candidates():
    assert decide([1.0, 2.0, 3.0], [[], [], []]) == [-1, -1, -1]
    assert decide([], []) == []
    # a mention without candidates between two that have some
    assert decide([0.0, 0.0, 0.0, 0.0], [[], [(0, 1.0)], [], [(2, 1.0), (1, -1.0)]]) == [-1, 0, -1, 2]


@given(st.lists(st.lists(st.integers(-3, 3), max_size=6), max_size=12), st.sampled_from([0.2, 0.5, 0.8]))
@settings(max_examples=100, deadline=None)
def test_clustering_best_antecedents_match_a_loop(score_rows, greedyness):
    pair_rows, single = [], []
    for m, scores in enumerate(score_rows):
        pair_rows.append([(m - 1 - k, float(s)) for k, s in enumerate(scores[:m])])
        single.append(0.5)
    expected = []
    for m, row in enumerate(pair_rows):
        best = max(row, key=lambda r: r[1], default=None)  # max() keeps the first (nearest)
        link = best is not None and best[1] - single[m] > greedyness_offset(greedyness)
        expected.append(best[0] if link else -1)
    assert decide(single, pair_rows, greedyness) == expected


def test_clustering_union_in_order_of_first_mention():
    links = np.array([-1, -1, 0, 1, -1, 2, 4, -1])
    assert clusters_from_links(links) == [[0, 2, 5], [1, 3], [4, 6]]
    # a later mention joining two chains merges them
    assert clusters_from_links(np.array([-1, -1, 0, 1, 3])) == [[0, 2], [1, 3, 4]]


def test_clustering_links_must_point_back():
    with pytest.raises(ValueError, match="earlier mention"):
        clusters_from_links(np.array([-1, 2, -1]))
    with pytest.raises(ValueError, match="earlier mention"):
        clusters_from_links(np.array([0]))


def test_clustering_singletons_dropped():
    assert clusters_from_links(np.array([-1, -1, -1])) == []
    assert clusters_from_links(np.array([], dtype=np.int32)) == []


def test_clustering_keeps_one_span_per_head_token():
    # "Mary Chaworth" (0), "Mary Chaworth , whom he met" (1, same head token 5),
    # "she" (2, head 12), "Mary" (3, head 20): 1 is the redundant span.
    links = np.array([-1, 0, 1, 2])
    heads = np.array([5, 5, 12, 20])
    assert clusters_from_links(links) == [[0, 1, 2, 3]]
    # the link through the dropped span still joins "she" and "Mary"
    assert one_span_per_head(clusters_from_links(links), heads) == [[0, 2, 3]]


def test_clustering_drops_a_cluster_of_one_head():
    # two spans of one head and nothing else: no cluster left
    assert one_span_per_head(clusters_from_links(np.array([-1, 0, -1, 2])), np.array([3, 3, 7, 9])) == [[2, 3]]
    assert one_span_per_head([[0, 1]], np.array([4, 4])) == []


def test_clustering_span_scores_pick_the_span_of_a_head():
    # "la mère"(0, head 5) "la mère aveugle"(1, head 5) "elle"(2) "elle"(3): the
    # mention scorer prefers the longer span; without scores the first stays.
    links = np.array([-1, 0, 1, 2])
    heads = np.array([5, 5, 9, 12])
    clusters = clusters_from_links(links)
    assert one_span_per_head(clusters, heads) == [[0, 2, 3]]
    assert one_span_per_head(clusters, heads, np.array([-1.0, 2.0, 0.0, 0.0])) == [[1, 2, 3]]
    assert one_span_per_head(clusters, heads, np.zeros(4)) == [[0, 2, 3]]  # ties: the first
    ptr, ante = csr([[], [0], [1, 0], [2, 1]])
    pair = np.array([1.0, 1.0, 0.0, 1.0, 0.0], dtype=np.float32)
    assert decode_clusters(np.zeros(4, np.float32), pair, ptr, ante, heads,
                           span_scores=np.array([-1.0, 2.0, 0.0, 0.0])) == [[1, 2, 3]]


@given(st.lists(st.integers(-1, 30), max_size=30))
@settings(max_examples=100, deadline=None)
def test_clustering_union_is_a_partition_along_links(raw):
    links = np.array([a if 0 <= a < m else -1 for m, a in enumerate(raw)], dtype=np.int32)
    clusters = clusters_from_links(links)
    heads = np.array([x % 7 for x in range(len(links))])  # repeated heads
    filtered = one_span_per_head(clusters, heads)
    # each filtered cluster is the head-deduplicated part of one full cluster, in order
    expected = []
    for cluster in clusters:
        expected += one_span_per_head([cluster], heads)
    assert filtered == expected
    assert all(len({heads[i] for i in c}) == len(c) for c in filtered)
    members = [i for c in clusters for i in c]
    assert len(members) == len(set(members))
    assert all(c == sorted(c) and len(c) >= 2 for c in clusters)
    assert [c[0] for c in clusters] == sorted(c[0] for c in clusters)
    where = {i: k for k, c in enumerate(clusters) for i in c}
    for m, a in enumerate(links.tolist()):
        if a >= 0:
            assert where[m] == where[a]


@pytest.mark.parametrize("types,expected", [
    ([PRON, PROPER, NOM], 1), ([NOM, PROPER], 0), ([PRON, PRON], 0), ([PRON, LIST], 1)],
    ids=["skip-pronoun", "first-non-pronoun", "all-pronouns", "list"])
def test_clustering_main_mention_never_a_pronoun_when_another_exists(types, expected):
    cluster = [3, 5, 8][:len(types)]
    all_types = np.full(10, PRON, dtype=np.int8)
    all_types[cluster] = types
    assert main_mention(cluster, all_types) == cluster[expected]


def test_clustering_spans_of():
    starts, ends = np.array([0, 2, 5]), np.array([1, 4, 6])
    assert spans_of([[0, 2], [1]], starts, ends) == [[(0, 1), (5, 6)], [(2, 4)]]


MASC, FEM, NEUT = (GENDER.index(g) for g in ("masc", "fem", "neut"))
SING, PLUR = (NUMBER.index(n) for n in ("sing", "plur"))


def decide_agreeing(single, pair_rows, gender, number, greedyness=0.5):
    ptr, ante = csr([[a for a, _ in row] for row in pair_rows])
    pair = np.array([s for row in pair_rows for _, s in row], dtype=np.float32)
    agreement = np.array([gender, number], dtype=np.int32).T.reshape(len(single), 2)
    return best_antecedents(np.array(single, np.float32), pair, ptr, ante, greedyness,
                            agreement).tolist()


def test_clustering_no_link_to_another_known_gender():
    # "my sister"(0, fem) "a dog"(1, unknown) "him"(2, masc): "him" prefers "my sister"
    rows = [[], [(0, -1.0)], [(1, 0.5), (0, 3.0)]]
    assert decide([0, 0, 0], rows) == [-1, -1, 0]
    assert decide_agreeing([0, 0, 0], rows, [FEM, 0, MASC], [SING, SING, SING]) == [-1, -1, 1]


def test_clustering_no_link_into_a_cluster_of_another_gender_or_number():
    # "Anna"(0, fem) "the doctor"(1, unknown, links to 0) "the nurse"(2, unknown) "he"(3,
    # masc): "he" prefers "the doctor", which agrees alone but is in Anna's cluster.
    rows = [[], [(0, 2.0)], [(1, -1.0), (0, -1.0)], [(2, 0.5), (1, 1.0), (0, -2.0)]]
    sing = [SING] * 4
    assert decide_agreeing([0] * 4, rows, [FEM, 0, 0, MASC], sing) == [-1, 0, -1, 2]
    assert decide_agreeing([0] * 4, rows, [0] * 4, [0] * 4) == [-1, 0, -1, 1]  # unknown never blocks
    assert decide_agreeing([0] * 4, rows, [0] * 4, [SING, 0, 0, PLUR]) == [-1, 0, -1, 2]
    # the threshold applies to the best allowed candidate, not the best one
    assert decide_agreeing([0, 0, 0, 0.7], rows, [0] * 4, [0] * 4) == [-1, 0, -1, 1]
    assert decide_agreeing([0, 0, 0, 0.7], rows, [FEM, 0, 0, MASC], sing) == [-1, 0, -1, -1]


@given(st.lists(st.tuples(st.lists(st.integers(-3, 3), max_size=5), st.integers(0, 3),
                          st.integers(0, 2)), max_size=10))
@settings(max_examples=150, deadline=None)
def test_clustering_agreeing_decoding_matches_a_loop(rows):
    pair_rows = [[(m - 1 - k, float(s)) for k, s in enumerate(scores[:m])]
                 for m, (scores, _, _) in enumerate(rows)]
    gender, number = [g for _, g, _ in rows], [n for _, _, n in rows]
    cluster = list(range(len(rows)))
    expected = []
    for m, row in enumerate(pair_rows):
        def allowed(a):
            members = [i for i in range(m) if cluster[i] == cluster[a]]
            return all(not (gender[m] and gender[i] and gender[i] != gender[m]) and
                       not (number[m] and number[i] and number[i] != number[m]) for i in members)
        best = max([r for r in row if allowed(r[0])], key=lambda r: r[1], default=None)
        link = best is not None and best[1] - 0.5 > 0
        expected.append(best[0] if link else -1)
        if link:
            old, new = cluster[m], cluster[best[0]]
            cluster = [new if c == old else c for c in cluster]
    assert decide_agreeing([0.5] * len(rows), pair_rows, gender, number) == expected


def test_clustering_link_offsets_per_type():
    types = np.array([PROPER, NOM, PRON, PROPER, LIST], dtype=np.int8)
    assert link_offsets_of(types, {"proper": -0.3, "pronominal": 0.5}).tolist() == pytest.approx(
        [-0.3, 0.0, 0.5, -0.3, 0.0])
    assert link_offsets_of(types, {}) is None and link_offsets_of(types, {"nominal": 0.0}) is None


def test_clustering_link_offsets_move_one_types_threshold():
    # "Anna"(0, proper) "the doctor"(1, nominal) "she"(2, pronoun) "Anna"(3, proper):
    # each later mention's best candidate beats its single score by 0.4
    rows = [[], [(0, 0.4)], [(1, 0.4), (0, -1.0)], [(2, -1.0), (1, -1.0), (0, 0.4)]]
    ptr, ante = csr([[a for a, _ in row] for row in rows])
    pair = np.array([sc for row in rows for _, sc in row], dtype=np.float32)
    types = np.array([PROPER, NOM, PRON, PROPER], dtype=np.int8)
    heads = np.arange(4)

    def clusters(offsets):
        return decode_clusters(np.zeros(4, np.float32), pair, ptr, ante, heads,
                               offsets=link_offsets_of(types, offsets))

    assert clusters({}) == [[0, 1, 2, 3]]
    assert clusters({"pronominal": 0.5}) == [[0, 1, 3]]
    assert clusters({"proper": 0.5}) == [[0, 1, 2]]  # the first "Anna" has no candidate anyway
    assert clusters({"nominal": 0.5, "proper": 0.5}) == [[1, 2]]  # "she" still takes "the doctor"
    assert clusters({"nominal": 0.3}) == [[0, 1, 2, 3]]  # below the 0.4 margin: no change


@pytest.mark.parametrize("offsets,message", [
    ({"verbal": 0.1}, "unknown mention type 'verbal'"), ({"proper": "x"}, "finite number"),
    ({"proper": float("nan")}, "finite number"), ({"nominal": True}, "finite number")],
    ids=["unknown-type", "string", "nan", "bool"])
def test_clustering_bad_link_offsets(offsets, message):
    with pytest.raises(ValueError, match=message):
        check_link_offsets(offsets)


def test_clustering_repeated_name_joins_the_latest_cluster_of_that_name():
    # "Pauline"(0) "she"(1) "Laurence"(2) "her"(3) "Pauline"(4, unlinked) "Pauline"(5,
    # unlinked) "Laurence"(6, own cluster with 7) "her"(7) "Laurence"(8, unlinked):
    P, L = 11, 22
    names = np.array([P, 0, L, 0, P, P, L, 0, L], dtype=np.uint64)
    heads = np.arange(9)
    clusters = [[0, 1], [2, 3], [6, 7]]
    assert attach_repeats(clusters, names, heads) == [[0, 1, 4, 5], [2, 3], [6, 7, 8]]
    assert clusters == [[0, 1], [2, 3], [6, 7]]  # the input is left as it was


def test_clustering_repeated_names_never_move_clustered_mentions_nor_make_clusters():
    P, L = 11, 22
    heads = np.arange(5)
    # "Pauline"(0) and "Pauline"(3) are in different clusters: the scorers' choice stays
    clusters = [[0, 1], [2, 3]]
    assert attach_repeats(clusters, np.array([P, 0, 0, P, 0], np.uint64), heads) == clusters
    # two unlinked "Laurence" do not make a cluster of their own
    assert attach_repeats([[0, 1]], np.array([0, 0, L, 0, L], np.uint64), heads) == [[0, 1]]
    # a repeat whose head the cluster already holds ("Pauline" inside "Pauline D.") stays out
    assert attach_repeats([[0, 1]], np.array([P, 0, P, 0, 0], np.uint64),
                                 np.array([0, 1, 0, 3, 4])) == [[0, 1]]


def test_clustering_pieces_of_one_name_or_speaker_merge():
    # "Pauline"(0) "she"(1) | "I"(2, speaker 1) "me"(3) | "Pauline"(4) "her"(5) |
    # "I"(6, speaker 1) "my"(7) | "Laurence"(8) "she"(9) | "I"(10, speaker 2) "me"(11)
    P, L, I1, I2 = 11, 22, 33, 44
    keys = np.array([P, 0, I1, I1, P, 0, I1, I1, L, 0, I2, I2], dtype=np.uint64)
    clusters = [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]
    merged = merge_repeats(clusters, keys, np.arange(12))
    assert merged == [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9], [10, 11]]
    assert clusters == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]  # input kept


def test_clustering_merging_repeats_is_transitive_and_keeps_one_span_per_head():
    # [0 "Anna", 1 "I" (speaker 1)], [2 "she", 3 "Anna"], [4 "I" (speaker 1), 5 "we"]:
    # one entity through both keys; 6 ("Anna Karenina", head 3) and 3 share a head,
    # and the mention scores keep the longer span.
    A, I1 = 7, 9
    keys = np.array([A, I1, 0, A, I1, 0, A], dtype=np.uint64)
    heads = np.array([0, 1, 2, 3, 4, 5, 3])
    scores = np.array([0, 0, 0, 0.1, 0, 0, 0.9], dtype=np.float32)
    assert merge_repeats([[0, 1], [2, 3], [4, 5]], keys, heads) == [[0, 1, 2, 3, 4, 5]]
    assert merge_repeats([[0, 1], [2, 3], [4, 5, 6]], keys, heads, scores) == [[0, 1, 2, 4, 5, 6]]


def test_clustering_merging_repeats_keeps_clusters_of_other_names_apart():
    # The narrator's "je" (speaker key I) was linked into Pauline's cluster as well as
    # into Laurence's: the key would merge the heroines, their names forbid it. A
    # piece without a name ("je" "me") may join either; "Samuel" and "Samuel de
    # Constant" share a word and merge.
    I, PAULINE, LAURENCE, SAMUEL = 9, 1 << 1, 1 << 2, 1 << 3
    keys = np.array([0, I, 0, I, I, I, 0, 0], dtype=np.uint64)
    names = np.array([LAURENCE, 0, PAULINE, 0, 0, 0, SAMUEL, SAMUEL | 1 << 4], dtype=np.uint64)
    clusters = [[0, 1], [2, 3], [4, 5]]
    assert merge_repeats(clusters, keys, np.arange(8), names=names) == [[0, 1, 4, 5], [2, 3]]
    assert merge_repeats(clusters, keys, np.arange(8)) == [[0, 1, 2, 3, 4, 5]]  # no names given
    samuel = np.array([0, 0, 0, 0, 0, 0, 77, 77], dtype=np.uint64)  # one key, name words overlap
    assert merge_repeats([[1, 6], [3, 7]], samuel, np.arange(8), names=names) == [[1, 3, 6, 7]]


def test_clustering_clusters_holding_one_head_token_merge():
    # "Sahara Smith"(0, head 1) "her"(1) | "Sahara Smith (born 1988)"(2, head 1)
    # "Smith"(3) | "Texas"(4) "Texas"(5): the first two hold one head token.
    heads = np.array([1, 9, 1, 20, 30, 40])
    types = np.array([PROPER, PRON, PROPER, PROPER, PROPER, PROPER])
    scores = np.array([0.9, 0, 0.1, 0, 0, 0], dtype=np.float32)
    merged = merge_shared_heads([[0, 1], [2, 3], [4, 5]], heads, types, scores)
    assert merged == [[0, 1, 3], [4, 5]]  # one span per head: the better scored one


def test_clustering_shared_heads_leave_lists_partners_and_disagreement_apart():
    # "[John] and Mary"(1 list, head 0) shares its head with "John"(0).
    heads = np.array([0, 0, 5, 7])
    types = np.array([PROPER, LIST, PRON, PRON])
    assert merge_shared_heads([[0, 2], [1, 3]], heads, types) == [[0, 2], [1, 3]]
    types = np.array([PROPER, PROPER, PRON, PRON])
    assert merge_shared_heads([[0, 2], [1, 3]], heads, types) == [[0, 2, 3]]  # one span per head
    # Binding forbids 2 and 3 together; or 2 is "he" and 3 is "she".
    assert merge_shared_heads([[0, 2], [1, 3]], heads, types, partners={2: {3}, 3: {2}}) == [[0, 2], [1, 3]]
    masc, fem = 1 << GENDER.index("masc"), 1 << GENDER.index("fem")
    masks = np.array([[0, 0], [0, 0], [masc, 0], [fem, 0]], dtype=np.uint32)
    assert merge_shared_heads([[0, 2], [1, 3]], heads, types, masks=masks) == [[0, 2], [1, 3]]


def test_clustering_clusters_sharing_no_key_stay_apart():
    clusters = [[0, 1], [2, 3]]
    assert merge_repeats(clusters, np.array([5, 0, 6, 0], np.uint64), np.arange(4)) is clusters
    assert merge_repeats([], np.zeros(0, np.uint64), np.arange(0)) == []


def test_clustering_decode_joins_the_pieces_of_a_speakers_chain():
    # "I"(0) "me"(1) "she"(2) "I"(3) "my"(4), one speaker: "I"(3) starts a chain of
    # its own (no candidate beats its threshold), which the key joins to the first.
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0], [3, 2, 1, 0]])
    pair = np.array([1.0, -1, -1, -1, -1, -1, 1, -1, -1, -1], dtype=np.float32)
    args = (np.zeros(5, np.float32), pair, ptr, ante, np.arange(5))
    assert decode_clusters(*args) == [[0, 1], [3, 4]]
    assert decode_clusters(*args, repeats=np.array([9, 9, 0, 9, 9], np.uint64)) == [[0, 1, 3, 4]]


def test_clustering_repeat_keys_are_names_and_first_person_speakers():
    # "Anna"(proper) "the doctor"(nominal) "Anna" "I"(speaker 0) "my"(speaker 0)
    # "I"(speaker 1) "I"(speaker unknown) "we"(speaker 0) "you"(speaker 0)
    col = MENTION_CODES.index
    codes = np.zeros((9, len(MENTION_CODES)), dtype=np.int32)
    codes[:, col("type")] = [PROPER, NOM, PROPER] + [PRON] * 6
    codes[:, col("person")] = [0, 0, 0] + [PERSON.index("1")] * 5 + [PERSON.index("2")]
    codes[:, col("number")] = [0] * 3 + [NUMBER.index("sing")] * 4 + [NUMBER.index("plur"), 0]
    codes[:, col("speaker")] = [-1, -1, -1, 0, 0, 1, -1, 0, 0]
    hashes = np.zeros((9, len(MENTION_HASHES)), dtype=np.uint64)
    hashes[:, MENTION_HASHES.index("exact")] = [7, 7, 7, 3, 4, 3, 3, 5, 6]
    keys = repeat_keys(codes, hashes).tolist()
    assert keys[:3] == [7, 0, 7]  # names by their text, nominals never
    assert keys[3] == keys[4] != keys[5] and 0 not in keys[3:6]  # "I" and "my" of one speaker
    assert keys[6:] == [0, 0, 0]  # no speaker known; plural and second person not keyed
    # The narration's "I" is one speaker where the codes know none (English).
    narrated = np.array([False] * 6 + [True, True, True])
    assert repeat_keys(codes, hashes, narrated)[6] == keys[3]  # speaker 0, the narration
    assert repeat_keys(codes, hashes, narrated).tolist()[7:] == [0, 0]


def test_clustering_person_conflicts_part_persons_of_one_voice():
    from neuralcoref.core.discourse.decode_signals import person_conflicts
    # narration: "I"(0) "he"(1) "me"(2); a quotation: "it"(3) "you"(4) "I"(5);
    # "Anna"(6); unknown voice: "I"(7) "you"(8)
    persons = np.array([1, 3, 1, 3, 2, 1, -1, 1, 2])
    voices = np.array([0, 0, 0, 1, 1, 1, 0, -1, -1])
    # I/he of the narration; I/you of the quotation, but not its I/it
    def pairs(*args, **kwargs):
        return [tuple(p) for p in person_conflicts(*args, **kwargs).tolist()]
    assert sorted(pairs(persons, voices)) == [(1, 0), (2, 1), (5, 4)]
    assert pairs(persons, voices, window=1) == [(1, 0), (2, 1), (5, 4)]
    assert pairs(persons, np.full(9, -1)) == []


def test_clustering_speaker_conflicts_are_shared_through_speaker_links():
    from neuralcoref.core.discourse.decode_signals import speaker_conflicts
    # '"I"(0) am tired," said Anna(1). "I"(2) will help you(3)," replied Tom(4)':
    # 2 and 3 conflict (one voice); 0 speaks for 1, 2 for 4; 3 is 1 (the addressee).
    pairs = speaker_conflicts(np.array([[3, 2]]), np.array([[0, 1], [2, 4], [3, 1]]), 5)
    # Anna, her "I" and the "you" addressed to her conflict with Tom and his "I".
    assert sorted(map(tuple, pairs.tolist())) == [(0, 2), (0, 4), (1, 2), (1, 4), (3, 2), (3, 4)]
    # Without the addressee link only Tom shares his "I"'s conflict.
    pairs = speaker_conflicts(np.array([[3, 2]]), np.array([[0, 1], [2, 4]]), 5)
    assert sorted(map(tuple, pairs.tolist())) == [(3, 2), (3, 4)]
    assert speaker_conflicts(np.array([[3, 2]]), np.zeros((0, 2)), 5).tolist() == [[3, 2]]
    assert speaker_conflicts(np.zeros((0, 2)), np.array([[0, 1]]), 5).tolist() == []


def test_clustering_decode_attaches_repeats_only_when_given_them():
    # "Anna"(0) "she"(1) "Anna"(2): the second "Anna" scores below its threshold
    ptr, ante = csr([[], [0], [1, 0]])
    pair = np.array([1.0, -1.0, -1.0], dtype=np.float32)
    args = (np.zeros(3, np.float32), pair, ptr, ante, np.arange(3))
    assert decode_clusters(*args) == [[0, 1]]
    assert decode_clusters(*args, repeats=np.array([5, 0, 5], np.uint64)) == [[0, 1, 2]]


def test_clustering_names_sharing_no_word_never_meet():
    # "Pauline"(0) "she"(1) "Laurence"(2) "her"(3): "Laurence" scores best with
    # "she", but may not join Pauline's cluster; "her", no name, still may.
    ptr, ante = csr([[], [0], [1, 0], [2, 1]])
    pair = np.array([1.0, 2.0, 1.5, 1.0, 2.0], dtype=np.float32)
    single = np.zeros(4, np.float32)
    pauline, laurence = np.uint64(0b01), np.uint64(0b10)
    assert best_antecedents(single, pair, ptr, ante).tolist() == [-1, 0, 1, 1]
    names = np.array([pauline, 0, laurence, 0], dtype=np.uint64)
    assert best_antecedents(single, pair, ptr, ante, names=names).tolist() == [-1, 0, -1, 1]
    # a shared word ("Samuel" and "Samuel de Constant") lets them meet
    names = np.array([pauline, 0, pauline | laurence, 0], dtype=np.uint64)
    assert best_antecedents(single, pair, ptr, ante, names=names).tolist() == [-1, 0, 1, 1]


def test_clustering_name_words_of_a_doc(make_doc):
    # "Samuel de Constant met M. Tronchin and the doctor ."
    doc = make_doc([("Samuel", 3, "nsubj", "PROPN"), ("de", 2, "case", "ADP"), ("Constant", 0, "nmod", "PROPN"),
                    ("met", 3, "ROOT", "VERB"), ("M.", 5, "compound", "PROPN"), ("Tronchin", 3, "obj", "PROPN"),
                    ("and", 8, "cc", "CCONJ"), ("the", 8, "det", "DET"), ("doctor", 5, "conj", "NOUN"),
                    (".", 3, "punct", "PUNCT")])
    starts, ends = np.array([0, 0, 2, 4, 7]), np.array([1, 3, 3, 6, 9])
    types = np.array([PROPER, PROPER, PROPER, PROPER, NOM])
    words = name_words(doc, starts, ends, types)
    samuel, constant, tronchin = words[0], words[2], words[3]
    assert words[1] == samuel | constant and 0 not in (samuel, constant, tronchin)
    assert words[4] == 0  # not a name
    assert bin(int(tronchin)).count("1") == 1  # "M." is not a name word (not alphabetic)
    assert name_words(doc, starts[:0], ends[:0], types[:0]).shape == (0,)


def _anchor_setting(genders, types, classes=None):
    """Agreement and persons for third-person pronouns (types PRON) and others."""
    agreement = np.zeros((len(types), 2), np.int32)
    agreement[:, 0] = [GENDER.index(g) for g in genders]
    persons = np.where(np.array(types) == PRON, PERSON.index("3"), -1).astype(np.int32)
    classes = np.zeros(len(types), np.int8) if classes is None else np.array(classes, np.int8)
    return np.array(types), persons, agreement, classes


def test_clustering_anchor_gives_a_pronoun_chain_its_best_scored_person():
    # "Marenghi"(0) "the series"(1) "he"(2) "his"(3): "he" and "his" link to each
    # other; "Marenghi" scores under their thresholds, "the series" (a thing) higher.
    from decode_calls import anchor_pronoun_chains
    from neuralcoref.lang.lexicon import MENTION_CLASSES
    types, persons, agreement, classes = _anchor_setting(
        ["unknown", "neut", "masc", "masc"], [PROPER, NOM, PRON, PRON],
        [0, MENTION_CLASSES.index("inanimate"), 0, 0])
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0]])
    pair = np.array([-3, 0.5, -1.0, 2.0, 0.4, -0.5], dtype=np.float32)
    out = anchor_pronoun_chains([[2, 3]], pair, ptr, ante, types, persons, agreement, classes, np.arange(4))
    assert out == [[0, 2, 3]]
    # a chain that already names someone is left as it is
    assert anchor_pronoun_chains([[0, 2, 3]], pair, ptr, ante, types, persons, agreement, classes,
                                 np.arange(4)) == [[0, 2, 3]]


def test_clustering_anchor_leaves_a_chain_that_an_indefinite_pronoun_starts():
    # "Someone"(0) asked "the lawyer"(1) to check "his"(2) contract: "his" links to
    # Someone, a pronoun of no grammatical person that names somebody itself.
    from decode_calls import anchor_pronoun_chains
    types, persons, agreement, classes = _anchor_setting(["unknown", "unknown", "masc"], [PRON, NOM, PRON])
    persons[0] = PERSON.index("unknown")
    ptr, ante = csr([[], [0], [1, 0]])
    pair = np.array([-0.4, 0.2, 2.6], dtype=np.float32)
    assert anchor_pronoun_chains([[0, 2]], pair, ptr, ante, types, persons, agreement, classes,
                                 np.arange(3)) == [[0, 2]]
    # a third-person "he" in its place names nobody: the chain takes the lawyer
    persons[0] = PERSON.index("3")
    agreement[0, 0] = GENDER.index("masc")
    assert anchor_pronoun_chains([[0, 2]], pair, ptr, ante, types, persons, agreement, classes,
                                 np.arange(3)) == [[0, 1, 2]]


def test_clustering_anchor_respects_gender_binding_and_language():
    from decode_calls import anchor_pronoun_chains
    from neuralcoref.lang.lexicon import MENTION_CLASSES
    female = MENTION_CLASSES.index("female")
    # "Anna"(0) "Tom"(1) "she"(2): Tom scores best, but only Anna may be "she"
    types, persons, agreement, classes = _anchor_setting(
        ["unknown", "unknown", "fem"], [PROPER, PROPER, PRON], [female, MENTION_CLASSES.index("male"), 0])
    ptr, ante = csr([[], [0], [1, 0]])
    pair = np.array([0.0, 1.0, -2.0], dtype=np.float32)
    args = (pair, ptr, ante, types, persons, agreement, classes, np.arange(3))
    assert anchor_pronoun_chains([], *args) == [[0, 2]]
    # binding keeps "she" from Anna: no anchor at all
    assert anchor_pronoun_chains([], *args, partners={2: {0}, 0: {2}}) == []
    # a language whose decoding ignores gender gives no gender code: nothing moves
    assert anchor_pronoun_chains([], pair, ptr, ante, types, persons, np.zeros((3, 2), np.int32), classes,
                                 np.arange(3)) == []


def test_clustering_anchor_refers_forward_within_the_sentence_only():
    # "he"(0) "the lawyer"(1) | "Tom"(2): no candidate before "he"; the lawyer
    # follows in its sentence, Tom in the next one.
    from decode_calls import anchor_pronoun_chains
    from neuralcoref.lang.lexicon import MENTION_CLASSES
    person = MENTION_CLASSES.index("person")
    types, persons, agreement, classes = _anchor_setting(["masc", "unknown", "unknown"], [PRON, NOM, PROPER],
                                                         [0, person, 0])
    ptr, ante = csr([[], [0], [1, 0]])
    pair = np.array([-5.0, -5.0, -5.0], dtype=np.float32)
    args = (pair, ptr, ante, types, persons, agreement, classes, np.arange(3))
    assert anchor_pronoun_chains([], *args, sentences=np.array([0, 0, 1])) == [[0, 1]]
    assert anchor_pronoun_chains([], *args, sentences=np.array([0, 1, 1])) == []
    assert anchor_pronoun_chains([], *args) == []  # no sentences: no forward reference
    # A noun of no lexicon class may be a person ("the president", whose first
    # sense is the office); a word inside a person's name is not one of its own.
    classes[1] = 0
    assert anchor_pronoun_chains([], *args, sentences=np.array([0, 0, 1])) == [[0, 1]]
    name_of = np.array([-1, 7, -1], dtype=np.int32)
    assert anchor_pronoun_chains([], *args, sentences=np.array([0, 0, 1]), name_of=name_of) == []


def test_clustering_decode_anchors_unless_thresholds_keep_the_pronoun_alone():
    # "he"(0) "the lawyer"(1) "Tom"(2) "him"(3), one sentence then another:
    # "he" has no candidate and refers forward; "him" scores 0.2 under its
    # threshold with "Tom". At the shipped settings a he/she always refers.
    from neuralcoref.lang.lexicon import MENTION_CLASSES
    types, persons, agreement, classes = _anchor_setting(
        ["masc", "unknown", "unknown", "masc"], [PRON, NOM, PROPER, PRON],
        [0, MENTION_CLASSES.index("person"), 0, 0])
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0]])
    pair = np.array([-9, -9, -9, -0.2, -9, -9], dtype=np.float32)

    def run(greedyness=0.5, offsets=None, pair=pair):
        return decode_clusters(np.zeros(4, np.float32), pair, ptr, ante, np.arange(4), greedyness,
                               agreement, offsets=offsets, classes=classes, persons=persons, types=types,
                               sentences=np.array([0, 0, 1, 1]))

    assert run() == [[0, 1], [2, 3]]
    assert run(greedyness=0.0) == []  # never links: nothing is anchored
    raised = np.array([1.0, 0, 0, 1.0], np.float32)  # link offset +1 for pronouns
    assert run(offsets=raised) == []
    far = np.array([-9, -9, -9, -1.0, -9, -9], dtype=np.float32)  # "him" not anaphoric by its scores
    assert run(pair=far) == [[0, 1], [2, 3]]
    # Thresholds raised past the rescue's margin: the scores decide.
    past_margin = np.array([0.5, 0, 0, 0.5], np.float32)
    assert run(pair=far, offsets=past_margin) == []
    assert run(offsets=np.array([0.05, 0, 0, 0.05], np.float32)) == [[0, 1], [2, 3]]


def test_clustering_anchor_gives_a_bound_pronoun_any_allowed_mention():
    # "John"(0) "a dog"(1) "He"(2) "him"(3): "him" scores best with "He", which
    # principle B forbids; "a dog" is no person by the lexicon, yet "him" takes it.
    from decode_calls import anchor_pronoun_chains
    types, persons, agreement, classes = _anchor_setting(["unknown", "unknown", "masc", "masc"],
                                                         [PROPER, NOM, PRON, PRON])
    ptr, ante = csr([[], [0], [1, 0], [2, 1, 0]])
    pair = np.array([-5, -5, 3.0, 2.0, -1.0, 1.0], dtype=np.float32)
    partners = {3: {2}, 2: {3}}
    out = anchor_pronoun_chains([[0, 2]], pair, ptr, ante, types, persons, agreement, classes, np.arange(4),
                                partners=partners)
    assert out == [[0, 2], [1, 3]]
    # not bound: "him" goes to a person as any chain does (John's cluster holds
    # "He", which binding still forbids, so nothing else fits)
    assert anchor_pronoun_chains([[0, 2]], pair, ptr, ante, types, persons, agreement, classes,
                                 np.arange(4)) == [[0, 2, 3]]


def test_clustering_prefer_near_raises_near_subjects_for_he_and_she():
    # 0 "Anna" (subject, sentence 0), 1 "Maria" (object, 0), 2 "She" (1), 3 "it" (1),
    # 4 "Tom" (subject, 2), 5 "She" (4)
    prefers = np.array([False, False, True, False, False, True])
    sentences = np.array([0, 0, 1, 1, 2, 4])
    salience = np.array([0.75, 0, 0, 0, 0.75, 0], np.float32)
    # candidates: "She" (2): 0, 1; "it" (3): 0, 1, 2; "Tom" (4): 2; "She" (5): 0, 1, 2, 4
    ptr = np.array([0, 0, 0, 2, 5, 6, 10])
    ante = np.array([0, 1, 0, 1, 2, 2, 0, 1, 2, 4], np.int32)
    pair = np.zeros(10, np.float32)
    out = prefer_near(pair, ptr, ante, sentences, [(salience, prefers)])
    # The first "She" prefers Anna, subject of the sentence before; "it" and "Tom"
    # prefer nothing; the last "She", two sentences after Tom and four after Anna, neither.
    np.testing.assert_allclose(out, [0.75, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    sentences[5] = 3
    out = prefer_near(pair, ptr, ante, sentences, [(salience, prefers)])
    np.testing.assert_allclose(out[6:], [0, 0, 0, 0.75])  # Tom, one sentence back
    assert prefer_near(pair, ptr, ante, sentences, [(np.zeros(6, np.float32), prefers)]) is pair
    assert prefer_near(pair, ptr, ante, sentences, []) is pair
    # A second preference adds to the first: "it" (3) prefers thing 1 ("Maria" as
    # a stand-in), the last "She" nothing of it.
    things = np.array([0, 0.5, 0, 0, 0, 0], np.float32)
    out = prefer_near(pair, ptr, ante, sentences, [(salience, prefers), (things, ~prefers)])
    np.testing.assert_allclose(out, [0.75, 0, 0, 0.5, 0, 0, 0, 0, 0, 0.75])


def test_clustering_subject_salience_from_the_rules():
    from dataclasses import replace

    from neuralcoref.lang import get_rules

    # "Anna" (subject), "Maria" (object), "she" (subject), "it" (subject), "they" (possessive)
    codes = np.zeros((5, len(MENTION_CODES)), np.int32)
    column = {name: MENTION_CODES.index(name) for name in ("dep", "type", "person", "gender")}
    codes[:, column["dep"]] = [DEP_CLASSES.index(d) for d in ("subject", "object", "subject", "subject",
                                                               "possessive")]
    codes[:, column["type"]] = [MENTION_TYPES.index(t) for t in ("proper", "proper", "pronominal",
                                                                  "pronominal", "pronominal")]
    codes[2:, column["person"]] = PERSON.index("3")
    codes[:, column["gender"]] = [GENDER.index(g) for g in ("fem", "fem", "fem", "neut", "unknown")]
    en = get_rules("en")
    salience, prefers = subject_salience(codes, en)
    np.testing.assert_allclose(salience, [en.subject_salience, 0, en.subject_salience, en.subject_salience, 0])
    assert prefers.tolist() == [False, False, True, False, False]  # only "she"
    assert not subject_salience(codes, replace(en, subject_salience=0))[0].any()
    # A narrated first- or second-person subject is no center he or she prefers.
    codes[0, column["type"]] = MENTION_TYPES.index("pronominal")
    codes[0, column["person"]] = PERSON.index("1")
    assert subject_salience(codes, en, np.array([True] * 5))[0][0] == 0
    assert subject_salience(codes, en, np.array([False] * 5))[0][0] == en.subject_salience


def test_clustering_coordination_preference_gives_they_a_coordinated_subject():
    # "John"(0) "John and Mary"(1, subject list) "Mary"(2) "the workers"(3, plural
    # subject) "They"(4, plural) "she"(5) "them"(6, plural, no person known: -1)
    types = np.array([MENTION_TYPES.index(t) for t in ("proper", "list", "proper", "nominal", "pronominal",
                                                      "pronominal", "pronominal")])
    salience = np.array([0, 0.75, 0, 0.75, 0, 0, 0], np.float32)
    persons = np.array([-1, -1, -1, -1, 3, 3, -1])
    agreement = np.zeros((7, 2), np.int32)
    agreement[[1, 3, 4, 6], 1] = NUMBER.index("plur")
    agreement[[0, 2, 5], 1] = NUMBER.index("sing")
    weight, prefers = coordination_preference(salience, types, persons, agreement)
    np.testing.assert_allclose(weight, [0, 0.75, 0, 0, 0, 0, 0])  # the list only, not "the workers"
    assert prefers.tolist() == [False, False, False, False, True, False, False]
    # With no subject salience (French) there is nothing to prefer.
    assert not coordination_preference(np.zeros(7, np.float32), types, persons, agreement)[0].any()


def test_clustering_refer_forward_moves_the_pronoun_alone_to_its_main_subject():
    # "Otto"(0) ... When "he"(1) was elected, "Kallergis"(2) formed "his"(3)
    # government: the model chained Otto, he and his; "he" refers forward.
    from decode_calls import refer_forward
    from neuralcoref.lang.lexicon import MENTION_CLASSES
    male, inanimate = MENTION_CLASSES.index("male"), MENTION_CLASSES.index("inanimate")
    types, persons, agreement, classes = _anchor_setting(
        ["unknown", "masc", "unknown", "masc"], [PROPER, PRON, PROPER, PRON], [male, 0, 0, 0])
    forward = np.array([-1, 2, -1, -1], dtype=np.int32)
    args = (forward, types, persons, agreement, classes, np.arange(4))
    assert refer_forward([[0, 1, 3]], *args) == [[0, 3], [1, 2]]
    assert refer_forward([[0, 1], [2, 3]], *args) == [[1, 2, 3]]
    # binding, gender or a thing as the subject leave the pronoun where it is
    assert refer_forward([[0, 1, 3]], *args, partners={1: {2}, 2: {1}}) == [[0, 1, 3]]
    classes[2] = inanimate
    assert refer_forward([[0, 1, 3]], *args) == [[0, 1, 3]]
    classes[2] = MENTION_CLASSES.index("female")
    assert refer_forward([[0, 1, 3]], *args) == [[0, 1, 3]]


def test_clustering_forward_subjects_of_preposed_clauses_only(nlp_en):
    from neuralcoref.core.discourse.cataphora import forward_subjects
    from neuralcoref.core.doc.doc_arrays import read_doc
    from neuralcoref.core.mentions.mentions import extract_mentions
    from neuralcoref.lang import en

    def forward(text: str, rules=en.RULES):
        doc = nlp_en(text)
        m = extract_mentions(doc, rules)
        texts = [doc[s:e].text for s, e in m.spans()]
        out = forward_subjects(read_doc(doc), rules, m.starts, m.ends, m.heads, m.types)
        return [(texts[i], texts[j]) for i, j in enumerate(out.tolist()) if j >= 0]

    assert forward("When he was minister, Kallergis formed a government.") == [("he", "Kallergis")]
    assert forward("When his father died, Mark moved to Paris.") == [("his", "Mark")]
    assert forward("Over the course of his career, Wade served in the army.") == [("his", "Wade")]
    assert forward("After completing his degree, Anna moved to Rome.") == [("his", "Anna")]
    # the clause follows its main clause, or the subject is a pronoun: nothing
    assert forward("Kallergis formed a government when he was minister.") == []
    assert forward("When he was minister, he formed a government.") == []
    # rules without preposed clauses: nothing
    from dataclasses import replace
    assert forward("When he was minister, Kallergis formed a government.",
                   replace(en.RULES, preposed_deps=frozenset())) == []


def test_verb_phrase_trims_of_parsed_objects(nlp_en):
    from neuralcoref.core.discourse.frames import verb_phrase_trims
    from neuralcoref.core.mentions.mentions import extract_mentions
    from neuralcoref.lang import en

    doc = nlp_en("The lawyer accused the banker of fraud. The lawyer met the banker of the town.")
    mentions = extract_mentions(doc, en.RULES)
    trims = verb_phrase_trims(doc, en.RULES, mentions.starts, mentions.ends, mentions.heads)
    text = lambda m: doc[int(mentions.starts[m]):int(mentions.ends[m])].text  # noqa: E731
    # "accuse ... of" is a frame of the verb; "met ... of" is none.
    assert {text(m): text(t) for m, t in enumerate(trims.tolist()) if t >= 0} == \
        {"the banker of fraud": "the banker"}
    from dataclasses import replace
    assert (verb_phrase_trims(doc, replace(en.RULES, verb_frames=frozenset()), mentions.starts,
                              mentions.ends, mentions.heads) < 0).all()


def test_without_verb_phrases_replaces_unless_the_short_span_is_clustered():
    from neuralcoref.core.decode.cluster_passes import without_verb_phrases

    trims = np.array([-1, 0, -1, 2, -1])
    assert without_verb_phrases([[1, 4]], trims) == [[0, 4]]
    # Mention 2 is clustered itself: 3 stays.
    assert without_verb_phrases([[2, 4], [1, 3]], trims) == [[2, 4], [0, 3]]
    assert without_verb_phrases([[1, 4]], np.full(5, -1)) == [[1, 4]]
