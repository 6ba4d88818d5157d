"""The decoding steps called with flat keyword arguments, as the tests write
them: each builds the runtime's bundles (:class:`DocScores`,
:class:`LinkConstraints`, :class:`ChainInputs`, :class:`DecodeState`) and
calls the runtime function, so the tests exercise the real code."""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import numpy as np

from neuralcoref.core.decode import antecedents, pronoun_chains
from neuralcoref.core.decode.antecedents import DocScores, LinkConstraints
from neuralcoref.core.decode.decode_passes import DecodeState, run_passes
from neuralcoref.core.decode.pronoun_chains import ChainInputs
from neuralcoref.core.discourse.binding import Binding


def decode_clusters(*args, **kwargs) -> List[List[int]]:
    """The clusters of every pass, from the :class:`DecodeState` fields in their order."""
    return run_passes(DecodeState(*args, **kwargs))


def best_antecedents(single, pair, ptr, ante, greedyness: float = 0.5, agreement=None, names=None, classes=None,
                     binding: Optional[Binding] = None, masks=None) -> np.ndarray:
    return antecedents.best_antecedents(DocScores(single, pair, ptr, ante), greedyness,
                                        LinkConstraints(agreement, names, classes, binding, masks))


def rescue_pronouns(links, single, pair, ptr, ante, persons, greedyness: float = 0.5, agreement=None, names=None,
                    classes=None, margin=None, binding=None, masks=None, top=None, name_of=None) -> np.ndarray:
    return antecedents.rescue_pronouns(links, DocScores(single, pair, ptr, ante), persons, greedyness,
                                       LinkConstraints(agreement, names, classes, binding, masks, name_of),
                                       margin, top)


def anchor_pronoun_chains(clusters, pair, ptr, ante, types, persons, agreement, classes, heads, names=None,
                          span_scores=None, partners: Optional[Dict[int, Set[int]]] = None, sentences=None,
                          lone=None, masks=None, name_of=None) -> List[List[int]]:
    mentions = ChainInputs(types, persons, agreement, classes, heads, names, span_scores, sentences, masks, name_of)
    return pronoun_chains.anchor_pronoun_chains(clusters, pair, ptr, ante, mentions, partners, lone)


def refer_forward(clusters, forward, types, persons, agreement, classes, heads, names=None, span_scores=None,
                  partners: Optional[Dict[int, Set[int]]] = None, masks=None) -> List[List[int]]:
    mentions = ChainInputs(types, persons, agreement, classes, heads, names, span_scores, masks=masks)
    return pronoun_chains.refer_forward(clusters, forward, mentions, partners)
