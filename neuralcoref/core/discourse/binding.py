"""Binding constraints from the dependency parse, for decoding.

Three principles of binding theory, as the rules of a language state them
(:class:`~neuralcoref.lang.base.LanguageRules`, the ``binding_*`` fields):

- A: a reflexive takes its local subject ("Peter saw himself": Peter), the
  subject a verb shares through coordination or control included;
- B: a personal pronoun never corefers with a co-argument of its predicate ("He
  saw him", "John met Bill and wished him well": him is not John);
- C: a name or full noun phrase is not bound by a pronoun that c-commands it:
  a subject or object pronoun and a mention inside a dependent that follows it
  ("He said that John left": He is not John); and, as "N", nor by a full noun
  phrase: an object and its predicate's subjects ("The teacher gave each
  student a book": the teacher is no student).

and one preference, "P", which is no binding principle: a possessive determiner
of an object takes the subject of its clause when agreement allows ("while
Microsoft blamed its cloud unit": Microsoft); and "I", the i-within-i
condition: a possessive determiner never corefers with the phrase it
determines ("[her] mother" is not "her").

Computed once per Doc from its :class:`~neuralcoref.core.doc.doc_arrays.DocArrays` (heads,
subtree bounds, labels, words): the loops run
over personal pronouns only, the mentions in a pronoun's domain are found with
a sorted array of mention heads. Decoding
(:func:`~neuralcoref.core.decode.decode_passes.decode_clusters`) never puts a forbidden pair in
one cluster and links a reflexive to its binder when agreement allows.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, Union

import numpy as np
from spacy.tokens import Doc

from ...lang.base import BINDING_PRINCIPLES, LanguageRules
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.labels import has_label, has_labels, label_codes
from ..mentions.mentions import PRONOMINAL, Mentions
from ..util.cached import cached
from ..util.sets import in_increasing, isin
from .frames import frame_verbs

PRINCIPLES = BINDING_PRINCIPLES
#: Whether a mention whose best candidate is forbidden takes its best allowed
#: one: a pronoun whose nearest candidate grammar forbids usually refers to the
#: next one, so vetoing (no link) loses most of what binding gains
#: (docs/experiments/2026-11-26-binding.md).
FALLBACK = True


@dataclass(frozen=True)
class Binding:
    """What binding says about the mentions of one Doc.

    forbid_ptr (ndarray): (n + 1,) int64 CSR bounds into ``forbid``.
    forbid (ndarray): (n_pairs,) int32; ``forbid[forbid_ptr[m]:forbid_ptr[m + 1]]``
        are the earlier mentions that mention m never shares a cluster with
        (with ``clusters`` False: never links to).
    binder (ndarray): (n,) int32, for a reflexive the earlier mention that binds
        it (principle A), else -1.
    fallback (bool): whether a mention whose best candidate is forbidden links
        to its best allowed one (else it stays unlinked).
    clusters (bool): whether the forbidden pairs hold for whole clusters
        through every decoding step, or only bar a direct link
        (``LanguageRules.binding_clusters``).
    held (ndarray): (k, 2) int64 mention pairs never in one cluster even where
        ``clusters`` is False: what no parse decides, such as a first and a
        second person in one voice (:meth:`with_pairs`).
    """

    forbid_ptr: np.ndarray
    forbid: np.ndarray
    binder: np.ndarray
    fallback: bool = True
    clusters: bool = True
    held: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))

    @classmethod
    def none(cls, n: int) -> "Binding":
        """No constraint on n mentions."""
        return cls(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32),
                   np.full(n, -1, dtype=np.int32))

    @classmethod
    def from_pairs(cls, n: int, pairs: Union[Sequence[Tuple[int, int]], np.ndarray],
                   binder: Optional[np.ndarray] = None) -> "Binding":
        """Constraints from forbidden pairs of mention indices (either order).

        n (int): number of mentions.
        pairs (Sequence[Tuple[int, int]] | int (k, 2)): mentions never in one cluster.
        binder (ndarray | None): (n,) int32 binders, -1 for none; None: none.
        RETURNS (Binding): with the pairs stored under their later mention.
        """
        if binder is None:
            binder = np.full(n, -1, dtype=np.int32)
        if not len(pairs):  # the usual short Doc: no sort, no count
            return cls(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32),
                       np.asarray(binder, dtype=np.int32))
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        later, earlier = pairs.max(axis=1), pairs.min(axis=1)
        keys = np.unique((later * n + earlier)[later != earlier])
        later, earlier = keys // max(n, 1), keys % max(n, 1)
        ptr = np.concatenate([[0], np.cumsum(np.bincount(later, minlength=n))]).astype(np.int64)
        return cls(ptr, earlier.astype(np.int32), np.asarray(binder, dtype=np.int32))

    def with_pairs(self, pairs: Union[Sequence[Tuple[int, int]], np.ndarray],
                   held: Union[Sequence[Tuple[int, int]], np.ndarray] = ()) -> "Binding":
        """These constraints and more forbidden pairs (either order): ``pairs``
        held as these are, ``held`` for whole clusters whatever ``clusters`` says.

        RETURNS (Binding): ``self`` when both are empty, else a new one.
        """
        held = np.asarray(held, dtype=np.int64).reshape(-1, 2)
        if len(held) and not self.clusters:
            return replace(self.with_pairs(pairs), held=np.concatenate([self.held, held]))
        pairs = np.concatenate([np.asarray(pairs, dtype=np.int64).reshape(-1, 2), held])
        if not len(pairs):
            return self
        later = np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.forbid_ptr))
        own = np.stack([later, self.forbid.astype(np.int64)], axis=1)
        merged = Binding.from_pairs(len(self), np.concatenate([own, pairs]), self.binder)
        return replace(merged, fallback=self.fallback, clusters=self.clusters, held=self.held)

    def __len__(self) -> int:
        return int(self.binder.shape[0])

    def pairs(self) -> Set[Tuple[int, int]]:
        """RETURNS (Set[Tuple[int, int]]): forbidden (later, earlier) mention pairs."""
        if not len(self.forbid):
            return set()
        later = np.repeat(np.arange(len(self)), np.diff(self.forbid_ptr))
        return set(zip(later.tolist(), self.forbid.tolist()))

    def as_link_scores(self, pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray,
                       links: Optional[np.ndarray] = None) -> Tuple[np.ndarray, "Binding"]:
        """The forbidden pairs as pair scores no link can take, and the binding
        left for decoding's steps (binders only): what ``clusters`` False means.

        pair (float (n_pairs,)), ptr (int (n + 1,)), ante (int (n_pairs,)): the
            scores (CSR), as for ``antecedents.best_antecedents``.
        links (int (n,) | None): links decided without the constraint; given,
            a mention may not link to a forbidden partner's own antecedent
            either ("Jean a vu Marie et il lui a parlé": "lui" is not "il",
            nor "Jean", whom "il" links to).
        RETURNS (Tuple[ndarray, Binding]): the pair scores (``pair`` itself when
            nothing is forbidden) and a binding whose forbidden pairs are the
            ``held`` ones, for whole clusters.
        """
        rest = replace(Binding.from_pairs(len(self), self.held, self.binder),
                       fallback=self.fallback, clusters=True)
        if not len(self.forbid):
            return pair, rest
        n = len(self)
        anaphor = np.repeat(np.arange(n, dtype=np.int64), np.diff(ptr))
        later = np.repeat(np.arange(n, dtype=np.int64), np.diff(self.forbid_ptr))
        # Keys increase along the pairs (candidates come nearest first): in_increasing.
        keys = later * n + (n - 1 - self.forbid)
        if links is not None:
            theirs = np.asarray(links, dtype=np.int64)[self.forbid]
            keys = np.concatenate([keys, (later * n + (n - 1 - theirs))[theirs >= 0]])
        barred = in_increasing(anaphor * n + (n - 1 - np.asarray(ante, dtype=np.int64)), keys)
        return np.where(barred, np.float32(-np.inf), np.asarray(pair, dtype=np.float32)), rest

    def partners(self) -> Dict[int, Set[int]]:
        """RETURNS (Dict[int, Set[int]]): each constrained mention's forbidden
        partners, both directions."""
        out: Dict[int, Set[int]] = {}
        for a, b in self.pairs():
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
        return out


def with_binders(binding: Binding, binders: np.ndarray) -> Binding:
    """``binding`` with more binders (int (n,), -1 for none) where it has none."""
    binders = np.asarray(binders, dtype=np.int32)
    if not np.count_nonzero(binders >= 0):
        return binding
    return replace(binding, binder=np.where(binding.binder >= 0, binding.binder, binders).astype(np.int32))


def allowed_together(partners: Dict[int, Set[int]], first: Sequence[int],
                     second: Sequence[int]) -> bool:
    """Whether two groups of mentions hold no forbidden pair between them.

    partners (Dict[int, Set[int]]): from :meth:`Binding.partners`.
    first, second (Sequence[int]): mention indices.
    RETURNS (bool): True when no mention of one is a partner of one of the other.
    """
    if not partners:
        return True
    other = set(second)
    return not any(partners.get(m, set()) & other for m in first)


@lru_cache(maxsize=32)
def _person_words(rules: LanguageRules) -> FrozenSet[str]:
    """The words of the rules' ``person_words`` map, of whatever person."""
    return frozenset(rules.class_map("person_words"))


