"""Clusters on doc.spans, the Cluster class and the ._.coref_* attributes, on hand-built Docs."""
import pickle

import pytest
from spacy.tokens import Doc, DocBin, Span, Token

from neuralcoref.extensions import (CLUSTER_PREFIX, MAINS_KEY, SCORES_KEY, Cluster, clear_clusters,
                                    get_clusters, register_extensions, set_clusters)

# "My sister has a dog . She loves him ."
SISTER = [("My", 1, "poss", "PRON", "PRP$", "Number=Sing|Person=1|Poss=Yes|PronType=Prs"),
          ("sister", 2, "nsubj", "NOUN"), ("has", 2, "ROOT", "VERB"), ("a", 4, "det", "DET"),
          ("dog", 2, "dobj", "NOUN"), (".", 2, "punct", "PUNCT"),
          ("She", 7, "nsubj", "PRON"), ("loves", 7, "ROOT", "VERB"), ("him", 7, "dobj", "PRON"),
          (".", 7, "punct", "PUNCT")]
CLUSTERS = [[(0, 2), (6, 7)], [(3, 5), (8, 9)]]
MAINS = [(0, 2), (3, 5)]


@pytest.fixture(scope="module", autouse=True)
def extensions():
    register_extensions()


@pytest.fixture
def doc(make_doc) -> Doc:
    doc = make_doc(SISTER)
    set_clusters(doc, CLUSTERS, MAINS)
    return doc


def spans(cluster: Cluster):
    return [(m.start, m.end) for m in cluster]


def test_extensions_clusters_live_in_doc_spans(doc):
    assert set(doc.spans) == {f"{CLUSTER_PREFIX}_1", f"{CLUSTER_PREFIX}_2", MAINS_KEY}
    assert [s.text for s in doc.spans["coref_clusters_1"]] == ["My sister", "She"]
    assert [s.text for s in doc.spans[MAINS_KEY]] == ["My sister", "a dog"]


def test_extensions_cluster_api(doc):
    clusters = get_clusters(doc)
    assert [c.i for c in clusters] == [0, 1]
    first = clusters[0]
    assert first.main.text == "My sister" and isinstance(first.main, Span)
    assert [m.text for m in first.mentions] == ["My sister", "She"]
    assert [m.text for m in first] == ["My sister", "She"] and len(first) == 2
    assert first[1].text == "She"
    assert doc[6:7] in first and doc[8:9] not in first and "She" not in first
    assert repr(first) == "My sister: ['My sister', 'She']"
    assert first == get_clusters(doc)[0] and first != clusters[1]


def test_extensions_doc_attributes(doc, make_doc):
    assert doc._.has_coref
    assert [spans(c) for c in doc._.coref_clusters] == CLUSTERS
    assert doc._.coref_resolved == "My sister has a dog . My sister loves a dog . "
    assert doc._.coref_scores is None  # only with store_scores
    plain = make_doc(SISTER)
    assert not plain._.has_coref and plain._.coref_clusters == []
    assert plain._.coref_resolved == plain.text


def test_extensions_span_attributes(doc):
    she = doc[6:7]
    assert she._.is_coref and she._.coref_cluster.i == 0
    assert not doc[0:1]._.is_coref and doc[0:1]._.coref_cluster is None  # "My" alone is no mention
    assert doc[3:5]._.coref_cluster.main.text == "a dog"
    assert she._.coref_scores is None


def test_extensions_token_attributes(doc):
    assert doc[1]._.in_coref and [c.i for c in doc[1]._.coref_clusters] == [0]
    assert not doc[2]._.in_coref and doc[2]._.coref_clusters == []
    assert [c.i for c in doc[8]._.coref_clusters] == [1]


def test_extensions_token_in_nested_clusters(make_doc):
    doc = make_doc(SISTER)
    set_clusters(doc, [[(0, 1), (6, 7)], [(0, 2), (8, 9)]], [(0, 1), (0, 2)])
    assert [c.i for c in doc[0]._.coref_clusters] == [0, 1]
    assert [c.i for c in doc[1]._.coref_clusters] == [1]


def test_extensions_scores_from_user_data(doc):
    doc.user_data[SCORES_KEY] = {"mentions": [[0, 2], [3, 5], [6, 7]], "single": [1.0, 2.0, 3.0],
                                 "pairs": [[1, 0, -1.5], [2, 1, 0.5], [2, 0, 4.0]]}
    scores = doc._.coref_scores
    assert scores[doc[6:7]] == {doc[6:7]: 3.0, doc[3:5]: 0.5, doc[0:2]: 4.0}
    assert scores[doc[0:2]] == {doc[0:2]: 1.0}
    assert doc[6:7]._.coref_scores == {doc[6:7]: 3.0, doc[3:5]: 0.5, doc[0:2]: 4.0}
    assert doc[7:8]._.coref_scores is None  # not a mention


def test_extensions_set_clusters_replaces_and_clear_removes(doc):
    doc.user_data[SCORES_KEY] = {"mentions": [], "single": [], "pairs": []}
    set_clusters(doc, [[(0, 2), (6, 7)]], [(0, 2)])
    assert len(get_clusters(doc)) == 1 and "coref_clusters_2" not in doc.spans
    assert SCORES_KEY not in doc.user_data  # stale scores go with stale clusters
    doc.spans["other"] = [doc[0:1]]
    clear_clusters(doc)
    assert get_clusters(doc) == [] and not doc._.has_coref
    assert list(doc.spans) == ["other"]  # other span groups are left alone


def test_extensions_main_defaults_to_first_mention(make_doc):
    doc = make_doc(SISTER)
    doc.spans["coref_clusters_1"] = [doc[3:5], doc[8:9]]
    assert get_clusters(doc)[0].main.text == "a dog"


def test_extensions_docbin_round_trip(doc, en_vocab):
    doc.user_data[SCORES_KEY] = {"mentions": [[0, 2], [6, 7]], "single": [1.0, 2.0],
                                 "pairs": [[1, 0, 0.25]]}
    restored = list(DocBin(docs=[doc], store_user_data=True).from_bytes(
        DocBin(docs=[doc], store_user_data=True).to_bytes()).get_docs(en_vocab))[0]
    assert [spans(c) for c in restored._.coref_clusters] == CLUSTERS
    assert [c.main.text for c in restored._.coref_clusters] == ["My sister", "a dog"]
    assert restored[6:7]._.coref_scores == {restored[6:7]: 2.0, restored[0:2]: 0.25}
    # without user data, the clusters (doc.spans) still survive
    plain = list(DocBin(docs=[doc]).get_docs(en_vocab))[0]
    assert [spans(c) for c in plain._.coref_clusters] == CLUSTERS


def test_extensions_pickled_doc_keeps_clusters(doc):
    restored = pickle.loads(pickle.dumps(doc))
    assert [spans(c) for c in restored._.coref_clusters] == CLUSTERS


def test_extensions_registration_is_idempotent():
    register_extensions()
    register_extensions()
    for cls, names in ((Doc, ["has_coref", "coref_clusters", "coref_resolved", "coref_scores"]),
                       (Span, ["is_coref", "coref_cluster", "coref_scores"]),
                       (Token, ["in_coref", "coref_clusters"])):
        for name in names:
            assert cls.has_extension(name), name
            assert cls.get_extension(name)[2] is not None  # a getter, nothing stored
