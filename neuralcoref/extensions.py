"""Where coreference lives on a Doc, and the familiar ``._.coref_*`` attributes.

The truth is in ``doc.spans`` (which survives ``DocBin`` and pickling): cluster i's
mentions are the span group ``coref_clusters_{i + 1}`` (in document order) and its
main mention is span i of the group ``coref_mains``. The extension attributes of
the predecessor (``doc._.coref_clusters``, ``span._.is_coref``...) are getters over
those groups, registered by ``import neuralcoref`` (so that a Doc read from a
DocBin answers them in a process that never created the component) and again,
idempotently, when the component is created.
"""
from __future__ import annotations

import threading
import weakref
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span, Token

from .errors import Errors, NeuralcorefError
from .resolved import resolve_text

CLUSTER_PREFIX = "coref_clusters"
MAINS_KEY = "coref_mains"
#: ``doc.user_data`` key of the raw scores: {"mentions": [[start, end]...],
#: "single": [score...], "pairs": [[anaphor, antecedent, score]...]}.
SCORES_KEY = "neuralcoref_scores"


class Cluster:
    """One coreference cluster: its index, main mention and mentions (Spans).

    i (int): position of the cluster in ``doc._.coref_clusters``.
    main (Span): the representative mention (never a pronoun when another exists).
    mentions (List[Span]): the mentions, in document order.
    """

    def __init__(self, i: int, main: Span, mentions: List[Span]):
        self.i = i
        self.main = main
        self.mentions = mentions

    def __iter__(self) -> Iterator[Span]:
        return iter(self.mentions)

    @property
    def kb_id(self) -> Optional[str]:
        """The id of the entity the ``neuralcoref_linker`` component linked the
        cluster to (its span group's attribute "kb_id"), None if not linked."""
        group = self.main.doc.spans.get(f"{CLUSTER_PREFIX}_{self.i + 1}")
        return None if group is None else group.attrs.get("kb_id")

    def __len__(self) -> int:
        return len(self.mentions)

    def __getitem__(self, index: int) -> Span:
        return self.mentions[index]

    def __contains__(self, span: object) -> bool:
        return any(_same(span, m) for m in self.mentions)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Cluster) and self.i == other.i
                and [_key(m) for m in self] == [_key(m) for m in other])

    def __repr__(self) -> str:
        return f"{self.main.text}: {[m.text for m in self.mentions]}"


def _key(span: Span) -> Tuple[int, int]:
    return (span.start, span.end)


def _same(a: object, b: Span) -> bool:
    return isinstance(a, Span) and a.doc is b.doc and _key(a) == _key(b)


def set_clusters(doc: Doc, clusters: Sequence[Sequence[Tuple[int, int]]],
                 mains: Sequence[Tuple[int, int]]) -> None:
    """Store clusters (token spans, end exclusive) and their main mentions on a Doc."""
    clear_clusters(doc)
    for i, cluster in enumerate(clusters):
        doc.spans[f"{CLUSTER_PREFIX}_{i + 1}"] = [doc[s:e] for s, e in cluster]
    doc.spans[MAINS_KEY] = [doc[s:e] for s, e in mains]


def clear_clusters(doc: Doc) -> None:
    for key in [k for k in doc.spans if k == MAINS_KEY or k.startswith(CLUSTER_PREFIX + "_")]:
        del doc.spans[key]
    doc.user_data.pop(SCORES_KEY, None)


def get_clusters(doc: Doc) -> List[Cluster]:
    """The Doc's clusters, read from ``doc.spans``."""
    mains = list(doc.spans[MAINS_KEY]) if MAINS_KEY in doc.spans else []
    clusters = []
    while f"{CLUSTER_PREFIX}_{len(clusters) + 1}" in doc.spans:
        i = len(clusters)
        mentions = list(doc.spans[f"{CLUSTER_PREFIX}_{i + 1}"])
        main = mains[i] if i < len(mains) else mentions[0]
        clusters.append(Cluster(i, main, mentions))
    return clusters


def _doc_has_coref(doc: Doc) -> bool:
    return f"{CLUSTER_PREFIX}_1" in doc.spans


def _score_rows(doc: Doc) -> Optional[Dict[Tuple[int, int], Dict[Tuple[int, int], float]]]:
    """{mention: {itself (single score) or antecedent: score}}, keyed by token spans.
    RAISES NeuralcorefError: E438 when the stored scores are not in the form the
    component writes (user_data changed, or restored from another source)."""
    raw = doc.user_data.get(SCORES_KEY)
    if raw is None:
        return None
    try:
        return _parse_score_rows(raw, len(doc))
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as err:
        reason = f"doc.user_data[{SCORES_KEY!r}]: {type(err).__name__}: {err}"
        raise NeuralcorefError(Errors.E438.format(attr="coref_scores", reason=reason[:200])) from None


