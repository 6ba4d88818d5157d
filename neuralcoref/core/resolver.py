"""Coreference on parsed Docs: mentions -> features -> scores -> clusters.

:class:`Resolver` is what the spaCy component runs. It scores the mentions of a
whole batch of Docs in the same matrix products; the pure parts (scoring) are
split from the Doc-level parts (mention extraction, featurization) so that the
training code can reuse the decoding on its stored features.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import FrozenSet, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np
from spacy.tokens import Doc

from ..errors import Warnings
from ..lang import get_rules
from ..lang.base import LanguageRules
from .decode.cluster_passes import main_mention
from .decode.decoding import DecodeInputs, DecodeSettings, DocScores, decode
from .discourse.binding import Binding
from .discourse.decode_signals import check_link_offsets
from .features.contract import MentionFeatures
from .features.featurize import FeatureTables, prior_argument
from .features.pairs import check_top_antecedents, nominal_window
from .mentions.mentions import Mentions
from .prepare import candidate_pairs, prepare_doc
from .scoring.model import CorefModel, ModelConfig
from .util.threads import one_blas_thread


@dataclass
class DocCoref:
    """Coreference of one Doc.

    mentions (Mentions): the candidate mentions.
    clusters (List[List[int]]): mention indices of each cluster (>= 2 mentions).
    mains (List[int]): the main mention of each cluster.
    single (ndarray | None): (n,) float32 no-antecedent scores (store_scores only).
    pair (ndarray | None): (n_pairs,) float32 pair scores (store_scores only).
    ptr, ante (ndarray | None): the candidate pairs of ``pair`` (CSR).
    """

    mentions: Mentions
    clusters: List[List[int]]
    mains: List[int]
    single: Optional[np.ndarray] = None
    pair: Optional[np.ndarray] = None
    ptr: Optional[np.ndarray] = None
    ante: Optional[np.ndarray] = None

    def cluster_spans(self) -> List[List[Tuple[int, int]]]:
        """Token spans (start, end exclusive) of each cluster's mentions."""
        s, e = self.mentions.starts, self.mentions.ends
        return [[(int(s[i]), int(e[i])) for i in c] for c in self.clusters]


class BatchScores(NamedTuple):
    """Scores of a batch of featurized Docs (:meth:`Resolver.score`), per Doc.

    single, mention (List[ndarray]): (n,) float32 no-antecedent and mention scores.
    pair (List[ndarray]): (n_pairs,) float32 scores of the candidate pairs of ``items``.
    items (List[_Featurized]): the Docs' candidates that ``pair`` scores: those
        given, or copies of them without the candidates pruned away.
    """

    single: List[np.ndarray]
    pair: List[np.ndarray]
    mention: List[np.ndarray]
    items: List["_Featurized"]


@dataclass
class _Featurized:
    mentions: Mentions
    features: MentionFeatures
    ptr: np.ndarray
    ante: np.ndarray
    codes: np.ndarray
    inputs: DecodeInputs  # what decoding reads besides the scores (decoding.decode_inputs)

    # The inputs under their former names, for the benchmarks that decode by hand.
    @property
    def names(self) -> np.ndarray:
        return self.inputs.names

    @property
    def classes(self) -> np.ndarray:
        return self.inputs.classes

    @property
    def speakers(self) -> np.ndarray:
        return self.inputs.speakers

    @property
    def binding(self) -> Binding:
        return self.inputs.binding


@dataclass(frozen=True)
class ResolverSettings:
    """How a :class:`Resolver` picks candidates and links.

    greedyness (float): 0-1; 0.5 links as trained, higher links more.
    max_dist (int): preceding mentions considered as antecedents of a pronoun.
    max_dist_match (int): how far back head-matching mentions are considered.
    max_dist_nominal (int | None): preceding mentions considered as antecedents
        of other mentions (names, nominals); None: ``max_dist``.
    link_offsets (Mapping[str, float] | None): link threshold offset per mention
        type (see :func:`~neuralcoref.core.discourse.decode_signals.check_link_offsets`); None: the
        model's (``neuralcoref tune`` records them), else none.
    top_antecedents (int | None): for an ensemble, the candidates of each
        mention that all members score, picked by the first member's scores
        (coarse-to-fine pruning); 0: all candidates; None: the model's setting,
        else 0. Single models always score every candidate.
    """

    greedyness: float = 0.5
    max_dist: int = 50
    max_dist_match: int = 500
    max_dist_nominal: Optional[int] = None
    link_offsets: Optional[Mapping[str, float]] = None
    top_antecedents: Optional[int] = None


