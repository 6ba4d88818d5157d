"""Numpy feed-forward scorers: single (no antecedent) and pair scores.

The shapes of every weight are defined once, by :func:`weight_shapes`, from a
:class:`ScorerConfig`; the PyTorch modules in ``train/`` build themselves from the
same function and the export writes the same names. Weights ``W`` are shaped
``(nO, nI)`` like ``torch.nn.Linear.weight``.

The pair net's first layer is linear in ``[antecedent; anaphor; pair features]``,
so the antecedent and anaphor parts are computed once per mention and only the
small pair part per pair. A pair net of two hidden layers (every shipped model)
then runs pair by pair in one kernel, ``_scoring.pair_net``, whose second layer
reads only the units the ReLU left positive; other depths run layer by layer.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Dict, List, Mapping, NamedTuple, Optional, Tuple

import numpy as np

from .. import _features, _scoring
from ..features.contract import MENTION_LAYOUT, PAIR_LAYOUT, SPAN_VECTORS, WORD_SLOTS, MentionFeatures
from ..features.expand import expand_mention_codes, pair_tables
from ..features.pairs import anaphor_index, top_candidates
from .entities import refine, soft_clusters
from .first_layers import FirstLayers, Head

#: Rows of the embedding table reserved before the vocabulary's words.
NONE_ROW, OOV_ROW, FIRST_WORD_ROW = 0, 1, 2
#: Pairs scored per chunk: bounds the memory of the hidden activations and
#: keeps them in cache.
PAIR_CHUNK = 8192
#: Mentions whose input vectors are built at once.
MENTION_CHUNK = 4096
#: Up to this many mentions, their inputs are joined by one concatenate (fewest
#: numpy calls); more are written in place (less memory).
SMALL_INPUTS = 64


@dataclass
class ScorerConfig:
    """Sizes of the scorers' inputs and layers.

    vector_dim (int): width of the token vectors (doc.tensor); 0 for none.
    vocab_size (int): rows of the embedding table (including the 2 reserved).
    embedding_dim (int): width of a word-slot embedding; 0 for none.
    single_hidden (List[int]): hidden layer sizes of the single scorer.
    pair_hidden (List[int]): hidden layer sizes of the pair scorer.
    similarity_rank (int): rank of the bilinear mention-similarity term added to
        pair scores, (U x_ante) . (V x_ana); 0 for none.
    mention_hidden (List[int] | None): hidden sizes of the mention scorer, whose
        score of both mentions is added to every pair score (how likely each is a
        mention at all); None for no mention scorer.
    refine (bool): rescore pairs with antecedents represented by their soft
        clusters (see :mod:`neuralcoref.core.scoring.entities`).
    single_blocks, pair_blocks (List[List[int]] | None): per hidden layer, the
        sizes of its independent blocks of units; set by
        :mod:`neuralcoref.artifacts.ensemble`, whose merged members each own one block per
        layer. Block k of a layer reads only block k of the layer before (the
        weights between blocks are zero), so each is computed on its own; the
        first layer reads the whole input. None: one block.
    type_classes (int): classes of the mention-type head (entity types and a last
        "not a mention" class; 0: no head). Its distribution p(m) over them adds
        ``types.single . p(m)`` to single scores and ``p(a)^T types.pair p(m)``
        to pair scores (learned type agreement, e.g. person with he/she/they).
    type_hidden (List[int] | None): hidden sizes of the type head (None: linear).
    type_groups (int): type distributions the head gives, each over its own
        ``type_classes // type_groups`` classes (a softmax per group): 1 for a
        trained model; an ensemble keeps one group per member with a type head,
        its terms scaled by the member's share of the mean.
    """

    vector_dim: int = 96
    vocab_size: int = FIRST_WORD_ROW
    embedding_dim: int = 32
    single_hidden: List[int] = field(default_factory=lambda: [256, 128])
    pair_hidden: List[int] = field(default_factory=lambda: [256, 128])
    similarity_rank: int = 0
    mention_hidden: Optional[List[int]] = None
    refine: bool = False
    single_blocks: Optional[List[List[int]]] = None
    pair_blocks: Optional[List[List[int]]] = None
    type_classes: int = 0
    type_hidden: Optional[List[int]] = None
    type_groups: int = 1

    @property
    def mention_width(self) -> int:
        """Width of a mention's input vector."""
        return (len(SPAN_VECTORS) * self.vector_dim + MENTION_LAYOUT.width
                + len(WORD_SLOTS) * self.embedding_dim)

    @property
    def bilinear_width(self) -> int:
        """Width of the bilinear pair terms: the similarity rank, then the type classes."""
        return self.similarity_rank + self.type_classes

    @property
    def pair_width(self) -> int:
        return PAIR_LAYOUT.width

    @property
    def n_members(self) -> int:
        """Models merged into these scorers (1 unless an ensemble): blocks per layer."""
        return len(self.pair_blocks[0]) if self.pair_blocks else 1

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "ScorerConfig":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def weight_shapes(config: ScorerConfig) -> Dict[str, Tuple[int, ...]]:
    """Name and shape of every weight of both scorers: the single source of truth."""
    shapes: Dict[str, Tuple[int, ...]] = {}
    if config.embedding_dim:
        shapes["embeddings"] = (config.vocab_size, config.embedding_dim)
    d_m = config.mention_width
    n_in = d_m
    for i, n_out in enumerate(config.single_hidden):
        shapes[f"single.{i}.W"], shapes[f"single.{i}.b"] = (n_out, n_in), (n_out,)
        n_in = n_out
    shapes["single.out.W"], shapes["single.out.b"] = (1, n_in), (1,)
    if not config.pair_hidden:
        raise ValueError("the pair scorer needs at least one hidden layer")
    first = config.pair_hidden[0]
    shapes["pair.0.W_ante"] = (first, d_m)
    shapes["pair.0.W_ana"] = (first, d_m)
    shapes["pair.0.W_pair"] = (first, config.pair_width)
    shapes["pair.0.b"] = (first,)
    n_in = first
    for i, n_out in enumerate(config.pair_hidden[1:], start=1):
        shapes[f"pair.{i}.W"], shapes[f"pair.{i}.b"] = (n_out, n_in), (n_out,)
        n_in = n_out
    shapes["pair.out.W"], shapes["pair.out.b"] = (1, n_in), (1,)
    if config.similarity_rank:
        shapes["pair.sim.U"] = (config.similarity_rank, d_m)
        shapes["pair.sim.V"] = (config.similarity_rank, d_m)
    if config.mention_hidden is not None:
        n_in = d_m
        for i, n_out in enumerate(config.mention_hidden):
            shapes[f"mention.{i}.W"], shapes[f"mention.{i}.b"] = (n_out, n_in), (n_out,)
            n_in = n_out
        shapes["mention.out.W"], shapes["mention.out.b"] = (1, n_in), (1,)
    if config.type_classes:
        n_in = d_m
        for i, n_out in enumerate(config.type_hidden or []):
            shapes[f"types.{i}.W"], shapes[f"types.{i}.b"] = (n_out, n_in), (n_out,)
            n_in = n_out
        shapes["types.out.W"], shapes["types.out.b"] = (config.type_classes, n_in), (config.type_classes,)
        shapes["types.pair"] = (config.type_classes, config.type_classes)
        shapes["types.single"] = (1, config.type_classes)
    return shapes


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax. RETURNS (ndarray): the shape of ``logits``, float32."""
    z = logits - logits.max(axis=1, keepdims=True)
    np.exp(z, out=z)
    return (z / z.sum(axis=1, keepdims=True)).astype(np.float32, copy=False)


class MentionParts(NamedTuple):
    """What the scorers compute once per mention (n mentions, float32).

    single (n,): no-antecedent scores.
    ante (n, pair_hidden[0]), ana (n, pair_hidden[0]): the pair net's first-layer
        antecedent and anaphor parts (the bias is in ``ana``).
    sim_ante (n, r), sim_ana (n, r): the bilinear pair terms' two sides, whose dot
        product is added to a pair's score: the similarity projections, then
        ``p(a) @ types.pair`` and ``p(m)`` (r = config.bilinear_width, may be 0).
    mention (n,): mention scores, added to the pair scores of both mentions (0
        without a mention scorer).
    """

    single: np.ndarray
    ante: np.ndarray
    ana: np.ndarray
    sim_ante: np.ndarray
    sim_ana: np.ndarray
    mention: np.ndarray


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0, out=x)


#: A layer as independent blocks (W.T, b), block k reading block k of the layer
#: before; a dense layer is one block. An output layer is split by rows, one part
#: per block of the last hidden layer (its bias is the first part's).
Layer = List[Tuple[np.ndarray, np.ndarray]]


class Net(NamedTuple):
    """A feed-forward scorer as the runtime runs it.

    first (W.T, b): the layer reading the whole input (the output layer itself
        when there is no hidden layer).
    edges (ndarray): unit boundaries of the first layer's blocks.
    rest (List[Layer]): the later hidden layers, then the output layer.
    """

    first: Tuple[np.ndarray, np.ndarray]
    edges: np.ndarray
    rest: List[Layer]


def _forward(hidden: List[np.ndarray], rest: List[Layer], first_block: int = 0,
             bias: bool = True) -> np.ndarray:
    """Scores from the first hidden layer's activations (one contiguous array per
    block, for the blocks from ``first_block`` on) through the later layers:
    the sum of those blocks' contributions, plus the output bias if ``bias``."""
    for blocks in rest[:-1]:
        hidden = [_relu(h @ W + b) for h, (W, b) in zip(hidden, blocks[first_block:])]
    out = rest[-1][first_block:]
    score = hidden[0] @ out[0][0]
    for h, (W, _) in zip(hidden[1:], out[1:]):
        score += h @ W
    if bias:
        score += out[0][1]
    return score[:, 0]


