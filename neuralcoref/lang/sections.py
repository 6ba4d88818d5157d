"""The sections of :class:`~neuralcoref.lang.base.LanguageRules`: one small frozen
record per consumer, each declaring whether it enters the rules' fingerprint.

A fingerprinted section (``mentions``, ``features``) holds what the spans, heads,
types and features of mentions depend on: a model records the fingerprint it was
trained with, and rules that change it warn (W101). The other sections steer
filtering after extraction, decoding and the resolved text only: changing them
keeps a model's fingerprint. A field belongs to exactly one section; the rules
read it flat as well (``rules.noun_pos`` is ``rules.mentions.noun_pos``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, FrozenSet, Iterable, Iterator, Mapping, Tuple, Union

from ..errors import Errors, NeuralcorefError

Labels = FrozenSet[str]
#: A label -> class map, stored as frozen (label, class) pairs to stay hashable.
ClassMap = FrozenSet[Tuple[str, str]]
#: What a class map field accepts: the pairs, or a dict.
ClassMapArg = Union[ClassMap, Mapping[str, str]]
#: Metadata of a field added after models shipped: left out of the fingerprint
#: while empty, so rules that do not use it keep the fingerprint their models recorded.
LATER = {"later": True}
AGREEMENT_ATTRIBUTES = ("gender", "number")
#: Binding principles decoding can apply (see :mod:`neuralcoref.core.discourse.binding`).
BINDING_PRINCIPLES = ("A", "B", "C", "N", "P", "I", "S")
#: Field names whose dict values are taken as (key, value) pairs.
_MAP_SUFFIXES = ("_classes", "_words", "_morphs")


def labels(*items: str) -> Labels:
    """A frozen set of labels: the field type of every label set of the rules."""
    return frozenset(items)


class Section:
    """A part of the rules (subclasses are frozen dataclasses).

    NAME (str): the attribute of :class:`~neuralcoref.lang.base.LanguageRules` that holds it.
    FINGERPRINTED (bool): whether its fields enter the rules' fingerprint.
    """

    NAME: ClassVar[str] = ""
    FINGERPRINTED: ClassVar[bool] = False

    def __post_init__(self) -> None:
        # Accept any iterable of strings (or a dict for class maps) but store
        # frozensets, so rules stay hashable (they key the cache of label tables).
        for f in fields(self):
            object.__setattr__(self, f.name, _normalized(f.name, f.type, getattr(self, f.name)))

    def items(self) -> Iterator[Tuple[str, Any]]:
        """The (field name, value) pairs, in declaration order."""
        return ((f.name, getattr(self, f.name)) for f in fields(self))

    def fingerprint_items(self) -> Iterator[Tuple[str, Any]]:
        """The (name, value) pairs the fingerprint holds: none for a section left
        out of it, and no empty field that was added after models shipped."""
        if not self.FINGERPRINTED:
            return iter(())
        return ((f.name, getattr(self, f.name)) for f in fields(self)
                if getattr(self, f.name) or not f.metadata.get("later"))


def _normalized(name: str, kind: str, value: Any) -> Any:
    if kind == "float":
        return _to_weight(value, name)
    if kind == "bool":
        if not isinstance(value, bool):
            raise TypeError(f"LanguageRules.{name} must be True or False, got {value!r}")
        return value
    if name.endswith(_MAP_SUFFIXES) and isinstance(value, Mapping):
        return frozenset(value.items())
    return value if isinstance(value, frozenset) else _to_labels(value, name)


def _to_weight(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise TypeError(f"LanguageRules.{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _to_labels(value: Iterable[str], name: str) -> Labels:
    if isinstance(value, str):
        raise TypeError(f"LanguageRules.{name} must be a set of labels, not a string")
    return frozenset(value)


@dataclass(frozen=True)
class MentionRules(Section):
    """What mention extraction reads: token classes, tags, morphology, words and
    dependency labels that make and shape a candidate, and the entity types that refer.

    noun_pos (Labels): heads of nominal mentions ("NOUN").
    proper_pos (Labels): heads of proper-noun mentions ("PROPN").
    pronoun_pos (Labels): heads of pronominal mentions ("PRON").
    number_pos (Labels): numbers that head a mention in argument position ("NUM").
    modifier_head_pos (Labels): adjectives or numbers that head a mention when they
        have a determiner or a partitive complement ("the first", "one of them").
    verb_pos (Labels): verbs ("VERB", "AUX"): they stand for their omitted
        subject in ``zero_subject_deps``, and make ``clitic_words`` attached to
        them pronouns.
    pronoun_tags (Labels): tokens that are pronoun mentions by themselves.
    possessive_pronoun_tags (Labels): pronoun mentions that never head a phrase
        ("his" in "his car": the phrase belongs to "car").
    non_referential_pronoun_tags (Labels): pronouns that never start a mention
        (interrogative and relative pronouns, existential "there").
    punct_tags (Labels): punctuation, trimmed from mention edges.
    open_bracket_tags (Labels): opening brackets and quotes.
    close_bracket_tags (Labels): closing brackets and quotes, kept at a mention's
        end when their opening partner is inside the mention.
    pronoun_morphs (Labels): tokens with one of these features are pronoun
        mentions by themselves, whatever their part of speech (possessive
        determiners: "Poss=Yes").
    non_referential_pronoun_morphs (Labels): pronouns with one of these
        features never start a mention ("PronType=Int").
    untrimmed_morphs (Labels): tokens with one of these features are never
        trimmed from a mention's edges: a preposition contracted with the
        mention's article ("du", "au": "PronType=Art").
    pronoun_words (Labels): words that are pronoun mentions when their part of
        speech is in ``pronoun_pos`` (demonstratives: "this", "that").
    partitive_words (Labels): prepositions of partitive complements ("of").
    any_pos_pronoun_words (Labels): words that are pronoun mentions by
        themselves whatever part of speech the tagger gives them (personal
        pronouns a tagger mislabels: French "tu", "-elle").
    non_referential_pronoun_words (Labels): pronouns that never start a
        mention (for tag sets without relative or reflexive tags: French "que",
        "se").
    clitic_words (Labels): object pronouns spelled like articles (French "le",
        "la", "les"): pronoun mentions when parsed as determiners
        (``determiner_deps``) of a ``verb_pos`` token, right after a pronoun
        ("il [la] voit"), or as arguments (``argument_deps``: "[les] humiliait").
    argument_deps (Labels): argument positions in which ``number_pos`` and
        ``modifier_head_pos`` tokens head mentions.
    number_head_deps (Labels): positions in which a ``number_pos`` token heads a
        mention even without a determiner ("in 1920").
    determiner_deps (Labels): determiners and possessors.
    preposition_deps (Labels): prepositional attachments (to find partitives).
    conj_deps (Labels): conjuncts: a head with one is a coordinated list.
    no_list_deps (Labels): heads whose own conjunct chain is not a list mention
        (a conjunct with further conjuncts: its members are mentions, the tail
        is not).
    case_deps (Labels): case markers (possessive "'s"), never trimmed.
    punct_deps (Labels): punctuation attachments.
    trim_deps (Labels): attachments trimmed from mention edges (conjunctions,
        dangling prepositions, markers).
    right_cut_deps (Labels): right dependents after which a shorter variant of the
        phrase ends (prepositional phrases, relative clauses, appositions,
        conjuncts): one variant per such dependent.
    left_cut_deps (Labels): leading dependents dropped in a variant that starts
        later ("Almost [all major intersections]", "Uh, [the Village]").
    left_drop_deps (Labels): leading dependents that never belong to the
        phrase: past one of them only the later start is proposed (in UD the
        subject and copula of a nominal predicate: "she is [a doctor]").
    zero_subject_deps (Labels): positions in which a ``verb_pos`` token
        with no subject is a one-token mention of its omitted subject, for
        annotations that mark zero anaphora on the verb (French "et [partit]":
        "conj").
    subject_deps (Labels): subjects; a verb with one has no omitted subject,
        and a conjunct with one is a clause, so its phrase is no list
        ("Jean et [Marie sont partis]" as parsed). English leaves it empty.
    entity_labels (Labels): named-entity types that refer (people, places,
        organisations...), not amounts or dates.
    """

    NAME: ClassVar[str] = "mentions"
    FINGERPRINTED: ClassVar[bool] = True

    noun_pos: Labels = labels()
    proper_pos: Labels = labels()
    pronoun_pos: Labels = labels()
    number_pos: Labels = labels()
    modifier_head_pos: Labels = labels()
    verb_pos: Labels = labels()
    pronoun_tags: Labels = labels()
    possessive_pronoun_tags: Labels = labels()
    non_referential_pronoun_tags: Labels = labels()
    punct_tags: Labels = labels()
    open_bracket_tags: Labels = labels()
    close_bracket_tags: Labels = labels()
    pronoun_morphs: Labels = labels()
    non_referential_pronoun_morphs: Labels = labels()
    untrimmed_morphs: Labels = labels()
    pronoun_words: Labels = labels()
    partitive_words: Labels = labels()
    any_pos_pronoun_words: Labels = labels()
    non_referential_pronoun_words: Labels = labels()
    clitic_words: Labels = labels()
    argument_deps: Labels = labels()
    number_head_deps: Labels = labels()
    determiner_deps: Labels = labels()
    preposition_deps: Labels = labels()
    conj_deps: Labels = labels()
    no_list_deps: Labels = labels()
    case_deps: Labels = labels()
    punct_deps: Labels = labels()
    trim_deps: Labels = labels()
    right_cut_deps: Labels = labels()
    left_cut_deps: Labels = labels()
    left_drop_deps: Labels = labels()
    zero_subject_deps: Labels = labels()
    subject_deps: Labels = labels()
    entity_labels: Labels = labels()


@dataclass(frozen=True)
class FeatureRules(Section):
    """What the mention and pair features read: label -> class maps, words and
    marks whose values a model was trained on.

    entity_classes (ClassMap): entity label -> ENTITY_CLASSES name ("person"...).
    dep_classes (ClassMap): dependency label of a mention's head -> DEP_CLASSES
        name ("subject", "object", "oblique", "possessive", "predicate"...).
    content_pos (Labels): parts of speech compared by the relaxed string match.
    quote_open_marks, quote_close_marks (Labels): quotation marks ("«", "»"):
        with ``turn_dashes``, they give speakers to texts without any (see
        :mod:`neuralcoref.core.doc.quotes`); empty: no speakers from quotation marks.
    turn_dashes (Labels): dashes that open a sentence of dialogue ("—").
    expletive_pronouns (Labels): pronouns that can be pleonastic ("it").
    expletive_deps (Labels): positions where they can be ("expl", subjects).
    gender_words (ClassMap): lowercase nouns and first names -> "masc"/"fem"/"neut",
        for mentions whose morphology has no gender ("sister", "Mary"); they also
        count as animate.
    animate_pronouns, inanimate_pronouns (Labels): pronouns that refer to people
        ("he", "I") or to things ("it").
    word_morphs (ClassMap): lowercase word -> UD features ("Person=3|Number=Sing")
        that override the tagger's for that word: what it leaves out (French
        possessives carry no person, inverted "-elle" no gender) or what does not
        describe the referent ("Gender=_": a French possessive agrees with the
        possessed noun, not with the possessor).
    """

    NAME: ClassVar[str] = "features"
    FINGERPRINTED: ClassVar[bool] = True

    entity_classes: ClassMapArg = frozenset()
    dep_classes: ClassMapArg = frozenset()
    content_pos: Labels = labels()
    quote_open_marks: Labels = field(default=frozenset(), metadata=LATER)
    quote_close_marks: Labels = field(default=frozenset(), metadata=LATER)
    turn_dashes: Labels = field(default=frozenset(), metadata=LATER)
    expletive_pronouns: Labels = labels()
    expletive_deps: Labels = labels()
    gender_words: ClassMapArg = frozenset()
    animate_pronouns: Labels = labels()
    inanimate_pronouns: Labels = labels()
    word_morphs: ClassMapArg = frozenset()


@dataclass(frozen=True)
class CandidateRules(Section):
    """Choices between variants of one head that the extractor proposes anyway
    (left out of the fingerprint, as the expletive filter is).

    title_deps (Labels): dependencies of the words of a title before a name
        ("compound": [President] Lincoln). A candidate that another one of the
        same head and end holds with only such words before it ("Lincoln", the
        entity, within "President Lincoln") is dropped: the title belongs to
        the name's mention.
    double_object_lemmas (Labels): verbs of the double-object frame ("owe",
        "give"): a person noun the parser makes a modifier of such a verb's
        only object is the indirect object ("owed [the cashier] money").
    lead_deps (Labels): dependencies of leading words that gold mentions leave
        out ("just [the book]", "plus [rien]"): of two candidates of the same
        head and end, the one that holds only such words more is dropped (the
        extractor proposes both, see ``left_cut_deps``).
    name_part_deps (Labels): dependencies of a name's later words ("flat:name").
        A proper noun's candidate ends before such a word when it starts with a
        small letter and is no ``name_particles`` word: a verb the tagger took
        for part of the name ("[Marie] dort.").
    name_particles (Labels): lowercase words inside names ("de", "van").
    """

    NAME: ClassVar[str] = "candidates"
    FINGERPRINTED: ClassVar[bool] = False

    title_deps: Labels = labels()
    double_object_lemmas: Labels = labels()
    lead_deps: Labels = labels()
    name_part_deps: Labels = labels()
    name_particles: Labels = labels()


@dataclass(frozen=True)
class ExpletiveRules(Section):
    """The expletive filter: non-referential pronouns, never mentions (see
    :mod:`neuralcoref.core.mentions.expletives`). It drops whole pronoun candidates after
    extraction, as the resolver's blacklist does: the mentions kept keep their
    spans, heads, types and features, so a model trained with or without the
    filter scores them as trained, and the section stays out of the fingerprint.

    weather_lemmas (Labels): predicates whose ``expletive_pronouns`` subject is
        always expletive ("rain", "pleuvoir", "falloir").
    weather_adjectives (Labels): lemmas that make it expletive as the predicate of
        a copula or ``weather_light_verbs`` ("It is cold", "il fait froid").
    ambient_entity_types (Labels): entity types of a copula's predicate noun that
        make its subject the ambient "it" of times and dates ("It is 4 p.m.",
        "It was midnight when", "if it's a clear day").
    raising_lemmas (Labels): verbs whose infinitive complement raises its
        subject, active ("It seems to work"; "il semble dormir") or passive ("It
        was supposed to arrive"): then "it" refers, as it does not before a
        clause ("It seems that", "It is said that").
    marked_clause_deps (Labels): clause labels that are extraposed only when one of
        ``expletive_marks`` opens the clause (English "advcl": "It is hard [to]
        believe", "It would be strange [for] him [to] say"; not "because").
    small_clause_deps (Labels): complements of a verb that, headed by an
        adjective, make a small clause whose "it" a following clause extraposes
        ("made [it clear] that", "find [it hard] to believe"; English only: a
        UD adjective heads its copula's clause too).
    weather_light_verbs (Labels): verbs taking ``weather_adjectives`` ("faire").
    extraposition_lemmas (Labels): verbs whose subject is expletive when they
        have a clausal complement ("It seems that", "it turned out that").
    copula_lemmas (Labels): "be": with an adjective and a clause it is extraposition
        ("It is important to sleep"); with a predicate noun and a relative clause
        a cleft ("It was Mary who called").
    extraposed_clause_deps (Labels): clausal complements ("ccomp", "xcomp").
    predicate_adjective_deps (Labels): adjective predicates of a copula ("acomp").
    cleft_deps (Labels): predicate nominals of a cleft ("attr").
    expletive_particles (Labels): words that make their head impersonal ("il
        [y] a"); such a particle is no mention either.
    existential_lemmas (Labels): the heads with which ``expletive_particles`` do
        ("il y [a]", not "il y habite"); empty: any head.
    expletive_idioms (Labels): fixed phrases, lowercase words joined by
        spaces, one of whose words is an expletive pronoun however the parser
        reads the rest ("il était une fois", "s' il vous plaît").
    fixed_deps (Labels): the later words of a multiword function word
        ("fixed": "il [y] [a] trois ans"); an expletive pronoun that heads one
        is part of it, no mention.
    interjections (Labels): lowercase phrases, words joined by spaces, that
        name no one when punctuation follows them ("mon dieu": "Mon Dieu !"):
        no mention inside them.
    impersonal_lemmas (Labels), postverbal_subject_deps (Labels): intransitive
        verbs ("arriver", "rester") whose expletive subject pronoun has the
        real subject after the verb, which parsers label as an object ("il
        arriva [une dame]", "il reste [trois pommes]"): with such a noun
        after it, indefinite and none of ``temporal_nouns`` ("il vint [un
        soir]"), the pronoun is expletive; so with ``impersonal_reflexive_lemmas``
        and one of ``reflexive_clitic_words`` ("il se passa [une chose étrange]").
    inverted_subject_words (Labels), neuter_subject_words (Labels),
        euphonic_words (Labels): a subject pronoun after its verb ("-il",
        "-elle"), "-t" between allowed (``euphonic_words``), that doubles one of
        ``neuter_subject_words`` before the verb ("Comment [cela] finira-t-il
        ?") is expletive: it is the demonstrative, which refers to no entity;
        and no mention starts with a euphonic word.
    inverted_expletive_words (Labels): inverted pronouns that are expletive
        after a weather verb or an existential one with its particle ("Faut-[il]
        partir ?", "Y a-t-[il] un médecin ?").
    expletive_marks (Labels): subordinators of an extraposed clause in UD, where
        it hangs on the adjective ("il est important [de] dormir").
    cleft_words (Labels): relative words that open the clause of a cleft
        ("who", "that"); empty: any relative clause.
    extraposition_subject_deps (Labels): subject positions where a pronoun before
        a clausal complement is expletive whatever the verb (passives: "It is
        said that").
    extraposition_object_deps (Labels): objects of an extraposing verb on
        which the parser may hang its extraposed clause ("It took [a long time]
        for the bus to arrive"); empty: the clause counts on the verb only.
    extraposition_adjectives (Labels): adjectives whose copula subject is
        expletive before a clause ("il est [possible] que"); empty: any adjective.
    """

    NAME: ClassVar[str] = "expletives"
    FINGERPRINTED: ClassVar[bool] = False

    weather_lemmas: Labels = labels()
    weather_adjectives: Labels = labels()
    ambient_entity_types: Labels = labels()
    raising_lemmas: Labels = labels()
    marked_clause_deps: Labels = labels()
    small_clause_deps: Labels = labels()
    weather_light_verbs: Labels = labels()
    extraposition_lemmas: Labels = labels()
    copula_lemmas: Labels = labels()
    extraposed_clause_deps: Labels = labels()
    predicate_adjective_deps: Labels = labels()
    cleft_deps: Labels = labels()
    expletive_particles: Labels = labels()
    existential_lemmas: Labels = labels()
    expletive_idioms: Labels = labels()
    fixed_deps: Labels = labels()
    interjections: Labels = labels()
    impersonal_lemmas: Labels = labels()
    postverbal_subject_deps: Labels = labels()
    temporal_nouns: Labels = labels()
    impersonal_reflexive_lemmas: Labels = labels()
    reflexive_clitic_words: Labels = labels()
    inverted_subject_words: Labels = labels()
    neuter_subject_words: Labels = labels()
    euphonic_words: Labels = labels()
    inverted_expletive_words: Labels = labels()
    expletive_marks: Labels = labels()
    cleft_words: Labels = labels()
    extraposition_subject_deps: Labels = labels()
    extraposition_object_deps: Labels = labels()
    extraposition_adjectives: Labels = labels()


@dataclass(frozen=True)
class SpeechRules(Section):
    """Speakers of quotations and turns, at decoding only (see
    :mod:`neuralcoref.core.doc.quotes`).

    speech_verbs (Labels): lemmas of verbs that introduce speech ("say", "reply",
        "dire"): their subject next to a quotation is its speaker (see
        :mod:`neuralcoref.core.doc.quotes`), whose first-person pronouns join it.
    speech_marks (Labels): quotation marks that open and close alike (straight
        '"'), for speakers of quotations at decoding (besides the open and close
        marks above, which also give speaker features).
    speech_open_marks, speech_close_marks (Labels): marks that only open or
        only close a quotation ("‘" and "’"; "`", the half of "``" a
        tokenizer splits), at decoding only, as ``speech_marks``.
    turn_label_marks (Labels): what ends a speaker's label at the start of a
        line ("Mary: Are you coming?", ":"): two or more such lines are turns
        of a script, chat log or interview, each spoken by its label, at
        decoding only, as quotations are (see :func:`neuralcoref.core.doc.quotes.name_turns`).
    """

    NAME: ClassVar[str] = "speech"
    FINGERPRINTED: ClassVar[bool] = False

    speech_verbs: Labels = labels()
    speech_marks: Labels = labels()
    speech_open_marks: Labels = labels()
    speech_close_marks: Labels = labels()
    turn_label_marks: Labels = labels()


@dataclass(frozen=True)
class BindingRules(Section):
    """Binding constraints, at decoding only (see :mod:`neuralcoref.core.discourse.binding`).

    binding_principles (Labels): those applied, among "A", "B", "C", "N" (C
        for a full noun phrase bound by another), "P" (the possessive
        preference of :mod:`neuralcoref.core.discourse.binding`), "I" (a possessive
        determiner is not the phrase it determines) and "S" (a first- or
        second-person pronoun is not a co-argument of another person: "Il veut
        te voir", "Marie te regarde"); empty: none.
    binding_clusters (bool): whether a pair that B or C forbids stays out of
        one cluster through every decoding step (True), or is only never a
        direct link (False: where a model often merges two people's chains, the
        cluster-wide constraint pulls correct mentions out with the wrong ones).
    binding_pronoun_words (Labels): personal pronouns that principles B and C
        constrain ("he", "him"; not possessives or reflexives).
    binding_possessive_words (Labels): possessive determiners for "P" ("its").
    reflexive_words (Labels): reflexives that principle A binds ("himself").
    person_words (ClassMap): first- and second-person pronouns -> their person
        and number ("me" -> "1s", "vous" -> "2p"), for principle "S".
    vocative_deps (Labels): vocatives, the addressee for principle "S"
        ("vocative": "[Monsieur], je vous remercie").
    binding_subject_deps, binding_object_deps (Labels): a predicate's subjects
        and its objects (prepositional objects included, "pobj").
    binding_preposition_deps (Labels): prepositions attached to a predicate
        ("prep", "agent") whose object is its argument when the word is one of
        ``binding_prepositions`` ("to", "about"; not "near", "with": "John saw
        a snake near him").
    binding_prepositions (Labels): see ``binding_preposition_deps``.
    binding_objectless_prepositions (Labels): prepositions whose object is an
        argument of a predicate without an object of its own ("argued [with]
        him"), not of one with an object ("took the book with him").
    binding_noun_prepositions (Labels): prepositions whose object is also an
        argument of the predicate when they hang on its direct object ("wrote
        [a letter] to him"); not those of picture nouns, whose object may be
        the subject ("a story about him", "a picture of him").
    phrase_object_deps (Labels): more dependents of a predicate that principle
        "N" alone counts as its objects: a full noun phrase there is never its
        subject's ("Le roi appela [son fils]", which the parser hangs as an
        oblique modifier); pronouns there stay free ("près de lui").
    binding_accusative_words, binding_complement_deps (Labels): an accusative
        pronoun that is the subject of a complement clause ("made [him]
        leave", "helped [her] do it") is a co-argument of the matrix verb's
        subjects too (exceptional case marking).
    binding_clitic_words (Labels): pronouns that are an object of the verb they
        precede, however the parser labels them (French "le", "lui").
    binding_asyndetic_deps, binding_subordinator_deps (Labels): a verb hung on
        another verb by one of the first (French "advcl", "ccomp") with neither
        a subject nor a child of the second ("mark": "que", "avant de") shares
        that verb's subjects, as a conjunct does: it is the second of two
        clauses joined by a comma, or a clause its subject controls ("Marie a
        vu Sophie, [lui] a parlé": "lui" is not Marie).
    subject_clitic_words, clitic_cluster_words (Labels): a subject clitic
        ("il") and the object clitics after it up to the verb (the words of
        ``clitic_cluster_words``: "ne", "me", "le", "lui", "y"...) are arguments
        of one verb, whatever the tagger makes of it ("Il l'écoute" read as a
        noun): principle B keeps such a ``binding_clitic_words`` object from
        its subject. Empty: none.
    control_deps (Labels): complements that take their subject from the
        governing verb's object, else its subject ("wants to see him").
    finite_verb_tags, nonfinite_verb_tags (Labels): fine tags of finite and
        non-finite verbs. Only like forms coordinate: a finite verb the parser
        hangs as a conjunct on a non-finite one in a complement clause ("saw
        her take the pen and [accused] him") conjoins the clause's governor,
        and shares its subject. Empty: conjuncts share their head's subject.
    modal_tags (Labels): fine tags of modal auxiliaries ("MD"). A personal
        pronoun that is the subject of a non-finite complement (no modal or
        finite auxiliary before it: "expects [it] to sell", "made [it] work",
        not "said it would hire") takes its case from the matrix verb, as an
        accusative one does (``binding_accusative_words``).
    past_verb_tags (Labels): fine tags of finite verbs in the past; a finite
        conjunct on a complement verb of the other tense ("noticed the nurse
        performs badly and [sent] her") conjoins the governor of its tense.
    title_words (Labels): lowercase titles before a person's name ("miss",
        "monsieur"): no given name (see :func:`neuralcoref.core.discourse.aliases.given_name_conflicts`).
    verb_frames (Labels): "verb preposition" pairs of verb lemmas and the
        prepositional phrases they govern ("protect from", "accuse of"): such a
        phrase is the verb's argument for binding, and where the parser hangs
        it on the verb's object ("protected [the designer] from harm") no part
        of the object's mention (see :mod:`neuralcoref.core.discourse.frames`); empty: none.
    preposed_deps (Labels): adverbial clauses and phrases whose pronoun, when
        they precede their main clause, refers forward to the main clause's
        subject ("When he was minister, Kallergis ...", "In his speech, the
        president ...", see :mod:`neuralcoref.core.discourse.cataphora`); empty: none.
    relative_clause_deps (Labels), relative_words (Labels): a relative clause
        whose subject is a relative pronoun shares the subject of the noun it
        modifies ("the man who saw him").
    clausal_modifier_deps (Labels): a clause modifying a noun without a
        relative pronoun has that noun as its subject ("a nurse [caring] for him":
        not him).
    binding_expletive_deps (Labels): an expletive subject ("there was a job
        opening"), which no conjoined verb shares: a finite conjunct of such a
        complement ("told the laborer there was a job opening and [invited]
        him") conjoins the governor.
    binding_predicate_deps (Labels): dependents a subject pronoun does not
        c-command for principle C (predicate nominals: "He is the teacher"),
        and predicates that principle C leaves free wherever they are.
    predicative_words (Labels): prepositions whose object is a predicate, left
        free by principle C ("serve [as] the capital").
    """

    NAME: ClassVar[str] = "binding"
    FINGERPRINTED: ClassVar[bool] = False

    def __post_init__(self) -> None:
        super().__post_init__()
        unknown = self.binding_principles - set(BINDING_PRINCIPLES)
        if unknown:
            raise NeuralcorefError(Errors.E061.format(found=sorted(unknown), known=", ".join(BINDING_PRINCIPLES)))

    binding_principles: Labels = labels()
    binding_clusters: bool = True
    binding_pronoun_words: Labels = labels()
    binding_possessive_words: Labels = labels()
    reflexive_words: Labels = labels()
    person_words: ClassMapArg = frozenset()
    vocative_deps: Labels = labels()
    binding_subject_deps: Labels = labels()
    binding_object_deps: Labels = labels()
    binding_preposition_deps: Labels = labels()
    binding_prepositions: Labels = labels()
    binding_objectless_prepositions: Labels = labels()
    binding_noun_prepositions: Labels = labels()
    phrase_object_deps: Labels = labels()
    binding_accusative_words: Labels = labels()
    binding_complement_deps: Labels = labels()
    binding_clitic_words: Labels = labels()
    binding_asyndetic_deps: Labels = labels()
    binding_subordinator_deps: Labels = labels()
    subject_clitic_words: Labels = labels()
    clitic_cluster_words: Labels = labels()
    control_deps: Labels = labels()
    finite_verb_tags: Labels = labels()
    nonfinite_verb_tags: Labels = labels()
    modal_tags: Labels = labels()
    past_verb_tags: Labels = labels()
    title_words: Labels = labels()
    verb_frames: Labels = labels()
    preposed_deps: Labels = labels()
    relative_clause_deps: Labels = labels()
    relative_words: Labels = labels()
    clausal_modifier_deps: Labels = labels()
    binding_expletive_deps: Labels = labels()
    binding_predicate_deps: Labels = labels()
    predicative_words: Labels = labels()


@dataclass(frozen=True)
class DecodingRules(Section):
    """Decoding preferences and constraints that change no mention and no feature.

    decoding_agreement (Labels): mention attributes ("gender", "number") that a
        cluster never mixes: a mention does not join a cluster holding another
        known value. Leave "gender" out where nouns carry grammatical gender
        ("la personne" ... "il"), as in French.
    subject_salience (float): added to the pair score of a subject of the same
        or the previous sentence for a third-person pronoun of known gender (he,
        his, she, her; il, elle, le): the subject is a pronoun's preferred
        antecedent. 0: none (French: without binding, an object clitic would
        prefer its own subject). A plural "they" takes the same salience
        from a coordinated subject ("John and Mary ... They").
    thing_salience (float): added to the pair score of a concrete thing (a
        nominal mention whose head the lexicons' "thing" section lists: "the
        shop", "his dog") of the same or the previous sentence for a referring
        neuter pronoun ("He closed it"): one that is possessive, or outside the
        frames of :func:`~neuralcoref.core.mentions.expletives.in_predicative_frame`
        (a copula but for bare adjectives, ``thing_frame_deps``). 0: none.
    thing_frame_deps (Labels): dependents that put a neuter pronoun of their
        head in a frame where it is often an event or extraposed "it" ("it was
        only Friday", "esteem it a folly", "it made us rich"): predicates and
        clausal complements.
    degree_deps (Labels): dependents that leave a predicate adjective bare
        for ``thing_frame_deps`` ("it is [very] fast", "red [and] fast"; not
        "hard [to open]").
    pronoun_gender_words (ClassMap): pronouns -> "masc"/"fem" for
        :func:`~neuralcoref.core.discourse.classes.gender_conflicts` ("elle" never takes
        "Pierre"), where ``decoding_agreement`` has no gender; empty: none.
    latter_words (Labels): demonstratives that take the nearest earlier phrase
        of their gender and number, lowercase and without spaces ("celle-ci":
        "the latter"; see :mod:`neuralcoref.core.discourse.latter`).
    lexicons (Labels): compiled lexicons in ``neuralcoref/lang/data/`` ("en_lexicon":
        noun classes and first names, see :mod:`neuralcoref.lang.lexicon`) whose
        classes constrain decoding: "the laptop" never joins "he", "the accountant"
        never "it", "the committee" may join "they".
    """

    NAME: ClassVar[str] = "decoding"
    FINGERPRINTED: ClassVar[bool] = False

    def __post_init__(self) -> None:
        super().__post_init__()
        unknown = self.decoding_agreement - set(AGREEMENT_ATTRIBUTES)
        if unknown:
            raise ValueError(f"LanguageRules.decoding_agreement: unknown attributes {sorted(unknown)}, "
                             f"use {AGREEMENT_ATTRIBUTES}")

    decoding_agreement: Labels = labels("number")
    subject_salience: float = 0.0
    thing_salience: float = 0.0
    thing_frame_deps: Labels = labels()
    degree_deps: Labels = labels()
    pronoun_gender_words: ClassMapArg = frozenset()
    latter_words: Labels = labels()
    lexicons: Labels = labels()


@dataclass(frozen=True)
class ResolvedTextRules(Section):
    """How ``doc._.coref_resolved`` writes replaced mentions.

    possessive_suffixes (Labels): what makes a name replacing a possessive word
        possessive in ``doc._.coref_resolved``: "'s", and "'" after an "s"
        ("his car" -> "John's car", "Chris' car"); empty: possessive words are
        kept (French "sa maison" has no such form).
    elided_words (ClassMap): elided word -> full form, restored before a
        replacement that starts with a consonant ("qu'il" -> "que Jean").
    contracted_words (ClassMap): a preposition fused with an article -> the
        two words ("au" -> "à le"): resolved text writes a main mention that
        starts with one with its article alone ("les enfants" for "aux
        enfants"), and a replaced mention that starts with one keeps its
        preposition ("parle aux enfants" stays, "parle à Marie").
    """

    NAME: ClassVar[str] = "resolved"
    FINGERPRINTED: ClassVar[bool] = False

    possessive_suffixes: Labels = frozenset()
    elided_words: ClassMapArg = frozenset()
    contracted_words: ClassMapArg = frozenset()


@dataclass(frozen=True)
class LinkingRules(Section):
    """Words the entity linker reads (see :mod:`neuralcoref.core.linking`), lowercase
    and without dots, as alias keys are; empty: none.

    link_general_heads (Labels): head words too general to point at one named
        entity ("the one", "this thing"): no candidate from the Doc's names.
    link_span_titles (Labels): titles before a name that a lone name's span is
        widened over ("Dr. William Glennie"), as the annotation's mentions hold them.
    link_leading_titles (Labels): words of a title before a name, dropped to
        look the name up when the whole is no alias ("Senator Hatfield"): the
        span titles and the titles and roles the KB's aliases leave out.
    """

    NAME: ClassVar[str] = "linking"
    FINGERPRINTED: ClassVar[bool] = False

    link_general_heads: Labels = labels()
    link_span_titles: Labels = labels()
    link_leading_titles: Labels = labels()
