"""A Doc prepared for scoring and decoding: one composition for the runtime and training.

``read_doc`` -> ``extract_mentions`` -> ``featurize`` -> ``decode_inputs``, then the
candidate pairs. :class:`~neuralcoref.core.resolver.Resolver` and
``train/featurize.py`` both call :func:`prepare_doc`, and the resolver and
``train/dataset.py`` both call :func:`candidate_pairs`, so that a model is trained on
the features and decode inputs it is given at run time. What differs is an argument:
the runtime drops blacklisted words and checks the vectors' width against its model;
training draws shorter "document" windows (``document_windows``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Callable, Optional, Tuple

import numpy as np
from spacy.tokens import Doc

from ..errors import Errors, NeuralcorefError
from ..lang.base import LanguageRules
from .decode.decoding import DecodeInputs, decode_inputs
from .doc.doc_arrays import read_doc
from .features.contract import MentionFeatures
from .features.featurize import FeatureTables, featurize, pair_codes
from .features.pairs import candidate_antecedents
from .mentions.mentions import Mentions, extract_mentions

#: Given a Doc's mentions, each one's "document" window: (starts, ends) token offsets.
Windows = Callable[[Mentions], Tuple[np.ndarray, np.ndarray]]


@dataclass
class PreparedDoc:
    """A Doc's candidate mentions, their compact features and the decode inputs.

    mentions (Mentions): the candidate mentions.
    features (MentionFeatures): n rows of compact codes (and span vectors).
    inputs (DecodeInputs): what decoding reads besides the scores.
    """

    mentions: Mentions
    features: MentionFeatures
    inputs: DecodeInputs


def prepare_doc(doc: Doc, rules: LanguageRules, tables: FeatureTables, use_vectors: bool, *,
                document_prior: Optional[Tuple[np.ndarray, float]] = None,
                blacklist: AbstractSet[str] = frozenset(), vector_dim: Optional[int] = None,
                document_windows: Optional[Windows] = None) -> PreparedDoc:
    """Mentions, features and decode inputs of a parsed Doc, read once (one ``doc.to_array``).

    doc (Doc): a parsed Doc.
    rules (LanguageRules): the language's rules.
    tables (FeatureTables): the rules' lookups (built once per rules).
    use_vectors (bool): compute span vectors from ``doc.tensor``.
    document_prior (Tuple[ndarray, float] | None): see :func:`featurize`; used with vectors only.
    blacklist (AbstractSet[str]): lowercased one-word mentions dropped.
    vector_dim (int | None): the vectors' width the model reads: E109 for another
        width (with vectors and mentions only); None: not checked.
    document_windows (Windows | None): each mention's "document" window from the
        mentions (training's chunks), with vectors only; None: the whole Doc.
    RETURNS (PreparedDoc): the Doc prepared.
    """
    arrays = read_doc(doc)
    mentions = without_words(doc, extract_mentions(doc, rules, arrays), blacklist)
    if use_vectors and vector_dim is not None and len(mentions):
        check_vectors(doc, vector_dim)
    windows = document_windows(mentions) if use_vectors and document_windows is not None else None
    features = featurize(doc, mentions, tables, use_vectors=use_vectors, document_windows=windows,
                         document_prior=document_prior if use_vectors else None, arrays=arrays)
    return PreparedDoc(mentions, features, decode_inputs(doc, mentions, features, rules, arrays))


def candidate_pairs(features: MentionFeatures, max_dist: int, max_dist_match: int,
                    max_dist_nominal: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each mention's candidate antecedents (CSR) and their compact pair codes.

    RETURNS (Tuple[ndarray, ndarray, ndarray]): ptr (n + 1,), ante (n_pairs,) and
        codes (n_pairs, len(PAIR_CODES)) int16; see :func:`candidate_antecedents`.
    """
    ptr, ante = candidate_antecedents(features, max_dist, max_dist_match, max_dist_nominal)
    return ptr, ante, pair_codes(features, ptr, ante)


def without_words(doc: Doc, mentions: Mentions, blacklist: AbstractSet[str]) -> Mentions:
    """The mentions but those of one token whose lowercase form is in ``blacklist``."""
    if not blacklist or len(mentions) == 0:
        return mentions
    keep = np.array([not (e - s == 1 and doc[int(s)].lower_ in blacklist)
                     for s, e in zip(mentions.starts, mentions.ends)], dtype=bool)
    return mentions.select(keep)


def check_vectors(doc: Doc, dim: int) -> None:
    """E109 when the Doc's vectors are of another width than the model's (its
    document prior's too), before featurizing; no tensor at all is featurize's E100."""
    tensor = doc.tensor
    if tensor is not None and tensor.ndim == 2 and tensor.size and tensor.shape[1] != dim:
        raise NeuralcorefError(Errors.E109.format(found=tensor.shape[1], expected=dim))
