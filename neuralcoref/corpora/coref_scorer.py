"""Coreference metrics, computed as the CoNLL-2012 reference scorer v8.01 does.

MUC (Vilain et al. 1995), B-cubed (Bagga & Baldwin 1998), CEAF-e and CEAF-m
(Luo 2005), BLANC for predicted mentions (Luo et al. 2014), LEA (Moosavi &
Strube 2016) and mention detection, at corpus level: each metric's recall and
precision numerators and denominators are summed over the documents, as the
reference (``conll/reference-coreference-scorers``, ``lib/CorScorer.pm``) sums
them. The CoNLL F1 is the mean of the MUC, B-cubed and CEAF-e F1.

Mentions are identified by their exact ``(start, end)`` span. As in the
reference, a response span that is also a key span counts once: its later
occurrences are dropped. A response span that is not in the key keeps all its
occurrences (the reference only looks for repeats among key spans), which
counts in the sizes of its response clusters.

One deviation: where a key document holds the same span twice, the reference
gives both occurrences the same mention id and keeps both in the key chains;
here the first occurrence is kept and the others are dropped, so that every
key mention is in exactly one key cluster.

The counts are computed from the contingency table of key and response
clusters (how many mentions each pair shares), which gives the reference's
numbers without enumerating mention pairs.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Sequence, Set, Tuple, Union

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..errors import Errors, NeuralcorefError
from .conll import ConllDocument, read_conll_path

Span = Tuple[int, int]
Clusters = Sequence[Sequence[Span]]

#: The metrics a CorefScores holds, in the order they are printed.
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mentions")
_LABELS = {
    "muc": "MUC", "bcub": "B-cubed", "ceafe": "CEAF-e", "ceafm": "CEAF-m",
    "blanc": "BLANC", "lea": "LEA", "mentions": "Mentions",
}
# Metrics scored from (recall num, recall den, precision num, precision den).
_RATIO_METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "mentions")


@dataclass
class PRF:
    """Recall, precision and F1 of one metric, as fractions (0-1)."""

    recall: float = 0.0
    precision: float = 0.0
    f1: float = 0.0

    @classmethod
    def from_counts(cls, recall_num: float, recall_den: float,
                    precision_num: float, precision_den: float) -> "PRF":
        """Scores from summed counts; a zero denominator gives 0, as in the reference."""
        recall = float(recall_num / recall_den) if recall_den else 0.0
        precision = float(precision_num / precision_den) if precision_den else 0.0
        return cls(recall, precision, _f1(recall, precision))

    def to_dict(self) -> Dict[str, float]:
        """RETURNS (Dict[str, float]): recall, precision and f1 in percent."""
        return {"recall": 100 * self.recall, "precision": 100 * self.precision,
                "f1": 100 * self.f1}


def _f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


@dataclass
class CorefScores:
    """Corpus-level coreference scores, as fractions (0-1).

    muc, bcub, ceafe, ceafm, blanc, lea (PRF): the coreference metrics.
    mentions (PRF): mention detection (exact spans).
    """

    muc: PRF = field(default_factory=PRF)
    bcub: PRF = field(default_factory=PRF)
    ceafe: PRF = field(default_factory=PRF)
    ceafm: PRF = field(default_factory=PRF)
    blanc: PRF = field(default_factory=PRF)
    lea: PRF = field(default_factory=PRF)
    mentions: PRF = field(default_factory=PRF)

    @property
    def conll_f1(self) -> float:
        """The CoNLL F1: mean of the MUC, B-cubed and CEAF-e F1, as a fraction."""
        return (self.muc.f1 + self.bcub.f1 + self.ceafe.f1) / 3

    def to_dict(self) -> Dict[str, Union[float, Dict[str, float]]]:
        """The scores in percent (0-100).

        RETURNS (Dict): ``{"muc": {"recall", "precision", "f1"}, "bcub": ..., "ceafe": ...,
            "ceafm": ..., "blanc": ..., "lea": ..., "mentions": ..., "conll_f1": float}``.
        """
        result: Dict[str, Union[float, Dict[str, float]]] = {
            name: getattr(self, name).to_dict() for name in METRICS
        }
        result["conll_f1"] = 100 * self.conll_f1
        return result

    def format_table(self) -> str:
        """RETURNS (str): the scores in percent, as an aligned text table."""
        lines = [f"{'Metric':<10}{'Recall':>10}{'Precision':>11}{'F1':>10}"]
        for name in METRICS:
            prf = getattr(self, name)
            lines.append(f"{_LABELS[name]:<10}{100 * prf.recall:>10.2f}"
                         f"{100 * prf.precision:>11.2f}{100 * prf.f1:>10.2f}")
        lines.append(f"{'CoNLL F1':<10}{'':>21}{100 * self.conll_f1:>10.2f}")
        return "\n".join(lines)


@dataclass
class _Counts:
    """Numerators and denominators summed over documents.

    ratios (Dict[str, List[float]]): per metric, [recall num, recall den,
        precision num, precision den].
    blanc (List[float]): [common coreference links, key coreference links,
        response coreference links, common non-coreference links, key
        non-coreference links, response non-coreference links].
    """

    ratios: Dict[str, List[float]] = field(
        default_factory=lambda: {name: [0.0] * 4 for name in _RATIO_METRICS})
    blanc: List[float] = field(default_factory=lambda: [0.0] * 6)

    def add(self, other: "_Counts") -> None:
        for name, values in other.ratios.items():
            self.ratios[name] = [a + b for a, b in zip(self.ratios[name], values)]
        self.blanc = [a + b for a, b in zip(self.blanc, other.blanc)]

    def scores(self) -> CorefScores:
        result = CorefScores(**{name: PRF.from_counts(*self.ratios[name])
                                for name in _RATIO_METRICS})
        result.blanc = _blanc_scores(*self.blanc)
        return result


def _blanc_scores(common_c: float, key_c: float, response_c: float,
                  common_n: float, key_n: float, response_n: float) -> PRF:
    """BLANC from summed link counts: the mean of the coreference-link and the
    non-coreference-link scores, or the one of them the key has links of."""
    coref = PRF.from_counts(common_c, key_c, common_c, response_c)
    non_coref = PRF.from_counts(common_n, key_n, common_n, response_n)
    if not key_c and not key_n:
        return PRF()
    if not key_c:
        return non_coref
    if not key_n:
        return coref
    return PRF((coref.recall + non_coref.recall) / 2,
               (coref.precision + non_coref.precision) / 2,
               (coref.f1 + non_coref.f1) / 2)


def remove_singletons(clusters: Clusters) -> List[List[Span]]:
    """Drop the clusters of a single mention (counting each distinct span once).

    clusters (Sequence[Sequence[Tuple[int, int]]]): the clusters of a document.
    RETURNS (List[List[Tuple[int, int]]]): the clusters of two or more mentions.
    """
    return [list(cluster) for cluster in clusters if len(set(map(tuple, cluster))) > 1]


def _key_chains(key_clusters: Clusters) -> Tuple[Dict[Span, int], List[int]]:
    """Index the key mentions, keeping the first occurrence of a repeated span.

    RETURNS (Tuple[Dict[Tuple[int, int], int], List[int]]): the key chain of
        each span, and the size of each (non-empty) key chain.
    """
    chain_of: Dict[Span, int] = {}
    sizes: List[int] = []
    for cluster in key_clusters:
        size = 0
        for span in cluster:
            span = tuple(span)
            if span not in chain_of:
                chain_of[span] = len(sizes)
                size += 1
        if size:
            sizes.append(size)
    return chain_of, sizes


def _response_chains(response_clusters: Clusters, key_of: Dict[Span, int]) -> List[List[Span]]:
    """The response clusters as the reference keeps them: repeats of a key span
    dropped (first occurrence kept), clusters left empty removed."""
    seen: Set[Span] = set()
    chains: List[List[Span]] = []
    for cluster in response_clusters:
        chain = []
        for span in cluster:
            span = tuple(span)
            if span in key_of:
                if span in seen:
                    continue
                seen.add(span)
            chain.append(span)
        if chain:
            chains.append(chain)
    return chains


def _pairs(n: np.ndarray) -> np.ndarray:
    """RETURNS (np.ndarray): n(n-1)/2, the number of pairs among n, elementwise."""
    return n * (n - 1) / 2


@dataclass
class _Contingency:
    """What key and response clusters share: one cell per pair of clusters
    with a mention in common.

    shared (np.ndarray): (n_cells,) float64, mentions the two clusters share.
    key (np.ndarray): (n_cells,) int64, the cell's key cluster.
    response (np.ndarray): (n_cells,) int64, the cell's response cluster.
    key_sizes (np.ndarray): (n_key_clusters,) float64, mentions per key cluster.
    response_sizes (np.ndarray): (n_response_clusters,) float64, mentions per
        response cluster, repeated spans counted each time.
    """

    shared: np.ndarray
    key: np.ndarray
    response: np.ndarray
    key_sizes: np.ndarray
    response_sizes: np.ndarray

    @classmethod
    def build(cls, key_of: Dict[Span, int], key_sizes: List[int],
              chains: List[List[Span]]) -> "_Contingency":
        cells = Counter((key_of[span], r) for r, chain in enumerate(chains)
                        for span in chain if span in key_of)
        return cls(
            shared=np.array(list(cells.values()), dtype=np.float64),
            key=np.array([k for k, _ in cells], dtype=np.int64),
            response=np.array([r for _, r in cells], dtype=np.int64),
            key_sizes=np.array(key_sizes, dtype=np.float64),
            response_sizes=np.array([len(chain) for chain in chains], dtype=np.float64),
        )


def _document_counts(key_clusters: Clusters, response_clusters: Clusters) -> _Counts:
    """All metrics' counts for one document. RETURNS (_Counts): its counts."""
    key_of, key_sizes = _key_chains(key_clusters)
    chains = _response_chains(response_clusters, key_of)
    table = _Contingency.build(key_of, key_sizes, chains)
    counts = _Counts()
    found = table.shared.sum()
    n_response = len({span for chain in chains for span in chain})
    counts.ratios["mentions"] = [found, len(key_of), found, n_response]
    counts.ratios["muc"] = _muc(table)
    counts.ratios["bcub"] = _bcub(table)
    counts.ratios["lea"] = _lea(table)
    entity, mention = _ceaf(table)
    counts.ratios["ceafe"] = [entity, len(table.key_sizes), entity, len(table.response_sizes)]
    counts.ratios["ceafm"] = [mention, table.key_sizes.sum(), mention, table.response_sizes.sum()]
    counts.blanc = _blanc_counts(table, chains)
    return counts