def _parse_score_rows(raw: Any, n_tokens: int) -> Dict[Tuple[int, int], Dict[Tuple[int, int], float]]:
    spans = [(int(s), int(e)) for s, e in raw["mentions"]]
    if any(not 0 <= s < e <= n_tokens for s, e in spans):
        raise ValueError(f"a mention outside the Doc's {n_tokens} tokens")
    rows = {span: {span: float(score)} for span, score in zip(spans, raw["single"], strict=True)}
    for m, a, score in raw["pairs"]:
        if int(m) < 0 or int(a) < 0:
            raise IndexError("a negative mention index")
        rows[spans[int(m)]][spans[int(a)]] = float(score)
    return rows


def _doc_scores(doc: Doc) -> Optional[Dict[Span, Dict[Span, float]]]:
    rows = _score_rows(doc)
    if rows is None:
        return None
    return {doc[s:e]: {doc[a:b]: score for (a, b), score in row.items()}
            for (s, e), row in rows.items()}


class _Index(NamedTuple):
    """Where each mention and token is, for the span and token getters: without
    it each call rebuilt every cluster, and ``[t._.in_coref for t in doc]`` took
    minutes on a long Doc. Holds no Span (a Span keeps its Doc alive)."""

    mains_group: object  # the coref_mains SpanGroup read, or None
    n_groups: int  # len(doc.spans) then
    clusters: List[List[Tuple[int, int]]]
    mains: List[Tuple[int, int]]
    by_span: Dict[Tuple[int, int], int]
    by_token: Dict[int, List[int]]


_INDEXES: "weakref.WeakKeyDictionary[Doc, _Index]" = weakref.WeakKeyDictionary()
_INDEXES_LOCK = threading.Lock()
_REGISTER_LOCK = threading.Lock()


def _index(doc: Doc) -> _Index:
    """The Doc's mention index. It is rebuilt when the clusters are set again
    (set_clusters and clear_clusters replace the coref_mains group) or a span
    group is added or deleted: checking every group on each call would cost as
    much as the rebuild. Change clusters with set_clusters, not in place."""
    mains_group = doc.spans[MAINS_KEY] if MAINS_KEY in doc.spans else None
    with _INDEXES_LOCK:
        index = _INDEXES.get(doc)
    if index is not None and index.mains_group is mains_group and index.n_groups == len(doc.spans):
        return index
    found = get_clusters(doc)
    clusters = [[(m.start, m.end) for m in c] for c in found]
    mains = [(c.main.start, c.main.end) for c in found]
    by_span: Dict[Tuple[int, int], int] = {}
    by_token: Dict[int, List[int]] = {}
    for i, spans in enumerate(clusters):
        for start, end in spans:
            by_span.setdefault((start, end), i)
            for t in range(start, end):
                if not by_token.get(t) or by_token[t][-1] != i:
                    by_token.setdefault(t, []).append(i)
    index = _Index(mains_group, len(doc.spans), clusters, mains, by_span, by_token)
    with _INDEXES_LOCK:
        _INDEXES[doc] = index
    return index


def _indexed_cluster(doc: Doc, index: _Index, i: int) -> Cluster:
    s, e = index.mains[i]
    return Cluster(i, doc[s:e], [doc[a:b] for a, b in index.clusters[i]])


def _span_cluster(span: Span) -> Optional[Cluster]:
    index = _index(span.doc)
    i = index.by_span.get((span.start, span.end))
    return None if i is None else _indexed_cluster(span.doc, index, i)


def _span_scores(span: Span) -> Optional[Dict[Span, float]]:
    rows = _score_rows(span.doc)
    if rows is None or _key(span) not in rows:
        return None
    return {span.doc[a:b]: score for (a, b), score in rows[_key(span)].items()}


def _token_clusters(token: Token) -> List[Cluster]:
    index = _index(token.doc)
    return [_indexed_cluster(token.doc, index, i) for i in index.by_token.get(token.i, ())]


def coref_resolved(doc: Doc) -> str:
    """``doc._.coref_resolved``: the text with each mention replaced by its
    cluster's main mention (see :func:`neuralcoref.resolved.resolve_text`)."""
    return resolve_text(doc, get_clusters(doc))


def register_extensions() -> None:
    """Register the ``._.coref_*`` attributes once (later calls change nothing)."""
    doc_attrs = {"has_coref": _doc_has_coref, "coref_clusters": get_clusters,
                 "coref_resolved": coref_resolved, "coref_scores": _doc_scores}
    span_attrs = {"is_coref": lambda span: (span.start, span.end) in _index(span.doc).by_span,
                  "coref_cluster": _span_cluster, "coref_scores": _span_scores}
    token_attrs = {"in_coref": lambda token: token.i in _index(token.doc).by_token,
                   "coref_clusters": _token_clusters}
    # Locked: components built in two threads at once would both find an attribute
    # missing, and the second set_extension would fail (spaCy's E090).
    with _REGISTER_LOCK:
        for cls, attrs in ((Doc, doc_attrs), (Span, span_attrs), (Token, token_attrs)):
            for name, getter in attrs.items():
                if not cls.has_extension(name):
                    cls.set_extension(name, getter=getter)
