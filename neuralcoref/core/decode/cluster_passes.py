"""The cluster passes: clusters along the links, one span per head, and the
merges after linking (repeats, shared heads, aliases, speakers), each a
function of the clusters so far; and a cluster's main mention."""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple

import numpy as np

from ..discourse.binding import allowed_together
from ..mentions.mentions import MENTION_TYPES
from ..util.cluster_sets import UnionFind, owner_map
from .group_bits import GroupBits

_PRONOMINAL = MENTION_TYPES.index("pronominal")
_LIST = MENTION_TYPES.index("list")


def clusters_from_links(links: np.ndarray) -> List[List[int]]:
    """Group mentions along links into clusters of two or more mentions.

    Every link points back (candidates precede their anaphor), so links form a
    forest whose roots are first mentions: one pass in document order gives each
    mention its antecedent's cluster, with no union-find.

    links (int (n,)): antecedent of each mention (an earlier index) or -1.
    RETURNS (List[List[int]]): mention indices per cluster, sorted, clusters in
        order of their first mention.
    """
    links = np.asarray(links)
    if (links >= np.arange(len(links))).any():
        raise ValueError("clusters_from_links: every link must point to an earlier mention")
    cluster = list(range(len(links)))
    groups: Dict[int, List[int]] = {}
    for m, a in enumerate(links.tolist()):
        if a >= 0:
            cluster[m] = cluster[a]
        groups.setdefault(cluster[m], []).append(m)
    return [g for _, g in sorted(groups.items()) if len(g) > 1]


def one_span_per_head(clusters: List[List[int]], heads: np.ndarray,
                      span_scores: Optional[np.ndarray] = None) -> List[List[int]]:
    """Keep one mention of each head token in every cluster: the one with the
    highest span score, the first of equal ones (the shortest of those that
    start first; all of them without scores).

    Candidate spans often share a head ("Mary Chaworth" and "Mary Chaworth, whom
    he met"); gold clusters hold one of them (none of OntoGUM train's 21,510
    extracted gold mentions shares a head with another of its cluster, 1 of
    fr-litbank's 20,846), so the others are redundant. Which one the gold holds
    differs ("la mère" / "la mère aveugle", "Samuel" / "Samuel de Constant"): a
    mention scorer trained on data that annotates every mention (LitBank) tells
    them apart, and its scores pick the span. Links through a dropped mention still join the
    rest; clusters left with one mention are dropped.

    clusters (List[List[int]]): sorted mention indices, as from
        :func:`clusters_from_links`.
    heads (int (n,)): head token of each mention.
    span_scores (float (n,) | None): how likely each span is a mention; None: the first.
    RETURNS (List[List[int]]): the clusters without repeated heads, each sorted.
    """
    out = []
    for cluster in clusters:
        kept: Dict[int, int] = {}
        for i in cluster:
            head = int(heads[i])
            if head not in kept or (span_scores is not None and span_scores[i] > span_scores[kept[head]]):
                kept[head] = i
        if len(kept) > 1:
            out.append(sorted(kept.values()))
    return out


def settled(groups: Iterable[List[int]], heads: np.ndarray,
            span_scores: Optional[np.ndarray] = None) -> List[List[int]]:
    """The clusters a pass's groups of mentions make: each sorted, one span per
    head (:func:`one_span_per_head`, which drops those left with one mention),
    in order of their first mention."""
    clusters = one_span_per_head([sorted(g) for g in groups], heads, span_scores)
    return sorted(clusters, key=lambda members: members[0])