def _muc(table: _Contingency) -> List[float]:
    """MUC links. The reference first adds undetected key mentions to the
    response as singletons and removes response singletons not in the key;
    singletons have no links, so neither step changes a count."""
    common = (table.shared - 1).sum()
    return [common, (table.key_sizes - 1).sum(), common, (table.response_sizes - 1).sum()]


def _bcub(table: _Contingency) -> List[float]:
    """B-cubed over the original chains: each mention's shared fraction."""
    squares = table.shared ** 2
    return [(squares / table.key_sizes[table.key]).sum(), table.key_sizes.sum(),
            (squares / table.response_sizes[table.response]).sum(), table.response_sizes.sum()]


def _lea(table: _Contingency) -> List[float]:
    """LEA: each entity, weighted by its size, by the fraction of its links
    found in the other side; a singleton's one link is its own mention being a
    singleton on the other side too."""
    t = table
    return [*_lea_side(t.shared, t.key, t.response, t.key_sizes, t.response_sizes),
            *_lea_side(t.shared, t.response, t.key, t.response_sizes, t.key_sizes)]


def _lea_side(shared: np.ndarray, own: np.ndarray, other: np.ndarray,
              own_sizes: np.ndarray, other_sizes: np.ndarray) -> Tuple[float, float]:
    """RETURNS (Tuple[float, float]): LEA's numerator and denominator for the
    entities of one side (the key for recall, the response for precision)."""
    found = np.bincount(own, weights=_pairs(shared), minlength=len(own_sizes)).astype(np.float64)
    singleton = (own_sizes[own] == 1) & (other_sizes[other] == 1)
    found[own[singleton]] = 1.0
    links = np.where(own_sizes == 1, 1.0, _pairs(own_sizes))
    return float((found / links * own_sizes).sum()), float(own_sizes.sum())


