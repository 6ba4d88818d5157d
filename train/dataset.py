"""Training examples: each mention with its padded row of candidate antecedents.

Candidate pairs and pair codes come from the runtime's
:func:`neuralcoref.core.prepare.candidate_pairs` (as the resolver's), applied document by document; expansions to float inputs use the runtime's
:func:`~neuralcoref.core.features.expand.expand_mention_codes` / ``expand_pair_codes``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import numpy as np

from neuralcoref.core.features.contract import PAIR_CODES
from neuralcoref.core.scoring.embeddings import WordVocab
from neuralcoref.core.features.expand import expand_mention_codes, expand_pair_codes
from neuralcoref.core.prepare import candidate_pairs

from .storage import FeaturizedCorpus


@dataclass
class Batch:
    """Numpy arrays of one batch of b anaphors padded to L candidates.

    mentions (int64 (u,)): every mention the batch touches (anaphors, antecedents).
    vectors (float32 (u, v)), mention_feats (float32 (u, w)), word_rows (int64 (u, k)):
        their inputs.
    ana_pos (int64 (b,)): rows of the anaphors in ``mentions``.
    ante_pos (int64 (b, L)): rows of the candidates in ``mentions`` (0 on padding).
    mask (bool (b, L)): real candidates.
    pair_feats (float32 (b, L, d_p)): expanded pair codes (0 on padding).
    pair_gold (bool (b, L)): coreferent candidates.
    single_gold (bool (b,)): anaphors with no coreferent candidate.
    mention_gold (bool (u,)): which of ``mentions`` are gold mentions.
    support_pos (int64 (u, k) | None), support_w (float32 (u, k) | None): with soft
        clusters set, each mention's cluster members (rows of ``mentions``) and
        weights, for the entity-level second pass.
    known (bool (b, L) | None): for partially labelled data, the candidates whose
        label is known (labelled mentions); the losses ignore the others.
    teacher (float32 (b, 1 + L) | None): a distillation teacher's option scores
        (train/distill.py), padding included (masked by the loss).
    """

    mentions: np.ndarray
    vectors: np.ndarray
    mention_feats: np.ndarray
    word_rows: np.ndarray
    ana_pos: np.ndarray
    ante_pos: np.ndarray
    mask: np.ndarray
    pair_feats: np.ndarray
    pair_gold: np.ndarray
    single_gold: np.ndarray
    mention_gold: np.ndarray
    support_pos: Optional[np.ndarray] = None
    support_w: Optional[np.ndarray] = None
    known: Optional[np.ndarray] = None
    type_gold: Optional[np.ndarray] = None
    teacher: Optional[np.ndarray] = None


class TrainingData:
    """A featurized corpus with its candidate pairs, ready to batch.

    corpus (FeaturizedCorpus): the featurized documents.
    vocab (WordVocab): the embedding vocabulary.
    max_dist, max_dist_match (int): candidate antecedents, as at inference.
    max_dist_nominal (int | None): candidates of non-pronominal mentions (None:
        ``max_dist``).
    keep_singletons (bool): score against gold clusters of one mention too.
    gold_anaphors_only (bool): train only on anaphors that are gold mentions (for
        data annotated with another scheme, whose other candidates may be
        unannotated mentions rather than non-mentions).
    partial (bool): the clusters label a few mentions only (GAP: a pronoun and two
        names): train only labelled mentions that have a labelled antecedent, and
        score each against its labelled candidates and the no-antecedent option,
        since an unlabelled candidate may or may not corefer.
    """

    def __init__(self, corpus: FeaturizedCorpus, vocab: WordVocab, max_dist: int, max_dist_match: int,
                 keep_singletons: bool = True, gold_anaphors_only: bool = False,
                 max_dist_nominal: Optional[int] = None, partial: bool = False):
        self.corpus = corpus
        self.keep_singletons = keep_singletons
        self.gold_anaphors_only = gold_anaphors_only
        self.partial = partial
        features = corpus.features
        self.vectors = features.vectors
        self.mention_feats = expand_mention_codes(np.asarray(features.codes))
        self.word_rows = vocab.rows(np.asarray(features.words))
        self.labels = np.asarray(corpus.labels)
        ptrs, antes, codes, n_pairs = [np.zeros(1, np.int64)], [], [], 0
        for d in range(corpus.n_docs):
            part = features[corpus.doc_slice(d)]
            ptr, ante, part_codes = candidate_pairs(part, max_dist, max_dist_match, max_dist_nominal)
            codes.append(part_codes)
            ptrs.append(ptr[1:] + n_pairs)
            antes.append(ante.astype(np.int64) + int(corpus.doc_offsets[d]))
            n_pairs += len(ante)
        self.ptr = np.concatenate(ptrs).astype(np.int64)
        self.ante = np.concatenate(antes) if antes else np.zeros(0, np.int64)
        self.pair_codes = np.concatenate(codes) if codes else np.zeros((0, len(PAIR_CODES)), np.int16)
        ana = np.repeat(np.arange(len(self.labels)), np.diff(self.ptr))
        gold_a, gold_m = self.labels[self.ante], self.labels[ana]
        self.pair_gold = (gold_m >= 0) & (gold_a == gold_m)
        self.anaphoric = np.zeros(len(self.labels), dtype=bool)
        self.anaphoric[ana[self.pair_gold]] = True
        self.doc_ids = np.repeat(np.arange(corpus.n_docs), np.diff(np.asarray(corpus.doc_offsets)))
        self.members: Optional[np.ndarray] = None
        self.weights: Optional[np.ndarray] = None
        #: (n,) int64 type-head class of each mention, -1 untyped (train/types.py); None: none.
        self.type_labels: Optional[np.ndarray] = None
        #: The gender-swapped copy trained instead every other epoch (train/augment.py); None: none.
        self.swapped: Optional["TrainingData"] = None
        # Set by train.schemes.apply_scheme for a training file with a scheme.
        self.scheme = None
        self.n_tokens: Optional[np.ndarray] = None
        #: A distillation teacher's single (n,) and pair (n_pairs,) scores (train/distill.py); None: none.
        self.teacher: Optional[Tuple[np.ndarray, np.ndarray]] = None

    def set_soft_clusters(self, members: Optional[np.ndarray], weights: Optional[np.ndarray]) -> None:
        """Soft clusters (from :func:`neuralcoref.core.scoring.entities.soft_clusters`) that batches
        carry for the entity-level second pass; None for plain batches."""
        self.members, self.weights = members, weights

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def train_anaphors(self) -> Optional[np.ndarray]:
        """The mentions trained as anaphors (None: all)."""
        if self.partial:
            return np.flatnonzero(self.anaphoric)
        return np.flatnonzero(self.labels >= 0) if self.gold_anaphors_only else None

    @property
    def n_candidates(self) -> np.ndarray:
        """(n,) int64: candidate antecedents per mention."""
        return np.diff(self.ptr)

    def stats(self) -> Dict[str, float]:
        return {"mentions": len(self), "pairs": int(len(self.ante)),
                "gold_mentions_found": int((self.labels >= 0).sum()),
                "anaphoric": int(self.anaphoric.sum()),
                "coreferent_pairs": int(self.pair_gold.sum())}

    def batch(self, anaphors: np.ndarray) -> Batch:
        """Gather, pad and expand the rows of the given anaphors (mention indices)."""
        counts = self.n_candidates[anaphors]
        width = max(int(counts.max()) if len(counts) else 0, 1)
        offsets = np.arange(width)
        mask = offsets[None, :] < counts[:, None]
        pair_idx = np.where(mask, self.ptr[anaphors][:, None] + offsets[None, :], 0)
        ante = np.where(mask, self.ante[pair_idx] if len(self.ante) else 0, anaphors[:, None])
        used = np.unique(np.concatenate([anaphors, ante.reshape(-1)]))
        support = self.members[used] if self.members is not None else np.zeros((0, 1), np.int64)
        mentions = np.unique(np.concatenate([used, support.reshape(-1)]))
        inverse = np.searchsorted(mentions, np.concatenate([anaphors, ante.reshape(-1)]))
        b = len(anaphors)
        codes = self.pair_codes[pair_idx.reshape(-1)] if len(self.ante) else \
            np.zeros((b * width, self.pair_codes.shape[1]), np.int16)
        pair_feats = expand_pair_codes(codes).reshape(b, width, -1) * mask[:, :, None]
        pair_gold = (self.pair_gold[pair_idx] if len(self.ante) else np.zeros_like(mask)) & mask
        return Batch(
            mentions=mentions,
            vectors=np.asarray(self.vectors[mentions], dtype=np.float32),
            mention_feats=self.mention_feats[mentions],
            word_rows=self.word_rows[mentions],
            ana_pos=inverse[:b],
            ante_pos=inverse[b:].reshape(b, width),
            mask=mask,
            pair_feats=pair_feats.astype(np.float32),
            pair_gold=pair_gold,
            single_gold=~self.anaphoric[anaphors],
            mention_gold=self.labels[mentions] >= 0,
            known=(self.labels[ante] >= 0) & mask if self.partial else None,
            type_gold=self.type_labels[mentions] if self.type_labels is not None else None,
            teacher=self._teacher(anaphors, pair_idx, mask),
            **self._support(mentions, used, support),
        )

    def _teacher(self, anaphors: np.ndarray, pair_idx: np.ndarray, mask: np.ndarray) -> Optional[np.ndarray]:
        """(b, 1 + L) float32 teacher option scores of the anaphors (None without a teacher)."""
        if self.teacher is None:
            return None
        single, pair = self.teacher
        pairs = pair[pair_idx] if len(pair) else np.zeros(mask.shape, np.float32)
        return np.concatenate([single[anaphors][:, None], np.where(mask, pairs, 0.0)], axis=1).astype(np.float32)

    def _support(self, mentions: np.ndarray, used: np.ndarray, support: np.ndarray) -> dict:
        if self.members is None:
            return {}
        k = support.shape[1]
        support_pos = np.repeat(np.arange(len(mentions))[:, None], k, axis=1)
        support_w = np.zeros((len(mentions), k), dtype=np.float32)
        support_w[:, 0] = 1.0  # mentions only there as cluster members stand for themselves
        rows = np.searchsorted(mentions, used)
        support_pos[rows] = np.searchsorted(mentions, support)
        support_w[rows] = self.weights[used]
        return {"support_pos": support_pos, "support_w": support_w}
