"""Links: each mention's best antecedent under the constraints, the rescue
of blocked pronouns, and the salience preferences that raise pair scores
before linking."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import numpy as np

from .. import _features
from ..discourse.binding import Binding
from ..discourse.decode_signals import agreement_masks, greedyness_offset
from ..features.contract import PERSON
from ..util.sets import isin


@dataclass
class DocScores:
    """One Doc's scores and the candidates they score.

    single (float32 (n,)): no-antecedent scores.
    pair (float32 (n_pairs,)): pair scores, in the order of ``ante``.
    ptr (int64 (n + 1,)), ante (int32 (n_pairs,)): candidate antecedents (CSR).
    mention (float32 (n,) | None): mention scores, which pick a cluster's span per head.
    """

    single: np.ndarray
    pair: np.ndarray
    ptr: np.ndarray
    ante: np.ndarray
    mention: Optional[np.ndarray] = None


@dataclass(frozen=True)
class LinkConstraints:
    """What a link must respect, per mention; None: nothing of that kind.

    agreement (int (n, 2) | None): from :func:`~.decode_signals.agreement_codes`;
        a mention never joins a cluster that holds a mention of another known
        gender or number ("my sister ... him", "the students ... she"). Gold
        coreference seldom mixes them, while a model trained on a few hundred
        documents does not always learn to avoid it.
    names (uint64 (n,) | None): from :func:`~.decode_signals.name_words`; a
        mention with a name never joins a cluster whose names share no word with
        it ("Pauline" and "Laurence"; "Samuel" and "Samuel de Constant" may meet).
    classes (int (n,) | None): lexicon classes, see
        :func:`~.decode_signals.agreement_masks` ("the laptop" never joins "he");
        they need ``agreement``.
    binding (Binding | None): from :func:`~neuralcoref.core.discourse.binding.binding_constraints`;
        a mention never joins a cluster holding a mention it is forbidden to
        corefer with ("He saw him"), and a reflexive links to its binder ("Peter
        saw himself") when agreement allows, whatever the scores.
    masks (uint32 (n, 2) | None): ``agreement_masks(agreement, classes)`` when the
        caller has them already (the decode passes share one).
    name_of (int (n,) | None): for a word inside a person's name, the name's head
        token, else -1: no rescued pronoun links to it ("Dr." of "Dr. Brown").
    """

    agreement: Optional[np.ndarray] = None
    names: Optional[np.ndarray] = None
    classes: Optional[np.ndarray] = None
    binding: Optional[Binding] = None
    masks: Optional[np.ndarray] = None
    name_of: Optional[np.ndarray] = None


NO_CONSTRAINTS = LinkConstraints()


def best_antecedents(scores: DocScores, greedyness: float = 0.5,
                     constraints: LinkConstraints = NO_CONSTRAINTS) -> np.ndarray:
    """Each mention's chosen antecedent, or -1 for none, decided left to right.

    scores (DocScores): the single, pair and candidate arrays (``mention`` unused).
    greedyness (float): 0-1, see :func:`~.decode_signals.greedyness_offset`.
    constraints (LinkConstraints): what every link respects (``name_of`` unused).
    RETURNS (ndarray): (n,) int32; a mention links to its best allowed candidate
        (the first of equal ones) when that score beats its single score by the
        greedyness offset.
    """
    n = len(scores.single)
    agreement, names, binding, masks = (constraints.agreement, constraints.names, constraints.binding,
                                        constraints.masks)
    if agreement is None:
        agreement = np.zeros((n, 2), dtype=np.int32)
    if names is None:
        names = np.zeros(n, dtype=np.uint64)
    if binding is None:
        binding = Binding.none(n)
    if masks is None:
        masks = agreement_masks(agreement, constraints.classes)
    # The kernel reads the arrays in these dtypes, C-contiguous (copies only where they differ).
    typed_scores = DocScores(np.ascontiguousarray(scores.single, dtype=np.float32),
                             np.ascontiguousarray(scores.pair, dtype=np.float32),
                             np.ascontiguousarray(scores.ptr, dtype=np.int64),
                             np.ascontiguousarray(scores.ante, dtype=np.int32))
    typed_binding = Binding(np.ascontiguousarray(binding.forbid_ptr, dtype=np.int64),
                            np.ascontiguousarray(binding.forbid, dtype=np.int32),
                            np.ascontiguousarray(binding.binder, dtype=np.int32), binding.fallback)
    return _features.consistent_antecedents(
        typed_scores, greedyness_offset(greedyness), np.ascontiguousarray(masks[:, 0]),
        np.ascontiguousarray(masks[:, 1]), np.ascontiguousarray(names, dtype=np.uint64), typed_binding)


#: How far below its threshold a blocked pronoun's best allowed candidate may score
#: and still be linked by :func:`rescue_pronouns` (measured: docs/experiments/
#: 2026-11-26-lexicon-speakers.md).
RESCUE_MARGIN = 0.3


def rescue_pronouns(links: np.ndarray, scores: DocScores, persons: np.ndarray, greedyness: float = 0.5,
                    constraints: LinkConstraints = NO_CONSTRAINTS, margin: Optional[float] = None,
                    top: Optional[np.ndarray] = None) -> np.ndarray:
    """Links again, letting a third-person pronoun that the scores called anaphoric
    but agreement left unlinked take its best allowed candidate.

    In "My sister has a dog. She loves him." the scorers rank "My sister" first
    for "him" and clear its threshold: "him" refers to something, just not to a
    woman. Agreement forbids her, and "a dog" scores under the threshold, so
    "him" was left alone. Here such a pronoun's threshold drops by ``margin``
    and first- and second-person candidates are left out ("My"), then the
    mentions are linked again with every constraint, binding included (so a
    pronoun whose best candidate binding forbids may take its best allowed one
    under the lowered threshold, never a forbidden one).

    links (int (n,)): from :func:`best_antecedents` with the same arguments.
    persons (int (n,)): a pronoun's PERSON code, -1 for other mentions.
    margin (float | None): None: RESCUE_MARGIN.
    top (float32 (n,) | None): ``top_scores(pair, ptr)`` when the caller has them.
    scores, greedyness, constraints: as for :func:`best_antecedents` (``single``
        with its offsets); a word inside a person's name (``constraints.name_of``)
        is no rescued pronoun's antecedent.
    RETURNS (ndarray): (n,) int32 links, ``links`` itself when no pronoun was blocked.
    """
    single, pair = np.asarray(scores.single, np.float32), np.asarray(scores.pair, np.float32)
    ptr, ante, name_of = np.asarray(scores.ptr), scores.ante, constraints.name_of
    counts = ptr[1:] - ptr[:-1]
    top = top_scores(pair, ptr) if top is None else top
    third = np.asarray(persons) == PERSON.index("3")
    blocked = (np.asarray(links) < 0) & third & (top - single > greedyness_offset(greedyness))
    if not np.count_nonzero(blocked):
        return links
    anaphor = np.repeat(np.arange(len(single)), counts)
    barred = isin(np.asarray(persons)[np.asarray(ante)], (PERSON.index("1"), PERSON.index("2")))
    if name_of is not None:  # nor a word of a person's name ("Dr." of "Dr. Brown")
        barred |= np.asarray(name_of)[np.asarray(ante)] >= 0
    pair = np.where(blocked[anaphor] & barred, np.float32(-np.inf), pair)
    margin = RESCUE_MARGIN if margin is None else margin
    single = np.where(blocked, single - np.float32(margin), single)
    return best_antecedents(DocScores(single, pair, ptr, ante), greedyness, constraints)


def top_scores(pair: np.ndarray, ptr: np.ndarray) -> np.ndarray:
    """Each mention's best candidate score, -inf for a mention without candidates.

    pair (float32 (n_pairs,)), ptr (int64 (n + 1,)): the scores (CSR).
    RETURNS (ndarray): (n,) float32.
    """
    pair, ptr = np.asarray(pair, np.float32), np.asarray(ptr)
    has = ptr[1:] > ptr[:-1]
    top = np.full(len(ptr) - 1, -np.inf, dtype=np.float32)
    if np.count_nonzero(has):
        top[has] = np.maximum.reduceat(pair, ptr[:-1][has])
    return top


#: Sentences back within which a subject is salient for a pronoun: its own and
#: the one before (the previous utterance of centering theory).
SALIENT_SENTENCES = 1


def prefer_near(pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray, sentences: np.ndarray,
                preferences: Sequence[Tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Pair scores where a pronoun that prefers a kind of antecedent scores each
    such antecedent in its own or the previous sentence higher by its salience.

    Three preferences use it. He and she prefer a near subject
    (:func:`~.decode_signals.subject_salience`): between two people of one gender the scorers
    often choose by distance or leave the pronoun alone, while the subject of
    the last sentence is a pronoun's preferred antecedent (centering theory's
    preferred center, and the parallelism that GAP's syntactic baselines use).
    A referring "it" prefers a near concrete thing
    (:func:`~neuralcoref.core.discourse.classes.thing_preference`): trained on corpora
    where many an "it" is an event or nothing, the scorers leave "He closed it"
    unlinked. They prefer a near coordinated subject
    (:func:`~.decode_signals.coordination_preference`). Measurements:
    docs/experiments/2026-11-27-name-parts.md, 2026-11-27-it-things.md,
    2026-11-28-coordination-voices.md.

    pair (float (n_pairs,)), ptr (int (n + 1,)), ante (int (n_pairs,)): the scores, as
        for :func:`best_antecedents`.
    sentences (int (n,)): the mentions' sentence indices.
    preferences: (salience float (n,), prefers bool (n,)) pairs: what each
        mention adds as an antecedent, and which pronouns it adds it for.
    RETURNS (ndarray): the pair scores, ``pair`` itself where nothing changes.
    """
    # np.count_nonzero, not np.any (a Python wrapper, ~3 us): a short Doc asks six times.
    preferences = [(np.asarray(s, dtype=np.float32), np.asarray(p, dtype=bool)) for s, p in preferences
                   if np.count_nonzero(s) and np.count_nonzero(p)]
    if not preferences:
        return pair
    anaphor = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    ante, sentences = np.asarray(ante), np.asarray(sentences)
    near = sentences[anaphor] - sentences[ante] <= SALIENT_SENTENCES
    out = np.asarray(pair, dtype=np.float32).copy()
    for salience, prefers in preferences:
        out += np.where(near & prefers[anaphor], salience[ante], np.float32(0))
    return out