def _mlp(x: np.ndarray, net: Net) -> np.ndarray:
    W, b = net.first
    if not net.rest:  # no hidden layer: a linear scorer
        return (x @ W + b)[:, 0]
    h = _relu(x @ W + b)
    if len(net.edges) == 2:
        return _forward([h], net.rest)
    return _forward([np.ascontiguousarray(h[:, lo:hi]) for lo, hi in zip(net.edges[:-1], net.edges[1:])],
                    net.rest)


def _mlp_rest(y: np.ndarray, net: Net) -> np.ndarray:
    """:func:`_mlp` from its first layer's outputs ``y = x @ W + b``."""
    if not net.rest:
        return y[:, 0]
    h = _relu(np.array(y))
    if len(net.edges) == 2:
        return _forward([h], net.rest)
    return _forward([np.ascontiguousarray(h[:, lo:hi]) for lo, hi in zip(net.edges[:-1], net.edges[1:])],
                    net.rest)


def _split_blocks(W: np.ndarray, b: np.ndarray, edges_in: np.ndarray, edges_out: np.ndarray) -> Layer:
    """Layer ``x @ W + b`` (W shaped (nI, nO)) as its diagonal blocks; raises
    ValueError if a weight outside them is not zero."""
    mask = np.ones(W.shape, dtype=bool)
    blocks = []
    for k in range(len(edges_in) - 1):
        rows, cols = slice(edges_in[k], edges_in[k + 1]), slice(edges_out[k], edges_out[k + 1])
        mask[rows, cols] = False
        blocks.append((np.ascontiguousarray(W[rows, cols]), b[cols]))
    if np.any(W[mask]):
        raise ValueError("weights outside the declared blocks are not zero")
    return blocks


