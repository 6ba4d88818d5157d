"""Epochs and phases: what ``train`` and the fold board share.

``train`` (train/trainer.py) evaluates every epoch on dev, stops phases early
and checkpoints; the fold board (train/folds.py) runs every epoch of every phase
(:func:`fixed_schedule`). Both build each phase's optimizer, learning-rate decay
and weight average by :func:`start_phase` and train an epoch by
:func:`train_epoch`, so a change to either reaches both.
"""
from __future__ import annotations

import copy
import functools
from contextlib import contextmanager
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
from tqdm import tqdm

from .batching import make_batches
from .config import PhaseConfig, TrainConfig, phase_refines
from .dataset import TrainingData
from .distill import distill_loss
from .evaluation import batch_outputs, set_soft_clusters, to_tensors
from .augment import alternate
from .interrupt import GracefulStop
from .pretrained import keep_added_rows
from .losses import LOSSES
from .model import CorefScorers
from .schemes import epoch_subset, mention_loss_weights, passes
from .types import type_loss


class WeightAverage:
    """Exponential moving average of the weights, evaluated instead of the raw
    weights when ``decay`` > 0: it smooths the epoch-to-epoch noise of dev scores."""

    def __init__(self, model: CorefScorers, decay: float):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()} if decay else {}

    @torch.no_grad()
    def update(self, model: CorefScorers) -> None:
        for name, value in model.state_dict().items():
            if name in self.shadow:
                self.shadow[name].mul_(self.decay).add_(value, alpha=1.0 - self.decay)

    @contextmanager
    def applied(self, model: CorefScorers):
        """Within the block the model holds the averaged weights."""
        if not self.decay:
            yield
            return
        current = copy.deepcopy(model.state_dict())
        model.load_state_dict(self.shadow)
        try:
            yield
        finally:
            model.load_state_dict(current)


def merged_counts(corpora) -> Dict[str, int]:
    """Word counts summed over featurized corpora (the vocabulary's input)."""
    counts: Dict[str, int] = {}
    for corpus in corpora:
        for word, count in corpus.word_counts.items():
            counts[word] = counts.get(word, 0) + count
    return counts


def training_data(corpus, vocab, cfg: TrainConfig, vector_dim: int,
                  gold_anaphors_only: bool = False, partial: bool = False) -> TrainingData:
    """A featurized corpus as training data under the recipe's candidate windows
    (without token vectors when ``vector_dim`` is 0)."""
    data = TrainingData(corpus, vocab, cfg.max_dist, cfg.max_dist_match,
                        keep_singletons=not cfg.drop_singletons,
                        gold_anaphors_only=gold_anaphors_only,
                        max_dist_nominal=cfg.max_dist_nominal, partial=partial)
    if vector_dim == 0:
        data.vectors = np.zeros((len(data), 0), dtype=np.float32)
    return data


def start_phase(model: CorefScorers, phase: PhaseConfig, cfg: TrainConfig, epoch: int = 0,
                restored: Optional[Dict] = None
                ) -> Tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.ExponentialLR, WeightAverage]:
    """The optimizer, learning-rate decay and weight average of a phase, at ``epoch``.

    restored (Dict | None): a checkpoint's tensors: with ``epoch`` > 0 its
        "optimizer" and "average" continue the phase in progress.
    """
    optimizer = torch.optim.Adam(model.parameters(), lr=phase.lr * phase.lr_decay ** epoch,
                                 weight_decay=cfg.weight_decay)
    keep_added_rows(model, optimizer)  # words only the pretraining text has (train --pretrained)
    average = WeightAverage(model, cfg.ema_decay)
    if restored is not None and epoch > 0 and "optimizer" in restored:
        optimizer.load_state_dict(restored["optimizer"])
        average.shadow = restored.get("average") or average.shadow
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=phase.lr_decay)
    return optimizer, schedule, average


