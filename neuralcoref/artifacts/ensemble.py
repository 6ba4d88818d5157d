"""Ensembles as ordinary model folders: several trained models merged into one.

The mean of K feed-forward scorers is itself a feed-forward scorer: stack the
members' first layers (each reading its own input columns), put the deeper
layers on a block diagonal, and average the output layers. The merged model
scores exactly the mean of its members' scores, so the runtime, the model
folder format and the component need nothing new; it costs one wider network.

A member may itself be an ensemble: its members then count one each in the
mean and keep their own blocks. Members may differ in hidden sizes, depth (a shallower member is padded with
identity layers: ReLU leaves its non-negative activations unchanged), word
embedding width and vocabulary (the merged table covers the union; a word a
member lacks gets that member's out-of-vocabulary row, as it would at
runtime), and in using ``doc.tensor`` or not (its columns get zero weights in
members without it). Mention scorers merge like the single scorer, over the
members that have one: a member without one adds 0 to every pair, as it does
alone. Type heads merge the same way, each keeping its own softmax (one group
of classes per member, ``ScorerConfig.type_groups``) and its single and
agreement terms scaled by the member's share. Members must share the feature
schema, language, mention rules and spaCy pipeline, and not use the
entity-level second pass.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.discourse.decode_signals import greedyness_offset
from ..core.features.contract import MENTION_LAYOUT, SPAN_VECTORS, WORD_SLOTS
from ..core.features.pairs import check_top_antecedents, nominal_window
from ..core.scoring.model import CorefModel, ModelConfig
from ..core.scoring.scoring import FIRST_WORD_ROW, OOV_ROW, ScorerConfig
from ..errors import Errors, NeuralcorefError, Warnings
from .model_dir import CARD_FILE, load_model, save_model

Layers = List[Tuple[np.ndarray, np.ndarray]]


def merge_models(models: Sequence[CorefModel], greedyness: float = 0.5, top_antecedents: int = 0
                 ) -> Tuple[ModelConfig, Dict[str, np.ndarray], List[str]]:
    """The config, weights and vocabulary of the mean of ``models``.

    models (Sequence[CorefModel]): two or more loaded members.
    greedyness (float): folded into the merged single scorer, so that the merged
        model at greedyness 0.5 links like the members' mean at this value.
    top_antecedents (int): recorded as the merged model's coarse-to-fine
        setting (see :class:`~neuralcoref.core.resolver.Resolver`); 0: none.
    RETURNS (tuple): (ModelConfig, weights, vocabulary words) for ``save_model``.
    """
    _check_members(models)
    words = _union_words(models)
    vector_dim = max(m.config.scorer.vector_dim for m in models)
    emb_dims = [m.config.scorer.embedding_dim for m in models]
    columns = [_input_columns(m.config.scorer, vector_dim, emb_dims, k) for k, m in enumerate(models)]
    width = _input_width(vector_dim, sum(emb_dims))
    # An ensemble member counts as many times as it has members.
    counts = [m.config.scorer.n_members for m in models]
    shares = [c / sum(counts) for c in counts]

    weights: Dict[str, np.ndarray] = {}
    if sum(emb_dims):
        weights["embeddings"] = np.concatenate(
            [_member_table(m, words) for m in models if m.config.scorer.embedding_dim], axis=1)
    single, single_blocks = _merge_mlp(
        [_layers(m, "single", len(m.config.scorer.single_hidden)) for m in models],
        [_own_blocks(m.config.scorer, "single") for m in models], columns, width, shares)
    # A link needs pair > single + offset(g): fold the offset into the single bias.
    single[-1][1][0] += greedyness_offset(greedyness)
    _put(weights, "single", single)
    pair, pair_blocks = _merge_pair(models, columns, width, shares)
    _put(weights, "pair", pair[1:], first=1)
    weights["pair.0.W_ante"], weights["pair.0.W_ana"], weights["pair.0.W_pair"], weights["pair.0.b"] = pair[0]
    mention_hidden = _merge_mention(models, columns, width, shares, weights)
    types = _merge_types(models, columns, width, shares, weights)

    first = models[0].config
    scorer = ScorerConfig(vector_dim=vector_dim, vocab_size=FIRST_WORD_ROW + len(words),
                          embedding_dim=sum(emb_dims),
                          single_hidden=[w.shape[0] for w, _ in single[:-1]],
                          pair_hidden=[pair[0][3].shape[0]] + [w.shape[0] for w, _ in pair[1:-1]],
                          mention_hidden=mention_hidden,
                          single_blocks=single_blocks, pair_blocks=pair_blocks, **types)
    defaults = dict(first.defaults)
    defaults.pop("greedyness", None)
    defaults.pop("link_offsets", None)  # tuned for one model, not for the mean
    defaults.pop("top_antecedents", None)  # which member comes first may change
    if top_antecedents:
        defaults["top_antecedents"] = check_top_antecedents(top_antecedents)
    vector_pipelines = sorted({p for m in models for p in m.config.vector_pipelines})
    fingerprints = sorted({f for m in models for f in m.config.vector_fingerprints})
    config = ModelConfig(lang=first.lang, scorer=scorer, spacy_pipeline=first.spacy_pipeline,
                         vector_pipelines=vector_pipelines, vector_fingerprints=fingerprints,
                         rules=first.rules, rules_hash=first.rules_hash, defaults=defaults,
                         document_prior=_document_prior(models))
    return config, weights, words


def _document_prior(models) -> dict:
    # Members read the same pipeline's vectors: their priors' mean, at the
    # largest weight any of them uses (none when no member has one).
    priors = [m.config.document_prior for m in models if m.config.document_prior]
    if not priors:
        return {}
    mean = np.mean([np.asarray(p["mean"], dtype=np.float64) for p in priors], axis=0)
    return {"mean": [float(x) for x in mean], "tokens": max(float(p["tokens"]) for p in priors)}


def save_ensemble(paths: Sequence[Union[str, Path]], out: Union[str, Path],
                  greedyness: float = 0.5, top_antecedents: int = 0) -> Path:
    """Merge the model folders ``paths`` into the model folder ``out`` (the
    settings: see :func:`merge_models`).

    RETURNS (Path): ``out``.
    """
    models = [load_model(p) for p in paths]
    config, weights, words = merge_models(models, greedyness, top_antecedents)
    card = _card(paths, models, greedyness, top_antecedents)
    return save_model(out, config, weights, words, card)


def _check_members(models: Sequence[CorefModel]) -> None:
    if len(models) < 2:
        raise NeuralcorefError(Errors.E111.format(problem=f"{len(models)} model(s) given, need 2 or more"))
    first = models[0].config
    typed = [m for m in models if m.config.scorer.type_classes]
    for m in models:
        c = m.config
        problem = ""
        if (c.lang, c.rules) != (first.lang, first.rules):
            problem = f"language or mention rules differ ({c.lang}/{c.rules} vs {first.lang}/{first.rules})"
        elif c.spacy_pipeline != first.spacy_pipeline:
            problem = f"spaCy pipelines differ ({c.spacy_pipeline} vs {first.spacy_pipeline})"
        elif c.scorer.vector_dim not in (0, max(x.config.scorer.vector_dim for x in models)):
            problem = "members use token vectors of different widths"
        elif c.scorer.refine or c.scorer.similarity_rank:
            problem = "members with refine or similarity_rank cannot be merged"
        elif c.scorer.type_classes and _type_shape(c.scorer) != _type_shape(typed[0].config.scorer):
            problem = ("members' type heads differ in classes per group or depth "
                       f"({_type_shape(c.scorer)} vs {_type_shape(typed[0].config.scorer)})")
        elif _window(c) != _window(first):
            problem = "members were trained with different candidate windows (max_dist)"
        if problem:
            raise NeuralcorefError(Errors.E111.format(problem=f"{m.path}: {problem}"))
    hashes = sorted({m.config.rules_hash for m in models})
    if len(hashes) > 1:
        warnings.warn(Warnings.W102.format(rules=first.rules, hashes=", ".join(hashes)))


def _window(config: ModelConfig) -> tuple:
    d = config.defaults
    return d.get("max_dist"), nominal_window(d.get("max_dist"), d.get("max_dist_nominal"))


def _union_words(models: Sequence[CorefModel]) -> List[str]:
    words = list(models[0].vocab.words)
    seen = set(words)
    for m in models[1:]:
        words += [w for w in m.vocab.words if w not in seen]
        seen.update(m.vocab.words)
    return words


def _member_table(model: CorefModel, words: List[str]) -> np.ndarray:
    table = model.scorers.w["embeddings"]
    index = {w: FIRST_WORD_ROW + i for i, w in enumerate(model.vocab.words)}
    rows = np.array(list(range(FIRST_WORD_ROW)) + [index.get(w, OOV_ROW) for w in words])
    return table[rows]


def _input_width(vector_dim: int, emb_dim: int) -> int:
    return len(SPAN_VECTORS) * vector_dim + MENTION_LAYOUT.width + len(WORD_SLOTS) * emb_dim


def _input_columns(scorer: ScorerConfig, vector_dim: int, emb_dims: List[int], k: int) -> np.ndarray:
    """Where each of member k's input columns sits in the merged input vector."""
    n_vec = len(SPAN_VECTORS) * vector_dim
    cols = list(range(n_vec)) if scorer.vector_dim else []
    cols += range(n_vec, n_vec + MENTION_LAYOUT.width)
    emb_start, total, before = n_vec + MENTION_LAYOUT.width, sum(emb_dims), sum(emb_dims[:k])
    for slot in range(len(WORD_SLOTS)):  # the table's rows are [member 0 | member 1 | ...] per slot
        base = emb_start + slot * total + before
        cols += range(base, base + emb_dims[k])
    return np.array(cols, dtype=np.int64)


