"""Dev evaluation during training: PyTorch scores, the runtime's decoding, the project's scorer.

The stored dev features hold everything the runtime's
:func:`~neuralcoref.core.decode.decoding.decode` reads (train/storage.py), so the dev F1
that picks a checkpoint is the F1 the exported model gets on the same documents,
and tuning (:mod:`neuralcoref.artifacts.tuning`) runs on them without parsing dev again.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

import numpy as np
import torch

from neuralcoref.artifacts.tuning import (ScoredDev, ScoredDoc, TuneResult, best_uniform_offset, tune_offsets,
                                          uniform_offsets)
from neuralcoref.core.features.contract import C
from neuralcoref.core.decode.decoding import DocScores
from neuralcoref.core.scoring.entities import soft_clusters
from neuralcoref.corpora.coref_scorer import CorefScores, remove_singletons, score_documents

from .batching import make_batches
from .dataset import Batch, TrainingData
from .model import CorefScorers


def to_tensors(batch: Batch, device: torch.device) -> dict:
    """The batch's arrays as tensors on ``device`` (absent ones left out)."""
    return {name: torch.as_tensor(value, device=device) for name, value in vars(batch).items()
            if value is not None}


def option_scores(model: CorefScorers, t: dict) -> torch.Tensor:
    """(b, 1 + L) scores: the no-antecedent score, then each candidate's."""
    return batch_outputs(model, t).options


class BatchOutputs(NamedTuple):
    """What the scorers give for a batch."""

    options: torch.Tensor  # (b, 1 + L): the no-antecedent score, then each candidate's
    mentions: torch.Tensor  # (u,) mention scores of the batch's mentions
    types: Optional[torch.Tensor]  # (u, type_classes) type-head logits; None unless asked for


def batch_outputs(model: CorefScorers, t: dict, with_types: bool = False) -> BatchOutputs:
    """The batch's option and mention scores, and with ``with_types`` its mentions'
    type logits, all from one pass over the mention inputs (one dropout draw)."""
    x = model.mention_inputs(t["vectors"], t["mention_feats"], t["word_rows"])
    x_ana = x[t["ana_pos"]]
    single = model.single_scores(x_ana)
    pair = model.pair_scores(x, x_ana, t["ante_pos"], t["pair_feats"], t.get("support_pos"),
                             t.get("support_w"))
    types = model.type_logits(x) if with_types and model.config.type_classes else None
    return BatchOutputs(torch.cat([single[:, None], pair], dim=1), model.mention_scores(x), types)


