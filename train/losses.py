"""The training objectives, over padded option rows.

Every loss takes, for b anaphors, the scores of their options — column 0 is the
no-antecedent option (the single score), columns 1.. the candidate antecedents —
with a validity mask and the gold options, all (b, 1 + L). Each returns the mean
loss per anaphor.

- all_pairs: binary cross-entropy on every option (Clark & Manning 2016).
- top_pairs: binary cross-entropy on the highest-scoring gold and non-gold option.
- ranking: max-margin with slack-rescaled costs (by default false new 0.8, false
  link 0.4, wrong link 1.0), against the highest-scoring gold option.
- softmax: negative log of the total probability of the gold options.

:func:`distill_loss` compares the options' distributions with a teacher's
(train/distill.py), added to one of these.
"""
from __future__ import annotations

from typing import Sequence

import torch
import torch.nn.functional as F

#: Default ranking costs: false new, false link, wrong link (Clark & Manning 2016).
RANKING_COSTS = (0.8, 0.4, 1.0)
_NEG = -1e4


def _masked(scores: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(~keep, _NEG)


def all_pairs(scores: torch.Tensor, mask: torch.Tensor, gold: torch.Tensor) -> torch.Tensor:
    bce = F.binary_cross_entropy_with_logits(scores, gold.float(), reduction="none")
    return (bce * mask).sum(1).mean()


def top_pairs(scores: torch.Tensor, mask: torch.Tensor, gold: torch.Tensor) -> torch.Tensor:
    top_true = _masked(scores, mask & gold).max(1).values
    false_mask = mask & ~gold
    top_false = _masked(scores, false_mask).max(1).values
    loss = F.binary_cross_entropy_with_logits(top_true, torch.ones_like(top_true), reduction="none")
    has_false = false_mask.any(1).float()
    loss = loss + has_false * F.binary_cross_entropy_with_logits(
        top_false, torch.zeros_like(top_false), reduction="none")
    return loss.mean()


def ranking(scores: torch.Tensor, mask: torch.Tensor, gold: torch.Tensor,
            costs: Sequence[float] = RANKING_COSTS) -> torch.Tensor:
    false_new, false_link, wrong_link = costs
    anaphoric = ~gold[:, 0]
    option_cost = torch.zeros_like(scores)
    option_cost[:, 0] = anaphoric.float() * false_new
    link_cost = torch.where(anaphoric, torch.tensor(wrong_link, device=scores.device),
                            torch.tensor(false_link, device=scores.device))
    option_cost[:, 1:] = link_cost[:, None] * (~gold[:, 1:]).float()
    option_cost = option_cost * mask
    best_true = _masked(scores, mask & gold).max(1).values
    margins = option_cost * (1.0 + scores - best_true[:, None])
    return _masked(margins, mask).max(1).values.clamp(min=0).mean()


def softmax(scores: torch.Tensor, mask: torch.Tensor, gold: torch.Tensor) -> torch.Tensor:
    log_norm = torch.logsumexp(_masked(scores, mask), dim=1)
    log_gold = torch.logsumexp(_masked(scores, mask & gold), dim=1)
    return (log_norm - log_gold).mean()


def distill_loss(student: torch.Tensor, teacher: torch.Tensor, mask: torch.Tensor,
                 temperature: float = 1.0) -> torch.Tensor:
    """Mean over anaphors of ``T^2 * KL(teacher || student)`` over their valid options.

    student, teacher (float (b, 1 + L)): option scores (no-antecedent first).
    mask (bool (b, 1 + L)): valid options.
    RETURNS (Tensor): the scalar loss (0 when the student scores as the teacher).
    """
    log_s = F.log_softmax(student.masked_fill(~mask, _NEG) / temperature, dim=1)
    log_t = F.log_softmax(teacher.masked_fill(~mask, _NEG) / temperature, dim=1)
    kl = (log_t.exp() * (log_t - log_s)).masked_fill(~mask, 0.0).sum(1)
    return temperature ** 2 * kl.mean()


LOSSES = {"all_pairs": all_pairs, "top_pairs": top_pairs, "ranking": ranking, "softmax": softmax}
