"""Dev evaluation during training: PyTorch scores, the runtime's decoding, the project's scorer."""
from __future__ import annotations

from typing import List, Tuple

import numpy as np
import torch

from neuralcoref.clustering import agreement_codes, decode_clusters, repeat_keys, spans_of
from neuralcoref.coref_scorer import CorefScores, remove_singletons, score_documents
from neuralcoref.entities import soft_clusters
from neuralcoref.features import C

from .batching import make_batches
from .dataset import Batch, TrainingData
from .model import CorefScorers


def to_tensors(batch: Batch, device: torch.device) -> dict:
    """The batch's arrays as tensors on ``device`` (absent ones left out)."""
    return {name: torch.as_tensor(value, device=device) for name, value in vars(batch).items()
            if value is not None}


def option_scores(model: CorefScorers, t: dict) -> torch.Tensor:
    """(b, 1 + L) scores: the no-antecedent score, then each candidate's."""
    return batch_outputs(model, t)[0]


def batch_outputs(model: CorefScorers, t: dict):
    """(b, 1 + L) option scores, and the (u,) mention scores of the batch's mentions."""
    x = model.mention_inputs(t["vectors"], t["mention_feats"], t["word_rows"])
    x_ana = x[t["ana_pos"]]
    single = model.single_scores(x_ana)
    pair = model.pair_scores(x, x_ana, t["ante_pos"], t["pair_feats"], t.get("support_pos"),
                             t.get("support_w"))
    return torch.cat([single[:, None], pair], dim=1), model.mention_scores(x)


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
        options, mentions = batch_outputs(model, to_tensors(batch, device))
        scores = options.cpu().numpy()
        single[anaphors] = scores[:, 0]
        mention[batch.mentions] = mentions.cpu().numpy()
        rows, cols = np.nonzero(batch.mask)
        pair[data.ptr[anaphors][rows] + cols] = scores[rows, cols + 1]
    return single, pair, mention


def decode(data: TrainingData, single: np.ndarray, pair: np.ndarray, mention: np.ndarray,
           offset: float = 0.0) -> List[List[List[Tuple[int, int]]]]:
    """Predicted clusters (token spans) of every document, decoded by the runtime's
    :func:`~neuralcoref.clustering.decode_clusters` with agreement, repeats and
    span scores, but without the inputs the featurized data does not keep (the
    name rule's words, lexicon classes, speakers, binding constraints), without
    the pronoun rescue (``persons``) and with one offset for every mention type;
    so dev scores here can differ from ``neuralcoref tune``'s / the runtime's.

    mention (float32 (n,)): mention scores, which pick a cluster's span per head.
    offset (float): added to the single scores (a link threshold to tune).
    """
    corpus, out = data.corpus, []
    for d in range(corpus.n_docs):
        rows = corpus.doc_slice(d)
        lo, hi = int(data.ptr[rows.start]), int(data.ptr[rows.stop])
        ptr = data.ptr[rows.start:rows.stop + 1] - lo
        ante = data.ante[lo:hi] - rows.start
        codes = np.asarray(corpus.features.codes[rows])
        clusters = decode_clusters(single[rows] + offset, pair[lo:hi], ptr, ante, codes[:, C["head"]],
                                   agreement=agreement_codes(codes, data.decoding_agreement),
                                   repeats=repeat_keys(codes, corpus.features.hashes[rows]),
                                   span_scores=mention[rows])
        out.append(spans_of(clusters, codes[:, C["start"]], codes[:, C["end"]]))
    return out


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
    scores = predict_scores(model, data, device, pair_budget)
    raw = score_predictions(data, decode(data, *scores, 0.0))
    if not tune:
        return 0.0, raw, raw
    results = [(raw if o == 0.0 else score_predictions(data, decode(data, *scores, o)), o)
               for o in map(float, grid)]
    best, offset = max(results, key=lambda r: (r[0].conll_f1, -abs(r[1])))
    return offset, best, raw