#: The rules' label sets _Parse reads, by column: one has_labels call per column.
_DEP_SETS = ("vocative_deps", "binding_subject_deps", "binding_object_deps", "binding_preposition_deps",
             "conj_deps", "binding_asyndetic_deps", "binding_subordinator_deps", "control_deps",
             "binding_complement_deps", "predicate_adjective_deps", "relative_clause_deps",
             "clausal_modifier_deps", "binding_expletive_deps", "binding_predicate_deps", "determiner_deps",
             "phrase_object_deps")
_WORD_SETS = ("clitic_cluster_words", "relative_words", "binding_pronoun_words", "reflexive_words",
              "binding_clitic_words", "binding_prepositions", "binding_objectless_prepositions",
              "predicative_words", "binding_possessive_words", "binding_noun_prepositions",
              "binding_accusative_words")
_ROW = {name: row for names in (_DEP_SETS, _WORD_SETS) for row, name in enumerate(names)}


def _label_row(name: str) -> "cached[np.ndarray]":
    """A _Parse table that is one of the rules' label sets: its row of the
    column's table (``_Parse._dep_rows``, ``_Parse._word_rows``)."""
    row = _ROW[name]
    if name in _DEP_SETS:
        return cached(lambda parse: parse._dep_rows[row])
    return cached(lambda parse: parse._word_rows[row])


