"""Annotation schemes per training file: what an unannotated candidate means,
and how much of each document an epoch trains on.

Corpora annotate different things. DEMOCRAT or OntoNotes mark every referring
expression (DEMOCRAT) or every coreferent one (OntoNotes): a candidate the
annotators left out is no mention, a negative. LitBank and fr-litbank mark the
mentions of a few entity types only (people, places, organisations,
facilities, vehicles): "un livre" and the "il" that refers to it are left
unannotated because of their type, not because they do not refer. Trained as
negatives they teach a model that a pronoun never refers to a thing.

The recipe key ``train_schemes`` maps a training file (``--train`` or an
``extra_train`` entry, as given) to its scheme::

    "train_schemes": {
        "../shared/data/fr-litbank/train.french.v4_gold_conll": {"unannotated": "unknown"},
        "../shared/data/democrat/train.french.v4_gold_conll": {"max_doc_tokens": 2000}
    }

- ``unannotated``: ``"negative"`` (the default for ``--train``: full labels)
  or ``"unknown"`` (typed schemes; the default for ``extra_train``). With
  ``"unknown"`` only gold mentions are trained as anaphors (an unannotated one
  may refer, to a thing) and the mention-detection loss reads only the gold
  mentions, as positives; the unannotated candidates of a gold anaphor stay
  negatives for its links, since a typed scheme annotates every mention of
  the entities it annotates.
- ``max_doc_tokens``: each epoch trains, per document, the anaphors whose
  head lies in one random window of this many tokens (a new window each
  epoch): long documents then weigh as much as this many tokens of text, so
  that one genre (DEMOCRAT's legal codes, 78,702 of its 88,965 training tokens)
  does not drown the others; None: whole documents.
- ``repeat``: passes over the file per epoch (default 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Union

import numpy as np

from neuralcoref.core.features.contract import C
from neuralcoref.errors import Errors, NeuralcorefError

#: What an unannotated candidate mention is in a scheme.
UNANNOTATED = ("negative", "unknown")
_KEYS = ("unannotated", "max_doc_tokens", "repeat")


@dataclass(frozen=True)
class CorpusScheme:
    """How one training file is annotated, and how much of it an epoch trains.

    unannotated (str): "negative" or "unknown" (see the module's docstring).
    max_doc_tokens (int | None): tokens per document and epoch; None: all.
    repeat (int): passes over the file per epoch.
    """

    unannotated: str = "negative"
    max_doc_tokens: Optional[int] = None
    repeat: int = 1

    @property
    def typed(self) -> bool:
        """Unannotated candidates are unknown, not negatives."""
        return self.unannotated == "unknown"


def check_schemes(schemes: Mapping) -> None:
    """Validate a ``train_schemes`` value.

    RAISES NeuralcorefError: E062 for a value that is not a mapping of paths to
        mappings, E063 for an unknown key or a bad value.
    """
    if not isinstance(schemes, Mapping) or not all(isinstance(v, Mapping) for v in schemes.values()):
        raise NeuralcorefError(Errors.E062.format(value=schemes))
    for path, scheme in schemes.items():
        _parse(str(path), scheme)


def _parse(path: str, value: Mapping, default: str = "negative") -> CorpusScheme:
    unknown = sorted(set(value) - set(_KEYS))
    unannotated = value.get("unannotated", default)
    limit = value.get("max_doc_tokens")
    repeat = value.get("repeat", 1)
    if unknown or unannotated not in UNANNOTATED \
            or not (limit is None or _whole(limit, 1)) or not _whole(repeat, 1):
        raise NeuralcorefError(Errors.E063.format(path=path, value=dict(value), keys=", ".join(_KEYS),
                                                  schemes=", ".join(UNANNOTATED)))
    return CorpusScheme(unannotated, limit, repeat)


def _whole(value, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def resolve_schemes(schemes: Mapping[str, Mapping], train_path: Union[str, Path],
                    extra_paths: Iterable[Union[str, Path]]) -> List[CorpusScheme]:
    """The scheme of ``--train`` and of each ``extra_train`` file, in that order.

    schemes (Mapping[str, Mapping]): the recipe's ``train_schemes``; paths match
        after resolving (``./a/b`` is ``a/b``).
    RETURNS (List[CorpusScheme]): 1 + len(extra_paths) schemes; a file the
        mapping does not name: "negative" for ``--train``, "unknown" for an
        extra file (``extra_train``'s meaning before schemes existed).
    RAISES NeuralcorefError: E064 when a path of the mapping is no training file.
    """
    paths = [Path(train_path)] + [Path(p) for p in extra_paths]
    resolved = [p.resolve() for p in paths]
    given = {Path(k).resolve(): (k, v) for k, v in schemes.items()}
    stray = [k for r, (k, _) in given.items() if r not in resolved]
    if stray:
        raise NeuralcorefError(Errors.E064.format(paths=", ".join(stray),
                                                  train=", ".join(str(p) for p in paths)))
    out = []
    for i, r in enumerate(resolved):
        key, value = given.get(r, (str(paths[i]), {}))
        out.append(_parse(key, value, default="negative" if i == 0 else "unknown"))
    return out


def epoch_anaphors(anaphors: Optional[np.ndarray], codes: np.ndarray, doc_offsets: np.ndarray,
                   n_tokens: np.ndarray, max_doc_tokens: Optional[int],
                   rng: np.random.Generator) -> Optional[np.ndarray]:
    """The anaphors one epoch trains: per document, those whose head lies in one
    random window of ``max_doc_tokens`` tokens.

    anaphors (int (k,) | None): the trainable anaphors (None: every mention).
    codes (int (n, len(MENTION_CODES))): mention codes (``C["head"]`` is read).
    doc_offsets (int64 (n_docs + 1,)): mention offsets of the documents.
    n_tokens (int (n_docs,)): tokens per document.
    max_doc_tokens (int | None): the window; None: ``anaphors`` unchanged.
    RETURNS (int64 (k',) | None): mention indices, sorted.
    """
    if max_doc_tokens is None:
        return anaphors
    n_tokens = np.asarray(n_tokens, dtype=np.int64)
    starts = np.floor(rng.random(len(n_tokens)) * (np.maximum(n_tokens - max_doc_tokens, 0) + 1)).astype(np.int64)
    doc_of = np.repeat(np.arange(len(n_tokens)), np.diff(np.asarray(doc_offsets)))
    heads = np.asarray(codes)[:, C["head"]]
    inside = (heads >= starts[doc_of]) & (heads < starts[doc_of] + max_doc_tokens)
    chosen = np.flatnonzero(inside)
    if anaphors is not None:
        chosen = np.intersect1d(chosen, anaphors)
    return chosen.astype(np.int64)


def apply_scheme(data, corpus, scheme: CorpusScheme) -> None:
    """Give a training file's dataset its scheme: a typed one trains gold
    anaphors only; the epochs read ``data.scheme`` (:func:`epoch_subset`,
    :func:`mention_loss_weights`).

    data (TrainingData): the file's dataset; corpus (FeaturizedCorpus): its documents.
    """
    data.gold_anaphors_only = scheme.typed
    data.scheme = scheme
    data.n_tokens = np.array([d["n_tokens"] for d in corpus.docs], dtype=np.int64)


def epoch_subset(data, rng: np.random.Generator) -> Optional[np.ndarray]:
    """The anaphors of ``data`` (a TrainingData) one pass of an epoch trains: its
    trainable anaphors, in one window per document when its scheme has
    ``max_doc_tokens`` (:func:`epoch_anaphors`). RETURNS (int64 (k,) | None)."""
    scheme = data.scheme
    if scheme is None or scheme.max_doc_tokens is None:
        return data.train_anaphors
    return epoch_anaphors(data.train_anaphors, data.corpus.features.codes, data.corpus.doc_offsets,
                          data.n_tokens, scheme.max_doc_tokens, rng)


def passes(data, partial_repeat: int) -> int:
    """Passes over ``data`` per epoch: its scheme's ``repeat``, or
    ``partial_repeat`` for partial data."""
    if data.partial:
        return partial_repeat
    return data.scheme.repeat if data.scheme is not None else 1


def mention_loss_weights(labels: np.ndarray, scheme: Optional[CorpusScheme]) -> Optional[np.ndarray]:
    """Which of a batch's mentions the mention-detection loss reads.

    labels (int (u,)): the mentions' gold cluster labels (-1: unannotated).
    RETURNS (float32 (u,) | None): 1 for a mention whose label is known, 0 for
        one whose is not (an unannotated candidate of a typed scheme); None: all.
    """
    if scheme is None or not scheme.typed:
        return None
    return (np.asarray(labels) >= 0).astype(np.float32)


def scheme_summary(schemes: List[CorpusScheme], paths: List[str]) -> List[Dict]:
    """The schemes as the training summary and the model card record them."""
    return [{"path": str(p), "unannotated": s.unannotated, "max_doc_tokens": s.max_doc_tokens,
             "repeat": s.repeat} for s, p in zip(schemes, paths)]
