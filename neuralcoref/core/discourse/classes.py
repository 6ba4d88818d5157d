"""Each mention's class in the language's lexicons (person, group, inanimate, a
name's gender), for decoding's agreement (:func:`decode_signals.agreement_masks`),
and the concrete things a referring "it" prefers (:func:`thing_preference`)."""
from __future__ import annotations

from functools import lru_cache
from typing import FrozenSet, Optional, Tuple

import numpy as np
from spacy.tokens import Doc

from ...lang.base import LanguageRules
from ...lang.lexicon import (GENDER_CLASSES, MENTION_CLASSES, gender_word_ids, has_names, noun_classes,
                             thing_nouns, word_classes)
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.labels import has_label, label_codes
from ..features.contract import C, DEP_CLASSES, GENDER, NUMBER, PERSON
from ..features.featurize import clause_persons
from ..mentions.expletives import in_predicative_frame
from ..mentions.mentions import NOMINAL, PRONOMINAL, PROPER
from ..util.sets import isin
from .decode_signals import pronoun_persons, third_person_pronouns


#: Entity kinds (``entity_classes``) that never name a person or a group: a date
#: or a number ("In 1872 he was elected") is "it" if anything.
THING_ENTITY_KINDS = frozenset({"time", "number"})
PERSON_ENTITY_KINDS = frozenset({"person"})


def in_entity_kinds(arrays: DocArrays, rules: LanguageRules, kinds: FrozenSet[str]) -> np.ndarray:
    """(n_tokens,) bool, read-only: the tokens of an entity whose label the
    rules' ``entity_classes`` give one of ``kinds``; once per Doc and kinds."""
    key = ("in_entity_kinds", rules, kinds)
    out = arrays.memo.get(key)
    if out is None:  # the names, the aliases and the classes ask: once per Doc
        out = arrays.memo[key] = has_label(arrays.ent_type, _kind_labels(rules, kinds))
        out.flags.writeable = False
    return out


def in_person_entity(arrays: DocArrays, rules: LanguageRules) -> np.ndarray:
    """(n_tokens,) bool: the tokens of an entity the rules class as a person
    (``entity_classes``: "PERSON" in English, "PER" in French)."""
    return in_entity_kinds(arrays, rules, PERSON_ENTITY_KINDS)


@lru_cache(maxsize=32)
def _kind_labels(rules: LanguageRules, kinds: FrozenSet[str]) -> FrozenSet[str]:
    """The entity labels the rules class as one of ``kinds``."""
    return frozenset(label for label, kind in rules.class_map("entity_classes").items() if kind in kinds)


def mention_classes(doc, starts: np.ndarray, ends: np.ndarray, heads: np.ndarray,
                    types: np.ndarray, rules: LanguageRules,
                    arrays: Optional[DocArrays] = None) -> np.ndarray:
    """Each mention's class in the lexicons: a nominal mention's by its head's
    lemma ("engineers": person), a proper name's by its first word when that is
    a first name of one gender ("Anna Smith": female), else "person" for a name
    the entity recognizer calls a person. Where the lexicons list no first
    names (French), the first names and titles of the rules' ``gender_words``
    give a name's gender ("Paul": male, "Mme Pictet": female); rules without
    lexicons class names only, by those. A name or noun that heads a date or
    a number (``THING_ENTITY_KINDS``) is inanimate.

    doc (Doc): the parsed Doc; starts, ends, heads, types (int (n,)): the mentions.
    rules (LanguageRules): the language's rules (``lexicons``, ``entity_classes``,
        ``gender_words``).
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (ndarray): (n,) int8 codes of MENTION_CLASSES (0: none, or no lexicon).
    """
    out = np.zeros(len(heads), dtype=np.int8)
    lexicons = rules.lexicons
    if not (lexicons or rules.gender_words) or not len(heads):
        return out
    arrays = arrays_of(doc, arrays)
    heads, starts, types = np.asarray(heads), np.asarray(starts), np.asarray(types)
    nominal = types == NOMINAL
    out[nominal] = noun_classes(arrays, heads[nominal], lexicons)
    proper = types == PROPER
    if np.count_nonzero(proper):  # a short Doc often has no name: no name lists read
        out[proper] = _name_classes(doc, arrays, rules, starts[proper], heads[proper])
    # A name or noun that heads a date or a number is a thing, whatever the
    # first-name lists say ("in May").
    things = (nominal | proper) & in_entity_kinds(arrays, rules, THING_ENTITY_KINDS)[heads]
    out[things] = MENTION_CLASSES.index("inanimate")
    return out