@lru_cache(maxsize=32)
def _label_sets(rules: LanguageRules, names: Tuple[str, ...]) -> Tuple[FrozenSet[str], ...]:
    """The rules' label sets of these names, in order (built once per rules)."""
    return tuple(getattr(rules, name) for name in names)


class _Parse:
    """The token arrays binding reads, and children lists, for one Doc.

    The label sets of a column are read in one kernel call, on the first use
    of any (a short text asks for most of them); each table built from them on
    first use (docs/experiments/2026-12-07-short-text-latency.md).
    """

    def __init__(self, arrays: DocArrays, rules: LanguageRules):
        self.arrays, self.rules, self.n = arrays, rules, len(arrays)
        self.heads, self.left, self.right = arrays.head, arrays.left, arrays.right

    @cached
    def _dep_rows(self) -> np.ndarray:
        return has_labels(self.arrays.dep, _label_sets(self.rules, _DEP_SETS))

    @cached
    def _word_rows(self) -> np.ndarray:
        return has_labels(self.arrays.lower, _label_sets(self.rules, _WORD_SETS))

    def _dep(self, name: str) -> np.ndarray:
        return self._dep_rows[_ROW[name]]

    def _word(self, name: str) -> np.ndarray:
        return self._word_rows[_ROW[name]]

    @cached
    def kids(self) -> np.ndarray:
        return self.arrays.children[0]

    @cached
    def kid_ptr(self) -> np.ndarray:
        return self.arrays.children[1]

    @cached
    def verb(self) -> np.ndarray:
        return has_label(self.arrays.pos, self.rules.verb_pos)

    @cached
    def _person_codes(self) -> Dict[str, int]:
        persons = self.rules.class_map("person_words")
        return {person: code for code, person in enumerate(sorted(set(persons.values())), start=1)}

    @cached
    def person(self) -> np.ndarray:
        """Principle S: each first- or second-person word's person, 0 for none."""
        return label_codes(self.arrays.lower, self.rules.class_map("person_words"), self._person_codes)

    @cached
    def first_person(self) -> np.ndarray:
        return isin(self.person, [code for person, code in self._person_codes.items() if person.startswith("1")])

    # A vocative names the addressee ("Monsieur, je vous remercie").
    vocative = _label_row("vocative_deps")
    _subject_dep = _label_row("binding_subject_deps")
    in_clitic_cluster = _label_row("clitic_cluster_words")

    @cached
    def clitic(self) -> np.ndarray:
        """A first- or second-person pronoun before its verb, other than its
        subject, is an object clitic too ("te/expl:comp voir")."""
        # person > 0 is one lookup of all the person words, not one per person.
        return (self._word("binding_clitic_words")
                | (has_label(self.arrays.lower, _person_words(self.rules)) & ~self._subject_dep)) \
            & self.verb[self.heads] & (np.arange(self.n) < self.heads)

    @cached
    def subject(self) -> np.ndarray:
        """An object clitic the parser calls a subject ("et [lui] a parlé") is no
        subject: the verb keeps the one it shares through coordination."""
        return self._subject_dep & ~self.clitic

    object = _label_row("binding_object_deps")

    @cached
    def phrase_object(self) -> np.ndarray:
        return self._dep("phrase_object_deps") & ~self.object

    preposition = _label_row("binding_preposition_deps")

    @cached
    def prep(self) -> np.ndarray:
        prep = self.preposition & self._word("binding_prepositions")
        # "argued with him": an argument where the predicate has no object ("took
        # the book with him" leaves "him" free).
        loose = self.preposition & self._word("binding_objectless_prepositions")
        if np.count_nonzero(loose):
            with_object = np.zeros(self.n, dtype=bool)
            with_object[self.heads[self.object]] = True
            prep |= loose & ~with_object[self.heads]
        # "protected her from him", "discussed trade with him": a phrase of the
        # verb's frame is its argument, wherever the parser hangs it.
        prep |= self.frame_verb >= 0
        return prep

    @cached
    def frame_verb(self) -> np.ndarray:
        return frame_verbs(self.arrays, self.rules)

    conj = _label_row("conj_deps")
    asyndetic = _label_row("binding_asyndetic_deps")
    subordinator = _label_row("binding_subordinator_deps")
    control = _label_row("control_deps")
    complement = _label_row("binding_complement_deps")

    @cached
    def finite(self) -> np.ndarray:
        return has_label(self.arrays.tag, self.rules.finite_verb_tags)

    @cached
    def nonfinite(self) -> np.ndarray:
        return has_label(self.arrays.tag, self.rules.nonfinite_verb_tags)

    @cached
    def past(self) -> np.ndarray:
        return has_label(self.arrays.tag, self.rules.past_verb_tags)

    adjectival = _label_row("predicate_adjective_deps")
    relcl = _label_row("relative_clause_deps")
    relative = _label_row("relative_words")
    modifier_clause = _label_row("clausal_modifier_deps")
    expletive = _label_row("binding_expletive_deps")
    no_c_command = _label_row("binding_predicate_deps")

    @cached
    def predicative(self) -> np.ndarray:
        """A mention that is a predicate ("proclaimed himself [Emperor]", "serve
        as [the capital]") describes, it is not bound."""
        return self.no_c_command | self._word("predicative_words")[self.heads]

    @cached
    def noun(self) -> np.ndarray:
        return has_label(self.arrays.pos, self.rules.noun_pos | self.rules.proper_pos)

    personal = _label_row("binding_pronoun_words")
    reflexive = _label_row("reflexive_words")
    determiner = _label_row("determiner_deps")

    @cached
    def possessive(self) -> np.ndarray:
        return self._word("binding_possessive_words") & self.determiner

    @cached
    def noun_prep(self) -> np.ndarray:
        return self.prep & self._word("binding_noun_prepositions")

    @cached
    def exceptional(self) -> np.ndarray:
        """"helped [her] do it": an accusative subject of a complement clause,
        or any personal one of a non-finite complement ("expects [it] to sell")."""
        arrays, rules = self.arrays, self.rules
        complement = self.complement[self.heads]
        return self.subject & complement & (
            self._word("binding_accusative_words")
            | (self.personal & self.nonfinite[self.heads] & ~self._tensed(arrays, rules)[self.heads]))

    def _tensed(self, arrays: DocArrays, rules: LanguageRules) -> np.ndarray:
        """(n,) bool: verbs with a modal or finite auxiliary before them ("it
        [would] hire", "it [was] sold")."""
        tense = has_label(arrays.tag, rules.finite_verb_tags | rules.modal_tags)
        n = len(tense)
        before = np.flatnonzero(tense & (np.arange(n) < self.heads))
        out = np.zeros(n, dtype=bool)
        out[self.heads[before]] = True
        return out

    def children(self, i: int) -> List[int]:
        return self.kids[self.kid_ptr[i]:self.kid_ptr[i + 1]].tolist()

    def predicate(self, p: int) -> int:
        """The predicate token p is an argument of, or -1."""
        head = int(self.heads[p])
        if head == p:
            return -1
        if self.subject[p] or self.clitic[p]:
            return head
        if self.object[p]:
            if self.frame_verb[head] >= 0:
                return int(self.frame_verb[head])
            # "talked to her": the preposition hangs on the predicate.
            if self.prep[head] and self.heads[head] != head:
                attach = int(self.heads[head])
                # "wrote a letter to him": or on the predicate's direct object.
                if self.noun_prep[head] and self.noun[attach] and self.object[attach] \
                        and not self.preposition[self.heads[attach]] and self.heads[attach] != attach:
                    return int(self.heads[attach])
                return attach
            return head
        return -1

    def verb_after_clitics(self, p: int) -> int:
        """The verb right after clitic p and the clitics that follow it, or -1:
        the verb of an object clitic the parser hung elsewhere ("Il veut [te]/advmod
        parler")."""
        k = p + 1
        while k < len(self.heads) and self.in_clitic_cluster[k]:
            k += 1
        return k if k < len(self.heads) and self.verb[k] else -1

    def subjects(self, v: int, depth: int = 0) -> List[int]:
        """v's subjects, or those it shares: the first conjunct's ("met Bill and
        wished him"; a clause without subject or subordinator hung on a verb,
        ``binding_asyndetic_deps``: "vu Sophie, lui a parlé"), the controller of a complement ("wants to see him"), the
        noun a relative clause's relative pronoun stands for, the noun a
        clause without one modifies ("a nurse caring for him"), a
        predicate adjective's copula's ("was rude to him")."""
        own = [c for c in self.children(v) if self.subject[c]]
        head = int(self.heads[v])
        if depth > 4 or head == v:
            return own
        if own:
            if self.relcl[v] and any(self.relative[c] for c in own):
                return own + [head]
            return own
        if self.modifier_clause[v] and self.noun[head]:  # "a nurse caring for him"
            return [head]
        if self.conj[v]:
            return self.subjects(self.conjoined(v), depth + 1)
        if self.asyndetic[v] and self.verb[head] and not any(self.subordinator[c] for c in self.children(v)):
            return self.subjects(head, depth + 1)  # "Marie a vu Sophie, lui a parlé"
        if self.control[v]:
            objects = [c for c in self.children(head) if self.object[c]]
            return objects or self.subjects(head, depth + 1)
        if self.adjectival[v]:  # "was rude to her": the copula's
            return self.subjects(head, depth + 1)
        return own

    def conjoined(self, v: int) -> int:
        """The verb conjunct v coordinates with: its head, but for a finite v on
        a complement verb of another form ("noticed her [take] the pen and
        accused him") or tense ("noticed the nurse [performs] badly and sent
        her") or with an expletive subject ("told him there [was] a job and
        invited him"): the first finite verb above that complement of v's
        tense ("noticed")."""
        head = int(self.heads[v])
        if not self.finite[v]:
            return head
        if self.nonfinite[head]:
            tense = None
        elif self.finite[head] and (self.past[v] != self.past[head]
                                    or any(self.expletive[c] for c in self.children(head))):
            tense = self.past[v]
        else:
            return head
        up = head
        while self.complement[up] and self.heads[up] != up:
            up = int(self.heads[up])
            if self.finite[up] and tense in (None, self.past[up]):
                return up
        return head

    def arguments(self, v: int) -> List[int]:
        """v's subjects (own or shared), objects and prepositional objects, with
        their conjuncts."""
        out = self.subjects(v)
        for c in self.children(v):
            if self.object[c] or self.clitic[c]:
                out.append(c)
            elif self.prep[c]:
                out.extend(g for g in self.children(c) if self.object[g])
        return out + [g for a in out for g in self.children(a) if self.conj[g]]

    def c_command_ranges(self, p: int, v: int) -> List[Tuple[int, int]]:
        """Token ranges (inclusive) a subject or object pronoun p c-commands: the
        dependents of its predicate v that follow it, but for predicate nominals
        and coordinated clauses with a subject of their own."""
        out = []
        for c in self.children(v):
            if c < p or self.no_c_command[c]:
                continue
            if self.conj[c] and any(self.subject[g] for g in self.children(c)):
                continue
            out.append((int(self.left[c]), int(self.right[c])))
        return out