def predict_scores(model: CorefScorers, data: TrainingData, device: torch.device,
                   pair_budget: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Single (n,), pair (n_pairs,) and mention (n,) float32 scores of every mention
    and candidate, with the entity-level second pass when the model has one (as at
    runtime); mention scores are 0 without a mention scorer."""
    if model.config.refine:
        set_soft_clusters(model, data, device, pair_budget)
    return _predict_scores(model, data, device, pair_budget)


def set_soft_clusters(model: CorefScorers, data: TrainingData, device: torch.device,
                      pair_budget: int) -> None:
    """Soft clusters from first-pass scores, set on ``data`` for the second pass."""
    data.set_soft_clusters(None, None)
    single, pair, _ = _predict_scores(model, data, device, pair_budget)
    data.set_soft_clusters(*soft_clusters(single, pair, data.ptr, data.ante))


@torch.no_grad()
def _predict_scores(model: CorefScorers, data: TrainingData, device: torch.device,
                    pair_budget: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    model.eval()
    single = np.zeros(len(data), dtype=np.float32)
    pair = np.zeros(len(data.ante), dtype=np.float32)
    mention = np.zeros(len(data), dtype=np.float32)
    for anaphors in make_batches(data.n_candidates, pair_budget, data.doc_ids):
        batch = data.batch(anaphors)
        options, mentions, _ = batch_outputs(model, to_tensors(batch, device))
        scores = options.cpu().numpy()
        single[anaphors] = scores[:, 0]
        mention[batch.mentions] = mentions.cpu().numpy()
        rows, cols = np.nonzero(batch.mask)
        pair[data.ptr[anaphors][rows] + cols] = scores[rows, cols + 1]
    return single, pair, mention


def scored_dev(data: TrainingData, single: np.ndarray, pair: np.ndarray,
               mention: np.ndarray) -> ScoredDev:
    """The featurized documents with their scores, ready to decode under any link
    offsets (:class:`~neuralcoref.artifacts.tuning.ScoredDev`).

    single (float32 (n,)), pair (float32 (n_pairs,)), mention (float32 (n,)):
        scores of every mention and candidate, as from :func:`predict_scores`.
    """
    corpus, docs = data.corpus, []
    for d in range(corpus.n_docs):
        rows = corpus.doc_slice(d)
        lo, hi = int(data.ptr[rows.start]), int(data.ptr[rows.stop])
        ptr = data.ptr[rows.start:rows.stop + 1] - lo
        ante = (data.ante[lo:hi] - rows.start).astype(np.int32)
        codes = np.asarray(corpus.features.codes[rows])
        scores = DocScores(single[rows], pair[lo:hi], ptr, ante, mention[rows])
        docs.append(ScoredDoc(corpus.gold_clusters(d), scores, corpus.decode_inputs(d),
                              codes[:, C["start"]], codes[:, C["end"]]))
    return ScoredDev(docs, data.keep_singletons)


def decode(data: TrainingData, single: np.ndarray, pair: np.ndarray, mention: np.ndarray,
           offset: float = 0.0) -> List[List[List[Tuple[int, int]]]]:
    """Predicted clusters (token spans) of every document, decoded by the runtime's
    :func:`~neuralcoref.core.decode.decoding.decode` with every input the component uses.

    mention (float32 (n,)): mention scores, which pick a cluster's span per head.
    offset (float): added to the single scores of every mention type (a link threshold to tune).
    """
    return scored_dev(data, single, pair, mention).clusters(uniform_offsets(offset))


def score_predictions(data: TrainingData, predicted: List[List[List[Tuple[int, int]]]]) -> CorefScores:
    """The project's CoNLL scores of predicted clusters against the gold clusters
    (without the gold singletons when ``data.keep_singletons`` is False)."""
    corpus = data.corpus
    gold = [corpus.gold_clusters(d) for d in range(corpus.n_docs)]
    if not data.keep_singletons:
        gold = [remove_singletons(clusters) for clusters in gold]
    return score_documents(list(zip(gold, predicted)))


#: The single-score offsets tried on dev: the link threshold export folds in. Down
#: to -4: models early in training, or trained on little data, link too little
#: (5 fr-litbank documents: the best offset was -2.0, the old grid's edge).
OFFSET_GRID = np.arange(-4.0, 2.01, 0.25)


def dev_scores(model: CorefScorers, data: TrainingData, device: torch.device, pair_budget: int,
               tune: bool = True, grid: np.ndarray = OFFSET_GRID) -> Tuple[float, CorefScores, CorefScores]:
    """Dev scores at the link threshold the export would fold in.

    tune (bool): search ``grid`` for the best single-score offset (export's
        ``tune_greedyness``); False: offset 0.
    RETURNS (Tuple[float, CorefScores, CorefScores]): the offset, the scores at
        it, and the raw scores (offset 0). Ties prefer the offset nearest 0.
    """
    dev = scored_dev(data, *predict_scores(model, data, device, pair_budget))
    if not tune:
        raw = dev.scores({})
        return 0.0, raw, raw
    return best_uniform_offset(dev, grid)


def tune_dev_offsets(model: CorefScorers, data: TrainingData, device: torch.device, pair_budget: int,
                     offset: float, progress: bool = True) -> TuneResult:
    """Per-mention-type link offsets fitted on the stored dev features by
    :func:`~neuralcoref.artifacts.tuning.tune_offsets` (``neuralcoref tune``'s search), on
    top of the single-score ``offset`` the export folds in.

    RETURNS (TuneResult): the offsets and the dev scores before and after.
    """
    single, pair, mention = predict_scores(model, data, device, pair_budget)
    dev = scored_dev(data, single + np.float32(offset), pair, mention)
    return tune_offsets(dev, progress=progress)