def _name_classes(doc: Doc, arrays: DocArrays, rules: LanguageRules, starts: np.ndarray,
                  name_heads: np.ndarray) -> np.ndarray:
    """The classes of proper names (see :func:`mention_classes`): (n,) int8."""
    lexicons = rules.lexicons
    # The first word only: after a title ("Ms. Garcia") the head is a surname,
    # and many surnames are also first names of the lists.
    first = arrays.lower[starts]
    # Without first names in the lexicons, those and the titles of the rules' gender words.
    by_first = word_classes(doc, first, lexicons, part="names") if has_names(lexicons) \
        else _gender_word_classes(rules, first)
    # Nor a name headed by its first word that is the last word of a longer name
    # of the Doc: "Collins" after "Sandra Collins" is her surname, whatever the
    # lists say of "Collins".
    alone = name_heads == starts
    by_first[alone & isin(first, arrays.lower[name_heads[~alone]])] = 0
    person = np.where(in_person_entity(arrays, rules)[name_heads], MENTION_CLASSES.index("person"), 0) \
        if lexicons else 0
    return np.where(by_first > 0, by_first, person)


def _gender_word_classes(rules: LanguageRules, keys: np.ndarray) -> np.ndarray:
    """The classes "male" and "female" of words (string ids) the rules'
    ``gender_words`` call masculine or feminine ("Paul", "Mme"), else 0."""
    genders = gender_word_ids(rules)
    return np.array([GENDER_CLASSES.get(genders.get(int(k), ""), 0) for k in keys.tolist()], dtype=np.int8)