def _layers(model: CorefModel, prefix: str, n_hidden: int, first: int = 0) -> Layers:
    w = model.scorers.w
    names = [str(i) for i in range(first, n_hidden)] + ["out"]
    layers = [(w[f"{prefix}.{n}.W"], w[f"{prefix}.{n}.b"]) for n in names]
    if len(layers) > 1 or first:
        return layers
    # A linear scorer z = Wx + b becomes relu(z) - relu(-z): one exact hidden layer.
    W, b = layers[0]
    return [(np.concatenate([W, -W]), np.concatenate([b, -b])),
            (np.array([[1.0, -1.0]], np.float32), np.zeros(1, np.float32))]


def _widen_first(W: np.ndarray, cols: np.ndarray, width: int) -> np.ndarray:
    out = np.zeros((W.shape[0], width), np.float32)
    out[:, cols] = W
    return out


def _own_blocks(scorer: ScorerConfig, net: str) -> List[List[int]]:
    """A member's block sizes per hidden layer (one block each unless it is an
    ensemble); a linear scorer gets the 2-unit layer :func:`_layers` makes."""
    hidden = getattr(scorer, f"{net}_hidden")
    # The mention net of an ensemble declares no blocks: one dense block each layer.
    return getattr(scorer, f"{net}_blocks", None) or [[n] for n in hidden] or [[2]]


