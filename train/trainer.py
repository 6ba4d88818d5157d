"""The training run: featurize, build the model, run the phases, export.

Each phase trains until the dev CoNLL F1 (the project's scorer over the runtime's
decoding, at the link threshold the export folds in) has not improved for
``patience`` evaluations, then the next phase starts from the best model so far.
A checkpoint after every epoch (train/checkpoint.py: no pickle) makes runs
resumable (``--resume``) and exportable (``neuralcoref export``); SIGINT/SIGTERM
stop after the current batch and export the best model so far.
"""
from __future__ import annotations

import copy
import json
import logging
import shutil
import signal
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import torch
from spacy.language import Language

from neuralcoref.artifacts.model_dir import pipeline_vectors_fingerprint
from neuralcoref.artifacts.tuning import record_offsets
from neuralcoref.core.scoring.embeddings import WordVocab, build_vocab
from neuralcoref.core.scoring.scoring import FIRST_WORD_ROW, ScorerConfig
from neuralcoref.corpora.conll import conll_files
from neuralcoref.corpora.coref_scorer import CorefScores
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang import get_pipeline_rules
from neuralcoref.lang.base import LanguageRules

from .checkpoint import CHECKPOINT_JSON, RunState, load_checkpoint, remove_checkpoint, save_checkpoint
from .config import SINGLETON_SHARE, TrainConfig, load_config
from .data_checks import warn_if_dev_flat, warn_if_too_small
from .dataset import TrainingData
from .distill import attach_teacher, run_teacher
from .epochs import WeightAverage, merged_counts, start_phase, train_epoch, training_data
from .evaluation import dev_scores, tune_dev_offsets
from .augment import alternate, swapped_copies
from .export import export_model
from .featurize import document_prior, featurize_corpus, load_pipeline, pipeline_id
from .interrupt import GracefulStop, TrainingInterrupted
from .model import CorefScorers
from .pretrained import load_pretrained, mark_added_rows, merged_vocab, read_pretrained
from .types import attach_types, type_head
from .schemes import apply_scheme, resolve_schemes, scheme_summary

logger = logging.getLogger("neuralcoref.train")
LOG_FILE, PLOT_FILE = "training_log.jsonl", "training_curves.png"


@dataclass
class Run:
    """A prepared run: settings, pipeline, featurized data, and what the export records.

    train_data (List[TrainingData]): the training data (its ``swapped`` attribute
        holding its gender-swapped copy with ``gender_swap``), then each extra corpus, then
        each partial one (``partial_repeat`` passes per epoch, see :func:`train.epochs.train_epoch`).
    summary (Dict): the data's manifests and statistics, pipeline, device, timings.
    args (Dict): the run's arguments as ``neuralcoref export`` needs them again.
    """

    cfg: TrainConfig
    out: Path
    nlp: Language
    rules: LanguageRules
    device: torch.device
    vocab: WordVocab
    scorer_cfg: ScorerConfig
    prior: Dict
    train_data: List[TrainingData]
    dev_data: TrainingData
    summary: Dict
    args: Dict
    started: float
    rng: Optional[np.random.Generator] = None


def resolve_device(device: str) -> torch.device:
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise NeuralcorefError(Errors.E208)
    return torch.device(device)