class Resolver:
    """Resolves coreference on parsed Docs with a loaded model.

    model (CorefModel): the scorers and vocabulary.
    rules (LanguageRules | None): mention rules; by default the model's language's.
    settings (ResolverSettings): greedyness, candidate window, link offsets,
        ensemble pruning.
    conv_dict (Mapping[str, Sequence[str]] | None): rare words represented by the
        mean embedding of common ones.
    blacklist (Iterable[str]): lowercased words never resolved (e.g. "i", "you").
    check_rules (bool): warn (W100, W101) when ``rules`` are not the model's;
        False for a caller that warned already (the component, at add_pipe).
    """

    def __init__(self, model: CorefModel, rules: Optional[LanguageRules] = None,
                 settings: ResolverSettings = ResolverSettings(),
                 conv_dict: Optional[Mapping[str, Sequence[str]]] = None, blacklist: Iterable[str] = (),
                 check_rules: bool = True):
        self.model = model
        self.rules = rules or get_rules(model.config.rules or model.config.lang)
        if check_rules:
            warn_rules(model.config, self.rules)
        self.tables = FeatureTables(self.rules)
        self.greedyness = settings.greedyness
        #: Decoding rules switched off (``decode_passes.RULES``): for ablations, none by default.
        self.decode_off: FrozenSet[str] = frozenset()
        defaults, link_offsets, top = model.config.defaults, settings.link_offsets, settings.top_antecedents
        self.link_offsets = check_link_offsets(defaults.get("link_offsets", {}) if link_offsets is None
                                               else link_offsets)
        self.top_antecedents = check_top_antecedents(defaults.get("top_antecedents", 0) if top is None else top)
        self.max_dist, self.max_dist_match = settings.max_dist, settings.max_dist_match
        self.max_dist_nominal = nominal_window(settings.max_dist, settings.max_dist_nominal)
        self.blacklist = {w.lower() for w in blacklist}
        self.vocab = model.vocab
        self.scorers = model.scorers
        self.document_prior = prior_argument(model.config.document_prior) \
            if model.config.scorer.vector_dim else None
        if conv_dict and model.config.scorer.embedding_dim:
            self.vocab, table = model.vocab.with_conversions(conv_dict, model.scorers.w["embeddings"])
            self.scorers = _with_embeddings(model, table)

    def featurize_doc(self, doc: Doc) -> _Featurized:
        """The Doc prepared (:func:`~neuralcoref.core.prepare.prepare_doc`, as training
        prepares it) with its candidate pairs, for :meth:`score`."""
        dim = self.model.config.scorer.vector_dim
        prepared = prepare_doc(doc, self.rules, self.tables, use_vectors=dim > 0,
                               document_prior=self.document_prior, blacklist=self.blacklist,
                               vector_dim=dim)
        ptr, ante, codes = candidate_pairs(prepared.features, self.max_dist, self.max_dist_match,
                                           self.max_dist_nominal)
        return _Featurized(prepared.mentions, prepared.features, ptr, ante, codes, prepared.inputs)

    def predict(self, docs: Sequence[Doc], store_scores: bool = False) -> List[DocCoref]:
        """Coreference of a batch of parsed Docs, scored in shared matrix products.

        docs (Sequence[Doc]): parsed Docs.
        store_scores (bool): keep the single and pair scores in the results.
        RETURNS (List[DocCoref]): one result per Doc.
        """
        scores = self.score([self.featurize_doc(doc) for doc in docs])
        return [self.decide_featurized(item, s, p, store_scores, m)
                for s, p, m, item in zip(scores.single, scores.pair, scores.mention, scores.items)]

    def score(self, items: Sequence[_Featurized]) -> "BatchScores":
        """Single, pair and mention scores of featurized Docs, split back per Doc
        (mention scores are 0 without a mention scorer). The items are left as
        they are: with ``top_antecedents``, the result holds copies without the
        candidates pruned away, aligned with their pair scores.

        items (Sequence[_Featurized]): from :meth:`featurize_doc`.
        RETURNS (BatchScores): per Doc, (n,) float32 single and mention scores,
            (n_pairs,) float32 pair scores, and the items they score.
        """
        sizes = [len(it.features) for it in items]
        if sum(sizes) == 0:
            empty = [np.zeros(0, np.float32) for _ in items]
            return BatchScores(empty, list(empty), list(empty), list(items))
        with one_blas_thread(sum(sizes)):
            return self._score(items, sizes)

    def _score(self, items: Sequence[_Featurized], sizes: List[int]) -> "BatchScores":
        # Docs without mentions are left out: their vector width may differ (no doc.tensor).
        present = [it.features for it in items if len(it.features)]
        features = present[0] if len(present) == 1 else MentionFeatures.concat(present)
        parts = self.scorers.mention_parts(features, self.vocab.rows(features.words))
        if len(items) == 1:  # one long Doc: no copies of its (large) pair arrays
            ante, ptr, codes = items[0].ante, items[0].ptr.astype(np.int64), items[0].codes
        else:
            offsets = np.concatenate([[0], np.cumsum(sizes)])
            ante = np.concatenate([it.ante.astype(np.int64) + off for it, off in zip(items, offsets)])
            counts = np.concatenate([it.ptr[1:] - it.ptr[:-1] for it in items])
            ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            codes = np.concatenate([it.codes for it in items])
        pair, kept = self.scorers.all_pair_scores(parts, ptr, ante, codes, self.top_antecedents)
        scored = list(items) if kept is None else _keep_candidates(items, kept)
        if len(items) == 1:  # nothing to split (np.split costs a dozen numpy calls)
            return BatchScores([parts.single], [pair], [parts.mention], scored)
        pair_sizes = np.cumsum([len(it.ante) for it in scored])[:-1]
        split = offsets[1:-1]
        return BatchScores(np.split(parts.single, split), np.split(pair, pair_sizes),
                           np.split(parts.mention, split), scored)

    def decide_featurized(self, item: _Featurized, single: np.ndarray, pair: np.ndarray,
                          store_scores: bool = False, mention: Optional[np.ndarray] = None) -> DocCoref:
        """Clusters and main mentions of a featurized Doc from its scores (from
        :meth:`score`), by :func:`~neuralcoref.core.decode.decoding.decode`, as training's dev
        evaluation and the tuner decode."""
        mentions = item.mentions
        clusters = decode(DocScores(single, pair, item.ptr, item.ante, mention), item.inputs,
                          self.settings)
        mains = [main_mention(c, mentions.types) for c in clusters]
        if not store_scores:
            return DocCoref(mentions, clusters, mains)
        return DocCoref(mentions, clusters, mains, single, pair, item.ptr, item.ante)

    @property
    def settings(self) -> DecodeSettings:
        """The current greedyness and link offsets, for :func:`~neuralcoref.core.decode.decoding.decode`."""
        key = (self.greedyness, tuple(self.link_offsets.items()), self.decode_off)
        cached = getattr(self, "_settings", None)
        if cached is None or cached[0] != key:  # built once, not validated again per Doc
            cached = self._settings = (key, DecodeSettings(self.greedyness, self.link_offsets, self.decode_off))
        return cached[1]


