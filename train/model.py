"""PyTorch scorers with exactly the runtime's weight names and shapes.

Parameters are created from :func:`neuralcoref.core.scoring.scoring.weight_shapes` — the same
function the numpy runtime checks its weights against — so export is a rename of
``__`` to ``.`` and a test holds both forward passes to the same scores.
"""
from __future__ import annotations

from typing import Dict, Optional

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from neuralcoref.core.features.contract import SPAN_VECTORS
from neuralcoref.core.scoring.scoring import FIRST_WORD_ROW, OOV_ROW, ScorerConfig, weight_shapes


def _key(name: str) -> str:
    return name.replace(".", "__")


class CorefScorers(nn.Module):
    """Single and pair feed-forward scorers; first pair layer factorised.

    config (ScorerConfig): input and layer sizes.
    dropout (float): dropout on the mention inputs and hidden layers in training.
    word_dropout (float): in training, the share of word slots read as an unknown
        word (the OOV row), so that scores do not hinge on the exact words of
        the training documents.
    vector_dropout (float): in training, the share of span vectors (one of
        SPAN_VECTORS of one mention) zeroed whole, the others scaled up to match.
    """

    def __init__(self, config: ScorerConfig, dropout: float = 0.0, word_dropout: float = 0.0,
                 vector_dropout: float = 0.0):
        super().__init__()
        self.config = config
        self.dropout = dropout
        self.word_dropout = word_dropout
        self.vector_dropout = vector_dropout
        self.params = nn.ParameterDict({
            _key(name): nn.Parameter(torch.empty(shape)) for name, shape in weight_shapes(config).items()
        })
        self.reset_parameters()

    def reset_parameters(self) -> None:
        for name, param in self.params.items():
            if name == "embeddings":
                nn.init.normal_(param, std=0.1)
            elif name in ("types__pair", "types__single"):
                nn.init.zeros_(param)  # no type preference until the data shows one
            elif name.startswith("pair__sim"):
                nn.init.normal_(param, std=0.01)  # starts near 0: no similarity yet
            elif name.endswith("__b"):
                nn.init.zeros_(param)
            else:
                nn.init.kaiming_uniform_(param, a=5 ** 0.5)  # torch.nn.Linear's default

    def p(self, name: str) -> torch.Tensor:
        return self.params[_key(name)]

    def mention_inputs(self, vectors: torch.Tensor, mention_feats: torch.Tensor,
                       word_rows: torch.Tensor) -> torch.Tensor:
        """(n, d_m) inputs from span vectors, expanded codes and word-slot rows."""
        if self.training and self.vector_dropout and vectors.shape[1]:
            blocks = vectors.reshape(vectors.shape[0], len(SPAN_VECTORS), -1)
            keep = (torch.rand(blocks.shape[:2], device=vectors.device) >= self.vector_dropout)
            vectors = (blocks * keep[..., None] / (1.0 - self.vector_dropout)).flatten(1)
        parts = [vectors, mention_feats]
        if self.config.embedding_dim:
            if self.training and self.word_dropout:
                dropped = (torch.rand(word_rows.shape, device=word_rows.device) < self.word_dropout)
                word_rows = torch.where(dropped & (word_rows >= FIRST_WORD_ROW), OOV_ROW, word_rows)
            parts.append(F.embedding(word_rows, self.p("embeddings")).flatten(1))
        x = torch.cat(parts, dim=1)
        return F.dropout(x, self.dropout, self.training)

    def _mlp(self, h: torch.Tensor, prefix: str, start: int, n_hidden: int) -> torch.Tensor:
        for i in range(start, n_hidden):
            h = F.dropout(F.relu(F.linear(h, self.p(f"{prefix}.{i}.W"), self.p(f"{prefix}.{i}.b"))),
                          self.dropout, self.training)
        return F.linear(h, self.p(f"{prefix}.out.W"), self.p(f"{prefix}.out.b")).squeeze(-1)

    def single_scores(self, x: torch.Tensor) -> torch.Tensor:
        """(n,) no-antecedent scores of mention inputs x (n, d_m)."""
        scores = self._mlp(x, "single", 0, len(self.config.single_hidden))
        if self.config.type_classes:
            scores = scores + F.softmax(self.type_logits(x), dim=-1) @ self.p("types.single")[0]
        return scores

    def type_logits(self, x: torch.Tensor) -> torch.Tensor:
        """(n, type_classes) logits of the mention-type head (entity types, then
        "not a mention"), for mention inputs x (n, d_m)."""
        h = x
        for i in range(len(self.config.type_hidden or [])):
            h = F.dropout(F.relu(F.linear(h, self.p(f"types.{i}.W"), self.p(f"types.{i}.b"))),
                          self.dropout, self.training)
        return F.linear(h, self.p("types.out.W"), self.p("types.out.b"))

    def mention_scores(self, x: torch.Tensor) -> torch.Tensor:
        """(n,) mention scores (zeros without a mention scorer)."""
        if self.config.mention_hidden is None:
            return x.new_zeros(x.shape[0])
        return self._mlp(x, "mention", 0, len(self.config.mention_hidden))

    def pair_scores(self, x_ante: torch.Tensor, x_ana: torch.Tensor, ante_pos: torch.Tensor,
                    pair_feats: torch.Tensor, support_pos: Optional[torch.Tensor] = None,
                    support_w: Optional[torch.Tensor] = None) -> torch.Tensor:
        """Scores of padded candidate rows.

        x_ante (float (u, d_m)): inputs of the mentions antecedents point into.
        x_ana (float (b, d_m)): inputs of the anaphors.
        ante_pos (long (b, L)): rows of x_ante of each candidate.
        pair_feats (float (b, L, d_p)): expanded pair codes.
        support_pos, support_w (long / float (u, k) | None): soft clusters of the rows
            of x_ante, for the entity-level pass (antecedent parts averaged over them).
        RETURNS (Tensor): (b, L) scores (padding positions hold garbage: mask them).
        """
        a_part = F.linear(x_ante, self.p("pair.0.W_ante"))
        if support_pos is not None:
            a_part = (support_w[..., None] * a_part[support_pos]).sum(1)
        m_part = F.linear(x_ana, self.p("pair.0.W_ana"), self.p("pair.0.b"))
        h = F.linear(pair_feats, self.p("pair.0.W_pair")) + a_part[ante_pos] + m_part[:, None, :]
        h = F.dropout(F.relu(h), self.dropout, self.training)
        scores = self._mlp(h, "pair", 1, len(self.config.pair_hidden))
        if self.config.mention_hidden is not None:
            scores = scores + self.mention_scores(x_ante)[ante_pos] + self.mention_scores(x_ana)[:, None]
        if self.config.similarity_rank:
            u = F.linear(x_ante, self.p("pair.sim.U"))[ante_pos]
            v = F.linear(x_ana, self.p("pair.sim.V"))
            scores = scores + (u * v[:, None, :]).sum(-1)
        if self.config.type_classes:  # learned type agreement p(a)^T M p(m)
            p_ante = F.softmax(self.type_logits(x_ante), dim=-1) @ self.p("types.pair")
            p_ana = F.softmax(self.type_logits(x_ana), dim=-1)
            scores = scores + (p_ante[ante_pos] * p_ana[:, None, :]).sum(-1)
        return scores

    def export_weights(self) -> Dict[str, np.ndarray]:
        """The weights under the runtime's names, float32 numpy arrays."""
        return {name.replace("__", "."): param.detach().cpu().numpy().astype(np.float32)
                for name, param in self.params.items()}