def train(train_path: Union[str, Path], dev_path: Union[str, Path], spacy_model: str,
          out_dir: Union[str, Path], device: str = "cpu",
          config: Union[TrainConfig, str, Path, None] = None, resume: bool = False,
          cache_dir: Union[str, Path, None] = None, progress: bool = True,
          overwrite: bool = False) -> Path:
    """Train a model and export it to ``out_dir/model``.

    train_path, dev_path (str | Path): CoNLL files or folders.
    spacy_model (str): the spaCy pipeline to parse with (name or path).
    out_dir (str | Path): where the log, curves, checkpoint and model go.
    device (str): "cpu" (default) or "cuda".
    config (TrainConfig | str | Path | None): settings, a recipe name ("fr") or a JSON file.
    resume (bool): continue from the checkpoint in ``out_dir``.
    cache_dir (str | Path | None): featurized data cache (default out_dir/cache).
    progress (bool): show progress bars (on a terminal).
    overwrite (bool): start a new run in a folder that holds one (its checkpoint
        and log are replaced at once, its model when the new run exports).
    RETURNS (Path): the exported model folder.
    RAISES (NeuralcorefError): E226 when ``out_dir`` holds a run and neither
        ``resume`` nor ``overwrite`` is given, E227 when both are.
    RAISES (TrainingInterrupted): on SIGINT/SIGTERM, after exporting the best
        model so far (its ``model_path``), or at once on a second signal.
    """
    cfg = copy.deepcopy(config) if isinstance(config, TrainConfig) else load_config(config)
    out = Path(out_dir)
    check_run_folder(out, resume, overwrite)
    created = [_first_missing(Path(p)) for p in (out, cache_dir) if p is not None]
    try:
        run = prepare_run(train_path, dev_path, spacy_model, out, device, cfg, cache_dir, progress)
        model, state, restored = _start(run, resume)
    except BaseException:
        for folder in filter(None, created):  # a run that fails before training leaves no folder behind
            shutil.rmtree(folder, ignore_errors=True)
        raise
    with GracefulStop() as stop:
        t0 = time.time()
        _run_phases(model, run, state, restored, stop, progress)
        run.summary["seconds"]["train"] = round(time.time() - t0, 1)
        if stop.requested is not None:
            path = _finish_interrupted(run, model, state, stop.requested, progress)
            raise TrainingInterrupted(stop.requested, path)
    return finish_run(run, model, state, None, run.cfg.tune_link_offsets, progress)