def speech_persons(classes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Lexicon classes with "I" and "you" given the class "person" where nothing
    said more (a speaker's gender, :func:`~neuralcoref.core.discourse.decode_signals.with_speaker_genders`):
    whoever says "I" or is called "you" is a person, so neither ever joins "the
    book" or "it". "We" is left free: a company speaks as "we".

    classes (int (n,)): MENTION_CLASSES codes; codes (int (n, len(MENTION_CODES))): mention codes.
    RETURNS (ndarray): (n,) int8, a copy of ``classes``.
    """
    codes = np.asarray(codes)
    out = np.array(classes, dtype=np.int8)
    person = pronoun_persons(codes)
    plural = codes[:, C["number"]] == NUMBER.index("plur")
    speech = (person == PERSON.index("2")) | ((person == PERSON.index("1")) & ~plural)
    out[speech & (out == 0)] = MENTION_CLASSES.index("person")
    return out


def relative_persons(doc, rules: LanguageRules, heads: np.ndarray, persons: np.ndarray,
                     arrays: Optional[DocArrays] = None) -> np.ndarray:
    """Pronoun persons with a relative pronoun given the person of the verb it
    is the subject of: "qui" has none of its own, but "la femme qui habite" is
    a third person and "moi qui suis" a first, so neither joins the other's
    "je" (:func:`~neuralcoref.core.discourse.decode_signals.person_conflicts`).

    doc (Doc): the parsed Doc; rules (LanguageRules): ``relative_words`` and
        ``binding_subject_deps``.
    heads (int (n,)): the mentions' heads; persons (int (n,)): their PERSON
        codes (:func:`~neuralcoref.core.discourse.decode_signals.pronoun_persons`).
    RETURNS (ndarray): (n,) int32, a copy of ``persons``.
    """
    out = np.array(persons, dtype=np.int32)
    if not rules.relative_words or not len(heads):
        return out
    arrays = arrays_of(doc, arrays)
    heads = np.asarray(heads, dtype=np.int64)
    relative = (out == PERSON.index("unknown")) & has_label(arrays.lower, rules.relative_words)[heads] \
        & has_label(arrays.dep, rules.binding_subject_deps)[heads]
    if np.count_nonzero(relative):
        verb = clause_persons(arrays)[arrays.head[heads[relative]]]
        out[relative] = np.where(verb > 0, verb, out[relative])
    return out


def subject_persons(doc, heads: np.ndarray, types: np.ndarray, codes: np.ndarray,
                    persons: np.ndarray, arrays: Optional[DocArrays] = None) -> np.ndarray:
    """First-person pronouns and the names and noun phrases that are subjects
    of a third-person verb, by person, for
    :func:`~neuralcoref.core.discourse.decode_signals.person_conflicts`: in the narration
    "Paul est parti" is not the narrator's "je" ("Paul est parti. Je
    partirai."), whatever the scores; a narrator is the subject of a
    first-person verb. Paired apart from the pronouns, so that names do not
    crowd the pronouns' window.

    doc (Doc): the parsed Doc; heads, types (int (n,)): the mentions;
    codes (int (n, k)): their mention codes; persons (int (n,)): pronoun
        persons (:func:`~neuralcoref.core.discourse.decode_signals.pronoun_persons`).
    RETURNS (ndarray): (n,) int32: 1 for a first-person pronoun, 3 for such a
        subject, -1 for the others.
    """
    first = PERSON.index("1")
    out = np.where(np.asarray(persons) == first, first, -1).astype(np.int32)
    if not np.count_nonzero(out == first):
        return out
    arrays = arrays_of(doc, arrays)
    codes, heads = np.asarray(codes), np.asarray(heads, dtype=np.int64)
    verbs = arrays.head[heads]
    named = isin(types, [PROPER, NOMINAL]) & (codes[:, C["dep"]] == DEP_CLASSES.index("subject")) \
        & (verbs != heads)
    third = PERSON.index("3")
    out[named & (clause_persons(arrays)[verbs] == third)] = third
    return out


#: How many mentions before and after a pronoun :func:`gender_conflicts` looks
#: at: decoding's window for a pronoun's candidates (``pairs.DEFAULT_MAX_DIST``).
GENDER_WINDOW = 50


def gender_conflicts(arrays: DocArrays, rules: LanguageRules, heads: np.ndarray,
                     types: np.ndarray, classes: np.ndarray, window: int = GENDER_WINDOW,
                     genders: Optional[np.ndarray] = None) -> np.ndarray:
    """Pairs of a gendered pronoun (``rules.pronoun_gender_words``: "elle") and a name
    of the other gender ("Pierre") or a noun phrase whose head noun has the other
    grammatical gender ("le directeur"), within ``window`` mentions of each
    other: never one entity. French decoding has no gender agreement, since
    "elle" also stands for a feminine noun ("Pierre a acheté une maison. Elle
    est grande"); a name's gender is its bearer's, and "il" and "elle" agree
    with their noun's grammatical gender.

    heads, types (int (n,)): the mentions; classes (int (n,)): their
    MENTION_CLASSES codes (:func:`mention_classes`).
    genders (int (n,) | None): their GENDER codes (mention codes, from the
        morphology); None: names only.
    RETURNS (ndarray): (k, 2) int64 mention pairs.
    """
    words = rules.class_map("pronoun_gender_words")
    if not words or not len(heads):
        return np.zeros((0, 2), dtype=np.int64)
    classes, types = np.asarray(classes), np.asarray(types)
    pronoun = np.where(types == PRONOMINAL, label_codes(arrays.lower, words, GENDER_CLASSES)[np.asarray(heads)], 0)
    kinds = [PROPER]
    if genders is not None:
        # A noun phrase takes its head noun's grammatical gender as its class.
        by_noun = np.zeros(len(types), dtype=classes.dtype)
        for name, code in GENDER_CLASSES.items():
            by_noun[np.asarray(genders) == GENDER.index(name)] = code
        classes = np.where((types == NOMINAL) & (by_noun > 0), by_noun, classes)
        kinds.append(NOMINAL)
    named = np.flatnonzero(isin(classes, list(GENDER_CLASSES.values())) & isin(types, kinds))
    # Each gendered pronoun with every name within the window, all at once.
    gendered = np.flatnonzero(pronoun)
    lo = np.searchsorted(named, gendered - window)
    counts = np.searchsorted(named, gendered + window, side="right") - lo
    a = np.repeat(gendered, counts)
    b = named[np.repeat(lo - (np.cumsum(counts) - counts), counts) + np.arange(counts.sum())]
    other = classes[b] != pronoun[a]
    return np.stack([a[other], b[other]], axis=1).astype(np.int64)


def thing_preference(doc, heads: np.ndarray, types: np.ndarray, codes: np.ndarray,
                     rules: LanguageRules, arrays: Optional[DocArrays] = None) -> Tuple[np.ndarray, np.ndarray]:
    """What each mention adds, as a concrete thing, to the pair scores of the
    neuter pronouns after it that refer (``rules.thing_salience`` for a nominal
    mention whose head the lexicons call a thing: "the shop", "his dog"; else 0),
    and whether, as a pronoun, it is one of them: third person, singular,
    neuter, and possessive ("its") or outside a predicative frame
    (:func:`~neuralcoref.core.mentions.expletives.in_predicative_frame`: not "it was
    icy", "made it clear").

    doc (Doc): the parsed Doc; heads, types (int (n,)): the mentions'.
    codes (int (n, k)): mention codes (:class:`~neuralcoref.core.features.contract.MentionFeatures`).
    rules (LanguageRules): the language's rules (``thing_salience``, ``lexicons``).
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (Tuple[ndarray, ndarray]): (n,) float32 and (n,) bool, for
        :func:`~neuralcoref.core.decode.antecedents.prefer_near`.
    """
    n = len(heads)
    salience, prefers = np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool)
    if not rules.thing_salience or not rules.lexicons or not n:
        return salience, prefers
    arrays = arrays_of(doc, arrays)
    heads, types, codes = np.asarray(heads, dtype=np.int64), np.asarray(types), np.asarray(codes)
    nominal = types == NOMINAL
    salience[nominal] = np.where(thing_nouns(arrays, heads[nominal], rules.lexicons),
                                 np.float32(rules.thing_salience), np.float32(0))
    neuter = third_person_pronouns(codes, ("neut",)) & (codes[:, C["number"]] == NUMBER.index("sing"))
    possessive = codes[:, C["dep"]] == DEP_CLASSES.index("possessive")
    prefers[neuter] = possessive[neuter] | ~in_predicative_frame(rules, arrays, heads[neuter])
    return salience, prefers
