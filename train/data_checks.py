"""Warnings for training that cannot learn: too little data, a dev score that never moves.

Measured with the ``quick`` recipe on OntoGUM documents scored on three OntoGUM dev
documents (docs/experiments/2026-12-07-small-training-data.md): 79 and 236 gold links
left dev CoNLL F1 at its first epoch's level (27-28) through every epoch; with 776
and 1,809 links some epochs reached 35-40.
"""
from __future__ import annotations

import warnings
from typing import Dict, Iterable, List

from neuralcoref.errors import Warnings

#: Fewer gold links than this in the training data: W116.
MIN_GOLD_LINKS = 500
#: Epochs logged before a flat dev score is worth a warning, and what "flat" means
#: (CoNLL F1 points above the first epoch's).
FLAT_MIN_EPOCHS = 3
FLAT_GAIN = 1.0


def gold_links(docs: Iterable[Dict]) -> int:
    """Gold links of featurized documents: mentions that have an earlier mention
    of their entity (a cluster of k mentions gives k - 1).

    docs (Iterable[Dict]): ``FeaturizedCorpus.docs`` entries ("clusters").
    RETURNS (int): the number of links.
    """
    return sum(max(len(cluster) - 1, 0) for doc in docs for cluster in doc["clusters"])


def warn_if_too_small(corpora: List) -> int:
    """Warn (W116) when the training corpora hold fewer than ``MIN_GOLD_LINKS``
    gold links, the examples a coreference scorer learns from.

    corpora (List[FeaturizedCorpus]): the training data (full and partial labels).
    RETURNS (int): the number of gold links counted.
    """
    docs = [doc for corpus in corpora for doc in corpus.docs]
    links = gold_links(docs)
    if links < MIN_GOLD_LINKS:
        warnings.warn(Warnings.W116.format(links=links, docs=len(docs), minimum=MIN_GOLD_LINKS))
    return links


def warn_if_dev_flat(log: List[Dict]) -> bool:
    """Warn (W117) when dev CoNLL F1 never rose ``FLAT_GAIN`` points above the
    first epoch's over at least ``FLAT_MIN_EPOCHS`` epochs.

    log (List[Dict]): the run's epoch entries (``dev_conll_f1``, percent).
    RETURNS (bool): whether it warned.
    """
    if len(log) < FLAT_MIN_EPOCHS:
        return False
    first = log[0]["dev_conll_f1"]
    best = max(entry["dev_conll_f1"] for entry in log)
    if best - first >= FLAT_GAIN:
        return False
    warnings.warn(Warnings.W117.format(epochs=len(log), first=first, best=best))
    return True