def prepare_run(train_path: Union[str, Path], dev_path: Union[str, Path], spacy_model: str,
                out: Path, device: str, cfg: TrainConfig, cache_dir: Union[str, Path, None],
                progress: bool, vocab_words: Optional[List[str]] = None) -> Run:
    """Load the pipeline, featurize (or read from the cache) and build the datasets.

    vocab_words (List[str] | None): the run's recorded vocabulary (export of a
        checkpoint); None builds it from the training data.
    RETURNS (Run): everything the phases and the export need; ``cfg`` is updated
        with the settings decided from the data (``drop_singletons``).
    """
    started = time.time()
    dev = resolve_device(device)
    torch.manual_seed(cfg.seed)
    check_data_paths([train_path, dev_path, *cfg.extra_train, *cfg.partial_train])
    nlp = load_pipeline(spacy_model)
    rules = get_pipeline_rules(nlp)
    cache = Path(cache_dir) if cache_dir else out / "cache"
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    chunks = cfg.document_chunks  # training data only: dev is featurized as at inference
    train_corpus = featurize_corpus(train_path, nlp, rules, cache, progress=progress,
                                    document_chunks=chunks)
    swapped_corpora = [featurize_corpus(_swapped_train(train_path, cache / "swapped", cfg.gender_swap_names),
                                        nlp, rules, cache, progress=progress, document_chunks=chunks)] \
        if cfg.gender_swap else []
    prior = document_prior(train_corpus.manifest, cfg.document_prior_tokens if cfg.use_vectors else 0)
    dev_corpus = featurize_corpus(dev_path, nlp, rules, cache, progress=progress, document_prior=prior)
    extra_corpora = [featurize_corpus(path, nlp, rules, cache, progress=progress,
                                      document_chunks=chunks)
                     for path in cfg.extra_train]
    partial_corpora = [featurize_corpus(path, nlp, rules, cache, progress=progress,
                                        document_chunks=chunks, partial=True)
                       for path in cfg.partial_train]
    featurize_seconds = time.time() - t0
    warn_if_too_small([train_corpus, *extra_corpora, *partial_corpora])

    if cfg.drop_singletons is None:
        cfg.drop_singletons = annotates_singletons(train_corpus)
        logger.info("Training data %s singletons: dev scores %s them",
                    "annotates" if cfg.drop_singletons else "does not annotate",
                    "without" if cfg.drop_singletons else "with")
    if vocab_words is not None:
        vocab = WordVocab(vocab_words)
    elif cfg.embedding_dim:
        vocab = build_vocab(merged_counts([train_corpus] + swapped_corpora + extra_corpora + partial_corpora),
                            cfg.vocab_min_count,
                            cfg.vocab_max_size)
    else:
        vocab = WordVocab([])
    pretrained = _pretrained_summary(cfg.pretrained)
    if cfg.pretrained and cfg.embedding_dim and vocab_words is None:
        pretrained["labelled_words"] = len(vocab.words)
        vocab = merged_vocab(vocab, pretrained.pop("words"))
    pretrained.pop("words", None)
    vector_dim = train_corpus.manifest["vector_dim"] if cfg.use_vectors else 0
    scorer_cfg = scorer_config(cfg, len(vocab), vector_dim)
    train_data = training_data(train_corpus, vocab, cfg, vector_dim)
    extra_data = [training_data(c, vocab, cfg, vector_dim, gold_anaphors_only=True)
                  for c in extra_corpora]
    partial_data = [training_data(c, vocab, cfg, vector_dim, partial=True) for c in partial_corpora]
    schemes = resolve_schemes(cfg.train_schemes, train_path, cfg.extra_train)
    for data, corpus, scheme in zip([train_data] + extra_data, [train_corpus] + extra_corpora, schemes):
        apply_scheme(data, corpus, scheme)
    dev_data = training_data(dev_corpus, vocab, cfg, vector_dim)
    swapped_data = [training_data(c, vocab, cfg, vector_dim) for c in swapped_corpora]
    attach_types(cfg, [train_data] + swapped_data)
    train_data.swapped = swapped_data[0] if swapped_data else None
    attach_teacher(run_teacher(cfg, train_corpus.manifest["vector_dim"]),
                   [train_data] + extra_data + partial_data, cfg)
    logger.info("Train: %s; extra: %s; partial: %s; dev: %s", train_data.stats(),
                [d.stats() for d in extra_data], [d.stats() for d in partial_data], dev_data.stats())
    summary = {
        "train": {"path": str(train_path), **train_corpus.manifest, **train_data.stats()},
        "dev": {"path": str(dev_path), **dev_corpus.manifest, **dev_data.stats()},
        "extra_train": [{**c.manifest, **d.stats()} for c, d in zip(extra_corpora, extra_data)],
        "partial_train": [{**c.manifest, **d.stats()} for c, d in zip(partial_corpora, partial_data)],
        "train_schemes": scheme_summary(schemes, [str(train_path), *cfg.extra_train]),
        "spacy_pipeline": pipeline_id(nlp), "device": str(dev),
        "seconds": {"featurize": round(featurize_seconds, 1), "train": 0.0},
        **({"pretrained": pretrained} if cfg.pretrained else {}),
    }
    args = {"train": _absolute(train_path), "dev": _absolute(dev_path),
            "spacy_model": _absolute(spacy_model) if Path(spacy_model).exists() else spacy_model,
            "cache_dir": _within(out, cache), "device": device}
    return Run(cfg, out, nlp, rules, dev, vocab, scorer_cfg, prior,
               [train_data] + extra_data + partial_data, dev_data, summary, args, started)


def _pretrained_summary(path: Optional[str]) -> Dict:
    """What the model card records of a pretraining output (and its "words"); {} for none."""
    if not path:
        return {}
    record, _ = read_pretrained(path)
    return {"path": str(Path(path).resolve()), "text": record["text"], "steps": record["steps"],
            "data": record.get("data"), "held_out_accuracy": record.get("held_out_accuracy"),
            "words": record["words"]}


def _swapped_train(train_path: Union[str, Path], folder: Path, names_dir) -> Path:
    """The gender-swapped copy of ``--train`` as one file or folder, featurized as
    one corpus: a folder's copies go in their own subfolder (named by the folder's
    path), without copies of files it no longer holds, so that its ``swapped``
    dataset covers every training file, not only the first."""
    if Path(train_path).is_file():
        return swapped_copies([train_path], folder, names_dir)[0]
    folder = folder / f"dir-{zlib.crc32(str(Path(train_path).resolve()).encode('utf8')):08x}"
    copies = swapped_copies([train_path], folder, names_dir)
    for stale in set(folder.glob("*.swapped.conll")) - set(copies):
        stale.unlink()
    return folder