def attach_repeats(clusters: List[List[int]], keys: np.ndarray, heads: np.ndarray,
                   partners: Optional[Dict[int, Set[int]]] = None) -> List[List[int]]:
    """Add each mention left out of every cluster to the cluster of the latest
    earlier mention with the same :func:`~.decode_signals.repeat_keys` key.

    A repeated name ("Pauline" ... "Pauline") is seldom another entity, yet the
    scorers often leave it unlinked: the same word is also a non-mention inside
    longer names ("mademoiselle Pauline D..."), so its mention score is low. The
    same holds for "I" said twice by one speaker. Only mentions outside every
    cluster move, and never into a cluster that already holds their head, so no
    link the scorers made is undone. New clusters of two unlinked repeats are not
    made: many repeated names are not annotated mentions.

    clusters (List[List[int]]): sorted mention indices, as from :func:`one_span_per_head`.
    keys (uint64 (n,)): from :func:`~.decode_signals.repeat_keys` (0: none).
    heads (int (n,)): head token of each mention.
    partners (Dict[int, Set[int]] | None): from :meth:`~neuralcoref.core.discourse.binding.Binding.partners`:
        a mention never joins a cluster holding one of its partners.
    RETURNS (List[List[int]]): the clusters, each still sorted.
    """
    partners = partners or {}
    keyed = np.flatnonzero(keys)
    if not len(keyed) or not clusters:
        return clusters
    cluster_of = owner_map(clusters)
    out = [list(members) for members in clusters]
    held = [{int(heads[m]) for m in members} for members in clusters]
    latest: Dict[int, int] = {}
    for m in keyed.tolist():
        key = int(keys[m])
        if m in cluster_of:
            latest[key] = cluster_of[m]
        elif (key in latest and int(heads[m]) not in held[latest[key]]
              and not partners.get(m, set()) & set(out[latest[key]])):
            c = cluster_of[m] = latest[key]
            out[c].append(m)
            held[c].add(int(heads[m]))
    return [sorted(members) for members in out]


