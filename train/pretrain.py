"""Pretraining the word and mention representations on unlabeled text.

``neuralcoref pretrain`` trains the scorers of a recipe on the self-supervised
tasks of :mod:`train.pretrain_data` (masked repeated names, name-to-pronoun
substitution) with the ranking loss over each task anaphor's candidate
antecedents, and saves what a coreference run can start from: the word embedding
table (with its vocabulary) and the first layer of the pair scorer, the layers
that read the words and the mention features. ``neuralcoref train --pretrained
DIR`` copies them into its model before training (:func:`train.pretrained.load_pretrained`).

The run is stop-safe and resumable like ``train``: a checkpoint (train/checkpoint.py)
every ``eval_every`` steps; SIGINT/SIGTERM save one after the current batch and
write the output; ``--resume`` continues from it.
"""
from __future__ import annotations

import copy
import json
import logging
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Union

import numpy as np
import torch
from tqdm import tqdm

from neuralcoref.artifacts.model_dir import pipeline_id
from neuralcoref.core.features.contract import SCHEMA_HASH
from neuralcoref.core.scoring.embeddings import WordVocab, build_vocab
from neuralcoref.core.scoring.scoring import ScorerConfig
from neuralcoref.errors import Errors, NeuralcorefError, Warnings
from neuralcoref.lang import get_pipeline_rules

from .batching import make_batches
from .checkpoint import CHECKPOINT_JSON, RunState, load_checkpoint, remove_checkpoint, save_checkpoint
from .config import TrainConfig, load_config
from .dataset import TrainingData
from .evaluation import batch_outputs, to_tensors
from .featurize import load_pipeline
from .interrupt import GracefulStop, TrainingInterrupted
from .losses import ranking
from .model import CorefScorers
from .pretrain_data import TASKS, featurize_text, text_files
from .pretrained import PRETRAINED_JSON, PRETRAINED_WEIGHTS, TRANSFERRED
from .storage import FeaturizedCorpus
from .trainer import resolve_device, scorer_config

logger = logging.getLogger("neuralcoref.train")

#: Every how many texts one goes to the held-out set that measures the tasks.
HELD_OUT_EVERY = 20
#: The settings a resumed pretraining run must share with its checkpoint.
_RUN_KEYS = ("text", "spacy_model", "config", "names", "max_docs", "lr")


@dataclass
class PretrainResult:
    """What a pretraining run wrote: ``out`` holds PRETRAINED_JSON and PRETRAINED_WEIGHTS."""

    out: Path
    record: Dict


class TaskData(TrainingData):
    """A featurized text with its task anaphors: only they are trained or measured.

    corpus (FeaturizedCorpus): from :func:`train.pretrain_data.featurize_text`.
    held_out (bool): the held-out texts' task anaphors (every HELD_OUT_EVERY-th
        text), else the others'.
    """

    def __init__(self, corpus: FeaturizedCorpus, vocab: WordVocab, cfg: TrainConfig, held_out: bool):
        super().__init__(corpus, vocab, cfg.max_dist, cfg.max_dist_match,
                         max_dist_nominal=cfg.max_dist_nominal, partial=True)
        rows, kinds = [], []
        for d, doc in enumerate(corpus.docs):
            if (d % HELD_OUT_EVERY == HELD_OUT_EVERY - 1) == held_out:
                rows += [int(corpus.doc_offsets[d]) + t for t in doc["tasks"]]
                kinds += doc["kinds"]
        rows, kinds = np.array(rows, dtype=np.int64), np.array(kinds, dtype=np.int64)
        keep = self.anaphoric[rows] if len(rows) else np.zeros(0, bool)  # a named antecedent in the window
        order = np.argsort(rows[keep], kind="stable")
        self.tasks, self.kinds = rows[keep][order], kinds[keep][order]

    @property
    def train_anaphors(self) -> np.ndarray:
        return self.tasks