def run_files(folder: Path) -> List[str]:
    """The names in ``folder`` that belong to a training run (its checkpoint, log
    or exported model, whose training_summary.json records the run), sorted."""
    if not folder.is_dir():
        return []
    names = {CHECKPOINT_JSON, LOG_FILE, "model"}
    return sorted(p.name for p in folder.iterdir()
                  if p.name in names or (p.name.startswith("checkpoint-") and p.suffix == ".pt"))


def check_run_folder(out: Path, resume: bool, overwrite: bool) -> None:
    """Refuse, before any work, to start over in a folder that holds a run unless
    asked to: a fresh run deletes the checkpoint at once, and an interrupted one
    would export its model over the finished run's.

    RAISES (NeuralcorefError): E227 for both ``resume`` and ``overwrite``, E226
        for neither when ``out`` holds a run.
    """
    if resume and overwrite:
        raise NeuralcorefError(Errors.E227.format(path=out))
    found = run_files(out)
    if found and not (resume or overwrite):
        raise NeuralcorefError(Errors.E226.format(path=out, found=", ".join(found)))


def check_data_paths(paths: List[Union[str, Path]]) -> None:
    """Fail before any featurizing when a data path is missing, holds no CoNLL file,
    or is a GAP TSV file (convert it with ``neuralcoref gap-to-conll`` first)."""
    for path in paths:
        for file in conll_files(path):
            with Path(file).open("rb") as handle:
                if handle.readline().startswith(b"ID\tText\tPronoun"):
                    raise NeuralcorefError(Errors.E224.format(path=file))


def _first_missing(path: Path) -> Optional[Path]:
    """The outermost folder of ``path`` that does not exist yet (None: it exists):
    what creating ``path`` creates."""
    path = path.absolute()
    if path.exists():
        return None
    while not path.parent.exists():
        path = path.parent
    return path


def _absolute(path: Union[str, Path]) -> str:
    return str(Path(path).resolve())


def _within(folder: Path, path: Path) -> str:
    """``path`` relative to ``folder`` when inside it (a run folder moved or copied
    keeps its cache), else absolute."""
    try:
        return str(Path(path).resolve().relative_to(folder.resolve()))
    except ValueError:
        return _absolute(path)


def _start(run: Run, resume: bool) -> Tuple[CorefScorers, RunState, Optional[Dict]]:
    """The model and run state to train from: fresh, or restored from the checkpoint
    (with the optimizer, weight average and RNG states it recorded)."""
    cfg = run.cfg
    model = CorefScorers(run.scorer_cfg, dropout=cfg.dropout, word_dropout=cfg.word_dropout,
                         vector_dropout=cfg.vector_dropout)
    if cfg.init_vectors and cfg.embedding_dim and not resume:  # a resumed run loads its own
        _init_embeddings(model, run.vocab, cfg.init_vectors)
    if cfg.pretrained and not resume:
        load_pretrained(model, run.vocab, cfg.pretrained, pipeline_id(run.nlp),
                        added_from=run.summary.get("pretrained", {}).get("labelled_words"))
    model = model.to(run.device)
    run.rng = np.random.default_rng(cfg.seed)
    if not resume:
        (run.out / LOG_FILE).unlink(missing_ok=True)
        remove_checkpoint(run.out)
        return model, RunState(), None
    checkpoint = load_checkpoint(run.out, run.device)
    recorded = checkpoint.meta.get("config", {})
    differ = sorted(k for k, v in cfg.to_dict().items() if k in recorded and recorded[k] != v)
    if differ:  # other shapes would fail deep in torch; other settings would mix two recipes
        raise NeuralcorefError(Errors.E221.format(path=run.out / CHECKPOINT_JSON, keys=", ".join(differ)))
    # A phase starts from the best model so far, which the last checkpoint of the
    # previous phase holds as "best", not as "model".
    start = checkpoint.state.best_state if checkpoint.state.epoch == 0 else None
    model.load_state_dict(start or checkpoint.model)
    if cfg.pretrained:  # the rows only the text has stay as the checkpoint holds them
        mark_added_rows(model, run.vocab, run.summary.get("pretrained", {}).get("labelled_words"))
    if "numpy_rng" in checkpoint.meta:
        try:
            run.rng.bit_generator.state = checkpoint.meta["numpy_rng"]
        except (TypeError, ValueError, KeyError) as err:
            raise NeuralcorefError(Errors.E216.format(path=run.out / CHECKPOINT_JSON,
                                                      error=f"numpy_rng: {type(err).__name__}: {err}"[:200])) from err
    if "torch_rng" in checkpoint.tensors:
        torch.set_rng_state(checkpoint.tensors["torch_rng"].cpu())
    return model, checkpoint.state, checkpoint.tensors