def merge_repeats(clusters: List[List[int]], keys: np.ndarray, heads: np.ndarray,
                  span_scores: Optional[np.ndarray] = None,
                  names: Optional[np.ndarray] = None,
                  partners: Optional[Dict[int, Set[int]]] = None,
                  masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Merge the clusters that hold mentions of one :func:`~.decode_signals.repeat_keys` key,
    unless both have names and their names share no word, or the merge would
    put a pair that binding forbids in one cluster.

    Linking is local: a chain of hundreds of mentions (a novel's narrator, a
    letter writer, a name repeated over chapters) breaks into several clusters
    when some pronoun in between links elsewhere, and nothing joins the pieces
    back. The key says they are one entity: the same proper name, or "I" / "je"
    of the same speaker. The names guard what a wrong link put in a piece: a
    narrator's "je" linked into another character's cluster would otherwise
    merge the two characters (two heroines of one novel; the narrators of an
    anthology's tales). Measurements: docs/experiments/2026-11-25-shipped-models.md.

    clusters (List[List[int]]): sorted mention indices, as from :func:`attach_repeats`.
    keys (uint64 (n,)): from :func:`~.decode_signals.repeat_keys` (0: none).
    heads (int (n,)), span_scores (float (n,) | None): for :func:`one_span_per_head`,
        which a merged cluster goes through again (its pieces may share a head).
    names (uint64 (n,) | None): from :func:`~.decode_signals.name_words`; None merges without the
        names' check.
    partners (Dict[int, Set[int]] | None): forbidden partners per mention
        (:meth:`~neuralcoref.core.discourse.binding.Binding.partners`); None: none.
    masks (uint32 (n, 2) | None): from :func:`~.decode_signals.agreement_masks`; when given, two
        clusters merge only where some gender and number allow both.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    partners = partners or {}
    sets = UnionFind(len(clusters))
    root = sets.find
    held = [list(members) for members in clusters]  # members per root, for the binding check
    words = [int(np.bitwise_or.reduce(names[members])) if names is not None and members else 0
             for members in clusters]

    owner: Dict[int, int] = {}
    for c, members in enumerate(clusters):
        for key in sorted({int(keys[m]) for m in members} - {0}):
            if key not in owner:
                owner[key] = c
                continue
            a, b = root(owner[key]), root(c)
            if a != b and (not words[a] or not words[b] or words[a] & words[b]) \
                    and allowed_together(partners, held[a], held[b]) \
                    and (masks is None or compatible(held[a], held[b], masks, None)):
                sets.parent[b] = a  # both roots: b's set under a
                words[a] |= words[b]
                held[a] += held[b]
    if all(root(c) == c for c in range(len(clusters))):
        return clusters
    groups: Dict[int, List[int]] = {}
    for c, members in enumerate(clusters):
        groups.setdefault(root(c), []).extend(members)
    return settled(groups.values(), heads, span_scores)


def merge_shared_heads(clusters: List[List[int]], heads: np.ndarray,
                       types: Optional[np.ndarray] = None,
                       span_scores: Optional[np.ndarray] = None,
                       names: Optional[np.ndarray] = None,
                       partners: Optional[Dict[int, Set[int]]] = None,
                       masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Merge the clusters that hold mentions of one head token, with the checks
    of :func:`merge_repeats`, keeping one span per head.

    Nested candidates share a head ("Sahara Smith" and "Sahara Smith (born
    1988)"), and linking may put each in its own cluster: two chains of one
    entity, one of which then holds the pronouns and the other the later
    "Smith". One token heads one referent.

    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    keys = np.asarray(heads, dtype=np.uint64) + np.uint64(1)
    if types is not None:  # a list shares its head with its first item ("[John] and Mary")
        keys[np.asarray(types) == _LIST] = 0
    return merge_repeats(clusters, keys, heads, span_scores, names, partners, masks)


def join_aliases(clusters: List[List[int]], aliases: np.ndarray, heads: np.ndarray,
                 span_scores: Optional[np.ndarray] = None, names: Optional[np.ndarray] = None,
                 partners: Optional[Dict[int, Set[int]]] = None,
                 masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Put each acronym or name in part in one cluster with the name it stands
    for: their clusters merge, or the two make a new one, unless names, binding
    or agreement keep the two groups apart.

    Unlike a repeated name, which is often no annotated mention ("Paris" in
    "the Paris Agreement"), an acronym and its name are both names of the
    entity, so two lone mentions make a cluster too.

    clusters (List[List[int]]): sorted mention indices, as from :func:`merge_shared_heads`.
    aliases (int (n,)): for an acronym or a person's name in part, the mention
        it stands for, else -1 (:func:`~neuralcoref.core.discourse.aliases.acronym_aliases`,
        :func:`~neuralcoref.core.discourse.aliases.name_parts`).
    heads, span_scores, names, partners, masks: as for :func:`merge_shared_heads`.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    aliases = np.asarray(aliases)
    found = (aliases >= 0).nonzero()[0]
    if not len(found):
        return clusters
    partners = partners or {}
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    bits = GroupBits(masks, names)
    sums = [bits.of(g) for g in groups]  # kept in step with groups
    for m in found.tolist():
        a = int(aliases[m])
        if m in owner and owner[m] == owner.get(a):
            continue
        left = groups[owner[m]] if m in owner else [m]
        right = groups[owner[a]] if a in owner else [a]
        # The acronym's own number says nothing ("IDD" for "Iodine Deficiency Disorders").
        rest = sums[owner[m]] - bits.of([m]) if m in owner else bits.of([])
        if bits.compatible(rest, sums[owner[a]] if a in owner else bits.of([a])) \
                and allowed_together(partners, left, right):
            if m not in owner:
                owner[m] = len(groups)
                groups.append([m])
                sums.append(bits.of([m]))
            if a not in owner:  # move_into makes its group
                sums.append(bits.of([a]))
            g = owner[m]
            move_into(groups, owner, g, a)
            sums[owner[a]], sums[g] = sums[owner[a]] + sums[g], sums[g] * 0
    return settled(groups, heads, span_scores)


def join_speakers(clusters: List[List[int]], speakers: np.ndarray, heads: np.ndarray,
                  masks: Optional[np.ndarray] = None, names: Optional[np.ndarray] = None,
                  span_scores: Optional[np.ndarray] = None,
                  partners: Optional[Dict[int, Set[int]]] = None) -> List[List[int]]:
    """Put each pronoun of an attributed quotation in its speaker's cluster
    ('"I am tired," said Anna': "I" joins Anna), as one more decoding step.

    Scorers trained without such pairs seldom link a quoted "I" to the name of
    the verb's subject. A pronoun's cluster and its speaker's merge unless they
    have names that share no word, genders or numbers that no value satisfies,
    or a pair of mentions that binding keeps apart.

    clusters (List[List[int]]): sorted mention indices, as from :func:`merge_repeats`.
    speakers (int (k, 2)): pairs (pronoun, speaker mention), from
        :func:`~neuralcoref.core.doc.quotes.speaker_links`.
    heads (int (n,)), span_scores: for :func:`one_span_per_head`.
    masks (uint32 (n, 2) | None): from :func:`~.decode_signals.agreement_masks`; names (uint64 (n,) | None).
    partners (Dict[int, Set[int]] | None): forbidden partners per mention
        (:meth:`~neuralcoref.core.discourse.binding.Binding.partners`); None: none.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    if not len(speakers):
        return clusters
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for pronoun, speaker in np.asarray(speakers).tolist():
        a, b = owner.get(pronoun), owner.get(speaker)
        if a is not None and a == b:
            continue
        left, right = groups[a] if a is not None else [pronoun], groups[b] if b is not None else [speaker]
        if not compatible(left, right, masks, names) or \
                not allowed_together(partners or {}, left, right):
            continue
        target = b if b is not None else a
        if target is None:
            target = len(groups)
            groups.append([])
        for m in left + right:
            if owner.get(m) != target:
                if m in owner:
                    groups[owner[m]] = [x for x in groups[owner[m]] if x != m]
                owner[m] = target
                groups[target].append(m)
    return settled(groups, heads, span_scores)


def move_into(groups: List[List[int]], owner: Dict[int, int], g: int, a: int) -> None:
    """Move group ``g``'s members into the group of mention ``a`` (a new group
    when ``a`` has none), updating ``owner``."""
    if a not in owner:
        owner[a] = len(groups)
        groups.append([a])
    for m in groups[g]:
        owner[m] = owner[a]
    groups[owner[a]] = groups[owner[a]] + groups[g]
    groups[g] = []


def compatible(left: List[int], right: List[int], masks: Optional[np.ndarray],
                names: Optional[np.ndarray]) -> bool:
    """Whether two groups of mentions may form one cluster: names that share a
    word (or none on one side), and some gender and number both allow."""
    if names is not None:
        wl, wr = (int(np.bitwise_or.reduce(names[g])) for g in (left, right))
        if wl and wr and not wl & wr:
            return False
    if masks is not None:
        for col in range(masks.shape[1]):
            allowed = [m for m in masks[left + right, col].tolist() if m]
            if allowed and not np.bitwise_and.reduce(allowed):
                return False
    return True


def drop_name_words(clusters: List[List[int]], name_of: np.ndarray, heads: np.ndarray) -> List[List[int]]:
    """Take out of each cluster the one-word names that lie inside a longer name
    of the same cluster ("Hillary" of "Hillary Clinton"): a word of a person's
    name is not a second mention of the person. A repeated given name links to
    the word as readily as to the name ("Hillary Clinton ... Hillary").

    name_of (int (n,)): for such a word, the head token of the name it lies in, else -1.
    RETURNS (List[List[int]]): the clusters, each sorted, of two mentions or more.
    """
    name_of = np.asarray(name_of)
    if not np.count_nonzero(name_of >= 0):
        return clusters
    out = []
    for members in clusters:
        held = {int(heads[m]) for m in members}
        kept = [m for m in members if int(name_of[m]) not in held]
        if len(kept) > 1:
            out.append(kept)
    return out


def without_verb_phrases(clusters: List[List[int]], trims: np.ndarray) -> List[List[int]]:
    """Each clustered mention that ends with a phrase its verb governs
    ("protected [the designer from harm]") replaced by the candidate without it
    ("the designer"), unless a cluster holds that one already.

    trims (int (n,)): from :func:`~neuralcoref.core.discourse.frames.verb_phrase_trims`.
    RETURNS (List[List[int]]): the clusters, each sorted.
    """
    trims = np.asarray(trims)
    if not np.count_nonzero(trims >= 0):
        return clusters
    held = {m for members in clusters for m in members}
    out = []
    for members in clusters:
        kept = [int(trims[m]) if trims[m] >= 0 and int(trims[m]) not in held else m for m in members]
        out.append(sorted(kept))
    return out


def main_mention(cluster: List[int], types: np.ndarray) -> int:
    """The cluster's representative: its first non-pronominal mention, else its first."""
    for i in cluster:
        if types[i] != _PRONOMINAL:
            return i
    return cluster[0]


def spans_of(clusters: List[List[int]], starts: np.ndarray, ends: np.ndarray) -> List[List[Tuple[int, int]]]:
    """Token spans (start, end exclusive) of each cluster's mentions."""
    return [[(int(starts[i]), int(ends[i])) for i in c] for c in clusters]
