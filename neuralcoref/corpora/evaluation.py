"""``neuralcoref evaluate``: a key and a response, checked for the same documents.

:func:`neuralcoref.corpora.coref_scorer.score_files` scores a key document the response
lacks as an empty response, as the reference scorer does. A user scoring a
response that lost documents then reads a low score without a word; here the
documents must match, or the caller says to score the common ones.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple, Union

from ..errors import Errors, NeuralcorefError
from .conll import ConllDocument
from .coref_scorer import CorefScores, key_and_response, read_documents, score_documents

DocKey = Tuple[str, str]


class Evaluation(NamedTuple):
    """Scores of the documents key and response share, and what was skipped."""

    scores: CorefScores
    scored: int
    missing: int  # key documents the response lacks
    extra: int  # response documents the key lacks


def _names(keys: List[DocKey], docs: Dict[DocKey, ConllDocument]) -> str:
    shown = ", ".join(f"'{docs[k].name}'" for k in keys[:3])
    return shown + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")


def evaluate_files(key_path: Union[str, Path], response_path: Union[str, Path],
                   keep_singletons: bool = True, allow_missing: bool = False) -> Evaluation:
    """Score a response against a key, document by document (id and part).

    key_path, response_path (str | Path): CoNLL-2012 files or folders.
    keep_singletons (bool): False drops one-mention clusters from both sides.
    allow_missing (bool): score the documents both have instead of refusing
        documents of one that the other lacks.
    RETURNS (Evaluation): corpus-level scores and the counts of skipped documents.
    RAISES NeuralcorefError: E162 (empty response), E160 / E161 (documents of one
        side missing from the other), E163 (none in common), E012, E018.
    """
    response = read_documents(response_path)
    if not response:
        raise NeuralcorefError(Errors.E162.format(path=response_path))
    key = read_documents(key_path)
    if not key:
        raise NeuralcorefError(Errors.E018.format(path=key_path))
    common = [k for k in key if k in response]
    pairs = [key_and_response(key[k], len(response[k]), response[k].clusters, keep_singletons) for k in common]
    missing = [k for k in key if k not in response]
    extra = [k for k in response if k not in key]
    if missing and not allow_missing:
        also = f", and has {len(extra)} the key lacks" if extra else ""
        raise NeuralcorefError(Errors.E160.format(response=response_path, key=key_path,
                                                  n_missing=len(missing), missing=_names(missing, key),
                                                  extra=also))
    if extra and not allow_missing:
        raise NeuralcorefError(Errors.E161.format(response=response_path, key=key_path,
                                                  n_extra=len(extra), extra=_names(extra, response)))
    if not common:
        raise NeuralcorefError(Errors.E163.format(key=key_path, response=response_path))
    return Evaluation(score_documents(pairs), len(common), len(missing), len(extra))