def export_run(run_dir: Union[str, Path], progress: bool = True,
               cache_dir: Union[str, Path, None] = None) -> Path:
    """Export the best checkpoint of a run (finished, interrupted or killed) to
    ``run_dir/model``, as the run itself would have (``neuralcoref export``).

    cache_dir (str | Path | None): the featurized data cache, which the export
        reads and writes; by default the run's recorded one, which must lie
        inside ``run_dir`` (a checkpoint.json is a file anyone may have written:
        it does not decide where the export writes). Give it for a run trained
        with a ``--cache-dir`` elsewhere.
    RETURNS (Path): the model folder.
    RAISES (NeuralcorefError): E220 without a checkpoint, E216/E217 for a damaged
        or unsafe one, E219 for one that lacks what the export needs, E436 for a
        recorded cache folder outside ``run_dir`` when ``cache_dir`` is not given.
    """
    out = Path(run_dir)
    if not (out / CHECKPOINT_JSON).is_file():
        raise NeuralcorefError(Errors.E220.format(path=out, file=CHECKPOINT_JSON))
    checkpoint = load_checkpoint(out, torch.device("cpu"))
    missing = [k for k in ("config", "run", "vocab") if k not in checkpoint.meta]
    if missing or checkpoint.state.best_state is None:
        raise NeuralcorefError(Errors.E219.format(path=out / CHECKPOINT_JSON,
                                                  missing=", ".join(missing) or "a best model"))
    args = checkpoint.meta["run"]
    missing = [k for k in ("train", "dev", "spacy_model", "cache_dir") if k not in args]
    if missing:
        raise NeuralcorefError(Errors.E219.format(path=out / CHECKPOINT_JSON,
                                                  missing=", ".join(f"run.{k}" for k in missing)))
    cache = Path(cache_dir) if cache_dir is not None else _confined(out, args["cache_dir"], "the cache folder")
    cfg = TrainConfig.from_dict(checkpoint.meta["config"])
    run = prepare_run(args["train"], args["dev"], args["spacy_model"], out, "cpu", cfg,
                      cache, progress, vocab_words=checkpoint.meta["vocab"])
    model = CorefScorers(run.scorer_cfg)
    state = checkpoint.state
    unfinished = None
    if state.phase < len(cfg.phases):
        unfinished = {"signal": None, "epochs": len(state.log), "last": _last_epoch(state, cfg)}
    return finish_run(run, model, state, unfinished, cfg.tune_link_offsets, progress)


def _confined(folder: Path, recorded: str, what: str) -> Path:
    """``recorded`` (a path a checkpoint names) if it lies inside ``folder`` once
    links are resolved; E436 otherwise."""
    path = Path(recorded)
    path = path if path.is_absolute() else folder / path
    inside = folder.resolve()
    if path.resolve() != inside and inside not in path.resolve().parents:
        raise NeuralcorefError(Errors.E436.format(path=folder / CHECKPOINT_JSON, what=what,
                                                  found=repr(recorded)[:200], folder=inside))
    return path


def _finish_interrupted(run: Run, model: CorefScorers, state: RunState, signum: int,
                        progress: bool) -> Path:
    """Export the best model so far after a stop request (the current weights
    when no epoch was evaluated yet), without the slow link-offset tuning."""
    name = signal.Signals(signum).name
    if state.best_state is None:
        logger.info("%s before the first evaluation: exporting the current weights", name)
        state.best_state = copy.deepcopy(model.state_dict())
    interrupted = {"signal": name, "epochs": len(state.log), "last": _last_epoch(state, run.cfg)}
    return finish_run(run, model, state, interrupted, False, progress)