def _stack_deeper(members: List[Layers], own_blocks: List[List[List[int]]], shares: List[float]
                  ) -> Tuple[Layers, List[List[int]]]:
    """The layers after the members' first ones: hidden layers on a block
    diagonal (members padded to the same depth), output layers averaged with
    weights ``shares``. own_blocks: each member's block sizes of all its hidden
    layers, the first included (a padding layer repeats the last one's)."""
    depth = max(len(m) for m in members)
    hidden, blocks = [], []
    for layers, own_sizes in zip(members, own_blocks):
        own = list(layers[:-1])
        n = layers[-1][0].shape[1]
        # Identity layers after a ReLU change nothing: activations are >= 0.
        own += [(np.eye(n, dtype=np.float32), np.zeros(n, np.float32))] * (depth - len(layers))
        hidden.append(own)
        blocks.append(own_sizes[1:] + [own_sizes[-1]] * (depth - len(layers)))
    merged = [(_block_diag([m[i][0] for m in hidden]), np.concatenate([m[i][1] for m in hidden]))
              for i in range(depth - 1)]
    W_out = np.concatenate([m[-1][0] * s for m, s in zip(members, shares)], axis=1)
    b_out = np.array([sum(float(m[-1][1][0]) * s for m, s in zip(members, shares))], np.float32)
    sizes = [[n for b in blocks for n in b[i]] for i in range(depth - 1)]
    return merged + [(W_out.astype(np.float32), b_out)], sizes


