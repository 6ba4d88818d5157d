"""Coreference of a Doc as plain JSON data: what ``resolve --json``, the REST
server and batch processing write.

    {"clusters": [{"main": {"start": 0, "end": 4, "text": "Anna"},
                   "mentions": [{"start": 0, "end": 4, "text": "Anna"},
                                {"start": 10, "end": 13, "text": "she"}]}],
     "resolved": "Anna said Anna likes Paris."}

Offsets are character offsets into the Doc's text, end exclusive; a cluster's
position in the list is its id (``Cluster.i``, the ``data-cluster`` of the HTML view).
A cluster the ``neuralcoref_linker`` component linked also has "kb_id" (its
entity's id).
"""
from __future__ import annotations

from typing import Any, Dict

from spacy.tokens import Doc, Span

from ..extensions import coref_resolved, get_clusters


def span_record(span: Span) -> Dict[str, Any]:
    """A mention as {"start", "end", "text"} (character offsets, end exclusive)."""
    return {"start": span.start_char, "end": span.end_char, "text": span.text}


def doc_record(doc: Doc) -> Dict[str, Any]:
    """The clusters (main mention and mentions) and the resolved text of a Doc.

    doc (Doc): a Doc processed by the neuralcoref component.
    RETURNS (Dict[str, Any]): {"clusters": [{"main", "mentions"[, "kb_id"]}...], "resolved"}.
    """
    clusters = [_cluster_record(c) for c in get_clusters(doc)]
    return {"clusters": clusters, "resolved": coref_resolved(doc)}


def _cluster_record(cluster) -> Dict[str, Any]:
    record = {"main": span_record(cluster.main), "mentions": [span_record(m) for m in cluster.mentions]}
    if cluster.kb_id is not None:  # linked (issue 54)
        record["kb_id"] = cluster.kb_id
    return record
