"""Knowledge distillation: a student trained on a teacher's antecedent distributions.

A teacher (an exported model, e.g. the shipped ``en`` ensemble, or on the fold
board the fold members of earlier fold runs) scores every training mention's
options once, before training, by the torch scorers on the very batches of
features the student trains on (:func:`teacher_scores`): one feature path. Each
teacher member reads the features through its own vocabulary (and token vectors
when it has them). The teacher's scores are the mean of its members' scores, as
``neuralcoref ensemble`` merges members; every member scores every candidate (the
runtime's coarse pruning of ``--top-antecedents`` ensembles is not applied).

Training then adds ``distill_weight * T^2 * KL(teacher || student)`` at temperature
``T = distill_temperature`` to each batch's gold loss (:func:`distill_loss`),
over each anaphor's options: the no-antecedent option and its candidates
(Hinton et al. 2015: T^2 keeps the gradient's scale across temperatures).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence, Tuple, Union

import numpy as np
import torch
import torch.nn.functional as F

from neuralcoref.artifacts.model_dir import load_model
from neuralcoref.core.scoring.embeddings import WordVocab, build_vocab
from neuralcoref.core.scoring.scoring import weight_shapes
from neuralcoref.errors import Errors, NeuralcorefError

from .config import TrainConfig
from .dataset import TrainingData
from .evaluation import predict_scores
from .model import CorefScorers

logger = logging.getLogger("neuralcoref.train")

_NEG = -1e4
#: A fold run's model of fold k (train/folds.py writes it beside its folds.json).
FOLD_WEIGHTS = "fold_{fold}.pt"


@dataclass
class TeacherMember:
    """One model of a teacher, as torch scorers with the vocabulary it reads words by.

    model (CorefScorers): the scorers, in eval mode.
    vocab (WordVocab): its embedding vocabulary.
    source (str): where it was loaded from (for messages).
    """

    model: CorefScorers
    vocab: WordVocab
    source: str


def teacher_paths(cfg: TrainConfig) -> List[str]:
    """The recipe's ``teacher`` as a list of paths (none: empty)."""
    if not cfg.teacher:
        return []
    return [cfg.teacher] if isinstance(cfg.teacher, str) else list(cfg.teacher)


def load_exported_teacher(path: Union[str, Path], vector_dim: int) -> TeacherMember:
    """An exported model folder as a teacher member.

    vector_dim (int): width of the token vectors the training corpus holds.
    RAISES (NeuralcorefError): E425 when it is not a model folder this version
        loads (another feature schema included) or reads token vectors of another width.
    """
    try:
        loaded = load_model(path)
    except NeuralcorefError as err:
        raise NeuralcorefError(Errors.E425.format(path=path, details=str(err))) from err
    scorer = loaded.config.scorer
    if scorer.vector_dim and scorer.vector_dim != vector_dim:
        raise NeuralcorefError(Errors.E425.format(
            path=path, details=f"it reads token vectors of width {scorer.vector_dim}, the training "
                               f"features hold {vector_dim or 'none'} (featurize with its pipeline, "
                               f"{loaded.config.spacy_pipeline})"))
    model = CorefScorers(scorer)
    weights = loaded.weights()
    with torch.no_grad():
        for name in weight_shapes(scorer):
            model.p(name).copy_(torch.from_numpy(np.asarray(weights[name], dtype=np.float32)))
    return TeacherMember(model.eval(), loaded.vocab, str(path))


def load_fold_teacher(folder: Union[str, Path], fold: int, k: int, train_corpora) -> TeacherMember:
    """Fold ``fold``'s model of a fold run (``neuralcoref folds --out FOLDER``) as a teacher member.

    Its vocabulary is rebuilt as the fold run built it: the training folds' words
    under its recipe's vocabulary settings.
    train_corpora (Sequence[FeaturizedCorpus]): the folds trained on (all but ``fold``).
    RAISES (NeuralcorefError): E426 when the folder is not a fold run of ``k`` folds
        with that fold's model; E425 when the model does not fit the features or
        the rebuilt vocabulary (another feature schema, vocabulary or recipe).
    """
    from .epochs import merged_counts
    from .trainer import scorer_config

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
        raise NeuralcorefError(Errors.E425.format(path=weights, details=_first_line(err))) from err
    return TeacherMember(model.eval(), vocab, str(weights))


def _first_line(err: Exception) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return "; ".join(lines[1:4] or lines[:1])


def teacher_scores(members: Sequence[TeacherMember], data: TrainingData, cfg: TrainConfig
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The teacher's mean single (n,), pair (n_pairs,) and mention (n,) float32 scores
    of ``data``'s mentions and candidate pairs, each member reading the corpus by its
    own vocabulary."""
    totals = [np.zeros(len(data), np.float32), np.zeros(len(data.ante), np.float32),
              np.zeros(len(data), np.float32)]
    for member in members:
        scores = predict_scores(member.model, member_view(data, member), torch.device("cpu"), cfg.pair_budget)
        for total, part in zip(totals, scores):
            total += part / len(members)
    return totals[0], totals[1], totals[2]


def member_view(data: TrainingData, member: TeacherMember) -> TrainingData:
    """``data`` as ``member`` reads it: the same mentions, candidates and features,
    its own word rows and token vectors (none unless it reads them)."""
    view = TrainingData.__new__(TrainingData)
    view.__dict__.update(data.__dict__)
    view.word_rows = member.vocab.rows(np.asarray(data.corpus.features.words))
    dim = member.model.config.vector_dim
    view.vectors = data.corpus.features.vectors if dim else np.zeros((len(data), 0), np.float32)
    view.members = view.weights = None
    view.teacher = None
    return view


def attach_teacher(members: Sequence[TeacherMember], datasets: Sequence[TrainingData],
                   cfg: TrainConfig) -> None:
    """Score every dataset (and its gender-swapped copy) by the teacher, once, and
    keep the scores on it for the batches (``TrainingData.teacher``); no-op without members."""
    if not members:
        return
    for data in datasets:
        for each in (data, getattr(data, "swapped", None)):
            if each is not None:
                each.teacher = teacher_scores(members, each, cfg)[:2]
    logger.info("Teacher scores from %d member(s): %s", len(members), [m.source for m in members])


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


def teacher_f1(members: Sequence[TeacherMember], data: TrainingData, cfg: TrainConfig) -> float:
    """CoNLL F1 of the teacher on ``data`` at offset 0 (the fold board's scoring)."""
    from .evaluation import scored_dev

    return 100 * scored_dev(data, *teacher_scores(members, data, cfg)).scores({}).conll_f1


def run_teacher(cfg: TrainConfig, vector_dim: int) -> List[TeacherMember]:
    """The members of ``train``'s teacher: exported model folders (none without ``teacher``).

    vector_dim (int): width of the token vectors the training corpus holds.
    RAISES (NeuralcorefError): E427 for a fold run's folder, E425 for a model that
        does not fit.
    """
    members = []
    for path in teacher_paths(cfg):
        if (Path(path) / "folds.json").is_file():
            raise NeuralcorefError(Errors.E427.format(path=path, kind="a fold run", command="train",
                                                      expected="exported model folders"))
        members.append(load_exported_teacher(path, vector_dim))
    return members


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