def binding_constraints(doc: Doc, mentions: Mentions, rules: LanguageRules,
                        principles: Optional[Sequence[str]] = None,
                        arrays: Optional[DocArrays] = None) -> Binding:
    """The binding constraints between the mentions of a parsed Doc.

    doc (Doc): the parsed Doc the mentions come from.
    mentions (Mentions): its candidate mentions.
    rules (LanguageRules): the language's rules (``binding_*`` fields).
    principles (Sequence[str] | None): among PRINCIPLES; None: the rules'
        ``binding_principles``.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (Binding): forbidden pairs (B, C) and binders (A).
    """
    wanted = set(rules.binding_principles if principles is None else principles)
    n = len(mentions)
    if not wanted or n == 0 or not doc.has_annotation("DEP"):
        return Binding.none(n)
    arrays = arrays_of(doc, arrays)
    parse = _Parse(arrays, rules)
    heads = np.asarray(mentions.heads, dtype=np.int64)
    order = heads.argsort(kind="stable")
    sorted_heads = heads[order]
    pronominal = np.asarray(mentions.types) == PRONOMINAL

    # first[t]: the position in sorted_heads of the first mention headed at t or later.
    first = sorted_heads.searchsorted(np.arange(len(doc) + 1))

    def with_heads(lo: int, hi: int) -> np.ndarray:
        # Mentions whose head lies in the token range [lo, hi].
        return order[first[lo]:first[hi + 1]]

    pairs: List[Tuple[int, int]] = []
    binder = np.full(n, -1, dtype=np.int32)
    # Most stages look at pronouns only: a Doc without one builds no table for them.
    any_pronoun = bool(np.count_nonzero(pronominal))
    anaphors = (pronominal & (parse.personal | parse.reflexive | parse.possessive)[heads]).nonzero()[0] \
        if any_pronoun else np.zeros(0, dtype=np.int64)
    for m in anaphors.tolist():
        p = int(heads[m])
        if parse.possessive[p]:
            if "P" in wanted:
                owner = int(parse.heads[p])
                v = parse.predicate(owner)
                binder[m] = _binder(parse, owner, v, with_heads, m) if v >= 0 and not parse.subject[owner] else -1
            continue
        v = parse.predicate(p)
        if v < 0:
            continue
        if parse.reflexive[p]:
            if "A" in wanted:
                binder[m] = _binder(parse, p, v, with_heads, m)
            continue
        if "B" in wanted:
            arguments = [a for a in parse.arguments(v)
                         # Two subjects of one verb are a dislocation ("The footage,
                         # it looks fake") or a parse error, not co-arguments.
                         if a != p and not (parse.subject[a] and parse.subject[p])]
            if parse.exceptional[p]:  # its case comes from the matrix verb, with its subjects
                arguments += parse.subjects(int(parse.heads[v]))
            for a in arguments:
                if not parse.reflexive[a]:
                    pairs.extend((m, int(o)) for o in with_heads(a, a))
        if "C" in wanted and (parse.subject[p] or parse.object[p] or parse.clitic[p]):
            for lo, hi in parse.c_command_ranges(p, v):
                inside = with_heads(lo, hi)
                inside = inside[~pronominal[inside] & ~parse.predicative[heads[inside]]]
                pairs.extend((m, int(o)) for o in inside)
    if "S" in wanted and any_pronoun:
        pairs.extend(_person_pairs(parse, heads, pronominal, with_heads))
    if "B" in wanted and rules.subject_clitic_words and any_pronoun:
        pairs.extend(_clitic_cluster_pairs(parse, arrays, rules, heads, pronominal, with_heads))
    if "N" in wanted:
        pairs.extend(_coargument_phrases(parse, heads, pronominal, with_heads))
    if "I" in wanted and any_pronoun:
        pairs.extend(_within_own_phrase(parse, mentions, pronominal, with_heads))
    return replace(Binding.from_pairs(n, pairs, binder), fallback=FALLBACK, clusters=rules.binding_clusters)


