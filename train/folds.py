"""The fold board: k-fold cross-validation of a training recipe over whole documents.

One dev file is too few documents to choose between recipes: a change tuned on it
can rise there and nowhere else. The fold board pools corpora (OntoGUM train and
dev), splits them by document into ``k`` folds, trains the recipe on ``k - 1``
folds and scores the held-out one, for every fold, and reports the mean and
standard deviation of the CoNLL F1.

Protocol (the same for every variant, so that two variants compare):

- split: documents sorted by (id, part), the i-th goes to fold ``i % k``. GUM ids
  start with the genre (``GUM_academic_...``), so each fold holds about a
  ``k``-th of every genre; the split depends on nothing but the ids.
- each fold is written as its own CoNLL file and featurized once by the runtime's
  code (:func:`train.featurize.featurize_corpus`'s cache, keyed by content,
  pipeline, rules and schema): every variant with the same schema reuses it.
- training: the recipe's phases for their full ``max_epochs`` (no early stopping
  and no threshold fitted on the held-out fold: it is only scored), from the
  weight average when the recipe keeps one; the vocabulary is the training
  folds' words only (with ``pretrained``: followed by the pretraining text's
  words, and the pretrained layers copied in, as ``train --pretrained`` does).
- distillation (the recipe's ``teacher``: earlier fold runs' folders): fold k's
  student learns from the mean scores of those runs' fold-k models, which never
  saw fold k either; the results record the teacher's own score of the fold.
- score: the held-out fold decoded by the runtime's decoding at the untuned
  link threshold (offset 0), scored by the project's scorer, singletons as the
  data annotates them (as ``train`` picks them).
"""
from __future__ import annotations

import json
import logging
import pickle
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Union

import numpy as np
import torch

from neuralcoref.core.scoring.embeddings import build_vocab
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang import get_pipeline_rules

from .config import TrainConfig, load_config
from .evaluation import predict_scores, scored_dev
from .featurize import featurize_corpus, load_pipeline, pipeline_id
from .interrupt import GracefulStop, TrainingInterrupted
from .model import CorefScorers
from .augment import document_blocks, swapped_copies
from .pretrained import load_pretrained, merged_vocab, read_pretrained
from .types import attach_types
from .distill import TeacherMember, attach_teacher, first_line, teacher_f1, teacher_paths
from .epochs import fixed_schedule, merged_counts, training_data
from .trainer import annotates_singletons, scorer_config

logger = logging.getLogger("neuralcoref.train")

#: Folds of the board's row.
DEFAULT_FOLDS = 5
#: The results file a fold run writes in its output folder (the board reads it).
RESULTS_FILE = "folds.json"
#: A fold's held-out documents scored by its model (a pickled ScoredDev): re-decoded
#: under other decode settings without retraining (``bench/rule_ablation.py folds``).
SCORED_FILE = "fold_{fold}.scored.pkl"
#: A fold's model (the state dict of its scorers), beside the results: the fold's teacher
#: for a distilled variant (the recipe's ``teacher``).
FOLD_WEIGHTS = "fold_{fold}.pt"


def assign_folds(keys: Sequence[str], k: int = DEFAULT_FOLDS) -> List[int]:
    """The fold of each document: sorted by key, the i-th goes to fold ``i % k``.

    keys (Sequence[str]): document keys ("id part"), unique.
    k (int): number of folds, 2 or more, at most len(keys).
    RETURNS (List[int]): fold index per key, in the order given.
    """
    if k < 2 or k > len(keys):
        raise NeuralcorefError(Errors.E237.format(k=k, n=len(keys)))
    if len(set(keys)) != len(keys):
        dupes = sorted(key for key, count in Counter(keys).items() if count > 1)
        raise NeuralcorefError(Errors.E238.format(keys=dupes[:5]))
    rank = {key: i for i, key in enumerate(sorted(keys))}
    return [rank[key] % k for key in keys]