def _ceaf(table: _Contingency) -> Tuple[float, float]:
    """CEAF's best one-to-one alignment of key and response entities, for the
    entity similarity 2|K∩R|/(|K|+|R|) and for the mention similarity |K∩R|.

    Entities that share no mention add nothing, so each connected group of
    overlapping entities is aligned on its own.
    RETURNS (Tuple[float, float]): the best total of each similarity.
    """
    shared, rows, cols = table.shared, table.key, table.response
    if not len(shared):
        return 0.0, 0.0
    phi4 = 2 * shared / (table.key_sizes[rows] + table.response_sizes[cols])
    n_keys = len(table.key_sizes)
    n_nodes = n_keys + len(table.response_sizes)
    graph = coo_matrix((shared, (rows, cols + n_keys)), shape=(n_nodes, n_nodes))
    _, labels = connected_components(graph, directed=False)
    group_of_cell = labels[rows]
    order = np.argsort(group_of_cell, kind="stable")
    bounds = np.flatnonzero(np.diff(group_of_cell[order])) + 1
    entity = mention = 0.0
    for cell_ids in np.split(order, bounds):
        entity += _best_alignment(rows[cell_ids], cols[cell_ids], phi4[cell_ids])
        mention += _best_alignment(rows[cell_ids], cols[cell_ids], shared[cell_ids])
    return entity, mention