def _clitic_cluster_pairs(parse: "_Parse", arrays: DocArrays, rules: LanguageRules, heads: np.ndarray,
                          pronominal: np.ndarray, with_heads) -> List[Tuple[int, int]]:
    """B on the surface: an object clitic and the subject clitic before it, with
    only clitics between ("Il [ne] l'écoute"), are arguments of one verb, which
    the tagger may have read as a noun."""
    lower = arrays.lower
    cluster = parse.in_clitic_cluster
    subject = has_label(lower, rules.subject_clitic_words)
    objects = has_label(lower, rules.binding_clitic_words)
    out: List[Tuple[int, int]] = []
    for m in np.flatnonzero(pronominal & objects[heads]).tolist():
        s = int(heads[m]) - 1
        while s >= 0 and cluster[s] and not subject[s]:
            s -= 1
        if s >= 0 and subject[s]:
            out.extend((m, int(o)) for o in with_heads(s, s) if o != m)
    return out


def _person_pairs(parse: "_Parse", heads: np.ndarray, pronominal: np.ndarray,
                  with_heads) -> List[Tuple[int, int]]:
    """S: a first- or second-person pronoun and a co-argument of another person,
    its predicate's own or shared subjects included ("Il veut [te] voir",
    "Marie [te] regarde", "je [te] vois"); not one of its own person ("tu [te]
    vois", where "te" is reflexive). A vocative is the addressee, never a
    first person of its predicate ("[Monsieur], [je] vous remercie")."""
    out: List[Tuple[int, int]] = []
    for m in np.flatnonzero(pronominal & (parse.person > 0)[heads]).tolist():
        p = int(heads[m])
        v = parse.predicate(p)
        if v < 0 and not parse.subject[p]:
            v = parse.verb_after_clitics(p)
        if v < 0:
            continue
        arguments = parse.arguments(v)
        # A phrase other than a pronoun may be a vocative the parser made an
        # argument ("je [te] recommande, [ma chère Rosalie]", "[ma chère
        # Lisette], je t'en supplie"): only a verb's sole subject counts.
        subjects = [a for a in arguments if parse.subject[a]]
        for a in arguments:
            if a != p and parse.person[a] != parse.person[p] and not (parse.subject[a] and parse.subject[p]) \
                    and (parse.person[a] or parse.personal[a] or subjects == [a]):
                out.extend((m, int(o)) for o in with_heads(a, a))
        if parse.first_person[p]:
            for a in parse.children(v):
                if parse.vocative[a]:
                    out.extend((m, int(o)) for o in with_heads(a, a))
    return out


