"""Starting a training run from a ``neuralcoref pretrain`` output (train/pretrain.py).

The output folder holds PRETRAINED_WEIGHTS (the embedding table and the
TRANSFERRED layers, ``.npz`` without pickle) and PRETRAINED_JSON (the vocabulary,
the shapes, the text and steps: what the model card records).
"""
from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import torch

from neuralcoref.core.features.contract import SCHEMA_HASH
from neuralcoref.core.scoring.embeddings import WordVocab
from neuralcoref.core.scoring.scoring import FIRST_WORD_ROW
from neuralcoref.errors import Errors, NeuralcorefError, Warnings

from .model import CorefScorers

logger = logging.getLogger("neuralcoref.train")

PRETRAINED_JSON, PRETRAINED_WEIGHTS = "pretrained.json", "pretrained.npz"
#: What a coreference run takes from pretraining besides the embeddings: the pair
#: scorer's first layer, which reads both mentions' inputs and the pair features.
TRANSFERRED = ("pair.0.W_ante", "pair.0.W_ana", "pair.0.W_pair", "pair.0.b")


def read_pretrained(path: Union[str, Path]) -> Tuple[Dict, Dict[str, np.ndarray]]:
    """The record and weights of a pretraining output folder.

    RAISES (NeuralcorefError): E468 when it is not one (or is damaged).
    """
    path = Path(path)
    try:
        record = json.loads((path / PRETRAINED_JSON).read_text(encoding="utf8"))
        with np.load(path / PRETRAINED_WEIGHTS, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files}
        words = record["words"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise NeuralcorefError(Errors.E468.format(path=path, reason=f"{type(err).__name__}: {err}")) from err
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise NeuralcorefError(Errors.E468.format(path=path, reason="its word list is not a list of words"))
    return record, weights


def pretrained_words(path: Union[str, Path]) -> List[str]:
    """The vocabulary of a pretraining output (to extend a run's vocabulary with)."""
    return read_pretrained(path)[0]["words"]


def merged_vocab(vocab: WordVocab, words: List[str]) -> WordVocab:
    """``vocab`` followed by the words of ``words`` it lacks: words learnt on
    unlabeled text keep their embedding even when the labelled data lacks them
    (or has them fewer than ``vocab_min_count`` times, which leaves them out of
    ``vocab``)."""
    known = set(vocab.words)
    return WordVocab(vocab.words + [w for w in words if w not in known])


def load_pretrained(model: CorefScorers, vocab: WordVocab, path: Union[str, Path],
                    pipeline: Optional[str] = None, added_from: Optional[int] = None) -> Dict:
    """Copy pretrained embeddings (by word) and the TRANSFERRED layers into ``model``.

    vocab (WordVocab): the run's vocabulary (rows of ``model``'s embedding table).
    pipeline (str | None): the run's spaCy pipeline id (W408 when it differs).
    added_from (int | None): the position in ``vocab`` of the first word that
        :func:`merged_vocab` added (the run's vocabulary lacks it): those rows are kept
        as pretrained through training (:func:`keep_added_rows`).
    RETURNS (Dict): what the model card records (text, steps, held-out accuracy).
    RAISES (NeuralcorefError): E468 for a folder that is not a pretraining output,
        E469 when its shapes or feature schema do not fit ``model``.
    """
    record, weights = read_pretrained(path)
    params = {name: model.p(name) for name in TRANSFERRED}
    problems = []
    if record.get("schema_hash") != SCHEMA_HASH:
        problems.append(f"feature schema {record.get('schema_hash')} (this version: {SCHEMA_HASH})")
    for name, param in params.items():
        shape = tuple(weights[name].shape) if name in weights else None
        if shape != tuple(param.shape):
            problems.append(f"{name} is {list(shape) if shape else 'missing'} (recipe: {list(param.shape)})")
    table = model.p("embeddings") if model.config.embedding_dim else None
    if table is not None and weights.get("embeddings", np.zeros((0, 0))).shape[1:] != tuple(table.shape[1:]):
        problems.append(f"embeddings of width {record.get('embedding_dim')} (recipe: {table.shape[1]})")
    if problems:
        raise NeuralcorefError(Errors.E469.format(path=path, details="; ".join(problems)))
    if pipeline is not None and record.get("spacy_pipeline") != pipeline:
        warnings.warn(Warnings.W408.format(path=path, found=record.get("spacy_pipeline"), expected=pipeline))
    with torch.no_grad():
        for name, param in params.items():
            param.copy_(torch.from_numpy(weights[name]))
        copied = _copy_embeddings(table, vocab, record["words"], weights.get("embeddings")) if table is not None else 0
    if table is not None:
        mark_added_rows(model, vocab, added_from)
    logger.info("Started from the pretrained representations in %s (%d steps on %s): %d word embeddings",
                path, record["steps"], record["text"], copied)
    return {"path": str(Path(path).resolve()), "text": record["text"], "steps": record["steps"],
            "data": record.get("data"), "held_out_accuracy": record.get("held_out_accuracy"),
            "words_copied": copied}


def _copy_embeddings(table: torch.Tensor, vocab: WordVocab, words: List[str], source: np.ndarray) -> int:
    """Rows of the special slots (empty, unknown) and of every word both vocabularies hold."""
    table[:FIRST_WORD_ROW] = torch.from_numpy(source[:FIRST_WORD_ROW])
    row_of = {w: i + FIRST_WORD_ROW for i, w in enumerate(words)}
    pairs = [(i + FIRST_WORD_ROW, row_of[w]) for i, w in enumerate(vocab.words) if w in row_of]
    if pairs:
        target, origin = (torch.as_tensor(x) for x in zip(*pairs))
        table[target] = torch.from_numpy(source)[origin].to(table.device)
    return len(pairs)


def mark_added_rows(model: CorefScorers, vocab: WordVocab, added_from: Optional[int]) -> None:
    """Mark the embedding rows of ``vocab[added_from:]`` (the words :func:`merged_vocab`
    added) for :func:`keep_added_rows`; a fresh run calls it through :func:`load_pretrained`,
    a resumed one with the rows its checkpoint holds."""
    if added_from is not None and model.config.embedding_dim and added_from < len(vocab.words):
        model.kept_from = FIRST_WORD_ROW + added_from


def keep_added_rows(model: CorefScorers, optimizer: torch.optim.Optimizer) -> None:
    """Restore the embedding rows from ``model.kept_from`` on after every step of ``optimizer``.

    Those are the words the pretraining text added: most occur in no training
    batch, so their only gradient is Adam's L2 penalty, which Adam normalises into a
    pull towards zero of about the learning rate a step; a few hundred steps would
    erase what the text taught. Restoring them is what training without that pull
    gives. The rest occur in the labelled data below the vocabulary's
    ``vocab_min_count`` (once, for the default 2: 1,627 of the 5,488 words the
    speeches add to OntoGUM train's vocabulary): their one gradient an epoch is
    undone too, so they keep their pretrained rows rather than decay between uses
    (without pretraining they would read as the unknown word).
    No-op for a model without ``kept_from`` (a run without ``--pretrained``).
    """
    first = getattr(model, "kept_from", None)
    if first is None:
        return
    table = model.p("embeddings")
    saved = table.detach()[first:].clone()

    def restore(*_) -> None:
        with torch.no_grad():
            table[first:] = saved

    optimizer.register_step_post_hook(restore)
