"""The training run: featurize, build the model, run the phases, export.

Each phase trains until the dev CoNLL F1 (the project's scorer over the runtime's
decoding) has not improved for ``patience`` evaluations, then the next phase
starts from the best model so far. A checkpoint after every epoch makes runs
resumable (``--resume``).
"""
from __future__ import annotations

import copy
import functools
import json
import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Union

import numpy as np
import torch
from tqdm import tqdm

from neuralcoref.embeddings import WordVocab, build_vocab
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang import get_pipeline_rules
from neuralcoref.lang.base import LanguageRules
from neuralcoref.scoring import FIRST_WORD_ROW, ScorerConfig
from neuralcoref.tuning import tune_model

from .batching import make_batches
from .config import SINGLETON_SHARE, PhaseConfig, TrainConfig, load_config
from .dataset import TrainingData
from .evaluation import batch_outputs, evaluate, set_soft_clusters, to_tensors, tune_offset
from .export import export_model
from .featurize import document_prior, featurize_corpus, load_pipeline, pipeline_id
from .losses import LOSSES
from .model import CorefScorers

logger = logging.getLogger("neuralcoref.train")
CHECKPOINT, LOG_FILE, PLOT_FILE = "checkpoint.pt", "training_log.jsonl", "training_curves.png"


@dataclass
class RunState:
    """What a checkpoint restores: position in the phases and the best model."""

    phase: int = 0
    epoch: int = 0
    phase_best: float = -1.0
    bad_evals: int = 0
    best_f1: float = -1.0
    best_state: Optional[Dict[str, torch.Tensor]] = None
    log: List[dict] = field(default_factory=list)


def resolve_device(device: str) -> torch.device:
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise NeuralcorefError(Errors.E208)
    return torch.device(device)


def train(train_path: Union[str, Path], dev_path: Union[str, Path], spacy_model: str,
          out_dir: Union[str, Path], device: str = "cpu",
          config: Union[TrainConfig, str, Path, None] = None, resume: bool = False,
          cache_dir: Union[str, Path, None] = None, progress: bool = True) -> Path:
    """Train a model and export it to ``out_dir/model``.

    train_path, dev_path (str | Path): CoNLL files or folders.
    spacy_model (str): the spaCy pipeline to parse with (name or path).
    out_dir (str | Path): where the log, curves, checkpoint and model go.
    device (str): "cpu" (default) or "cuda".
    config (TrainConfig | str | Path | None): settings, or a JSON file of them.
    resume (bool): continue from ``out_dir/checkpoint.pt``.
    cache_dir (str | Path | None): featurized data cache (default out_dir/cache).
    progress (bool): show progress bars.
    RETURNS (Path): the exported model folder.
    """
    started = time.time()
    cfg = copy.deepcopy(config) if isinstance(config, TrainConfig) else load_config(config)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dev = resolve_device(device)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)

    nlp = load_pipeline(spacy_model)
    rules = get_pipeline_rules(nlp)
    cache = Path(cache_dir) if cache_dir else out / "cache"
    t0 = time.time()
    chunks = cfg.document_chunks  # training data only: dev is featurized as at inference
    train_corpus = featurize_corpus(train_path, nlp, rules, cache, progress=progress,
                                    document_chunks=chunks)
    prior = document_prior(train_corpus.manifest, cfg.document_prior_tokens if cfg.use_vectors else 0)
    dev_corpus = featurize_corpus(dev_path, nlp, rules, cache, progress=progress, document_prior=prior)
    extra_corpora = [featurize_corpus(path, nlp, rules, cache, progress=progress,
                                      document_chunks=chunks)
                     for path in cfg.extra_train]
    featurize_seconds = time.time() - t0

    if cfg.drop_singletons is None:
        cfg.drop_singletons = annotates_singletons(train_corpus)
        logger.info("Training data %s singletons: dev scores %s them",
                    "annotates" if cfg.drop_singletons else "does not annotate",
                    "without" if cfg.drop_singletons else "with")
    vocab = build_vocab(_merged_counts([train_corpus] + extra_corpora), cfg.vocab_min_count,
                        cfg.vocab_max_size) \
        if cfg.embedding_dim else WordVocab([])
    vector_dim = train_corpus.manifest["vector_dim"] if cfg.use_vectors else 0
    scorer_cfg = ScorerConfig(vector_dim=vector_dim, vocab_size=len(vocab),
                              embedding_dim=cfg.embedding_dim,
                              single_hidden=list(cfg.single_hidden), pair_hidden=list(cfg.pair_hidden),
                              similarity_rank=cfg.similarity_rank,
                              mention_hidden=None if cfg.mention_hidden is None else list(cfg.mention_hidden),
                              refine=cfg.refine)
    train_data = _training_data(train_corpus, vocab, cfg, vector_dim, rules)
    extra_data = [_training_data(c, vocab, cfg, vector_dim, rules, gold_anaphors_only=True)
                  for c in extra_corpora]
    dev_data = _training_data(dev_corpus, vocab, cfg, vector_dim, rules)
    logger.info("Train: %s; extra: %s; dev: %s", train_data.stats(),
                [d.stats() for d in extra_data], dev_data.stats())

    model = CorefScorers(scorer_cfg, dropout=cfg.dropout, word_dropout=cfg.word_dropout,
                         vector_dropout=cfg.vector_dropout)
    if cfg.init_vectors and cfg.embedding_dim:
        _init_embeddings(model, vocab, cfg.init_vectors)
    model = model.to(dev)
    state = RunState()
    if resume:
        state = _load_checkpoint(out / CHECKPOINT, model, dev)
    else:
        (out / LOG_FILE).unlink(missing_ok=True)
    t0 = time.time()
    _run_phases(model, cfg, state, [train_data] + extra_data, dev_data, dev, rng, out, progress)
    train_seconds = time.time() - t0

    model.load_state_dict(state.best_state)
    offset, tuned_f1 = (tune_offset(model, dev_data, dev, cfg.pair_budget) if cfg.tune_greedyness
                        else (0.0, state.best_f1))
    final = evaluate(model, dev_data, dev, cfg.pair_budget, offset)
    logger.info("Dev CoNLL F1 %.2f (link offset %+.2f)", 100 * final.conll_f1, offset)
    _plot(state.log, out / PLOT_FILE)
    summary = {
        "train": {"path": str(train_path), **train_corpus.manifest, **train_data.stats()},
        "dev": {"path": str(dev_path), **dev_corpus.manifest, **dev_data.stats()},
        "extra_train": [{**c.manifest, **d.stats()} for c, d in zip(extra_corpora, extra_data)],
        "spacy_pipeline": pipeline_id(nlp), "device": str(dev), "link_offset": offset,
        "seconds": {"featurize": round(featurize_seconds, 1), "train": round(train_seconds, 1),
                    "total": round(time.time() - started, 1)},
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "log": state.log,
    }
    path = export_model(out / "model", model, cfg, vocab, nlp.lang, rules, pipeline_id(nlp),
                        final, offset, summary, document_prior=prior)
    if cfg.tune_link_offsets:  # in place: the export is this run's own
        result = tune_model(nlp, path, dev_path, keep_singletons=not cfg.drop_singletons,
                            progress=progress)
        logger.info("Link offsets %s: dev CoNLL F1 %.2f -> %.2f", result.offsets or "none",
                    100 * result.before.conll_f1, 100 * result.after.conll_f1)
    return path