def _best_alignment(rows: np.ndarray, cols: np.ndarray, similarity: np.ndarray) -> float:
    """The largest total similarity of a one-to-one alignment within one group.

    rows, cols (np.ndarray): (n_cells,) int64, the key and response entities.
    similarity (np.ndarray): (n_cells,) float64, their similarity.
    """
    if len(similarity) == 1:
        return float(similarity[0])
    row_ids, rows = np.unique(rows, return_inverse=True)
    col_ids, cols = np.unique(cols, return_inverse=True)
    matrix = np.zeros((len(row_ids), len(col_ids)))
    matrix[rows, cols] = similarity
    chosen_rows, chosen_cols = linear_sum_assignment(matrix, maximize=True)
    return float(matrix[chosen_rows, chosen_cols].sum())


def _blanc_counts(table: _Contingency, chains: List[List[Span]]) -> List[float]:
    """BLANC's link counts: coreference links (two mentions of one entity) and
    non-coreference links (mentions of two entities), each counted among key
    mentions, among response mentions, and in both."""
    common_c = _pairs(table.shared).sum()
    per_key = np.bincount(table.key, weights=table.shared)
    per_response = np.bincount(table.response, weights=table.shared)
    # Pairs of mentions found on both sides, less those together on either side.
    common_n = (_pairs(table.shared.sum()) - _pairs(per_key).sum()
                - _pairs(per_response).sum() + common_c)
    key_c = _pairs(table.key_sizes).sum()
    key_n = _pairs(table.key_sizes.sum()) - key_c
    response_c, response_n = _response_links(chains)
    return [common_c, key_c, response_c, common_n, key_n, response_n]


def _response_links(chains: List[List[Span]]) -> Tuple[float, float]:
    """How many distinct coreference and non-coreference links the response has.

    Links are sets of mention pairs, so a span the response repeats (only spans
    that are not in the key can be repeated) makes links that count once; the
    reference also pairs such a span with itself. Links between mentions that
    occur once are counted in closed form, the rest are listed.
    """
    occurrences = Counter(span for chain in chains for span in chain)
    repeated = {span for span, n in occurrences.items() if n > 1}
    unique_sizes = np.array([sum(span not in repeated for span in chain) for chain in chains],
                            dtype=np.float64)
    coref = _pairs(unique_sizes).sum()
    non_coref = _pairs(unique_sizes.sum()) - coref
    if repeated:
        extra_coref, extra_non_coref = _links_with(chains, repeated)
        coref += len(extra_coref)
        non_coref += len(extra_non_coref)
    return float(coref), float(non_coref)


