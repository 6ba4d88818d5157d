"""Names that say the same thing differently: an acronym and the name it
abbreviates; a person's surname or given name alone and their full name.

"the World Health Organization ... WHO" is one entity by construction, yet the two
share no word, so the name check of decoding (:func:`~neuralcoref.core.discourse.decode_signals.name_words`)
kept them apart whatever the scores said. An acronym here takes the repeat key
and the name words of the name it abbreviates, so that decoding treats the two
as a repeated name, and points to that name, so that decoding puts both in one
cluster (:func:`~neuralcoref.core.decode.cluster_passes.join_aliases`). A person's name
given in part ("Maxim Gvinjia ... Gvinjia") shares a word with the full name,
but nothing joined the two when the scorers left the part unlinked.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
from spacy.symbols import ADP, CCONJ, DET, PART, PROPN, PUNCT

from ...lang.base import LanguageRules
from ...lang.lexicon import MENTION_CLASSES, gendered_ids, noun_classes, word_classes
from ..doc.doc_arrays import DocArrays
from ..doc.labels import has_label, label_ids
from ..mentions.mentions import MENTION_TYPES, Mentions
from ..util.sets import in_sorted, isin
from .classes import in_person_entity

_PROPER = MENTION_TYPES.index("proper")
_NOMINAL = MENTION_TYPES.index("nominal")
#: Words an acronym leaves out ("Institute of Technology", "Organisation des Nations unies").
_SKIPPED_POS = np.array([ADP, CCONJ, DET, PART, PUNCT], dtype=np.uint64)
_MIN, _MAX = 2, 8  # acronym length, letters


def acronym_aliases(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                    types: np.ndarray, repeats: np.ndarray,
                    names: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Repeat keys and name words where each acronym takes those of the name it
    abbreviates. An acronym is a proper name of one word in capitals, but for
    determiners ("WHO", "the UK"); the name it abbreviates, a longer proper name
    of the Doc whose words, but for determiners, prepositions, conjunctions and
    particles, begin with its letters in order ("World Health Organization",
    "Massachusetts Institute of Technology"), none of them in capitals, and that
    the entity recognizer calls no person. Each acronym takes the nearest such
    name before it, else the first after it; a two-letter one only a name that
    comes before its first use.

    arrays (DocArrays): the Doc's arrays; starts, ends, types (int (n,)): the mentions.
    rules (LanguageRules): the language's rules (which entity labels are people).
    repeats (uint64 (n,)): from :func:`~neuralcoref.core.discourse.decode_signals.repeat_keys`.
    names (uint64 (n,)): from :func:`~neuralcoref.core.discourse.decode_signals.name_words`.
    RETURNS (Tuple[ndarray, ndarray, ndarray]): the repeat keys and name words
        (copies where an acronym was found, else the arrays given), and (n,)
        int32 aliases: for an acronym the name it abbreviates, else -1.
    """
    starts, ends = np.asarray(starts), np.asarray(ends)
    aliases = np.full(len(starts), -1, dtype=np.int32)
    proper = (np.asarray(types) == _PROPER).nonzero()[0]
    if not len(proper):
        return repeats, names, aliases
    doc = arrays.doc
    kept = arrays.is_alpha & ~isin(arrays.pos, _SKIPPED_POS)
    counted = np.concatenate([[0], np.cumsum(kept)])
    n_words = counted[ends[proper]] - counted[starts[proper]]
    # One word in capitals; its first kept token is found by the count so far.
    one = proper[n_words == 1]
    first_word = np.searchsorted(counted, counted[starts[one]] + 1) - 1
    short = (arrays.length[first_word] >= _MIN) & (arrays.length[first_word] <= _MAX)
    acronyms = {m: doc[i].text for m, i in zip(one[short].tolist(), first_word[short].tolist())
                if doc[i].text.isupper()}
    if not acronyms:
        return repeats, names, aliases
    longer = proper[(n_words >= _MIN) & (n_words <= _MAX)].tolist()
    words = {m: [doc[i].text for i in range(int(starts[m]), int(ends[m])) if kept[i]] for m in longer}
    expansions = _expansions(arrays, rules, starts, ends, words)
    repeats, names = np.array(repeats, copy=True), np.array(names, copy=True)
    first_use: Dict[str, int] = {}
    for m, text in acronyms.items():
        first_use.setdefault(text, int(starts[m]))
    for m, text in acronyms.items():
        found = expansions.get(text, [])
        # A two-letter one only where the name came first: "US" in "Colorado State
        # University of the US and the University of Sheffield" is no "U. of S.".
        if not found or (len(text) == 2 and ends[found[0]] > first_use[text]):
            continue
        before = [e for e in found if ends[e] <= starts[m]]
        full = before[-1] if before else found[0]
        repeats[m], names[m], aliases[m] = repeats[full], names[full], full
    return repeats, names, aliases