def _peak_rss_mb() -> float:
    """The process's peak resident set size so far (0 where unknown)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _init_embeddings(model: CorefScorers, vocab: WordVocab, source: str) -> None:
    """Copy static vectors into the embedding rows of the words that have one,
    scaled to the random initialisation's average norm."""
    from .static_vectors import static_vectors

    vectors = static_vectors(vocab.words, source, dim=model.config.embedding_dim)
    table = model.p("embeddings")
    with torch.no_grad():
        scale = table.norm(dim=1).mean().item()
        for row, word in enumerate(vocab.words, start=FIRST_WORD_ROW):
            if word in vectors:
                table[row] = torch.from_numpy(vectors[word] * scale)
    logger.info("Embeddings of %d of %d words initialised from static vectors (%s)",
                len(vectors), len(vocab.words), source)


def annotates_singletons(corpus) -> bool:
    """Whether more than SINGLETON_SHARE of the corpus's gold clusters are singletons."""
    sizes = [len(c) for doc in corpus.docs for c in doc["clusters"]]
    return bool(sizes) and sum(s == 1 for s in sizes) > SINGLETON_SHARE * len(sizes)


def _merged_counts(corpora) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for corpus in corpora:
        for word, count in corpus.word_counts.items():
            counts[word] = counts.get(word, 0) + count
    return counts


def _training_data(corpus, vocab, cfg: TrainConfig, vector_dim: int, rules: LanguageRules,
                   gold_anaphors_only: bool = False) -> TrainingData:
    data = TrainingData(corpus, vocab, cfg.max_dist, cfg.max_dist_match,
                        keep_singletons=not cfg.drop_singletons,
                        gold_anaphors_only=gold_anaphors_only,
                        decoding_agreement=rules.decoding_agreement,
                        max_dist_nominal=cfg.max_dist_nominal)
    if vector_dim == 0:
        data.vectors = np.zeros((len(data), 0), dtype=np.float32)
    return data


