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

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence, Tuple, Union

import numpy as np
import torch

from neuralcoref.artifacts.model_dir import load_model
from neuralcoref.core.scoring.embeddings import WordVocab
from neuralcoref.core.scoring.scoring import weight_shapes
from neuralcoref.errors import Errors, NeuralcorefError

from .config import TrainConfig
from .dataset import TrainingData
from .evaluation import predict_scores
from .losses import distill_loss  # noqa: F401  (the loss, with the scores it compares)
from .model import CorefScorers

logger = logging.getLogger("neuralcoref.train")



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


def first_line(err: Exception) -> str:
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
