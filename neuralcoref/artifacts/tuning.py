"""``neuralcoref tune``: per-mention-type link thresholds fitted on dev data.

A model's scores are calibrated for its training loss, not for CoNLL F1, and
anaphors of different types want different thresholds (names and nominals
usually link best a little more eagerly than pronouns). Tuning scores the
dev documents once (:class:`ScoredDev`), then searches one offset per mention
type (coordinate ascent over a grid, re-decoding only with the runtime's
:func:`~neuralcoref.core.decode.decoding.decode`), and records the best offsets in a copy
of the model folder (``config.json``, ``defaults.link_offsets``), where the
component and ``Coref`` find them. Training tunes with the same
:func:`tune_offsets` on its stored dev features (no second parse).
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, List, Mapping, Sequence, Tuple, Union

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc
from tqdm import tqdm

from ..core.decode.decoding import DecodeInputs, DecodeSettings, DocScores, decode
from ..core.mentions.mentions import MENTION_TYPES
from ..core.resolver import Resolver
from ..corpora.conll import read_conll_path
from ..corpora.coref_scorer import CorefScores, remove_singletons, score_documents
from ..corpora.gold import parse_conll_docs
from ..errors import Errors, NeuralcorefError
from .model_dir import CARD_FILE, CONFIG_FILE

#: Offsets tried for each type: score units, nearest 0 first (ties keep the smaller).
DEFAULT_GRID = tuple(sorted((round(0.1 * k, 1) for k in range(-10, 11)), key=abs))

Span = Tuple[int, int]


@dataclass
class TuneResult:
    """What tuning found.

    offsets (Dict[str, float]): the chosen offset per mention type.
    before, after (CorefScores): dev scores with no offsets and with the chosen ones.
    """

    offsets: Dict[str, float]
    before: CorefScores
    after: CorefScores


@dataclass
class ScoredDoc:
    """One dev document, scored once: its gold clusters, scores, decode inputs and
    mention spans (token offsets, end exclusive: (n,) int each)."""

    gold: List[List[Span]]
    scores: DocScores
    inputs: DecodeInputs
    starts: np.ndarray
    ends: np.ndarray


class ScoredDev:
    """Dev documents scored once, decoded again under any settings by
    :func:`~neuralcoref.core.decode.decoding.decode`: the runtime's featurized Docs
    (:func:`scored_docs`) or training's stored dev features alike.

    docs (Sequence[ScoredDoc]): the documents.
    keep_singletons (bool): False scores without one-mention clusters.
    greedyness (float): the greedyness every decoding uses.
    off (FrozenSet[str]): decoding rules switched off (``DecodeSettings.off``), for ablations.
    """

    def __init__(self, docs: Sequence[ScoredDoc], keep_singletons: bool = True, greedyness: float = 0.5,
                 off: FrozenSet[str] = frozenset()):
        self.docs = list(docs)
        self.keep_singletons = keep_singletons
        self.greedyness = greedyness
        self.off = off

    def clusters(self, link_offsets: Mapping[str, float]) -> List[List[List[Span]]]:
        """RETURNS (List[List[List[Tuple[int, int]]]]): each document's predicted
        clusters (token spans) under these per-type link offsets."""
        settings = DecodeSettings(self.greedyness, link_offsets, getattr(self, "off", frozenset()))
        out = []
        for doc in self.docs:
            clusters = decode(doc.scores, doc.inputs, settings)
            out.append([[(int(doc.starts[i]), int(doc.ends[i])) for i in c] for c in clusters])
        return out

    def scores(self, link_offsets: Mapping[str, float]) -> CorefScores:
        """RETURNS (CorefScores): the CoNLL scores under these per-type link offsets."""
        pairs = []
        for doc, response in zip(self.docs, self.clusters(link_offsets)):
            gold = doc.gold
            if not self.keep_singletons:
                gold, response = remove_singletons(gold), remove_singletons(response)
            pairs.append((gold, response))
        return score_documents(pairs)


def uniform_offsets(offset: float) -> Dict[str, float]:
    """RETURNS (Dict[str, float]): ``offset`` for every mention type (one link threshold)."""
    return {t: float(offset) for t in MENTION_TYPES}


def best_uniform_offset(dev: ScoredDev, grid: Sequence[float]) -> Tuple[float, CorefScores, CorefScores]:
    """The one link offset for every mention type that scores best on ``dev``
    (what training folds into the exported single scorer).

    grid (Sequence[float]): offsets tried.
    RETURNS (Tuple[float, CorefScores, CorefScores]): the offset, the scores at
        it, and the raw scores (offset 0). Ties prefer the offset nearest 0.
    """
    raw = dev.scores({})
    results = [(raw if o == 0.0 else dev.scores(uniform_offsets(o)), o) for o in map(float, grid)]
    best, offset = max(results, key=lambda r: (r[0].conll_f1, -abs(r[1])), default=(raw, 0.0))
    return offset, best, raw


def tune_offsets(dev: ScoredDev, grid: Sequence[float] = DEFAULT_GRID, rounds: int = 2,
                 min_gain: float = 0.05, progress: bool = True) -> TuneResult:
    """Per-mention-type link offsets that score best on ``dev``: coordinate ascent
    over ``grid``, re-decoding only (``neuralcoref tune`` and training's last step).

    grid (Sequence[float]): offsets tried per type, in order of preference on ties.
    rounds (int): passes over the types.
    min_gain (float): CoNLL F1 points a change must gain to be taken: smaller
        gains on a few dev documents are mostly noise.
    RETURNS (TuneResult): the offsets and the dev scores before and after.
    """
    offsets = {t: 0.0 for t in MENTION_TYPES}
    before = best = dev.scores(offsets)
    steps = tqdm(total=rounds * len(MENTION_TYPES) * len(grid), desc="tune", disable=not progress)
    for _ in range(rounds):
        for name in MENTION_TYPES:
            for value in grid:
                steps.update()
                trial = dev.scores({**offsets, name: value})
                if 100 * (trial.conll_f1 - best.conll_f1) >= min_gain:
                    best, offsets = trial, {**offsets, name: value}
    steps.close()
    return TuneResult({t: v for t, v in offsets.items() if v}, before, best)


def scored_docs(resolver: Resolver, pairs: Sequence[Tuple[List, Doc]]) -> List[ScoredDoc]:
    """Featurize and score parsed dev Docs once with the runtime.

    pairs (Sequence[Tuple[List, Doc]]): each Doc with its gold clusters.
    RETURNS (List[ScoredDoc]): the documents, ready for :class:`ScoredDev`.
    """
    out = []
    for gold, doc in pairs:
        # score leaves its items as they are: the scored (maybe pruned) copy is decoded
        (single,), (pair,), (mention,), (item,) = resolver.score([resolver.featurize_doc(doc)])
        out.append(ScoredDoc(gold, DocScores(single, pair, item.ptr, item.ante, mention), item.inputs,
                             item.mentions.starts, item.mentions.ends))
    return out


def tune_link_offsets(nlp: Language, dev_path: Union[str, Path], keep_singletons: bool = True,
                      grid: Sequence[float] = DEFAULT_GRID, rounds: int = 2,
                      min_gain: float = 0.05, progress: bool = True) -> TuneResult:
    """Fit per-mention-type link offsets of the pipeline's neuralcoref model on dev data.

    nlp (Language): a pipeline with the neuralcoref component (its greedyness and
        candidate windows are kept as they are).
    dev_path (str | Path): gold CoNLL-2012 file or folder.
    keep_singletons (bool): False scores without one-mention clusters (for data
        that annotates singletons, like LitBank).
    grid, rounds, min_gain: see :func:`tune_offsets`.
    RETURNS (TuneResult): the offsets and the dev scores before and after.
    """
    resolver = nlp.get_pipe("neuralcoref").resolver
    docs = [(c.clusters, doc) for c, doc in tqdm(parse_conll_docs(nlp, read_conll_path(dev_path)),
                                                 desc="parse dev", unit="doc", disable=not progress)]
    if not any(remove_singletons(gold) if not keep_singletons else gold for gold, _ in docs):
        hint = " once singletons are removed" if not keep_singletons else ""
        raise NeuralcorefError(Errors.E113.format(path=dev_path, hint=hint))
    dev = ScoredDev(scored_docs(resolver, docs), keep_singletons, resolver.greedyness)
    return tune_offsets(dev, grid, rounds, min_gain, progress)


def tune_model(nlp: Language, model_path: Union[str, Path], dev_path: Union[str, Path],
               out: Union[str, Path, None] = None, keep_singletons: bool = True,
               progress: bool = True) -> TuneResult:
    """Tune a model folder's link offsets on parsed dev data and record them
    (``neuralcoref tune``; training tunes its stored dev features instead).

    nlp (Language): the spaCy pipeline to parse with, without neuralcoref (the
        model runs in it for the tuning and is removed after).
    model_path (str | Path): the model folder.
    out (str | Path | None): a new (or empty) folder for a tuned copy; None
        records the offsets in ``model_path`` itself (training's fresh export).
    RETURNS (TuneResult): what :func:`tune_link_offsets` found.
    RAISES NeuralcorefError: E112 when ``out`` exists and is not empty, checked
        before any work.
    """
    if out is not None and Path(out).exists() and (not Path(out).is_dir() or any(Path(out).iterdir())):
        raise NeuralcorefError(Errors.E112.format(path=out))
    nlp.add_pipe("neuralcoref", config={"model": str(model_path), "link_offsets": {}})
    try:
        result = tune_link_offsets(nlp, dev_path, keep_singletons=keep_singletons, progress=progress)
    finally:
        nlp.remove_pipe("neuralcoref")
    target = Path(model_path) if out is None else _copy_model(model_path, out)
    record_offsets(target, result, dev_path, keep_singletons)
    return result


def _copy_model(model_path: Union[str, Path], out: Union[str, Path]) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in (p.name for p in Path(model_path).iterdir() if p.is_file()):
        shutil.copy2(Path(model_path) / name, out / name)
    return out


def record_offsets(model_dir: Union[str, Path], result: TuneResult, dev_path: Union[str, Path],
                   keep_singletons: bool) -> None:
    """Write the tuned offsets into the model folder's config and card."""
    model_dir = Path(model_dir)
    config = json.loads((model_dir / CONFIG_FILE).read_text(encoding="utf8"))  # kept as written
    config.setdefault("defaults", {})["link_offsets"] = result.offsets
    (model_dir / CONFIG_FILE).write_text(json.dumps(config, indent=2), encoding="utf8")
    card_file = model_dir / CARD_FILE
    card = card_file.read_text(encoding="utf8") if card_file.exists() else ""
    card_file.write_text(card.rstrip("\n") + "\n\n" + tuning_card(result, dev_path, keep_singletons),
                         encoding="utf8")


def tuning_card(result: TuneResult, dev_path: Union[str, Path], keep_singletons: bool) -> str:
    """The model card section that records a tuning run."""
    offsets = ", ".join(f"{t} {v:+.1f}" for t, v in result.offsets.items()) or "none"
    scope = "" if keep_singletons else " (singletons removed)"
    return (f"## Link offsets (`neuralcoref tune`)\n\nTuned on `{Path(dev_path).name}`{scope}: {offsets}. "
            f"Dev CoNLL F1 {100 * result.before.conll_f1:.2f} without offsets, "
            f"{100 * result.after.conll_f1:.2f} with them.\n")


def format_result(result: TuneResult) -> str:
    """RETURNS (str): the offsets and the dev CoNLL F1 before and after, for the CLI."""
    lines = [f"{t:<11}{result.offsets.get(t, 0.0):+.1f}" for t in MENTION_TYPES]
    lines.append(f"dev CoNLL F1: {100 * result.before.conll_f1:.2f} -> {100 * result.after.conll_f1:.2f}")
    return "\n".join(lines)