def _coargument_phrases(parse: "_Parse", heads: np.ndarray, pronominal: np.ndarray,
                        with_heads) -> List[Tuple[int, int]]:
    """N (principle C for a full noun phrase that a full noun phrase binds): an
    object of a predicate and that predicate's subjects, own or shared ("The
    teacher gave each student a book"): pairs of mentions headed by the two,
    pronouns left to B and C."""
    out: List[Tuple[int, int]] = []
    for m in (~pronominal & (parse.object[heads] | parse.phrase_object[heads])).nonzero()[0].tolist():
        o = int(heads[m])
        v = int(parse.heads[o]) if parse.phrase_object[o] else parse.predicate(o)
        if v < 0 or parse.noun[v] or parse.predicative[o]:
            continue
        for s in parse.subjects(v):
            if s != o:
                found = with_heads(s, s)
                out.extend((m, int(f)) for f in found[~pronominal[found]])
    return out


def _within_own_phrase(parse: "_Parse", mentions: Mentions, pronominal: np.ndarray,
                       with_heads) -> List[Tuple[int, int]]:
    """I (i-within-i): a possessive determiner and the phrase it determines
    ("[his] mother" is not "his"): pairs of a determiner pronoun and each mention
    headed by its head noun that holds it."""
    out: List[Tuple[int, int]] = []
    heads, starts, ends = (np.asarray(a) for a in (mentions.heads, mentions.starts, mentions.ends))
    for m in (pronominal & parse.determiner[heads]).nonzero()[0].tolist():
        p = int(heads[m])
        owner = int(parse.heads[p])
        if owner == p or not parse.noun[owner]:
            continue
        out.extend((m, int(o)) for o in with_heads(owner, owner) if starts[o] <= p < ends[o] and o != m)
    return out


def _binder(parse: _Parse, p: int, v: int, with_heads, m: int) -> int:
    # The earliest mention headed by the reflexive's (first) local subject,
    # when it precedes the reflexive's mention.
    for s in parse.subjects(v):
        if s != p:
            found = with_heads(s, s)
            found = found[found < m]
            return int(found.min()) if len(found) else -1
    return -1
