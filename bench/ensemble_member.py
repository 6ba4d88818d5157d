"""One member of a merged ensemble as a model of its own (the inverse of
``neuralcoref ensemble``), to pair one member of a shipped ensemble with a new
model at the ensemble's speed (docs/experiments/2026-12-07-french-democrat.md,
section 5c):

    python bench/ensemble_member.py neuralcoref/models/fr 0 runs/fr_member0

Member k is block k of every hidden layer (``single_blocks``, ``pair_blocks``;
the mention net's layers split evenly), its columns of the output layers with
its share divided back out, and its own columns of the embedding table. The
output biases stay the ensemble's (the members' mean): a constant shift of the
scores, which ``neuralcoref tune`` takes up; merging every extracted member
again gives the ensemble's weights exactly. Link offsets are dropped.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from neuralcoref.artifacts.model_dir import save_model
from neuralcoref.core.features.contract import MENTION_LAYOUT, SPAN_VECTORS, WORD_SLOTS
from neuralcoref.core.scoring.model import ModelConfig


def _block(sizes, k: int) -> slice:
    start = sum(sizes[:k])
    return slice(start, start + sizes[k])


def extract(src: Path, k: int, out: Path) -> Path:
    """Write member ``k`` of the ensemble at ``src`` to ``out``."""
    config = json.loads((src / "config.json").read_text(encoding="utf8"))
    w = dict(np.load(src / "weights.npz"))
    scorer = config["scorer"]
    if not scorer.get("pair_blocks"):
        sys.exit(f"{src} is no ensemble (its config declares no blocks)")
    n = len(scorer["pair_blocks"][0])
    nets = {"single": scorer["single_blocks"], "pair": scorer["pair_blocks"],
            "mention": [[h // n] * n for h in scorer["mention_hidden"] or []]}
    new = {}
    for net, blocks in nets.items():
        if not blocks:
            continue
        rows = _block(blocks[0], k)
        firsts = ("W_ante", "W_ana", "W_pair") if net == "pair" else ("W",)
        for part in firsts:
            new[f"{net}.0.{part}"] = w[f"{net}.0.{part}"][rows]
        new[f"{net}.0.b"] = w[f"{net}.0.b"][rows]
        for i in range(1, len(blocks)):
            rows, cols = _block(blocks[i], k), _block(blocks[i - 1], k)
            new[f"{net}.{i}.W"], new[f"{net}.{i}.b"] = w[f"{net}.{i}.W"][rows, cols], w[f"{net}.{i}.b"][rows]
        new[f"{net}.out.W"] = w[f"{net}.out.W"][:, _block(blocks[-1], k)] * n
        new[f"{net}.out.b"] = w[f"{net}.out.b"]
    # The embedding table and the word slots' input columns are [member 0 | member 1 | ...].
    dim = scorer["embedding_dim"] // n
    start = len(SPAN_VECTORS) * scorer["vector_dim"] + MENTION_LAYOUT.width
    keep = list(range(start)) + [start + slot * scorer["embedding_dim"] + k * dim + j
                                 for slot in range(len(WORD_SLOTS)) for j in range(dim)]
    for name in ("single.0.W", "pair.0.W_ante", "pair.0.W_ana", "mention.0.W"):
        if name in new:
            new[name] = new[name][:, keep]
    if dim:
        new["embeddings"] = w["embeddings"][:, k * dim:(k + 1) * dim]
    scorer.update(embedding_dim=dim, single_hidden=[b[k] for b in nets["single"]],
                  pair_hidden=[b[k] for b in nets["pair"]], single_blocks=None, pair_blocks=None,
                  mention_hidden=[b[k] for b in nets["mention"]] or None)
    config["defaults"].pop("link_offsets", None)
    words = json.loads((src / "vocab.json").read_text(encoding="utf8"))
    return save_model(out, ModelConfig.from_dict(config), new, words, f"# member {k} of {src}\n")


if __name__ == "__main__":
    print("wrote", extract(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])))