def write_fold_files(sources: Sequence[Union[str, Path]], out_dir: Union[str, Path],
                     k: int = DEFAULT_FOLDS) -> List[Path]:
    """Pool the documents of ``sources`` and write fold ``f`` to ``out_dir/fold_f.conll``.

    Files already there with the same content are left untouched (their
    featurized cache stays valid).
    RETURNS (List[Path]): the k fold files.
    """
    blocks = [block for source in sources for block in document_blocks(source)]
    folds = assign_folds([key for key, _ in blocks], k)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for f in range(k):
        text = "".join(block for (_, block), fold in zip(blocks, folds) if fold == f)
        path = out / f"fold_{f}.conll"
        if not path.is_file() or path.read_text(encoding="utf8") != text:
            path.write_text(text, encoding="utf8")
        paths.append(path)
    return paths


def summarize(values: Sequence[float]) -> Dict[str, float]:
    """Mean, sample standard deviation, min and max of per-fold figures."""
    values = [float(v) for v in values]
    return {"mean": statistics.fmean(values), "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values)}


def run_folds(sources: Sequence[Union[str, Path]], spacy_model: str, out_dir: Union[str, Path],
              config: Union[TrainConfig, str, Path, None] = "folds", k: int = DEFAULT_FOLDS,
              only: Optional[Sequence[int]] = None, cache_dir: Union[str, Path, None] = None,
              name: Optional[str] = None, progress: bool = True) -> Dict:
    """Train and score the recipe on every fold; write ``out_dir/folds.json``.

    sources (Sequence[str | Path]): CoNLL files pooled into folds.
    spacy_model (str): the spaCy pipeline to parse with.
    out_dir (str | Path): fold files, the results file (a folder per variant).
    config (TrainConfig | str | Path | None): the recipe (default: ``folds``).
    k (int): number of folds.
    only (Sequence[int] | None): the folds to run (default: all).
    cache_dir (str | Path | None): featurized folds (default ``out_dir/../cache``, shared
        by the variants beside each other).
    name (str | None): the variant's name in the results (default: the folder's name).
    The recipe's ``pretrained`` (a ``neuralcoref pretrain`` output) starts every fold from it.
    RETURNS (Dict): the results, as written to ``folds.json``.
    RAISES (NeuralcorefError): E468 when ``pretrained`` is not a pretraining output
        (before anything is featurized), E469 when it does not fit the recipe.
    """
    cfg = load_config(config) if not isinstance(config, TrainConfig) else config
    pretrained = _pretrained_record(cfg.pretrained)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(cache_dir) if cache_dir else out.parent / "cache"
    started = time.time()
    paths = write_fold_files(sources, cache / "folds", k)
    nlp = load_pipeline(spacy_model)
    rules = get_pipeline_rules(nlp)
    corpora = [featurize_corpus(p, nlp, rules, cache, progress=progress) for p in paths]
    swapped = [featurize_corpus(p, nlp, rules, cache, progress=progress)
               for p in swapped_copies(paths, cache / "folds", cfg.gender_swap_names)] if cfg.gender_swap else []
    featurize_s = time.time() - started
    if cfg.drop_singletons is None:
        cfg.drop_singletons = annotates_singletons(corpora[0])
    results: List[Dict] = []
    summary: Dict = {}
    protocol = {"sources": [str(Path(s).resolve()) for s in sources], "split": "sorted (id, part), i % k",
                "spacy_pipeline": pipeline_id(nlp), "config": cfg.to_dict(),
                "selection": "none: every epoch of every phase, scored at offset 0",
                **({"pretrained": pretrained} if pretrained else {})}
    with GracefulStop() as stop:
        for held_out in (range(k) if only is None else only):
            fold_result = _run_fold(cfg, corpora, held_out, stop, progress, swapped, keep=out,
                                    pipeline=pipeline_id(nlp))
            if fold_result is None:
                raise TrainingInterrupted(stop.requested)
            results.append(fold_result)
            logger.info("fold %d: CoNLL F1 %.2f (%.0f s)", held_out, fold_result["conll_f1"],
                        fold_result["seconds"])
            # Written after every fold: a run stopped later keeps the folds it finished.
            summary = {"name": name or out.name, "k": k, "folds": results,
                       "conll_f1": summarize([r["conll_f1"] for r in results]), "protocol": protocol,
                       "seconds": {"featurize": round(featurize_s, 1), "total": round(time.time() - started, 1)}}
            (out / RESULTS_FILE).write_text(json.dumps(summary, indent=2), encoding="utf8")
    return summary


def _pretrained_record(path: Optional[str]) -> Dict:
    """What the results record of a pretraining output ({} for none); E468 early."""
    if not path:
        return {}
    record, _ = read_pretrained(path)
    return {"path": str(Path(path).resolve()), "text": record["text"], "steps": record["steps"],
            "data": record.get("data"), "held_out_accuracy": record.get("held_out_accuracy")}


def _run_fold(cfg: TrainConfig, corpora, held_out: int, stop: GracefulStop, progress: bool,
              swapped=(), keep: Optional[Path] = None, pipeline: Optional[str] = None) -> Optional[Dict]:
    """Train on every corpus but ``held_out`` for the recipe's full schedule and score it.

    swapped (Sequence[FeaturizedCorpus]): the folds' gender-swapped copies (``gender_swap``),
        trained with their folds.
    keep (Path | None): folder that keeps the fold's model weights and its scored held-out
        fold (:data:`SCORED_FILE`), so that decoding variants re-decode it without retraining.
    pipeline (str | None): the folds' spaCy pipeline id (W408 when the pretraining's differs).

    RETURNS (Dict | None): the fold's scores; None when a stop was requested.
    """
    t0 = time.time()
    torch.manual_seed(cfg.seed + held_out)
    rng = np.random.default_rng(cfg.seed + held_out)
    train_corpora = [c for i, c in enumerate(corpora) if i != held_out]
    vocab = build_vocab(merged_counts(train_corpora + [c for i, c in enumerate(swapped) if i != held_out]),
                        cfg.vocab_min_count, cfg.vocab_max_size)
    labelled = len(vocab.words)
    if cfg.pretrained and cfg.embedding_dim:
        vocab = merged_vocab(vocab, read_pretrained(cfg.pretrained)[0]["words"])
    scorer_cfg = scorer_config(cfg, len(vocab), 0)
    if cfg.use_vectors:
        raise NeuralcorefError(Errors.E239)
    train_data = [training_data(c, vocab, cfg, 0) for c in train_corpora]
    for data, copy in zip(train_data, [c for i, c in enumerate(swapped) if i != held_out]):
        data.swapped = training_data(copy, vocab, cfg, 0)
    test_data = training_data(corpora[held_out], vocab, cfg, 0)
    attach_types(cfg, train_data + [d.swapped for d in train_data if getattr(d, "swapped", None) is not None])
    teacher = fold_teacher(cfg, held_out, len(corpora), train_corpora)
    attach_teacher(teacher, train_data, cfg)
    model = CorefScorers(scorer_cfg, dropout=cfg.dropout, word_dropout=cfg.word_dropout,
                         vector_dropout=cfg.vector_dropout)
    if cfg.pretrained:
        load_pretrained(model, vocab, cfg.pretrained, pipeline, added_from=labelled)
    device = torch.device("cpu")
    losses = fixed_schedule(model, cfg, train_data, device, rng, stop, progress, label=f"fold {held_out} ")
    if losses is None:
        return None
    dev = scored_dev(test_data, *predict_scores(model, test_data, device, cfg.pair_budget))
    if keep is not None:
        torch.save(model.state_dict(), Path(keep) / FOLD_WEIGHTS.format(fold=held_out))
        with open(Path(keep) / SCORED_FILE.format(fold=held_out), "wb") as f:
            pickle.dump(dev, f, protocol=pickle.HIGHEST_PROTOCOL)
    scores = dev.scores({})
    return {"fold": held_out, "docs": test_data.corpus.n_docs, "mentions": len(test_data),
            "conll_f1": 100 * scores.conll_f1, "muc_f1": 100 * scores.muc.f1, "b3_f1": 100 * scores.bcub.f1,
            "ceafe_f1": 100 * scores.ceafe.f1, "lea_f1": 100 * scores.lea.f1 if hasattr(scores, "lea") else None,
            "losses": losses, "seconds": round(time.time() - t0, 1),
            **({"teacher_conll_f1": teacher_f1(teacher, test_data, cfg)} if teacher else {})}


def fold_teacher(cfg: TrainConfig, held_out: int, k: int, train_corpora) -> List[TeacherMember]:
    """The members that teach fold ``held_out``: fold ``held_out``'s model of every
    fold run in ``teacher`` (none without ``teacher``).

    RAISES (NeuralcorefError): E427 for an exported model (trained on the held-out
        fold's documents), E426 / E425 as :func:`load_fold_teacher`.
    """
    members = []
    for path in teacher_paths(cfg):
        if (Path(path) / "config.json").is_file() and not (Path(path) / "folds.json").is_file():
            raise NeuralcorefError(Errors.E427.format(path=path, kind="an exported model", command="folds",
                                                      expected="'neuralcoref folds' output folders"))
        members.append(load_fold_teacher(path, held_out, k, train_corpora))
    return members


def load_fold_teacher(folder: Union[str, Path], fold: int, k: int, train_corpora) -> TeacherMember:
    """Fold ``fold``'s model of a fold run (``neuralcoref folds --out FOLDER``) as a teacher member.

    Its vocabulary is rebuilt as the fold run built it: the training folds' words
    under its recipe's vocabulary settings.
    train_corpora (Sequence[FeaturizedCorpus]): the folds trained on (all but ``fold``).
    RAISES (NeuralcorefError): E426 when the folder is not a fold run of ``k`` folds
        with that fold's model; E425 when the model does not fit the features or
        the rebuilt vocabulary (another feature schema, vocabulary or recipe).
    """
    folder = Path(folder)
    weights = folder / FOLD_WEIGHTS.format(fold=fold)
    try:
        results = json.loads((folder / "folds.json").read_text(encoding="utf8"))
        tcfg = TrainConfig.from_dict(results["protocol"]["config"])
        found_k = results["k"]
    except (OSError, ValueError, KeyError, TypeError, NeuralcorefError) as err:
        raise NeuralcorefError(Errors.E426.format(path=folder, fold=fold, k=k,
                                                  reason=f"{type(err).__name__}: {err}")) from err
    if found_k != k or not weights.is_file():
        reason = f"it has {found_k} folds" if found_k != k else f"{weights.name} is missing"
        raise NeuralcorefError(Errors.E426.format(path=folder, fold=fold, k=k, reason=reason))
    if tcfg.use_vectors or tcfg.pretrained or tcfg.gender_swap:
        raise NeuralcorefError(Errors.E425.format(
            path=weights, details="fold teachers with token vectors, pretraining or gender-swapped "
                                  "vocabularies are not supported"))
    vocab = build_vocab(merged_counts(train_corpora), tcfg.vocab_min_count, tcfg.vocab_max_size)
    model = CorefScorers(scorer_config(tcfg, len(vocab), 0))
    state = torch.load(weights, map_location="cpu", weights_only=True)
    try:
        model.load_state_dict(state)
    except RuntimeError as err:  # shapes differ: features, vocabulary or recipe
        raise NeuralcorefError(Errors.E425.format(path=weights, details=first_line(err))) from err
    return TeacherMember(model.eval(), vocab, str(weights))


def merge_results(parts: Sequence[Union[str, Path]], out_dir: Union[str, Path],
                  name: Optional[str] = None) -> Dict:
    """Merge the ``folds.json`` of runs of the same variant on different folds
    (``--only-folds``, run side by side) into ``out_dir/folds.json``.

    parts (Sequence[str | Path]): folders holding a ``folds.json`` each.
    RETURNS (Dict): the merged results (folds in order, the first part's protocol).
    RAISES (NeuralcorefError): E242 when the parts ran other recipes or folds twice.
    """
    results = [json.loads((Path(p) / RESULTS_FILE).read_text(encoding="utf8")) for p in parts]
    folds = sorted((fold for r in results for fold in r["folds"]), key=lambda f: f["fold"])
    protocols = {json.dumps(r["protocol"], sort_keys=True) for r in results}
    if len(protocols) > 1 or len({f["fold"] for f in folds}) != len(folds):
        raise NeuralcorefError(Errors.E242.format(parts=", ".join(str(p) for p in parts)))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    merged = {**results[0], "name": name or out.name, "folds": folds,
              "conll_f1": summarize([f["conll_f1"] for f in folds]),
              "seconds": {"featurize": max(r["seconds"]["featurize"] for r in results),
                          "total": sum(f["seconds"] for f in folds)},
              "merged_from": [str(p) for p in parts]}
    (out / RESULTS_FILE).write_text(json.dumps(merged, indent=2), encoding="utf8")
    return merged
