"""The decoder as an ordered list of passes over one state.

Each pass reads and updates a :class:`DecodeState` (scores, the decode inputs,
and what earlier passes made: masks, links, clusters); :data:`PASSES` lists them
in order. A decoding rule is switched off by name (:data:`RULES`,
``DecodeSettings.off``): a pass of that name is skipped, a constraint of that
name is given no data (agreement, binding, names...). With nothing off the
clusters are those the former ``decode_clusters`` gave (bit-identical).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..discourse.binding import Binding
from ..discourse.decode_signals import agreement_masks, greedyness_offset
from .antecedents import (RESCUE_MARGIN, DocScores, LinkConstraints, best_antecedents, prefer_near,
                          rescue_pronouns, top_scores)
from .cluster_passes import (attach_repeats, clusters_from_links, drop_name_words, join_aliases, join_speakers,
                             merge_repeats, merge_shared_heads, one_span_per_head, without_verb_phrases)
from .pronoun_chains import ChainInputs, anchor_pronoun_chains, refer_forward

#: The salience preferences of :func:`~neuralcoref.core.decode.antecedents.prefer_near`, in the
#: order ``decode`` builds them: he/she for a near subject, "it" for a near thing, they
#: for a near coordinated subject.
PREFERENCES = ("prefer_subject", "prefer_thing", "prefer_coordination")
#: Constraints of the linking and merging passes that are data, not passes: the
#: per-type link offsets, gender/number agreement (the masks), lexicon classes in the
#: masks, name words, binding (with its held pairs).
CONSTRAINTS = ("link_offsets", "agreement", "lexicon_classes", "name_words", "binding")


@dataclass
class DecodeState:
    """What the passes share: one Doc's scores, its decode inputs, and what
    the passes made of them so far. Optional inputs left None skip the passes
    that need them."""

    single: np.ndarray
    pair: np.ndarray
    ptr: np.ndarray
    ante: np.ndarray
    heads: np.ndarray
    greedyness: float = 0.5
    agreement: Optional[np.ndarray] = None
    offsets: Optional[np.ndarray] = None
    repeats: Optional[np.ndarray] = None
    names: Optional[np.ndarray] = None
    span_scores: Optional[np.ndarray] = None
    classes: Optional[np.ndarray] = None
    persons: Optional[np.ndarray] = None
    speakers: Optional[np.ndarray] = None
    binding: Optional[Binding] = None
    types: Optional[np.ndarray] = None
    sentences: Optional[np.ndarray] = None
    aliases: Optional[np.ndarray] = None
    name_of: Optional[np.ndarray] = None
    preferences: Sequence[Tuple[np.ndarray, np.ndarray]] = ()
    forward: Optional[np.ndarray] = None
    trims: Optional[np.ndarray] = None
    #: Made by the passes.
    masks: Optional[np.ndarray] = None
    top: Optional[np.ndarray] = None
    links: Optional[np.ndarray] = None
    clusters: List[List[int]] = field(default_factory=list)
    partners: Dict[int, Set[int]] = field(default_factory=dict)


def _link_offsets(s: DecodeState) -> None:
    if s.offsets is not None:  # a higher no-antecedent score is a higher threshold
        s.single = np.asarray(s.single, dtype=np.float32) + s.offsets


def _prefer_near(s: DecodeState) -> None:
    if len(s.preferences) and s.sentences is not None:
        s.pair = prefer_near(s.pair, s.ptr, s.ante, s.sentences, s.preferences)


def _scores(s: DecodeState) -> DocScores:
    return DocScores(s.single, s.pair, s.ptr, s.ante)


def _constraints(s: DecodeState) -> LinkConstraints:
    return LinkConstraints(s.agreement, s.names, s.classes, s.binding, s.masks, s.name_of)


def _link(s: DecodeState) -> None:
    """Best antecedents under every constraint (binding's links-only mode first)."""
    if s.masks is None and s.agreement is not None:  # computed once for every pass below
        s.masks = agreement_masks(s.agreement, s.classes)
    if s.binding is not None and not s.binding.clusters:
        direct, rest = s.binding.as_link_scores(s.pair, s.ptr, s.ante)
        first = best_antecedents(DocScores(s.single, direct, s.ptr, s.ante), s.greedyness,
                                 LinkConstraints(s.agreement, s.names, s.classes, rest, s.masks))
        s.pair, s.binding = s.binding.as_link_scores(s.pair, s.ptr, s.ante, first)
    s.top = top_scores(s.pair, s.ptr) if s.persons is not None else None  # the rescue's and anchoring's
    s.links = best_antecedents(_scores(s), s.greedyness, _constraints(s))


def _rescue_pronouns(s: DecodeState) -> None:
    if s.persons is not None:
        s.links = rescue_pronouns(s.links, _scores(s), s.persons, s.greedyness, _constraints(s), top=s.top)


def _clusters(s: DecodeState) -> None:
    # One span per head token: an invariant of the output, not a rule to switch off
    # (without it a few clusters hold nested spans of one head, which gold never does:
    # docs/experiments/2026-12-07-rules-on-folds.md).
    s.clusters = one_span_per_head(clusters_from_links(s.links), s.heads, s.span_scores)
    s.partners = s.binding.partners() if s.binding is not None else {}


def _repeats(s: DecodeState) -> None:
    if s.repeats is not None:
        s.clusters = merge_repeats(attach_repeats(s.clusters, s.repeats, s.heads, s.partners), s.repeats,
                                   s.heads, s.span_scores, s.names, s.partners)


def _merge_shared_heads(s: DecodeState) -> None:
    s.clusters = merge_shared_heads(s.clusters, s.heads, s.types, s.span_scores, s.names, s.partners, s.masks)


def _aliases(s: DecodeState) -> None:
    if s.aliases is not None:
        s.clusters = join_aliases(s.clusters, s.aliases, s.heads, s.span_scores, s.names, s.partners, s.masks)


def _pronoun_passes_apply(s: DecodeState) -> bool:
    return s.persons is not None and s.agreement is not None and s.types is not None


def _chain_inputs(s: DecodeState) -> ChainInputs:
    return ChainInputs(s.types, s.persons, s.agreement, s.classes, s.heads, s.names, s.span_scores,
                       s.sentences, s.masks, s.name_of)


def _anchor_pronoun_chains(s: DecodeState) -> None:
    if not _pronoun_passes_apply(s):
        return
    # A he/she refers: one left alone is anchored, unless greedyness and
    # offsets raise its threshold by more than the rescue's margin; then
    # only when its scores nearly called it anaphoric, as for the rescue.
    margin = greedyness_offset(s.greedyness) - RESCUE_MARGIN
    raised = margin + (s.offsets if s.offsets is not None else 0.0)
    lone = (raised < 0) | ((s.ptr[1:] > s.ptr[:-1]) & (s.top - s.single > margin))
    s.clusters = anchor_pronoun_chains(s.clusters, s.pair, s.ptr, s.ante, _chain_inputs(s), s.partners, lone)


def _refer_forward(s: DecodeState) -> None:
    if _pronoun_passes_apply(s) and s.forward is not None:
        s.clusters = refer_forward(s.clusters, s.forward, _chain_inputs(s), s.partners)


def _join_speakers(s: DecodeState) -> None:
    if s.speakers is not None and len(s.speakers):
        s.clusters = join_speakers(s.clusters, s.speakers, s.heads, s.masks, s.names, s.span_scores,
                                   s.partners)


def _merge_freed_heads(s: DecodeState) -> None:
    # Anchoring and speakers may take a free span whose head another cluster
    # already holds ("Helen Modern (born 1983)" and "Helen Modern" ... "Helen").
    if s.persons is not None or (s.speakers is not None and len(s.speakers)):
        _merge_shared_heads(s)


def _drop_name_words(s: DecodeState) -> None:
    if s.name_of is not None:
        s.clusters = drop_name_words(s.clusters, s.name_of, s.heads)


def _without_verb_phrases(s: DecodeState) -> None:
    if s.trims is not None:
        s.clusters = without_verb_phrases(s.clusters, s.trims)


Pass = Callable[[DecodeState], None]
#: The decoder, in order: (switch name, pass). The passes named "link" and
#: "clusters" are the decoder itself and cannot be switched off; the second
#: merge of shared heads goes with the first ("merge_shared_heads").
PASSES: Tuple[Tuple[str, Pass], ...] = (
    ("link_offsets", _link_offsets),
    ("prefer_near", _prefer_near),
    ("link", _link),
    ("rescue_pronouns", _rescue_pronouns),
    ("clusters", _clusters),
    ("repeats", _repeats),
    ("merge_shared_heads", _merge_shared_heads),
    ("aliases", _aliases),
    ("anchor_pronoun_chains", _anchor_pronoun_chains),
    ("refer_forward", _refer_forward),
    ("join_speakers", _join_speakers),
    ("merge_shared_heads", _merge_freed_heads),
    ("drop_name_words", _drop_name_words),
    ("without_verb_phrases", _without_verb_phrases),
)
_CORE = ("link", "clusters")
#: Every rule that ``DecodeSettings.off`` may name: the passes (but the core two),
#: the salience preferences and the constraints.
RULES: Tuple[str, ...] = tuple(dict.fromkeys(
    [name for name, _ in PASSES if name not in _CORE and name != "prefer_near"] + list(PREFERENCES)
    + list(CONSTRAINTS)))


def run_passes(state: DecodeState, off: FrozenSet[str] = frozenset()) -> List[List[int]]:
    """Run :data:`PASSES` in order over ``state``, skipping those named in ``off``.

    RETURNS (List[List[int]]): mention indices per cluster.
    """
    if off:
        state = without_rules(state, off)
    for name, step in PASSES:
        if name not in off:
            step(state)
    return state.clusters


def without_rules(state: DecodeState, off: FrozenSet[str]) -> DecodeState:
    """``state`` with the data of the constraints and preferences in ``off`` taken
    away (the passes named in ``off`` are skipped by :func:`run_passes`).

    A constraint off allows everything: agreement off leaves the masks empty (any
    gender and number), lexicon classes off builds them from morphology alone,
    name words off gives no mention a name, binding off forbids nothing.
    """
    n = len(state.single)
    if "link_offsets" in off:
        state.offsets = None
    if "agreement" in off:
        state.masks = np.zeros((n, 2), dtype=np.uint32)
    elif "lexicon_classes" in off and state.agreement is not None:
        state.masks = agreement_masks(state.agreement, None)
    if "name_words" in off:
        state.names = np.zeros(n, dtype=np.uint64)
    if "binding" in off:
        state.binding = Binding.none(n)
    if state.preferences:
        state.preferences = tuple(p for name, p in zip(PREFERENCES, state.preferences) if name not in off)
    return state