def _links_with(chains: List[List[Span]], repeated: Set[Span]) -> Tuple[Set, Set]:
    """The coreference and non-coreference links that involve a repeated span."""
    coref: Set[Tuple[Span, Span]] = set()
    non_coref: Set[Tuple[Span, Span]] = set()
    for r, chain in enumerate(chains):
        for p, span in enumerate(chain):
            if span not in repeated:
                continue
            for q, other in enumerate(chain):
                if q != p:
                    coref.add((min(span, other), max(span, other)))
            for r2, other_chain in enumerate(chains):
                if r2 != r:
                    non_coref.update((min(span, other), max(span, other)) for other in other_chain)
    return coref, non_coref


def score_documents(pairs: Iterable[Tuple[Clusters, Clusters]]) -> CorefScores:
    """Corpus-level scores of response clusters against key clusters.

    pairs (Iterable[Tuple[Clusters, Clusters]]): per document, the key clusters
        and the response clusters, each a sequence of clusters of (start, end)
        spans. A document without a response is an empty response.
    RETURNS (CorefScores): the scores, as fractions.
    """
    total = _Counts()
    for key_clusters, response_clusters in pairs:
        total.add(_document_counts(key_clusters, response_clusters))
    return total.scores()


def score_files(
    key_path: Union[str, Path],
    response_path: Union[str, Path],
    keep_singletons: bool = True,
) -> CorefScores:
    """Score a response CoNLL-2012 file against a key file, as the reference does.

    Documents are matched by (document id, part). A key document the response
    lacks scores as an empty response; response documents without a key are
    ignored.

    key_path (str | Path): the gold file (or folder of files).
    response_path (str | Path): the system's file (or folder of files).
    keep_singletons (bool): False drops one-mention clusters from both sides.
    RETURNS (CorefScores): the corpus-level scores, as fractions.
    """
    responses = _read_responses(response_path)
    return score_documents(_paired_clusters(key_path, responses, keep_singletons))


def read_documents(path: Union[str, Path]) -> Dict[Tuple[str, str], ConllDocument]:
    """The documents of a CoNLL file or folder by (document id, part); E011 if one repeats."""
    docs: Dict[Tuple[str, str], ConllDocument] = {}
    for doc in read_conll_path(path):
        if doc.key in docs:
            raise NeuralcorefError(Errors.E011.format(key=doc.name, path=path))
        docs[doc.key] = doc
    return docs


def _read_responses(path: Union[str, Path]) -> Dict[Tuple[str, str], Tuple[int, List]]:
    """RETURNS (Dict): per (document id, part), the token count and clusters."""
    return {key: (len(doc), doc.clusters) for key, doc in read_documents(path).items()}


def key_and_response(key: ConllDocument, response_tokens: int, response: Clusters,
                     keep_singletons: bool) -> Tuple[Clusters, Clusters]:
    """The key's and the response's clusters of one document, to score.

    key (ConllDocument): the gold document.
    response_tokens (int): the response document's token count (E012 if it differs).
    response (Clusters): the response's clusters.
    keep_singletons (bool): False drops one-mention clusters from both.
    """
    if response_tokens != len(key):
        raise NeuralcorefError(Errors.E012.format(
            key=key.name, key_tokens=len(key), response_tokens=response_tokens))
    if keep_singletons:
        return key.clusters, response
    return remove_singletons(key.clusters), remove_singletons(response)


def _paired_clusters(
    key_path: Union[str, Path],
    responses: Dict[Tuple[str, str], Tuple[int, List]],
    keep_singletons: bool,
) -> Iterator[Tuple[Clusters, Clusters]]:
    seen: Set[Tuple[str, str]] = set()
    for doc in read_conll_path(key_path):
        if doc.key in seen:
            raise NeuralcorefError(Errors.E011.format(key=doc.name, path=key_path))
        seen.add(doc.key)
        yield key_and_response(doc, *responses.get(doc.key, (len(doc), [])), keep_singletons)
    if not seen:
        raise NeuralcorefError(Errors.E018.format(path=key_path))
