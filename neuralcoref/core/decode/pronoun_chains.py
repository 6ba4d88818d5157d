"""The pronoun passes: a chain of he/she pronouns that names nobody is given
the person it refers to (:func:`anchor_pronoun_chains`), and a pronoun of a
preposed clause moves to its main clause's subject (:func:`refer_forward`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Set

import numpy as np

from ...lang.lexicon import MENTION_CLASSES
from ..discourse.binding import allowed_together
from ..discourse.decode_signals import agreement_masks
from ..features.contract import GENDER, PERSON
from ..mentions.mentions import MENTION_TYPES
from ..util.cluster_sets import owner_map
from ..util.sets import isin
from .cluster_passes import compatible, move_into, settled

_PRONOMINAL = MENTION_TYPES.index("pronominal")
_PROPER = MENTION_TYPES.index("proper")
_NOMINAL = MENTION_TYPES.index("nominal")


@dataclass(frozen=True)
class ChainInputs:
    """What the pronoun passes read of each mention.

    types (int (n,)): mention types; persons (int (n,)): PERSON codes, -1 for non-pronouns.
    agreement (int (n, 2)): from :func:`~.decode_signals.agreement_codes`;
        classes (int (n,) | None): lexicon classes.
    heads (int (n,)), span_scores (float (n,) | None): for
        :func:`~.cluster_passes.one_span_per_head`.
    names (uint64 (n,) | None): name words (:func:`~.decode_signals.name_words`).
    sentences (int (n,) | None): each mention's sentence; None: no forward reference.
    masks (uint32 (n, 2) | None): ``agreement_masks(agreement, classes)`` when the caller has them.
    name_of (int (n,) | None): as for :func:`~.cluster_passes.drop_name_words`; a
        word inside a person's name ("President" of "President Obama") anchors nothing.
    """

    types: np.ndarray
    persons: np.ndarray
    agreement: np.ndarray
    classes: Optional[np.ndarray]
    heads: np.ndarray
    names: Optional[np.ndarray] = None
    span_scores: Optional[np.ndarray] = None
    sentences: Optional[np.ndarray] = None
    masks: Optional[np.ndarray] = None
    name_of: Optional[np.ndarray] = None


#: MENTION_CLASSES codes of mentions known to name a person (he/she may refer to them).
_ANIMATE = tuple(MENTION_CLASSES.index(c) for c in ("person", "female", "male"))
_MASC_FEM = (GENDER.index("masc"), GENDER.index("fem"))


def anchor_pronoun_chains(clusters: List[List[int]], pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray,
                          mentions: ChainInputs, partners: Optional[Dict[int, Set[int]]] = None,
                          lone: Optional[np.ndarray] = None) -> List[List[int]]:
    """Give each chain of he/she pronouns that names nobody the person it refers to.

    "he" and "she" refer to a person that a name or a noun introduces, yet a
    chain made only of pronouns ("He ... his ... he") is common: links from
    pronoun to pronoun outscore the link to the name. Such a chain (of pronouns
    with a grammatical person: "someone" names somebody), or a lone
    he/she pronoun, joins the cluster of its best-scored candidate antecedent
    that may be a person: a person noun of the lexicon, a gendered name or
    noun, or a name or noun of no known class (an animal; "the president",
    whose first WordNet sense is the office). Without one, it refers forward
    within its sentence (cataphora: "Before he could answer, the lawyer ...")
    to the first such mention. A join needs genders, numbers, names and
    binding to allow the two groups together (principle C keeps "He said that
    John left" apart). A lone pronoun whose best-scored candidate binding forbids
    ("John has a dog. He walks him": principle B keeps "him" from "He") refers
    all the same, to another mention: it takes its best-scored allowed earlier
    candidate of any kind ("a dog", which the lexicon does not call a person).

    A lone pronoun is anchored only where ``lone`` allows (the decode pass:
    every one at the shipped settings; where greedyness or link offsets raise
    its threshold by more than RESCUE_MARGIN, only one its scores nearly called
    anaphoric, as for :func:`~.antecedents.rescue_pronouns`), so that those settings keep
    their meaning. Only pronouns with a masculine or feminine
    agreement code are anchored: those of languages where decoding checks
    gender, i.e. where he/she means a person ("gender" in
    ``LanguageRules.decoding_agreement``; not French, whose "il" also stands
    for "le livre").

    clusters (List[List[int]]): sorted mention indices, as from
        :func:`~.cluster_passes.merge_repeats`.
    pair, ptr, ante: the candidates and their scores (CSR), as for
        :func:`~.antecedents.best_antecedents`.
    mentions (ChainInputs): what the pass reads of each mention.
    partners (Dict[int, Set[int]] | None): forbidden partners per mention
        (:meth:`~neuralcoref.core.discourse.binding.Binding.partners`); None: none.
    lone (bool (n,) | None): which pronouns outside every cluster may be anchored; None: all.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    types, persons, agreement = (np.asarray(a) for a in (mentions.types, mentions.persons, mentions.agreement))
    gendered = (persons == PERSON.index("3")) & isin(agreement[:, 0], _MASC_FEM)
    if not np.count_nonzero(gendered):
        return clusters
    classes, names, sentences, masks, name_of = (mentions.classes, mentions.names, mentions.sentences,
                                                 mentions.masks, mentions.name_of)
    if sentences is not None:  # non-decreasing, for _anchor_candidates' search
        sentences = np.maximum.accumulate(np.asarray(sentences))
    classes = np.zeros(len(types), np.int8) if classes is None else np.asarray(classes)
    person_like = _person_like(types, classes, agreement)
    if name_of is not None:
        person_like &= np.asarray(name_of) < 0
    if masks is None:
        masks = agreement_masks(agreement, classes)
    partners = partners or {}
    # A name, a noun or a pronoun of no grammatical person ("Someone asked the
    # lawyer to check his contract": someone, everyone, nobody) introduces a
    # referent: a chain holding one names somebody already.
    names_somebody = (types != _PRONOMINAL) | (persons == PERSON.index("unknown"))
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for m in np.flatnonzero(gendered if lone is None else gendered & np.asarray(lone, dtype=bool)).tolist():
        if m not in owner:
            owner[m] = len(groups)
            groups.append([m])
    for g in sorted(range(len(groups)), key=lambda g: groups[g][0]):
        members = groups[g]
        if not gendered[members].any() or any(names_somebody[m] for m in members):
            continue
        if len(members) == 1 and _barred_from_best(members[0], pair, ptr, ante, owner, partners):
            candidates = _anchor_candidates(members, pair, ptr, ante, types != _PRONOMINAL, None)
        else:
            candidates = _anchor_candidates(members, pair, ptr, ante, person_like, sentences)
        for a in candidates:
            target = groups[owner[a]] if a in owner else [a]
            if compatible(members, target, masks, names) and allowed_together(partners, members, target):
                move_into(groups, owner, g, a)
                break
    return settled(groups, mentions.heads, mentions.span_scores)


def refer_forward(clusters: List[List[int]], forward: np.ndarray, mentions: ChainInputs,
                  partners: Optional[Dict[int, Set[int]]] = None) -> List[List[int]]:
    """Move each he/she pronoun of a preposed adverbial clause or phrase to the cluster of
    its main clause's subject ("When he was minister, Kallergis ...": he is
    Kallergis, whatever name came before), when that subject may be a person
    (as for :func:`anchor_pronoun_chains`) and genders, numbers, names and
    binding allow. The pronoun alone moves; the mentions linked to it stay.

    forward (int (n,)): from :func:`neuralcoref.core.discourse.cataphora.forward_subjects`.
    The other arguments: as for :func:`anchor_pronoun_chains`.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    forward, types, persons, agreement = (np.asarray(a) for a in (forward, mentions.types, mentions.persons,
                                                                  mentions.agreement))
    gendered = (persons == PERSON.index("3")) & isin(agreement[:, 0], _MASC_FEM) & (forward >= 0)
    if not np.count_nonzero(gendered):
        return clusters
    classes, names, masks = mentions.classes, mentions.names, mentions.masks
    classes = np.zeros(len(types), np.int8) if classes is None else np.asarray(classes)
    person_like = _person_like(types, classes, agreement)
    if masks is None:
        masks = agreement_masks(agreement, classes)
    partners = partners or {}
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for m in np.flatnonzero(gendered).tolist():
        s = int(forward[m])
        if owner.get(m, -1) == owner.get(s, -2) or not person_like[s]:
            continue
        target = groups[owner[s]] if s in owner else [s]
        if not (compatible([m], target, masks, names) and allowed_together(partners, [m], target)):
            continue
        if m in owner:
            groups[owner[m]].remove(m)
        owner[m] = len(groups)
        groups.append([m])
        move_into(groups, owner, owner[m], s)
    return settled(groups, mentions.heads, mentions.span_scores)


def _person_like(types: np.ndarray, classes: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """(n,) bool: the mentions he or she may refer to: no pronoun, and a person
    of the lexicon, a gendered name or noun, or a name or noun of no known class
    (an animal; "the president", whose first WordNet sense is the office)."""
    return (types != _PRONOMINAL) & (isin(classes, _ANIMATE) | isin(agreement[:, 0], _MASC_FEM)
                                     | (isin(types, (_PROPER, _NOMINAL)) & (classes == 0)))


def _barred_from_best(m: int, pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray, owner: Dict[int, int],
                      partners: Dict[int, Set[int]]) -> bool:
    """Whether binding forbids mention ``m`` its best-scored candidate, directly
    or through that candidate's group ("He walks him": "him" and "He")."""
    lo, hi = int(ptr[m]), int(ptr[m + 1])
    if m not in partners or lo == hi:
        return False
    best = int(ante[lo + int(np.argmax(pair[lo:hi]))])
    home = owner.get(best)
    return any(p == best or (home is not None and owner.get(p) == home) for p in partners[m])


def _anchor_candidates(members: List[int], pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray,
                       person_like: np.ndarray, sentences: Optional[np.ndarray]) -> List[int]:
    """A pronoun chain's possible anchors, best first: its members' person-like
    candidate antecedents by pair score, then the person-like mentions after its
    first member in that sentence, nearest first."""
    k = np.concatenate([np.arange(ptr[m], ptr[m + 1]) for m in members])
    k = k[person_like[ante[k]]]
    out = ante[k[np.argsort(-pair[k], kind="stable")]].tolist()
    if sentences is not None:
        first = members[0]
        end = int(np.searchsorted(sentences, sentences[first], side="right"))
        out += (np.flatnonzero(person_like[first + 1:end]) + first + 1).tolist()
    return out