def _block_diag(mats: List[np.ndarray]) -> np.ndarray:
    out = np.zeros((sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)), np.float32)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def _merge_mlp(members: List[Layers], own_blocks: List[List[List[int]]], columns: List[np.ndarray],
               width: int, shares: List[float]) -> Tuple[Layers, List[List[int]]]:
    """The merged layers and the block sizes of each hidden layer."""
    W = np.concatenate([_widen_first(m[0][0], cols, width) for m, cols in zip(members, columns)])
    b = np.concatenate([m[0][1] for m in members])
    deeper, blocks = _stack_deeper([m[1:] for m in members], own_blocks, shares)
    return [(W, b)] + deeper, [[n for o in own_blocks for n in o[0]]] + blocks


def _merge_pair(models: Sequence[CorefModel], columns: List[np.ndarray], width: int, shares: List[float]):
    """The pair net: stacked first layer (antecedent, anaphor and pair parts),
    then the deeper layers as for any MLP."""
    w = [m.scorers.w for m in models]
    first = (np.concatenate([_widen_first(x["pair.0.W_ante"], c, width) for x, c in zip(w, columns)]),
             np.concatenate([_widen_first(x["pair.0.W_ana"], c, width) for x, c in zip(w, columns)]),
             np.concatenate([x["pair.0.W_pair"] for x in w]),
             np.concatenate([x["pair.0.b"] for x in w]))
    own_blocks = [_own_blocks(m.config.scorer, "pair") for m in models]
    deeper, blocks = _stack_deeper([_layers(m, "pair", len(m.config.scorer.pair_hidden), first=1)
                                    for m in models], own_blocks, shares)
    return [first] + deeper, [[n for o in own_blocks for n in o[0]]] + blocks


def _merge_mention(models: Sequence[CorefModel], columns: List[np.ndarray], width: int,
                   shares: List[float], weights: Dict[str, np.ndarray]) -> Optional[List[int]]:
    """Put the merged mention scorer of the members that have one into
    ``weights``; RETURNS its hidden sizes, None when no member has one. Each
    keeps its share of the mean (not renormalised): members without a mention
    scorer add 0, so the merged pair scores stay the members' mean. The merged
    net declares no blocks: it is scored as one dense net, once per mention."""
    have = [k for k, m in enumerate(models) if m.config.scorer.mention_hidden is not None]
    if not have:
        return None
    layers, _ = _merge_mlp(
        [_layers(models[k], "mention", len(models[k].config.scorer.mention_hidden)) for k in have],
        [_own_blocks(models[k].config.scorer, "mention") for k in have],
        [columns[k] for k in have], width, [shares[k] for k in have])
    _put(weights, "mention", layers)
    return [W.shape[0] for W, _ in layers[:-1]]


def _type_shape(scorer: ScorerConfig) -> Tuple[int, int]:
    """Classes per group and hidden layers of a type head: what merging needs equal."""
    return scorer.type_classes // scorer.type_groups, len(scorer.type_hidden or [])