def _run_phases(model: CorefScorers, cfg: TrainConfig, state: RunState,
                train_data: List[TrainingData], dev_data: TrainingData, device: torch.device,
                rng: np.random.Generator, out: Path, progress: bool) -> None:
    for p in range(state.phase, len(cfg.phases)):
        phase = cfg.phases[p]
        optimizer = torch.optim.Adam(model.parameters(), lr=phase.lr * phase.lr_decay ** state.epoch,
                                     weight_decay=cfg.weight_decay)
        schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=phase.lr_decay)
        average = WeightAverage(model, cfg.ema_decay)
        for epoch in range(state.epoch, phase.max_epochs):
            t0 = time.time()
            loss = _train_epoch(model, optimizer, phase, train_data, cfg, device, rng, progress,
                                f"{phase.loss} {epoch + 1}/{phase.max_epochs}", average)
            schedule.step()
            with average.applied(model):
                scores = evaluate(model, dev_data, device, cfg.pair_budget)
                evaluated_state = copy.deepcopy(model.state_dict())
            f1 = scores.conll_f1
            entry = {"phase": phase.loss, "epoch": epoch + 1, "loss": loss,
                     "dev_muc": scores.muc.f1 * 100, "dev_bcub": scores.bcub.f1 * 100,
                     "dev_ceafe": scores.ceafe.f1 * 100, "dev_conll_f1": f1 * 100,
                     "dev_mention_recall": scores.mentions.recall * 100,
                     "seconds": round(time.time() - t0, 1)}
            state.log.append(entry)
            with (out / LOG_FILE).open("a", encoding="utf8") as log_file:
                log_file.write(json.dumps(entry) + "\n")
            logger.info("%s", entry)
            if f1 > state.best_f1:
                state.best_f1 = f1
                state.best_state = evaluated_state
            if f1 > state.phase_best:
                state.phase_best, state.bad_evals = f1, 0
            else:
                state.bad_evals += 1
            state.phase, state.epoch = p, epoch + 1
            stop = state.bad_evals >= phase.patience
            if stop or epoch + 1 == phase.max_epochs:
                state.phase, state.epoch, state.phase_best, state.bad_evals = p + 1, 0, -1.0, 0
            _save_checkpoint(out / CHECKPOINT, model, state)
            if stop:
                break
        state.epoch = 0
        if state.best_state is not None:
            model.load_state_dict(state.best_state)


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


def _train_epoch(model: CorefScorers, optimizer: torch.optim.Optimizer, phase: PhaseConfig,
                 datasets: List[TrainingData], cfg: TrainConfig, device: torch.device,
                 rng: np.random.Generator, progress: bool, desc: str,
                 average: WeightAverage) -> float:
    for data in datasets if model.config.refine else ():
        set_soft_clusters(model, data, device, cfg.pair_budget)
    model.train()
    loss_fn = LOSSES[phase.loss]
    if phase.costs is not None:
        loss_fn = functools.partial(loss_fn, costs=phase.costs)
    total, count = 0.0, 0
    batches = [(data, anaphors) for data in datasets
               for anaphors in make_batches(data.n_candidates, cfg.pair_budget, data.doc_ids, rng,
                                            data.train_anaphors)]
    order = rng.permutation(len(batches))
    for i in tqdm(order, desc=desc, unit="batch", disable=not progress, leave=False):
        data, anaphors = batches[i]
        t = to_tensors(data.batch(anaphors), device)
        scores, mention_scores = batch_outputs(model, t)
        mask = torch.cat([torch.ones_like(t["single_gold"])[:, None], t["mask"]], dim=1)
        gold = torch.cat([t["single_gold"][:, None], t["pair_gold"]], dim=1)
        loss = loss_fn(scores, mask, gold)
        if cfg.mention_hidden is not None and cfg.mention_loss_weight:
            # Auxiliary mention detection: is each candidate a gold mention at all?
            loss = loss + cfg.mention_loss_weight * torch.nn.functional.binary_cross_entropy_with_logits(
                mention_scores, t["mention_gold"].float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        average.update(model)
        total += loss.item() * len(anaphors)
        count += len(anaphors)
    return total / max(count, 1)


def _save_checkpoint(path: Path, model: CorefScorers, state: RunState) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "state": vars(state)}, tmp)
    tmp.replace(path)


def _load_checkpoint(path: Path, model: CorefScorers, device: torch.device) -> RunState:
    if not path.is_file():
        raise NeuralcorefError(Errors.E209.format(path=path))
    data = torch.load(path, map_location=device, weights_only=False)
    model.load_state_dict(data["model"])
    return RunState(**data["state"])


def _plot(log: List[dict], path: Path) -> None:
    """Loss and dev F1 per epoch, as a PNG (skipped without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        logger.warning("matplotlib not installed: no training curves plotted")
        return
    if not log:
        return
    x = np.arange(1, len(log) + 1)
    fig, (ax_loss, ax_f1) = plt.subplots(1, 2, figsize=(10, 4))
    for phase in dict.fromkeys(e["phase"] for e in log):
        idx = [i for i, e in enumerate(log) if e["phase"] == phase]
        ax_loss.plot(x[idx], [log[i]["loss"] for i in idx], marker="o", label=phase)
    for key, label in (("dev_muc", "MUC"), ("dev_bcub", "B-cubed"), ("dev_ceafe", "CEAF-e"),
                       ("dev_conll_f1", "CoNLL F1")):
        ax_f1.plot(x, [e[key] for e in log], marker="o", label=label)
    ax_loss.set(title="training loss", xlabel="epoch")
    ax_f1.set(title="dev F1", xlabel="epoch")
    ax_loss.legend()
    ax_f1.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