def name_parts(arrays: DocArrays, rules: LanguageRules, mentions: Mentions, repeats: np.ndarray, names: np.ndarray,
               aliases: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """People named in part, against the Doc's full names of people (proper
    names of two words or more, every word in a person entity, the words
    contiguous: not a phrase that holds two, "Laurence, comme Laurence").

    A part elsewhere in the Doc takes the repeat key, name words and alias of
    the full name. A part is a proper name of one word, no modifier of another
    noun and heading no longer proper name ("Pictet" of "Mme Pictet" is that
    name's), that is the first or last word of a full name ("Gvinjia", "Maxim"
    for "Maxim Gvinjia"). It takes the nearest such name before it, else the
    first after it, and none where the Doc's full names with that word differ
    in their other end word ("Elizabeth Zane" and "William Zane": "Zane" is
    either). A one-word name inside a full name ("Hillary" in "Hillary
    Clinton"), or a person's title ("President" in "President Obama"), is
    marked with that name's head instead, for
    :func:`~neuralcoref.core.decode.cluster_passes.drop_name_words` and
    :func:`~neuralcoref.core.decode.pronoun_chains.anchor_pronoun_chains`.

    mentions (Mentions): the Doc's mentions (starts, ends, heads, types);
        arrays, rules, repeats, names and aliases as for :func:`acronym_aliases`,
        whose result this extends (an acronym keeps its name).
    RETURNS (Tuple[ndarray, ndarray, ndarray, ndarray]): repeat keys, name words
        and aliases (copies where a part was found), and (n,) int32 ``name_of``:
        for a word inside a full name, the name's head token, else -1.
    """
    starts, ends, heads = np.asarray(mentions.starts), np.asarray(mentions.ends), np.asarray(mentions.heads)
    name_of = np.full(len(starts), -1, dtype=np.int32)
    proper = (np.asarray(mentions.types) == _PROPER).nonzero()[0]
    if not len(proper):
        return repeats, names, aliases, name_of
    named = (arrays.pos == PROPN) & arrays.is_alpha
    counted = np.concatenate([[0], np.cumsum(named)])
    n_words = counted[ends[proper]] - counted[starts[proper]]
    one = proper[(n_words == 1) & (ends[proper] - starts[proper] == 1)]
    one = one[named[starts[one]]]
    person = in_person_entity(arrays, rules)
    titled = _mark_titles(arrays, rules, person, starts, ends, heads, proper, name_of)
    if titled:
        repeats, names, aliases = _title_roles(arrays, mentions, titled, (repeats, names, aliases))
    full, by_end = _person_names(arrays, person, starts, ends, proper[n_words >= 2], named)
    if not full or not len(one):
        return repeats, names, aliases, name_of
    by_start = one[np.argsort(starts[one], kind="stable")]  # one search per full name, not a scan
    first_starts = starts[by_start]
    for m in full:
        near = by_start[np.searchsorted(first_starts, starts[m]):np.searchsorted(first_starts, ends[m])]
        name_of[near[(ends[near] <= ends[m]) & (heads[near] != heads[m])]] = heads[m]
    modifier = isin(arrays.dep, label_ids(frozenset(
        dep for dep, kind in rules.class_map("dep_classes").items() if kind == "modifier")))
    heads_longer = np.zeros(len(arrays.lower) + 1, dtype=bool)
    heads_longer[heads[proper[ends[proper] - starts[proper] > 1]]] = True
    repeats, names, aliases = (np.array(a, copy=True) for a in (repeats, names, aliases))
    memo: Dict[int, Tuple[np.ndarray, bool]] = {}
    for m in one[(np.asarray(aliases)[one] < 0) & (name_of[one] < 0)].tolist():
        i = int(starts[m])
        word = int(arrays.lower[i])
        found = by_end.get(word, [])
        if modifier[i] or heads_longer[i] or not found:
            continue
        if word not in memo:
            memo[word] = _ends_in_order(found, ends)
        whole = _last_name_before(found, memo[word], i)
        repeats[m], names[m], aliases[m] = repeats[whole], names[whole], whole
    return repeats, names, aliases, name_of


def _ends_in_order(found: List[int], ends: np.ndarray) -> Tuple[np.ndarray, bool]:
    """The ends of names ``found`` and whether they never decrease."""
    found_ends = ends[found]
    return found_ends, not (np.diff(found_ends) < 0).any()


def _last_name_before(found: List[int], found_ends: Tuple[np.ndarray, bool], i: int) -> int:
    """The last of ``found`` (in its order) that ends by token ``i``, else its
    first. One binary search when their ends never decrease (always, but for a
    name nested in another with the same last word), not a scan: a name
    repeated thousands of times made the scans quadratic."""
    found_ends, ordered = found_ends
    if ordered:
        k = int(np.searchsorted(found_ends, i, side="right"))
        return found[k - 1] if k else found[0]
    before = [f for f, end in zip(found, found_ends.tolist()) if end <= i]
    return before[-1] if before else found[0]


def _mark_titles(arrays: DocArrays, rules: LanguageRules, person: np.ndarray, starts: np.ndarray,
                 ends: np.ndarray, heads: np.ndarray, proper: np.ndarray,
                 name_of: np.ndarray) -> Dict[int, List[int]]:
    """Mark in ``name_of`` the one-word titles of people's names ("President" of
    "President Obama", a ``title_deps`` dependent of a name headed in a person
    entity): the title is part of the name, no second mention of the person.

    RETURNS (Dict[int, List[int]]): each title's lowercase id -> the names it
        titles, in order.
    """
    titled: Dict[int, List[int]] = {}
    if not rules.title_deps:
        return titled
    title = has_label(arrays.dep, rules.title_deps)
    # Any one-token name may be a title: "Dr." is no alphabetic word, yet one.
    single = proper[ends[proper] - starts[proper] == 1]
    for m in proper[(ends[proper] - starts[proper] > 1) & person[heads[proper]]].tolist():
        tokens = [i for i in range(int(starts[m]), int(heads[m])) if title[i] and arrays.head[i] == heads[m]
                  and not person[i]]
        for i in tokens:
            titled.setdefault(int(arrays.lower[i]), []).append(m)
        if tokens:
            name_of[single[isin(starts[single], tokens)]] = heads[m]
    return titled


def _title_roles(arrays: DocArrays, mentions: Mentions, titled: Dict[int, List[int]],
                 keyed: Tuple[np.ndarray, np.ndarray, np.ndarray]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A definite role noun that repeats a person's title ("Captain Ahab ... The
    captain") takes the repeat key, name words and alias of the name before it,
    when one person of the Doc bears that title ("President Obama ... President
    Biden ... the president": none). A determiner with ``Definite=Def`` (or a
    demonstrative) and the noun, no other word.

    keyed (Tuple[ndarray, ndarray, ndarray]): repeat keys, name words and aliases.
    RETURNS (Tuple[ndarray, ndarray, ndarray]): repeat keys, name words and
        aliases, copies where a role was found.
    """
    repeats, names, aliases = keyed
    starts, ends, heads = np.asarray(mentions.starts), np.asarray(mentions.ends), np.asarray(mentions.heads)
    types = mentions.types
    role = np.flatnonzero((np.asarray(types) == _NOMINAL) & (ends - starts == 2) & (heads == ends - 1)
                          & (arrays.pos[starts] == DET))
    strings = arrays.doc.vocab.strings
    copied = False
    for m in role.tolist():
        found = [n for n in titled.get(int(arrays.lower[heads[m]]), []) if ends[n] <= starts[m]]
        if not found or len({int(arrays.lower[heads[n]]) for n in found}) > 1:
            continue
        morph = strings[int(arrays.morph[starts[m]])] if int(arrays.morph[starts[m]]) in strings else ""
        if "Definite=Def" not in morph and "PronType=Dem" not in morph:
            continue
        if not copied:
            repeats, names, aliases = (np.array(a, copy=True) for a in (repeats, names, aliases))
            copied = True
        whole = found[-1]
        repeats[m], names[m], aliases[m] = repeats[whole], names[whole], whole
    return repeats, names, aliases


def _person_names(arrays: DocArrays, person: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  longer: np.ndarray, named: np.ndarray) -> Tuple[List[int], Dict[int, List[int]]]:
    """The full names of people among ``longer``, and the lowercase id of the
    first or last word of each -> those names, in order (a word whose names
    differ at their other end maps to none); ``person``: the tokens in a person entity."""
    full: List[int] = []
    by_end: Dict[int, List[int]] = {}
    other_end: Dict[int, set] = {}
    for m in longer.tolist():
        tokens = [i for i in range(int(starts[m]), int(ends[m])) if named[i]]
        if not person[tokens].all() or not named[tokens[0]:tokens[-1] + 1].all():
            continue
        full.append(m)
        first, last = (int(arrays.lower[i]) for i in (tokens[0], tokens[-1]))
        for word, other in ((first, last), (last, first)):
            by_end.setdefault(word, []).append(m)
            other_end.setdefault(word, set()).add(other)
    return full, {word: found for word, found in by_end.items() if len(other_end[word]) == 1}


def _expansions(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                words: Dict[int, List[str]]) -> Dict[str, List[int]]:
    """The acronym each longer proper name would have -> those names, in order.
    People's names have initials, not acronyms: "MM." (messieurs) is not "Mme
    de Montmorenci"."""
    person = in_person_entity(arrays, rules)
    out: Dict[str, List[int]] = {}
    for m, texts in words.items():
        if person[int(starts[m]):int(ends[m])].any():
            continue
        if any(len(t) > 1 and t.isupper() for t in texts):  # spelled out, not "US-169 South"
            continue
        out.setdefault("".join(t[0] for t in texts).upper(), []).append(m)
    return out


def given_name_conflicts(arrays: DocArrays, rules: LanguageRules, starts: np.ndarray, ends: np.ndarray,
                         heads: np.ndarray, types: np.ndarray) -> List[Tuple[int, int]]:
    """Pairs of proper names of two people of one family ("Barack Obama" and
    "Michelle Obama", "Elizabeth Bennet" and "Jane Bennet"): never one person.
    A name's head lies in a person entity of two words or more; the entity's
    last word is the family name, its first the given name when that is a
    first name of the lexicons and neither a title (``title_words``: "Miss
    Chaworth") nor a person noun ("President Obama"). A name word inside such
    an entity ("Obama" of "Barack Obama") has the entity's names.

    RETURNS (List[Tuple[int, int]]): (later, earlier) mention pairs with the
        same family name and different given names, for
        :meth:`~neuralcoref.core.discourse.binding.Binding.with_pairs`.
    """
    proper = (np.asarray(types) == _PROPER).nonzero()[0]
    # Two names of people at least: each pair's heads lie in person entities.
    if len(proper) < 2 or in_person_entity(arrays, rules)[np.asarray(heads)[proper]].sum() < 2:
        return []
    given, family = _given_names(arrays, rules, np.asarray(heads)[proper])
    named = proper[given != 0]
    given, family = given[given != 0], family[given != 0]
    out = []
    # One family at a time (mention order kept within it): families are small.
    order = np.argsort(family, kind="stable")
    for members in np.split(order, np.flatnonzero(np.diff(family[order])) + 1):
        for k in range(1, len(members)):
            earlier = members[:k][given[members[:k]] != given[members[k]]]
            out += [(int(named[members[k]]), int(named[e])) for e in earlier]
    return out


def _given_names(arrays: DocArrays, rules: LanguageRules, heads: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The lowercase ids of the given and family names of the person entity
    each head token lies in (see :func:`given_name_conflicts`), 0 for none:
    only a first name of the lexicons or of the rules' ``gender_words`` is a
    given name (not "Freetown" of a recognizer's "Freetown John Clayton")."""
    n = len(arrays.lower)
    person = in_person_entity(arrays, rules)
    inside = person & (arrays.ent_iob == 1)
    begin = np.where(person & ~inside, np.arange(n), -1)
    first = np.maximum.accumulate(begin)[heads] if n else np.zeros(0, dtype=np.int64)
    ends_here = person & ~np.append(inside[1:], False)  # an entity's last token
    end = np.where(ends_here, np.arange(n), n)
    last = np.minimum.accumulate(end[::-1])[::-1][heads] if n else np.zeros(0, dtype=np.int64)
    ok = person[heads] & (first >= 0) & (last > first)
    first, last = np.where(ok, first, 0), np.where(ok, last, 0)
    words = arrays.lower[first]
    known = in_sorted(words, gendered_ids(rules)) | (word_classes(arrays.doc, words, rules.lexicons, part="names") > 0)
    title = has_label(words, rules.title_words)
    if rules.lexicons:
        title |= noun_classes(arrays, first, rules.lexicons) == MENTION_CLASSES.index("person")
    keep = ok & known & ~title
    zero = np.uint64(0)
    return (np.where(keep, arrays.lower[first], zero).astype(np.uint64),
            np.where(keep, arrays.lower[last], zero).astype(np.uint64))

