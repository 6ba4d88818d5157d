"""Entity-type labels for the mention-type head (``TrainConfig.type_names``).

A corpus that types its mentions (GUM: every mention, singletons included, with
one of eleven entity types) gives each candidate mention of a featurized corpus a
class: the type of the typed mention with exactly its span, else the last class,
"not a mention" (no typed mention there: a non-referential or non-mention
candidate); candidates of documents the typed corpus does not cover get -1 and
train nothing. Any language with such data can train the head: the classes are
names in the recipe, the files a CoNLL file (the tokens) and a TSV of typed
mentions.

TSV columns (a header line first): ``doc_id``, ``sentence`` (0-based index in the
document), ``start`` and ``end`` (0-based token indices within the sentence, end
inclusive) and ``entity_type``; other columns are ignored.
"""
from __future__ import annotations

import csv
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple, Union

import numpy as np

from neuralcoref.core.features.contract import C
from neuralcoref.corpora.conll import read_conll
from neuralcoref.errors import Errors, NeuralcorefError

from .storage import FeaturizedCorpus

if TYPE_CHECKING:  # torch only where training runs
    import torch

logger = logging.getLogger("neuralcoref.train")

#: The class after the entity types: candidates that are no typed mention.
NOT_A_MENTION = "not a mention"
#: GUM's entity types (../shared/data/gum/README): the default classes.
GUM_TYPES = ("person", "place", "organization", "object", "event", "time", "substance", "animal",
             "plant", "abstract", "quantity")

TypedSpans = Dict[str, Dict[Tuple[int, int], str]]


def sentence_starts(conll: Union[str, Path]) -> Dict[str, List[int]]:
    """Token offset of each sentence of each document of a CoNLL file (by doc id)."""
    return {doc.doc_id: np.concatenate([[0], np.cumsum(doc.sentence_lengths[:-1])]).astype(int).tolist()
            for doc in read_conll(conll)}


def read_typed_mentions(conll: Union[str, Path], tsv: Union[str, Path]) -> TypedSpans:
    """The typed mentions of a corpus, as document token spans.

    conll (str | Path): the corpus's CoNLL file (its sentence lengths).
    tsv (str | Path): its typed mentions (see the module's docstring).
    RETURNS (Dict[str, Dict[Tuple[int, int], str]]): doc id -> (start, end
        exclusive) -> entity type.
    RAISES (NeuralcorefError): E240 for a mention outside its document's sentences.
    """
    starts = sentence_starts(conll)
    typed: TypedSpans = {}
    with Path(tsv).open(encoding="utf8", newline="") as handle:
        for line_no, row in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
            doc, sent = row["doc_id"], int(row["sentence"])
            if doc not in starts or sent >= len(starts[doc]):
                raise NeuralcorefError(Errors.E240.format(path=tsv, line=line_no, conll=conll))
            offset = starts[doc][sent]
            typed.setdefault(doc, {})[(offset + int(row["start"]), offset + int(row["end"]) + 1)] = \
                row["entity_type"]
    return typed


def read_typed_corpora(pairs: Sequence[Tuple[Union[str, Path], Union[str, Path]]]) -> TypedSpans:
    """:func:`read_typed_mentions` of several (conll, tsv) pairs, merged."""
    typed: TypedSpans = {}
    for conll, tsv in pairs:
        typed.update(read_typed_mentions(conll, tsv))
    return typed


def type_labels(corpus: FeaturizedCorpus, typed: TypedSpans, names: Sequence[str]) -> np.ndarray:
    """The type-head class of every candidate mention of ``corpus``.

    names (Sequence[str]): the entity types, in class order; the class after them
        is "not a mention". A type outside ``names`` counts as not typed (-1).
    RETURNS (ndarray): (n_candidates,) int64: an index of ``names``, len(names)
        for a candidate that is no typed mention, -1 where the document is not typed.
    """
    index = {name: i for i, name in enumerate(names)}
    labels = np.full(len(corpus.labels), -1, dtype=np.int64)
    codes = np.asarray(corpus.features.codes)
    for d, doc in enumerate(corpus.docs):
        # A gender-swapped copy (train/augment.py) keeps every span of its original.
        spans = typed.get(doc["id"], typed.get(doc["id"].removesuffix("_swapped")))
        if spans is None:
            continue
        rows = corpus.doc_slice(d)
        for row, start, end in zip(range(rows.start, rows.stop), codes[rows, C["start"]], codes[rows, C["end"]]):
            kind = spans.get((int(start), int(end)))
            labels[row] = len(names) if kind is None else index.get(kind, -1)
    return labels


def gum_pairs(folder: Union[str, Path]) -> List[Tuple[Path, Path]]:
    """The (conll, tsv) pairs of a GUM-style folder: ``SPLIT.*_conll`` with
    ``entities.SPLIT.tsv``, for every split that has both."""
    folder = Path(folder)
    pairs = []
    for tsv in sorted(folder.glob("entities.*.tsv")):
        split = tsv.name.split(".")[1]
        conll = sorted(folder.glob(f"{split}.*_conll"))
        if conll:
            pairs.append((conll[0], tsv))
    return pairs


def type_head(cfg) -> Dict[str, object]:
    """The ScorerConfig fields of a recipe's type head (``type_classes``, ``type_hidden``)."""
    if not cfg.type_names:
        return {}
    return {"type_classes": len(cfg.type_names) + 1,
            "type_hidden": None if cfg.type_hidden is None else list(cfg.type_hidden)}


def attach_types(cfg, datasets) -> None:
    """Give each TrainingData the type-head classes of its candidates, from the
    recipe's ``type_data`` (nothing without a type head)."""
    if not cfg.type_names:
        return
    if not cfg.type_data:
        raise NeuralcorefError(Errors.E241)
    typed = read_typed_corpora([tuple(pair) for pair in cfg.type_data])
    for data in datasets:
        data.type_labels = type_labels(data.corpus, typed, cfg.type_names)
        known = data.type_labels[data.type_labels >= 0]
        logger.info("Type head: %d of %d candidates typed (%d not a mention)", len(known),
                    len(data.type_labels), int((known == len(cfg.type_names)).sum()))


def type_loss(logits: "torch.Tensor", gold: "torch.Tensor") -> "torch.Tensor":
    """Cross-entropy of the type head over the batch's typed mentions (0 when none).

    logits (torch.Tensor): (u, type_classes) type-head logits of the batch's mentions
        (``batch_outputs(..., with_types=True).types``).
    gold (torch.Tensor): (u,) their classes, -1 where untyped.
    """
    import torch.nn.functional as F

    if not bool((gold >= 0).any()):
        return logits.new_zeros(())
    return F.cross_entropy(logits, gold, ignore_index=-1)