def _last_epoch(state: RunState, cfg: TrainConfig) -> str:
    if not state.log:
        return "none"
    e = state.log[-1]
    max_epochs = next((p.max_epochs for p in cfg.phases if p.loss == e["phase"]), "?")
    return f"{e['phase']} epoch {e['epoch']}/{max_epochs}"


def finish_run(run: Run, model: CorefScorers, state: RunState, interrupted: Optional[Dict],
               tune_links: bool, progress: bool) -> Path:
    """Load the best model, fold in the dev-tuned link threshold, plot, export to
    ``run.out/model`` (replacing a previous export only once the new one is
    complete) and tune link offsets per mention type if ``tune_links``.

    interrupted (Dict | None): how the run stopped early ("signal", "epochs",
        "last"), recorded in the summary and the model card; None: it finished.
    RETURNS (Path): the model folder.
    """
    cfg, out = run.cfg, run.out
    model.load_state_dict(state.best_state)
    offset, final, _ = dev_scores(model, run.dev_data, run.device, cfg.pair_budget, cfg.tune_greedyness)
    logger.info("Dev CoNLL F1 %.2f (link offset %+.2f)", 100 * final.conll_f1, offset)
    warn_if_dev_flat(state.log)
    _plot(state.log, out / PLOT_FILE)
    summary = {**run.summary, "link_offset": offset,
               "seconds": {**run.summary["seconds"], "total": round(time.time() - run.started, 1)},
               "peak_rss_mb": round(_peak_rss_mb(), 1), "log": state.log}
    if interrupted is not None:
        summary["interrupted"] = interrupted
    partial = out / "model.partial"
    shutil.rmtree(partial, ignore_errors=True)
    export_model(partial, model, cfg, run.vocab, run.nlp.lang, run.rules, pipeline_id(run.nlp),
                 final, offset, summary, document_prior=run.prior,
                 vector_fingerprint=pipeline_vectors_fingerprint(run.nlp))
    if tune_links:  # in place: the export is this run's own; on the stored dev features
        result = tune_dev_offsets(model, run.dev_data, run.device, cfg.pair_budget, offset, progress)
        record_offsets(partial, result, run.args["dev"], keep_singletons=not cfg.drop_singletons)
        logger.info("Link offsets %s: dev CoNLL F1 %.2f -> %.2f", result.offsets or "none",
                    100 * result.before.conll_f1, 100 * result.after.conll_f1)
    return _replace_folder(partial, out / "model")


def _replace_folder(new: Path, target: Path) -> Path:
    """Move ``new`` to ``target``, removing a previous ``target`` only after."""
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    return target


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


def scorer_config(cfg: TrainConfig, vocab_size: int, vector_dim: int) -> ScorerConfig:
    """The scorer's architecture for a recipe (shared by :func:`prepare_run` and the fold board)."""
    return ScorerConfig(vector_dim=vector_dim, vocab_size=vocab_size, embedding_dim=cfg.embedding_dim,
                        single_hidden=list(cfg.single_hidden), pair_hidden=list(cfg.pair_hidden),
                        similarity_rank=cfg.similarity_rank,
                        mention_hidden=None if cfg.mention_hidden is None else list(cfg.mention_hidden),
                        refine=bool(cfg.refine), **type_head(cfg))


