"""Tests of the coreference scorer (neuralcoref/corpora/coref_scorer.py)."""
import json
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from neuralcoref.corpora.conll import ConllDocument, write_conll
from neuralcoref.corpora.coref_scorer import (
    METRICS,
    CorefScores,
    remove_singletons,
    score_documents,
    score_files,
)
from neuralcoref.errors import NeuralcorefError

CASES_DIR = Path(__file__).resolve().parent / "fixtures" / "scorer_tests"
CASES = json.loads((CASES_DIR / "expected.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_coref_scorer_matches_reference_conformance_case(case):
    scores = score_files(CASES_DIR / case["key"], CASES_DIR / case["response"])
    for metric, expected in case["expected"].items():
        prf = getattr(scores, metric)
        assert [prf.recall, prf.precision, prf.f1] == pytest.approx(expected, abs=1e-4), metric


def score_one(key, response) -> CorefScores:
    return score_documents([(key, response)])


# Mentions as one-token spans, named by letter for readability.
a, b, c, d, e, f, g, h, i = ((n, n + 1) for n in range(9))


def test_coref_scorer_lea_example_of_moosavi_and_strube():
    scores = score_one([[a, b, c], [d, e, f, g]], [[a, b], [c, d], [f, g, h, i]])
    assert scores.lea.recall == pytest.approx((3 * 1 / 3 + 4 * 1 / 6) / 7)
    assert scores.lea.precision == pytest.approx((2 * 1 + 2 * 0 + 4 * 1 / 6) / 8)


def test_coref_scorer_lea_singletons_resolve_only_as_singletons():
    assert score_one([[a]], [[a]]).lea.f1 == 1.0
    merged = score_one([[a], [b]], [[a, b]]).lea
    assert merged.recall == 0.0 and merged.precision == 0.0


def test_coref_scorer_muc_and_bcub_by_hand():
    scores = score_one([[a, b, c]], [[a, b], [c, d]])
    assert (scores.muc.recall, scores.muc.precision) == pytest.approx((1 / 2, 1 / 2))
    assert scores.bcub.recall == pytest.approx((2 / 3 + 2 / 3 + 1 / 3) / 3)
    assert scores.bcub.precision == pytest.approx((1 + 1 + 1 / 2 + 0) / 4)
    assert (scores.mentions.recall, scores.mentions.precision) == pytest.approx((1, 3 / 4))


def test_coref_scorer_ceaf_aligns_entities_one_to_one():
    scores = score_one([[a, b, c], [d, e]], [[a, b, c, d, e]])
    assert scores.ceafe.recall == pytest.approx((2 * 3 / 8) / 2)
    assert scores.ceafe.precision == pytest.approx(2 * 3 / 8)
    assert scores.ceafm.recall == pytest.approx(3 / 5)


@pytest.mark.parametrize(
    "key,response,expected",
    [
        ([[a], [b], [c]], [[a], [b], [c]], 1.0),
        ([[a], [b], [c]], [[a, b], [c]], 2 * (2 / 3) * 1 / (2 / 3 + 1)),
        ([[a, b, c]], [[a, b], [c]], 2 * (1 / 3) * 1 / (1 / 3 + 1)),
        ([[a]], [[a]], 0.0),
    ],
    ids=["no-key-coref-links", "non-coref-links-only", "no-key-non-coref-links", "no-links"],
)
def test_coref_scorer_blanc_edge_cases(key, response, expected):
    assert score_one(key, response).blanc.f1 == pytest.approx(expected)


def test_coref_scorer_blanc_averages_the_two_f1():
    scores = score_one([[a, b], [c]], [[a, b, c]])
    coref_f = 2 * 1 * (1 / 3) / (1 + 1 / 3)
    assert scores.blanc.f1 == pytest.approx((coref_f + 0) / 2)
    assert scores.blanc.recall == pytest.approx(0.5)


def test_coref_scorer_repeated_key_span_in_response_keeps_first():
    with_repeat = score_one([[a, b], [c, d]], [[a, b], [c, a], [a]])
    without = score_one([[a, b], [c, d]], [[a, b], [c]])
    assert with_repeat == without


def test_coref_scorer_repeated_invented_span_counts_in_cluster_sizes():
    scores = score_one([[a, b]], [[a, b, h], [c, h]])
    assert scores.mentions.precision == pytest.approx(2 / 4)
    assert scores.bcub.precision == pytest.approx((2 / 3 + 2 / 3) / 5)


def test_coref_scorer_repeated_key_span_keeps_first_occurrence():
    assert score_one([[a, b], [a, c]], [[a, b]]) == score_one([[a, b], [c]], [[a, b]])


def test_coref_scorer_empty_inputs_score_zero():
    scores = score_documents([])
    assert scores.to_dict()["conll_f1"] == 0.0
    assert score_one([[a, b]], []).muc.recall == 0.0


def test_coref_scorer_sums_counts_over_documents():
    scores = score_documents([([[a, b, c]], [[a, b, c]]), ([[a, b]], [])])
    assert scores.muc.recall == pytest.approx(2 / 3)
    assert scores.muc.precision == 1.0


def test_coref_scorer_remove_singletons():
    assert remove_singletons([[a], [b, c], [d, d], []]) == [[b, c]]


def test_coref_scorer_to_dict_shape_and_percents():
    result = score_one([[a, b]], [[a, b]]).to_dict()
    assert list(result) == [*METRICS, "conll_f1"]
    for metric in METRICS:
        assert result[metric] == {"recall": 100.0, "precision": 100.0, "f1": 100.0}
    assert result["conll_f1"] == 100.0
    json.dumps(result)


def test_coref_scorer_format_table():
    table = score_one([[a, b, c]], [[a, b]]).format_table()
    lines = table.splitlines()
    assert len(lines) == 9 and len({len(line) for line in lines}) == 1
    assert lines[1].split() == ["MUC", "50.00", "100.00", "66.67"]
    assert lines[-1].startswith("CoNLL F1")


def write_doc(path: Path, docs):
    write_conll(path, [
        ConllDocument(doc_id, "000", rows=[[doc_id, "0", str(n), f"w{n}"] for n in range(size)],
                      sentence_lengths=[size], clusters=clusters)
        for doc_id, size, clusters in docs
    ])
    return path


def test_coref_scorer_files_match_documents_by_id_and_part(tmp_path: Path):
    key = write_doc(tmp_path / "key.conll", [("x", 5, [[a, b]]), ("y", 5, [[c, d]])])
    response = write_doc(tmp_path / "resp.conll", [("z", 5, [[a, b]]), ("y", 5, [[c, d]])])
    scores = score_files(key, response)
    assert scores.muc.recall == pytest.approx(1 / 2)
    assert scores.muc.precision == 1.0


def test_coref_scorer_files_without_singletons(tmp_path: Path):
    key = write_doc(tmp_path / "key.conll", [("x", 5, [[a, b], [e]])])
    response = write_doc(tmp_path / "resp.conll", [("x", 5, [[a, b], [c]])])
    assert score_files(key, response).mentions.f1 < 1.0
    assert score_files(key, response, keep_singletons=False).mentions.f1 == 1.0


@pytest.mark.parametrize(
    "key_docs,response_docs,code",
    [
        ([("x", 5, [])], [("x", 6, [])], "E012"),
        ([("x", 5, []), ("x", 5, [])], [], "E011"),
        ([("x", 5, [])], [("x", 5, []), ("x", 5, [])], "E011"),
        ([], [], "E018"),
    ],
    ids=["token-count", "key-document-twice", "response-document-twice", "empty-key"],
)
def test_coref_scorer_files_errors(tmp_path: Path, key_docs, response_docs, code: str):
    key = write_doc(tmp_path / "key.conll", key_docs)
    response = write_doc(tmp_path / "resp.conll", response_docs)
    with pytest.raises(NeuralcorefError, match=rf"\[{code}\]"):
        score_files(key, response)


@st.composite
def clusterings(draw, n_tokens: int = 10):
    """Random clusters of random spans, repeated spans included."""
    span = st.tuples(st.integers(0, n_tokens - 1), st.integers(1, 3)).map(
        lambda s: (s[0], min(n_tokens, s[0] + s[1])))
    return draw(st.lists(st.lists(span, min_size=1, max_size=6), max_size=6))


@settings(deadline=None)
@given(clusterings())
def test_coref_scorer_clustering_against_itself_scores_100(clusters):
    key = [list(dict.fromkeys(c)) for c in clusters]
    seen = set()
    key = [[s for s in c if s not in seen and not seen.add(s)] for c in key]
    key = [c for c in key if c]
    # Without any two coreferent mentions MUC has no links to score: 0, as in the reference.
    assume(any(len(c) > 1 for c in key))
    result = score_one(key, key).to_dict()
    for metric in METRICS:
        assert result[metric] == pytest.approx(
            {"recall": 100.0, "precision": 100.0, "f1": 100.0}), metric
    assert result["conll_f1"] == pytest.approx(100.0)


@settings(deadline=None)
@given(clusterings(), clusterings())
def test_coref_scorer_any_pair_scores_within_0_and_100(key, response):
    result = score_one(key, response).to_dict()
    for metric in METRICS:
        for value in result[metric].values():
            assert 0.0 <= value <= 100.0 + 1e-9, metric
    assert 0.0 <= result["conll_f1"] <= 100.0 + 1e-9


def test_coref_scorer_shared_dev_against_itself_is_fast(shared_data: Path):
    dev = shared_data / "ontogum" / "dev.english.v4_gold_conll"
    start = time.perf_counter()
    scores = score_files(dev, dev)
    elapsed = time.perf_counter() - start
    assert scores.conll_f1 == pytest.approx(1.0)
    assert scores.lea.f1 == pytest.approx(1.0) and scores.blanc.f1 == pytest.approx(1.0)
    assert elapsed < 2.0


def test_coref_scorer_singletons_only_have_no_muc_links():
    scores = score_one([[a], [b]], [[a], [b]])
    assert scores.muc.f1 == 0.0
    assert scores.bcub.f1 == scores.ceafe.f1 == scores.lea.f1 == scores.blanc.f1 == 1.0