class _PairNet(NamedTuple):
    """The pair net's second hidden layer and output layer as ``_scoring.PairNet``
    takes them (a pair net of two hidden layers): per block, its second-layer
    weights flattened (C order) into ``w2`` from ``starts[k]``; ``edges``: the
    second layer's block boundaries; the bias ``b2`` and output weights ``w_out``
    of every second-layer unit; the output bias ``b_out``."""

    w2: np.ndarray
    starts: np.ndarray
    edges: np.ndarray
    b2: np.ndarray
    w_out: np.ndarray
    b_out: float


def _pair_net_weights(net: Net) -> _PairNet:
    """The later layers of a pair net of two hidden layers, laid out for the kernel."""
    hidden, out = net.rest
    sizes = [W.size for W, _ in hidden]
    return _PairNet(np.ascontiguousarray(np.concatenate([W.ravel() for W, _ in hidden]), dtype=np.float32),
                    np.cumsum([0] + sizes[:-1]).astype(np.int64),
                    np.cumsum([0] + [W.shape[1] for W, _ in hidden]).astype(np.int64),
                    np.ascontiguousarray(np.concatenate([b for _, b in hidden]), dtype=np.float32),
                    np.ascontiguousarray(np.concatenate([W[:, 0] for W, _ in out]), dtype=np.float32),
                    float(out[0][1][0]))


