"""Candidates from the document: a short name or a nominal refers to an entity
that the same Doc names in full elsewhere ("Harrow" ... "Harrow School", "the
lake" ... "Crater Lake", "this cyclone" ... "Cyclone Phailin").

A unit *names* an entity when one of its mentions is a full alias of it and
the entity is that mention's likeliest candidate. A unit that no mention names
in full (the KB knows none of its mentions' whole texts), and whose mentions
have a head word (a name's or a noun's, not a pronoun's) that is a word of the
entity's name or of the mentions that name it, gets the entity as a
candidate; the linker's feature ``doc_head`` (the share of the unit's named
mentions whose head matches) lets the scorer, trained on the same units, weigh
it. (Given to every unit, these candidates competed with full alias matches:
worse on GUM train, docs/experiments/2026-12-07-entity-linking.md.)
"""
from __future__ import annotations

from typing import AbstractSet, Dict, Iterable, List, Sequence, Set, Tuple

Span_ = Tuple[int, int]


def usable_head(word: str, general: AbstractSet[str]) -> bool:
    """Whether a head word (lower case, alias-keyed) may point at a named
    entity: alphabetic, three letters or more, not one of ``general`` (the
    rules' ``link_general_heads``: "the one", "this thing")."""
    return len(word) > 2 and word.isalpha() and word not in general


def name_index(named: Sequence[Dict[int, Iterable[str]]],
               general: AbstractSet[str]) -> Dict[str, Dict[int, Set[int]]]:
    """Word -> entity row -> the units that name the entity with that word.

    named (Sequence[Dict[int, Iterable[str]]]): per unit, the rows it names,
        each with the words of its name and of the unit's mentions that name it.
    general (AbstractSet[str]): words that index nothing (see :func:`usable_head`).
    """
    index: Dict[str, Dict[int, Set[int]]] = {}
    for u, rows in enumerate(named):
        for row, words in rows.items():
            for word in words:
                if usable_head(word, general):
                    index.setdefault(word, {}).setdefault(row, set()).add(u)
    return index


def doc_matches(index: Dict[str, Dict[int, Set[int]]], unit: int, heads: Sequence[str]) -> Dict[int, int]:
    """Entities named by other units whose words hold the heads of a unit's
    mentions: row -> how many of the unit's mentions match it.

    index: from :func:`name_index`; unit (int): the unit asking (its own names
    do not count); heads (Sequence[str]): the head word of each of its named
    mentions (lower case, alias-keyed; '' for none).
    """
    counts: Dict[int, int] = {}
    for head in heads:
        if not head or head not in index:
            continue
        for row, units in index[head].items():
            if units - {unit}:
                counts[row] = counts.get(row, 0) + 1
    return counts


def words_of(keys: Iterable[str]) -> List[str]:
    """The distinct words of alias keys."""
    return list(dict.fromkeys(w for key in keys if key for w in key.split()))