def _keep_candidates(items: Sequence[_Featurized], kept: np.ndarray) -> List[_Featurized]:
    """Copies of the items with only the candidate pairs at positions ``kept``
    (increasing) of the items' pairs laid end to end."""
    if len(items) == 1:  # one Doc (a short text one at a time): all of kept is its own
        bounds = [0, len(kept)]
    else:
        bounds = np.searchsorted(kept, np.cumsum([0] + [len(it.ante) for it in items])).tolist()
    start, out = 0, []
    for it, lo, hi in zip(items, bounds[:-1], bounds[1:]):
        local = kept[lo:hi] - start
        start += len(it.ante)
        # Each anaphor's first kept pair: the kept positions before its first pair.
        ptr = local.searchsorted(it.ptr).astype(it.ptr.dtype)
        out.append(_Featurized(it.mentions, it.features, ptr, it.ante[local], it.codes[local], it.inputs))
    return out


def warn_rules(config: ModelConfig, rules: LanguageRules) -> None:
    """W100 when a model runs with other mention rules than it was trained with,
    W101 when its rules changed since (from the config alone: the component warns
    when it is added, before the model loads)."""
    if config.rules and rules.lang != config.rules:
        warnings.warn(Warnings.W100.format(
            model_rules=config.rules, model_lang=config.lang,
            pipeline=config.spacy_pipeline, rules=rules.lang, lang=rules.lang))
    elif config.rules_hash and config.rules_hash != rules.fingerprint():
        warnings.warn(Warnings.W101.format(rules=rules.lang))


def _with_embeddings(model: CorefModel, table: np.ndarray):
    from .scoring.scoring import ScorerConfig, Scorers

    config = ScorerConfig.from_dict({**model.config.scorer.to_dict(), "vocab_size": table.shape[0]})
    weights = dict(model.scorers.w)
    weights["embeddings"] = table
    return Scorers(config, weights)