class _MemberInputs(NamedTuple):
    """Where one member's units are: its fused first layer's outputs (see
    :meth:`Scorers._fused_first_layers`) are its single-net units ``single``, then
    its pair-net antecedent and anaphor units ``pair``."""

    single: slice
    pair: slice


class Scorers:
    """The runtime scorers: numpy float32 forward passes over loaded weights.

    config (ScorerConfig): layer sizes.
    weights (Dict[str, ndarray]): float32 arrays named and shaped by weight_shapes.
    """

    def __init__(self, config: ScorerConfig, weights: Mapping[str, np.ndarray]):
        self.config = config
        self.w = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items()}
        self._single = self._net("single", config.single_hidden, config.single_blocks)
        self._mention = (self._net("mention", config.mention_hidden)
                         if config.mention_hidden is not None else None)
        self._pair = self._net("pair", config.pair_hidden, config.pair_blocks)
        first = self._fused_first_layers()
        self._first = [m for _, m in first]
        self._first_layers = self._first_layer_heads([h for h, _ in first])
        # The single net's first layer now lives in the fused heads only: its own
        # transposed copy would be a second copy of weights never read again.
        W_single, b_single = self._single.first
        self._single = self._single._replace(first=(np.zeros((0, W_single.shape[1]), np.float32), b_single))
        self._tables = pair_tables(self.w["pair.0.W_pair"].T.copy())
        self._pair_net = (_scoring.PairNet(self._tables, self._pair.edges, _pair_net_weights(self._pair))
                          if len(config.pair_hidden) == 2 else None)
        rank = config.similarity_rank
        self._sim_u = self.w["pair.sim.U"].T.copy() if rank else np.zeros((config.mention_width, 0), np.float32)
        self._sim_v = self.w["pair.sim.V"].T.copy() if rank else np.zeros((config.mention_width, 0), np.float32)
        names = [str(i) for i in range(len(config.type_hidden or []))] + ["out"]
        self._types = [(self.w[f"types.{n}.W"].T.copy(), self.w[f"types.{n}.b"]) for n in names] \
            if config.type_classes else []

    def type_probs(self, x: np.ndarray) -> np.ndarray:
        """The type head's distribution over its classes for mention inputs ``x``
        (n, mention_width), one per group (``type_groups``).
        RETURNS (ndarray): (n, type_classes) float32."""
        h = x
        for W, b in self._types[:-1]:
            h = _relu(h @ W + b)
        W, b = self._types[-1]
        logits = h @ W + b
        groups = self.config.type_groups
        if groups == 1:
            return softmax(logits)
        n = len(logits)
        return softmax(logits.reshape(n * groups, -1)).reshape(n, -1)

    def _net(self, prefix: str, hidden: List[int], blocks: Optional[List[List[int]]] = None) -> Net:
        # Transposed once so that forward passes are x @ W.T without copies.
        names = [str(i) for i in range(len(hidden))] + ["out"]
        # The pair net's first layer is split in three parts (see pair_scores).
        weights = [(np.zeros((0, hidden[0]), np.float32), self.w[f"{prefix}.{n}.b"])
                   if prefix == "pair" and n == "0" else
                   (self.w[f"{prefix}.{n}.W"].T.copy(), self.w[f"{prefix}.{n}.b"]) for n in names]
        sizes = blocks or [[n] for n in hidden]
        edges = [np.cumsum([0] + s) for s in sizes] + [np.array([0, 1])]
        rest = [_split_blocks(W, b, edges[i - 1], edges[i]) for i, (W, b) in enumerate(weights[1:-1], 1)]
        if hidden:
            W, b = weights[-1]
            last = edges[len(hidden) - 1]
            rest.append([(W[lo:hi], b) for lo, hi in zip(last[:-1], last[1:])])
        return Net(weights[0], edges[0], rest)

    def _fused_first_layers(self) -> List[Tuple[Head, _MemberInputs]]:
        """The first layers that read mention inputs (the single net's, the pair
        net's antecedent and anaphor parts), fused per member into one matrix
        (zero rows for the input columns it does not read: an ensemble member
        reads its own embeddings and not the others')."""
        single_edges, pair_edges = self._single.edges, self._pair.edges
        if len(single_edges) != len(pair_edges):
            raise ValueError("single_blocks and pair_blocks must split both nets among the same members")
        W_single, b_single = self._single.first
        W_ante, W_ana = self.w["pair.0.W_ante"].T, self.w["pair.0.W_ana"].T
        members = []
        for k in range(len(pair_edges) - 1):
            s_cols = slice(single_edges[k], single_edges[k + 1])
            p_cols = slice(pair_edges[k], pair_edges[k + 1])
            W = np.concatenate([W_single[:, s_cols], W_ante[:, p_cols], W_ana[:, p_cols]], axis=1)
            b = np.concatenate([b_single[s_cols], np.zeros(p_cols.stop - p_cols.start, np.float32),
                                self.w["pair.0.b"][p_cols]])
            members.append((Head(W, b.astype(np.float32)), _MemberInputs(s_cols, p_cols)))
        return members

    def _first_layer_heads(self, heads: List[Head]) -> FirstLayers:
        """Every first layer over mention inputs (the members', then the mention
        scorer's), computed by :class:`~neuralcoref.core.scoring.first_layers.FirstLayers`;
        the "sentence" and "document" vectors are what a sentence's mentions share."""
        if self._mention is not None:
            heads.append(Head(*self._mention.first))
        dim = self.config.vector_dim
        start = SPAN_VECTORS.index("sentence") * dim
        if SPAN_VECTORS.index("document") != SPAN_VECTORS.index("sentence") + 1:
            raise ValueError("the shared span vectors must be adjacent columns")
        return FirstLayers(heads, slice(start, start + 2 * dim))

    def mention_inputs(self, features: MentionFeatures, word_rows: np.ndarray) -> np.ndarray:
        """Input vectors of mentions.

        features (MentionFeatures): compact features of n mentions.
        word_rows (int64 (n, len(WORD_SLOTS))): embedding rows of the word slots.
        RETURNS (ndarray): (n, config.mention_width) float32.
        """
        n, codes = len(features), expand_mention_codes(features.codes)
        if n <= SMALL_INPUTS or not self.config.embedding_dim:  # fewest numpy calls
            parts = [features.vectors.astype(np.float32, copy=False), codes]
            if self.config.embedding_dim:
                parts.append(self.w["embeddings"][word_rows].reshape(n, -1))
            return np.concatenate(parts, axis=1)
        # Written in place, slot by slot: no (n, slots * dim) temporary beside x.
        table, dim = self.w["embeddings"], self.config.embedding_dim
        at = features.vectors.shape[1] + codes.shape[1]
        x = np.empty((n, at + word_rows.shape[1] * dim), np.float32)
        x[:, :features.vectors.shape[1]] = features.vectors
        x[:, features.vectors.shape[1]:at] = codes
        for k in range(word_rows.shape[1]):
            x[:, at + k * dim:at + (k + 1) * dim] = table[word_rows[:, k]]
        return x

    def mention_scores(self, x: np.ndarray) -> np.ndarray:
        """Mention scores (0 without a mention scorer). RETURNS (n,) float32."""
        return _mlp(x, self._mention) if self._mention else np.zeros(len(x), np.float32)

    def mention_parts(self, features: MentionFeatures, word_rows: np.ndarray) -> MentionParts:
        """Everything computed once per mention, in chunks to bound memory."""
        n, first, rank = len(features), self.config.pair_hidden[0], self.config.bilinear_width
        parts = MentionParts(np.empty(n, np.float32), np.empty((n, first), np.float32),
                             np.empty((n, first), np.float32), np.empty((n, rank), np.float32),
                             np.empty((n, rank), np.float32), np.empty(n, np.float32))
        for lo in range(0, n, MENTION_CHUNK):
            hi = min(lo + MENTION_CHUNK, n)
            self._chunk_parts(parts, lo, self.mention_inputs(features[lo:hi], word_rows[lo:hi]))
        return parts

    def _chunk_parts(self, parts: MentionParts, lo: int, x: np.ndarray) -> None:
        """Fill rows ``lo:lo + len(x)`` of ``parts`` from those mentions' inputs ``x``
        (a method of its own, so that a chunk's inputs and first-layer outputs are
        freed before the next chunk's are built)."""
        hi = lo + len(x)
        heads = self._first_layers(x)
        single_hidden = []
        for m, y in zip(self._first, heads):
            n_single, n_pair = m.single.stop - m.single.start, m.pair.stop - m.pair.start
            single_hidden.append(y[:, :n_single])
            parts.ante[lo:hi, m.pair] = y[:, n_single:n_single + n_pair]
            parts.ana[lo:hi, m.pair] = y[:, n_single + n_pair:]
        if self._single.rest:
            parts.single[lo:hi] = _forward([_relu(h) for h in single_hidden], self._single.rest)
        else:  # a linear single scorer: its one output is the score
            parts.single[lo:hi] = single_hidden[0][:, 0]
        sim = self.config.similarity_rank
        if sim:  # products of width 0 are still calls to BLAS
            parts.sim_ante[lo:hi, :sim] = x @ self._sim_u
            parts.sim_ana[lo:hi, :sim] = x @ self._sim_v
        if self._types:
            probs = self.type_probs(x)
            parts.single[lo:hi] += probs @ self.w["types.single"][0]
            parts.sim_ante[lo:hi, sim:] = probs @ self.w["types.pair"]
            parts.sim_ana[lo:hi, sim:] = probs
        if self._mention:
            parts.mention[lo:hi] = _mlp_rest(heads[-1], self._mention)
        else:
            parts.mention[lo:hi] = 0.0

    @property
    def n_members(self) -> int:
        """Members merged into the scorers (1 for a single model)."""
        return self.config.n_members

    def all_pair_scores(self, parts: MentionParts, ptr: np.ndarray, ante: np.ndarray,
                        pair_codes: np.ndarray, top_k: int = 0
                        ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """Scores of the candidate pairs, with the entity-level second pass when
        the config asks for it.

        ptr (int64 (n + 1,)), ante (int (n_pairs,)): candidates in CSR form.
        top_k (int): for an ensemble, coarse-to-fine pruning: the first member
            scores every pair, and the others only each anaphor's ``top_k``
            best; 0 (or a single model) scores every pair with every member.
        RETURNS (Tuple[ndarray, ndarray | None]): the float32 scores of the
            scored pairs, and the positions of those pairs among the candidates
            (increasing), or None when all were scored.
        """
        ana = anaphor_index(ptr)
        if top_k and self.n_members > 1 and not self.config.refine:
            return self._pruned_pair_scores(parts, ptr, ante, ana, pair_codes, top_k)
        pair = self.pair_scores(parts, ante, ana, pair_codes)
        if not self.config.refine:
            return pair, None
        members, weights = soft_clusters(parts.single, pair, ptr, ante)
        refined = parts._replace(ante=refine(parts.ante, members, weights))
        return self.pair_scores(refined, ante, ana, pair_codes), None

    def _pruned_pair_scores(self, parts: MentionParts, ptr: np.ndarray, ante: np.ndarray,
                            ana: np.ndarray, pair_codes: np.ndarray, top_k: int
                            ) -> Tuple[np.ndarray, np.ndarray]:
        # The first member's share of the mean ranks an anaphor's candidates as
        # the member itself does; the others then add theirs on the kept pairs.
        coarse = self.pair_scores(parts, ante, ana, pair_codes, blocks=(0, 1), bias=False)
        kept = top_candidates(coarse, ptr, top_k)
        ante, ana, pair_codes = ante[kept], ana[kept], pair_codes[kept]
        pair = self.pair_scores(parts, ante, ana, pair_codes, blocks=(1, self.n_members))
        pair += coarse[kept]
        return pair, kept

    def pair_scores(self, parts: MentionParts, ante: np.ndarray, ana: np.ndarray,
                    pair_codes: np.ndarray, blocks: Optional[Tuple[int, int]] = None,
                    bias: bool = True) -> np.ndarray:
        """Scores of (antecedent, anaphor) pairs.

        parts (MentionParts): from :meth:`mention_parts`.
        ante, ana (int (n_pairs,)): mention indices of each pair.
        pair_codes (int16 (n_pairs, len(PAIR_CODES))): compact pair codes.
        blocks (Tuple[int, int] | None): only the contributions of these merged
            members (first, end), for coarse-to-fine pruning; None: all.
        bias (bool): add the output bias (and the similarity and mention terms).
        RETURNS (ndarray): (n_pairs,) float32.
        """
        ante = np.ascontiguousarray(ante, dtype=np.int64)
        ana = np.ascontiguousarray(ana, dtype=np.int64)
        first, end = blocks or (0, self.n_members)
        if self._pair_net is not None:
            out = self._pair_net_scores(parts, ante, ana, pair_codes, first, end, bias)
        else:
            out = self._layered_pair_scores(parts, ante, ana, pair_codes, first, end, bias)
        extra = bias and (self.config.bilinear_width or self._mention)
        for lo in range(0, len(ante) if extra else 0, PAIR_CHUNK):
            hi = min(lo + PAIR_CHUNK, len(ante))
            if self.config.bilinear_width:
                out[lo:hi] += np.einsum("ij,ij->i", parts.sim_ante[ante[lo:hi]],
                                        parts.sim_ana[ana[lo:hi]])
            if self._mention:
                out[lo:hi] += parts.mention[ante[lo:hi]] + parts.mention[ana[lo:hi]]
        return out

    def _pair_net_scores(self, parts: MentionParts, ante: np.ndarray, ana: np.ndarray,
                         pair_codes: np.ndarray, first: int, end: int, bias: bool) -> np.ndarray:
        """The pair net's scores of a net of two hidden layers, pair by pair in one
        kernel (see ``_scoring.pair_net``): no activations are stored."""
        return _scoring.pair_net(self._pair_net, np.ascontiguousarray(parts.ante), np.ascontiguousarray(parts.ana),
                                 ante, ana, np.ascontiguousarray(pair_codes), (first, end), bias)

    def _layered_pair_scores(self, parts: MentionParts, ante: np.ndarray, ana: np.ndarray,
                             pair_codes: np.ndarray, first: int, end: int, bias: bool) -> np.ndarray:
        """The pair net's scores layer by layer, in chunks of pairs (any depth)."""
        out = np.empty(len(ante), dtype=np.float32)
        edges = self._pair.edges[first:end + 1]
        for lo in range(0, len(ante), PAIR_CHUNK):
            hi = min(lo + PAIR_CHUNK, len(ante))
            flat = _features.pair_first_layer(parts.ante, parts.ana, ante[lo:hi], ana[lo:hi],
                                              np.ascontiguousarray(pair_codes[lo:hi]), self._tables, edges)
            n, e = hi - lo, edges - edges[0]
            out[lo:hi] = _forward([flat[n * e0:n * e1].reshape(n, e1 - e0) for e0, e1 in zip(e[:-1], e[1:])],
                                  self._pair.rest, first, bias)
        return out