def fixed_schedule(model: CorefScorers, cfg: TrainConfig, datasets: Sequence[TrainingData],
                   device: torch.device, rng: np.random.Generator, stop: GracefulStop,
                   progress: bool = True, label: str = "") -> Optional[List[float]]:
    """Every epoch of every phase, nothing evaluated (the fold board's schedule);
    each phase after the first, and the result, start from the phase's weight
    average when the recipe keeps one, as ``train`` starts from its best model.

    RETURNS (List[float] | None): the loss of each epoch; None when a stop was requested.
    """
    losses: List[float] = []
    for phase in cfg.phases:
        optimizer, schedule, average = start_phase(model, phase, cfg)
        for epoch in range(phase.max_epochs):
            desc = f"{label}{phase.loss} {epoch + 1}/{phase.max_epochs}"
            loss = train_epoch(model, optimizer, phase, alternate(list(datasets), len(losses)), cfg, device,
                               rng, progress, desc, average, stop)
            if loss is None:
                return None
            schedule.step()
            losses.append(round(loss, 6))
        if average.shadow:
            model.load_state_dict(average.shadow)
    return losses


def train_epoch(model: CorefScorers, optimizer: torch.optim.Optimizer, phase: PhaseConfig,
                datasets: List[TrainingData], cfg: TrainConfig, device: torch.device,
                rng: np.random.Generator, progress: bool, desc: str,
                average: WeightAverage, stop: GracefulStop) -> Optional[float]:
    """One pass over the batches; RETURNS the mean loss per anaphor, or None when
    a stop was requested before the last batch (the current batch is finished)."""
    refines = model.config.refine and phase_refines(cfg.refine, phase.loss)
    for data in datasets:  # soft clusters from this epoch's first pass; none: plain pairs
        if refines:
            set_soft_clusters(model, data, device, cfg.pair_budget)
        else:
            data.set_soft_clusters(None, None)
    model.train()
    loss_fn = LOSSES[phase.loss]
    if phase.costs is not None:
        loss_fn = functools.partial(loss_fn, costs=phase.costs)
    total, count = 0.0, 0
    batches = [(data, anaphors) for data in datasets
               for _ in range(passes(data, cfg.partial_repeat))
               for anaphors in make_batches(data.n_candidates, cfg.pair_budget, data.doc_ids, rng,
                                            epoch_subset(data, rng))]
    order = rng.permutation(len(batches))
    # disable=None: a bar on a terminal only, not in redirected logs
    for i in tqdm(order, desc=desc, unit="batch", disable=None if progress else True, leave=False):
        if stop.requested is not None:
            return None
        data, anaphors = batches[i]
        batch = data.batch(anaphors)
        t = to_tensors(batch, device)
        out = batch_outputs(model, t, with_types=True)
        known = t["mask"] & t["known"] if "known" in t else t["mask"]
        mask = torch.cat([torch.ones_like(t["single_gold"])[:, None], known], dim=1)
        gold = torch.cat([t["single_gold"][:, None], t["pair_gold"]], dim=1)
        loss = loss_fn(out.options, mask, gold)
        # Partial data labels too few mentions to say which candidates are mentions at all.
        if cfg.mention_hidden is not None and cfg.mention_loss_weight and not data.partial:
            # Auxiliary mention detection: is each candidate a gold mention at all?
            loss = loss + cfg.mention_loss_weight * mention_loss(
                out.mentions, t["mention_gold"], mention_loss_weights(data.labels[batch.mentions], data.scheme))
        if out.types is not None and t.get("type_gold") is not None:
            loss = loss + cfg.type_loss_weight * type_loss(out.types, t["type_gold"])
        if "teacher" in t and cfg.distill_weight:
            loss = loss + cfg.distill_weight * distill_loss(out.options, t["teacher"], mask,
                                                            cfg.distill_temperature)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        average.update(model)
        total += loss.item() * len(anaphors)
        count += len(anaphors)
    return total / max(count, 1)


def mention_loss(scores: torch.Tensor, gold: torch.Tensor, weights: Optional[np.ndarray]) -> torch.Tensor:
    """Binary cross-entropy of mention scores against gold mentions, averaged
    over the mentions whose label is known (``weights``; None: all)."""
    if weights is None:
        return torch.nn.functional.binary_cross_entropy_with_logits(scores, gold.float())
    w = torch.as_tensor(weights, device=scores.device)
    losses = torch.nn.functional.binary_cross_entropy_with_logits(scores, gold.float(), reduction="none")
    return (losses * w).sum() / w.sum().clamp(min=1.0)