def _merge_types(models: Sequence[CorefModel], columns: List[np.ndarray], width: int,
                 shares: List[float], weights: Dict[str, np.ndarray]) -> Dict[str, object]:
    """Put the merged type heads of the members that have one into ``weights``;
    RETURNS the ScorerConfig fields (none when no member has one). Every layer
    is a block diagonal of the members' (the first reads each member's own input
    columns), so each group of classes is one member's distribution; its
    ``types.single`` and ``types.pair`` are scaled by the member's share, and a
    member without a head adds 0, as for mention scorers."""
    have = [k for k, m in enumerate(models) if m.config.scorer.type_classes]
    if not have:
        return {}
    w = [models[k].scorers.w for k in have]
    n_hidden = len(models[have[0]].config.scorer.type_hidden or [])
    names = [str(i) for i in range(n_hidden)] + ["out"]
    for i, name in enumerate(names):
        if i == 0:
            W = np.concatenate([_widen_first(x[f"types.{name}.W"], columns[k], width) for x, k in zip(w, have)])
        else:
            W = _block_diag([x[f"types.{name}.W"] for x in w])
        weights[f"types.{name}.W"] = W.astype(np.float32)
        weights[f"types.{name}.b"] = np.concatenate([x[f"types.{name}.b"] for x in w]).astype(np.float32)
    weights["types.pair"] = _block_diag([x["types.pair"] * shares[k] for x, k in zip(w, have)])
    weights["types.single"] = np.concatenate([x["types.single"] * shares[k] for x, k in zip(w, have)],
                                             axis=1).astype(np.float32)
    scorers = [models[k].config.scorer for k in have]
    return {"type_classes": sum(s.type_classes for s in scorers),
            "type_hidden": [sum(s.type_hidden[i] for s in scorers) for i in range(n_hidden)] or None,
            "type_groups": sum(s.type_groups for s in scorers)}


def _put(weights: Dict[str, np.ndarray], prefix: str, layers: Layers, first: int = 0) -> None:
    names = [str(i) for i in range(first, first + len(layers) - 1)] + ["out"]
    for name, (W, b) in zip(names, layers):
        weights[f"{prefix}.{name}.W"], weights[f"{prefix}.{name}.b"] = W.astype(np.float32), b.astype(np.float32)


def _member_name(path: Union[str, Path]) -> str:
    path = Path(path).resolve()  # a training run's model is RUN/model: name it by RUN
    return path.parent.name if path.name == "model" else path.name


def _card(paths: Sequence[Union[str, Path]], models: Sequence[CorefModel], greedyness: float,
          top_antecedents: int) -> str:
    """The ensemble's model card: its members, then each member's own card."""
    pruning = (f"; all members score each mention's {top_antecedents} best candidates by the "
               "first member's scores" if top_antecedents else "")
    lines = [f"# neuralcoref ensemble ({models[0].config.lang})", "",
             f"The mean of {sum(m.config.scorer.n_members for m in models)} models' scores, merged "
             f"into one network by `neuralcoref ensemble` (greedyness {greedyness} folded in{pruning}). "
             "Members:", ""]
    names = [_member_name(p) for p in paths]
    for name, m in zip(names, models):
        s = m.config.scorer
        lines.append(f"- `{name}`: single {s.single_hidden}, pair {s.pair_hidden}, "
                     f"embeddings {s.embedding_dim}, token vectors {s.vector_dim}")
    for i, (name, m) in enumerate(zip(names, models), 1):
        card = (Path(m.path) / CARD_FILE).read_text(encoding="utf8") if m.path else ""
        lines += ["", f"## Member {i}: `{name}`", ""]
        lines += [("#" + line if line.startswith("#") else line)
                  for line in card.splitlines() if not line.startswith("# ")]
    return "\n".join(lines) + "\n"