def _run_phases(model: CorefScorers, run: Run, state: RunState, restored: Optional[Dict],
                stop: GracefulStop, progress: bool) -> None:
    """Train phase after phase from ``state``'s position, evaluating and
    checkpointing each epoch; return early, between batches, on a stop request.

    restored (Dict | None): the checkpoint's tensors when resuming ("optimizer" and
        "average" continue the phase in progress).
    """
    cfg = run.cfg
    for p in range(state.phase, len(cfg.phases)):
        phase = cfg.phases[p]
        optimizer, schedule, average = start_phase(model, phase, cfg, state.epoch, restored)
        restored = None
        for epoch in range(state.epoch, phase.max_epochs):
            if stop.requested is not None:
                return
            t0 = time.time()
            desc = f"epoch {epoch + 1}/{phase.max_epochs} {phase.loss}"
            loss = train_epoch(model, optimizer, phase, alternate(run.train_data, len(state.log)), cfg,
                                run.device, run.rng,
                                progress, desc, average, stop)
            if loss is None:  # stopped within the epoch: it is neither evaluated nor saved
                return
            schedule.step()
            with average.applied(model):
                offset, scores, raw = dev_scores(model, run.dev_data, run.device, cfg.pair_budget,
                                                 cfg.tune_greedyness)
                evaluated_state = copy.deepcopy(model.state_dict())
            entry = log_entry(phase.loss, epoch + 1, loss, scores, raw, offset, time.time() - t0)
            state.log.append(entry)
            with (run.out / LOG_FILE).open("a", encoding="utf8") as log_file:
                log_file.write(json.dumps(entry) + "\n")
            logger.info("%s", format_epoch(entry, phase.max_epochs))
            # Epochs are chosen, and phases stopped, at the untuned threshold: an
            # offset fitted on dev for every epoch flatters the under-trained early
            # ones and stopped phases too soon (docs/experiments/2026-11-26-epoch-selection.md).
            f1 = raw.conll_f1
            if f1 > state.best_f1:
                state.best_f1 = f1
                state.best_state = evaluated_state
            if f1 > state.phase_best:
                state.phase_best, state.bad_evals = f1, 0
            else:
                state.bad_evals += 1
            state.phase, state.epoch = p, epoch + 1
            done = state.bad_evals >= phase.patience
            if done or epoch + 1 == phase.max_epochs:
                state.phase, state.epoch, state.phase_best, state.bad_evals = p + 1, 0, -1.0, 0
            _checkpoint(run, model, state, optimizer, average)
            if done:
                break
        state.epoch = 0
        if state.best_state is not None:
            model.load_state_dict(state.best_state)


def log_entry(phase: str, epoch: int, loss: float, scores: CorefScores, raw: CorefScores,
              offset: float, seconds: float) -> Dict:
    """One line of the JSONL log: dev scores (percent) at the link offset the
    export would fold in, and the raw CoNLL F1 at offset 0."""
    return {"phase": phase, "epoch": epoch, "loss": round(loss, 6),
            "dev_muc": round(scores.muc.f1 * 100, 4), "dev_bcub": round(scores.bcub.f1 * 100, 4),
            "dev_ceafe": round(scores.ceafe.f1 * 100, 4), "dev_conll_f1": round(scores.conll_f1 * 100, 4),
            "dev_mention_recall": round(scores.mentions.recall * 100, 4), "link_offset": offset,
            "dev_conll_f1_raw": round(raw.conll_f1 * 100, 4), "seconds": round(seconds, 1)}


def format_epoch(entry: Dict, max_epochs: int) -> str:
    """The log line of an epoch, e.g. ``epoch 3/8 softmax  loss 0.238  dev CoNLL F1
    58.60 (MUC 70.28, B3 57.11, CEAF-e 48.40)  6.0 s``."""
    return (f"epoch {entry['epoch']}/{max_epochs} {entry['phase']}  loss {entry['loss']:.3f}  "
            f"dev CoNLL F1 {entry['dev_conll_f1']:.2f} (MUC {entry['dev_muc']:.2f}, "
            f"B3 {entry['dev_bcub']:.2f}, CEAF-e {entry['dev_ceafe']:.2f}; "
            f"link offset {entry['link_offset']:+.2f}, raw {entry['dev_conll_f1_raw']:.2f})  "
            f"{entry['seconds']:.1f} s")


def _checkpoint(run: Run, model: CorefScorers, state: RunState, optimizer: torch.optim.Optimizer,
                average: WeightAverage) -> None:
    tensors = {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
               "average": average.shadow, "torch_rng": torch.get_rng_state()}
    meta = {"config": run.cfg.to_dict(), "run": run.args, "vocab": run.vocab.words,
            "numpy_rng": run.rng.bit_generator.state}
    save_checkpoint(run.out, state, tensors, meta)


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
