"""The language data that mention extraction reads: label sets, word lists, nothing else.

A :class:`LanguageRules` holds only strings (part-of-speech tags, fine-grained tags,
dependency labels, lowercase words, entity labels) as the user's spaCy pipeline writes
them. The algorithm that uses them lives in :mod:`neuralcoref.mentions`; adding a
language means writing one of these objects in ``neuralcoref/lang/<code>.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import FrozenSet, Iterable

Labels = FrozenSet[str]


def labels(*items: str) -> Labels:
    """A frozen set of labels: the field type of every set in :class:`LanguageRules`."""
    return frozenset(items)


@dataclass(frozen=True)
class LanguageRules:
    """What mention extraction needs to know about one language and its labels.

    Token classes (part of speech, ``Token.pos_``):
    noun_pos (Labels): heads of nominal mentions ("NOUN").
    proper_pos (Labels): heads of proper-noun mentions ("PROPN").
    pronoun_pos (Labels): heads of pronominal mentions ("PRON").
    number_pos (Labels): numbers that head a mention in argument position ("NUM").
    modifier_head_pos (Labels): adjectives or numbers that head a mention when they
        have a determiner or a partitive complement ("the first", "one of them").

    Fine-grained tags (``Token.tag_``; leave empty for tag sets without them):
    pronoun_tags (Labels): tokens that are pronoun mentions by themselves.
    possessive_pronoun_tags (Labels): pronoun mentions that never head a phrase
        ("his" in "his car": the phrase belongs to "car").
    non_referential_pronoun_tags (Labels): pronouns that never start a mention
        (interrogative and relative pronouns, existential "there").
    punct_tags (Labels): punctuation, trimmed from mention edges.
    open_bracket_tags (Labels): opening brackets and quotes.
    close_bracket_tags (Labels): closing brackets and quotes, kept at a mention's
        end when their opening partner is inside the mention.

    Words (``Token.lower_``):
    pronoun_words (Labels): words that are pronoun mentions when their part of
        speech is in ``pronoun_pos`` (demonstratives: "this", "that").
    partitive_words (Labels): prepositions of partitive complements ("of").

    Dependency labels (``Token.dep_``), naming the relation to the head:
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

    Entities:
    entity_labels (Labels): named-entity types that refer (people, places,
        organisations...), not amounts or dates.
    """

    lang: str
    noun_pos: Labels = labels()
    proper_pos: Labels = labels()
    pronoun_pos: Labels = labels()
    number_pos: Labels = labels()
    modifier_head_pos: Labels = labels()
    pronoun_tags: Labels = labels()
    possessive_pronoun_tags: Labels = labels()
    non_referential_pronoun_tags: Labels = labels()
    punct_tags: Labels = labels()
    open_bracket_tags: Labels = labels()
    close_bracket_tags: Labels = labels()
    pronoun_words: Labels = labels()
    partitive_words: Labels = labels()
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
    entity_labels: Labels = labels()

    def __post_init__(self) -> None:
        # Accept any iterable of strings but store frozensets, so rules stay
        # hashable (they key the cache of hashed label tables).
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "lang" and not isinstance(value, frozenset):
                object.__setattr__(self, f.name, _to_labels(value, f.name))

    @property
    def uses_tags(self) -> bool:
        """Whether the rules read fine-grained tags (then a Doc must have them)."""
        return any(
            getattr(self, name)
            for name in ("pronoun_tags", "possessive_pronoun_tags",
                         "non_referential_pronoun_tags", "punct_tags",
                         "open_bracket_tags", "close_bracket_tags")
        )


def _to_labels(value: Iterable[str], name: str) -> Labels:
    if isinstance(value, str):
        raise TypeError(f"LanguageRules.{name} must be a set of labels, not a string")
    return frozenset(value)