def pretrain(text: Union[str, Path], spacy_model: str, out_dir: Union[str, Path],
             config: Union[TrainConfig, str, Path, None] = None, max_steps: int = 2000,
             device: str = "cpu", lr: float = 1e-3, eval_every: int = 200,
             names: Optional[Union[str, Path]] = None, max_docs: Optional[int] = None,
             resume: bool = False, overwrite: bool = False, progress: bool = True) -> PretrainResult:
    """Pretrain a recipe's embeddings and first pair layer on unlabeled text.

    text (str | Path): a ``.txt`` file, a folder of them, or JSONL(.gz) with ``text``.
    spacy_model (str): the spaCy pipeline to parse with (the one ``train`` will use).
    out_dir (str | Path): where the checkpoint, the cache and the output go.
    config (TrainConfig | str | Path | None): the recipe ``train`` will use (its
        layer sizes, embeddings, candidate window, dropout and pair budget).
    max_steps (int): batches to train in all (a resumed run counts its earlier ones).
    device (str): "cpu" or "cuda".
    lr (float): Adam's learning rate.
    eval_every (int): steps between held-out measurements and checkpoints.
    names (str | Path | None): folder of ``female.txt``/``male.txt`` first names
        (None: the language's lexicon).
    max_docs (int | None): use at most this many pieces of text.
    resume, overwrite (bool): continue the run in ``out_dir``, or start over there.
    RETURNS (PretrainResult): the output folder and its record.
    RAISES (TrainingInterrupted): on SIGINT/SIGTERM, after writing the output so far.
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise NeuralcorefError(Errors.E472.format(value=max_steps))
    cfg = copy.deepcopy(config) if isinstance(config, TrainConfig) else load_config(config)
    # Only the layers that carry over are pretrained: no type head, no second pass.
    cfg.type_names, cfg.type_data, cfg.refine = [], [], False
    out = Path(out_dir)
    _check_folder(out, resume, overwrite)
    text_files(Path(text))  # E465 before the pipeline loads
    run_args = {"text": str(Path(text).resolve()), "spacy_model": spacy_model, "config": cfg.to_dict(),
                "names": str(Path(names).resolve()) if names else None, "max_docs": max_docs, "lr": lr}
    dev = resolve_device(device)
    torch.manual_seed(cfg.seed)
    nlp = load_pipeline(spacy_model)
    rules = get_pipeline_rules(nlp)
    out.mkdir(parents=True, exist_ok=True)
    corpus = featurize_text(text, nlp, rules, out / "cache", use_vectors=cfg.use_vectors, names_dir=names,
                            seed=cfg.seed, max_docs=max_docs, progress=progress)
    state, checkpoint = RunState(), None
    if resume:
        checkpoint = load_checkpoint(out, dev)
        differ = [k for k in _RUN_KEYS if checkpoint.meta.get("run", {}).get(k) != run_args[k]]
        if differ:
            raise NeuralcorefError(Errors.E471.format(path=out, keys=", ".join(differ)))
        state = checkpoint.state
        vocab = WordVocab(checkpoint.meta["vocab"])
    else:
        remove_checkpoint(out)
        vocab = build_vocab(corpus.word_counts, cfg.vocab_min_count, cfg.vocab_max_size) \
            if cfg.embedding_dim else WordVocab([])
    vector_dim = corpus.manifest["vector_dim"] if cfg.use_vectors else 0
    train_data, held_out = (_task_data(corpus, vocab, cfg, vector_dim, h) for h in (False, True))
    n_tasks = len(train_data.tasks) + len(held_out.tasks)
    if n_tasks < 200:
        warnings.warn(Warnings.W412.format(n=n_tasks, tasks=corpus.manifest["tasks"]))
    scorers = scorer_config(cfg, len(vocab), vector_dim)
    model = CorefScorers(scorers, dropout=cfg.dropout, word_dropout=cfg.word_dropout,
                         vector_dropout=cfg.vector_dropout).to(dev)
    optimizer = pretrain_optimizer(model, lr, cfg.weight_decay)
    rng = np.random.default_rng(cfg.seed)
    if checkpoint is not None:
        model.load_state_dict(checkpoint.model)
        optimizer.load_state_dict(checkpoint.tensors["optimizer"])
        rng.bit_generator.state = checkpoint.meta["numpy_rng"]
        torch.set_rng_state(checkpoint.tensors["torch_rng"].cpu())
    meta = {"run": run_args, "vocab": vocab.words, "spacy_pipeline": pipeline_id(nlp), "lang": rules.lang,
            "data": {k: corpus.manifest[k] for k in ("n_docs", "n_tokens", "tasks")},
            "train_tasks": len(train_data.tasks), "held_out_tasks": len(held_out.tasks)}
    logger.info("Pretraining on %d task anaphors (%d held out), from step %d to %d",
                len(train_data.tasks), len(held_out.tasks), state.epoch, max_steps)
    t0 = time.time()
    with GracefulStop() as stop:
        _train_steps(model, optimizer, train_data, held_out, cfg, state, meta, out, dev, rng,
                     max_steps, eval_every, stop, progress)
        result = write_output(out, model, scorers, cfg, vocab, meta, state, time.time() - t0,
                              stopped=stop.requested is not None)
        if stop.requested is not None:
            raise TrainingInterrupted(stop.requested, out)
    return result


def pretrain_optimizer(model: CorefScorers, lr: float, weight_decay: float) -> torch.optim.Adam:
    """Adam, with the recipe's L2 penalty on every layer but the embedding table.

    Adam's L2 penalty is part of the gradient, which Adam normalises: a word absent
    from a batch (most words of a large text, in most batches) has the penalty as
    its whole gradient and moves towards zero by about ``lr`` a step: after a few
    hundred steps the table held little but the last batches' words. Without it,
    each row keeps what the batches that held its word taught.
    """
    embeddings = [p for name, p in model.params.items() if name == "embeddings"]
    others = [p for name, p in model.params.items() if name != "embeddings"]
    groups = [{"params": others, "weight_decay": weight_decay}]
    if embeddings:
        groups.append({"params": embeddings, "weight_decay": 0.0})
    return torch.optim.Adam(groups, lr=lr)


def _check_folder(out: Path, resume: bool, overwrite: bool) -> None:
    if resume and overwrite:
        raise NeuralcorefError(Errors.E227.format(path=out))
    found = sorted(p.name for p in out.iterdir() if p.name in (CHECKPOINT_JSON, PRETRAINED_JSON)) \
        if out.is_dir() else []
    if found and not (resume or overwrite):
        raise NeuralcorefError(Errors.E470.format(path=out, found=", ".join(found)))
    if resume and CHECKPOINT_JSON not in found:
        raise NeuralcorefError(Errors.E209.format(path=out))


def _task_data(corpus, vocab, cfg, vector_dim: int, held_out: bool) -> TaskData:
    data = TaskData(corpus, vocab, cfg, held_out)
    if vector_dim == 0:
        data.vectors = np.zeros((len(data), 0), dtype=np.float32)
    return data


def _train_steps(model: CorefScorers, optimizer, data: TaskData, held_out: TaskData, cfg: TrainConfig,
                 state: RunState, meta: Dict, out: Path, device: torch.device, rng: np.random.Generator,
                 max_steps: int, eval_every: int, stop: GracefulStop, progress: bool) -> None:
    """Train from ``state.epoch`` (the steps done) to ``max_steps``, measuring and
    checkpointing every ``eval_every`` steps and when stopped."""
    bar = tqdm(total=max_steps, initial=state.epoch, desc="pretrain", unit="step",
               disable=None if progress else True)
    losses: List[float] = []
    while state.epoch < max_steps and stop.requested is None and len(data.tasks):
        for anaphors in make_batches(data.n_candidates, cfg.pair_budget, data.doc_ids, rng, data.tasks):
            if state.epoch >= max_steps or stop.requested is not None:
                break
            losses.append(_step(model, optimizer, data, anaphors, device))
            state.epoch += 1
            bar.update(1)
            if state.epoch % eval_every == 0 or state.epoch == max_steps:
                _measure(model, optimizer, held_out, cfg, state, meta, out, device, rng, losses)
                losses = []
    bar.close()
    if losses or not state.log:
        _measure(model, optimizer, held_out, cfg, state, meta, out, device, rng, losses)


def _step(model: CorefScorers, optimizer, data: TaskData, anaphors: np.ndarray, device: torch.device) -> float:
    """One batch: the ranking loss over the known candidates (the no-antecedent
    option is left out: every task anaphor has an antecedent)."""
    model.train()
    t = to_tensors(data.batch(anaphors), device)
    scores = batch_outputs(model, t).options
    mask = torch.cat([torch.zeros_like(t["single_gold"])[:, None], t["mask"] & t["known"]], dim=1)
    gold = torch.cat([torch.zeros_like(t["single_gold"])[:, None], t["pair_gold"]], dim=1)
    loss = ranking(scores, mask, gold)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def task_accuracy(model: CorefScorers, data: TaskData, device: torch.device, pair_budget: int) -> Dict[str, float]:
    """Share of the task anaphors whose best-scoring known candidate is a true
    antecedent, per task (over a shuffled-free, fixed batching)."""
    model.eval()
    right = np.zeros(len(TASKS))
    total = np.zeros(len(TASKS))
    position = {int(r): i for i, r in enumerate(data.tasks)}
    for anaphors in make_batches(data.n_candidates, pair_budget, data.doc_ids, subset=data.tasks):
        t = to_tensors(data.batch(anaphors), device)
        scores = batch_outputs(model, t).options[:, 1:].masked_fill(~(t["mask"] & t["known"]), -1e4)
        best = scores.argmax(1)
        hit = t["pair_gold"].gather(1, best[:, None])[:, 0].cpu().numpy()
        kinds = data.kinds[[position[int(a)] for a in anaphors]]
        np.add.at(right, kinds, hit)
        np.add.at(total, kinds, 1)
    return {name: round(float(right[i] / total[i]) * 100, 2) if total[i] else None for i, name in enumerate(TASKS)}


def _measure(model, optimizer, held_out: TaskData, cfg: TrainConfig, state: RunState, meta: Dict, out: Path,
             device: torch.device, rng: np.random.Generator, losses: List[float]) -> None:
    accuracy = task_accuracy(model, held_out, device, cfg.pair_budget)
    entry = {"step": state.epoch, "loss": round(float(np.mean(losses)), 6) if losses else None,
             "held_out_accuracy": accuracy}
    state.log.append(entry)
    logger.info("step %d  loss %s  held-out accuracy %s", state.epoch, entry["loss"], accuracy)
    state.best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    tensors = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "torch_rng": torch.get_rng_state()}
    save_checkpoint(out, state, tensors, {**meta, "numpy_rng": rng.bit_generator.state})


def write_output(out: Path, model: CorefScorers, scorers: ScorerConfig, cfg: TrainConfig, vocab: WordVocab,
                 meta: Dict, state: RunState, seconds: float, stopped: bool) -> PretrainResult:
    """Write PRETRAINED_WEIGHTS (the embeddings and TRANSFERRED layers) and
    PRETRAINED_JSON (what ``train --pretrained`` checks and the model card records)."""
    weights = model.export_weights()
    kept = {name: weights[name] for name in ("embeddings", *TRANSFERRED) if name in weights}
    tmp = out / (PRETRAINED_WEIGHTS + ".tmp.npz")
    np.savez(tmp, **kept)
    tmp.replace(out / PRETRAINED_WEIGHTS)
    record = {"format": 1, "text": meta["run"]["text"], "steps": state.epoch, "stopped": stopped,
              "spacy_pipeline": meta["spacy_pipeline"], "lang": meta["lang"], "schema_hash": SCHEMA_HASH,
              "data": meta["data"], "train_tasks": meta["train_tasks"], "held_out_tasks": meta["held_out_tasks"],
              "held_out_accuracy": state.log[-1]["held_out_accuracy"] if state.log else None,
              "seconds": round(seconds, 1), "shapes": {k: list(v.shape) for k, v in kept.items()},
              "embedding_dim": cfg.embedding_dim, "vector_dim": scorers.vector_dim,
              "log": state.log, "words": vocab.words}
    json_tmp = out / (PRETRAINED_JSON + ".tmp")
    json_tmp.write_text(json.dumps(record), encoding="utf8")
    json_tmp.replace(out / PRETRAINED_JSON)
    logger.info("Pretrained representations written to %s (%d steps)", out, state.epoch)
    return PretrainResult(out, record)
