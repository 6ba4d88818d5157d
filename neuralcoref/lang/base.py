"""The language data that mention extraction, features and decoding read.

A :class:`LanguageRules` holds only strings (part-of-speech tags, fine-grained tags,
dependency labels, lowercase words, entity labels) as the user's spaCy pipeline writes
them, maps from labels to the language-independent classes of the feature contract,
and a few decoding weights. It is made of sections (:mod:`neuralcoref.lang.sections`),
one per consumer, each declaring whether it enters :meth:`LanguageRules.fingerprint`.
The algorithms that use them live in :mod:`neuralcoref.core`; a language is one of
these objects, registered by name (see :mod:`neuralcoref.lang.registry`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields, replace
from typing import Any, Dict, Iterator, Mapping, Tuple, Type

from .sections import (AGREEMENT_ATTRIBUTES, BINDING_PRINCIPLES, BindingRules, CandidateRules, ClassMap,
                       DecodingRules, ExpletiveRules, FeatureRules, Labels, LinkingRules, MentionRules,
                       ResolvedTextRules, Section, SpeechRules, labels)

#: The sections, in the order the rules hold them.
SECTIONS: Tuple[Type[Section], ...] = (MentionRules, FeatureRules, CandidateRules, ExpletiveRules,
                                       SpeechRules, BindingRules, DecodingRules, ResolvedTextRules, LinkingRules)
#: Each field's section, by field name (a field belongs to one section).
FIELD_SECTIONS: Dict[str, str] = {f.name: section.NAME for section in SECTIONS for f in fields(section)}
assert len(FIELD_SECTIONS) == sum(len(fields(section)) for section in SECTIONS), "a field in two sections"
_SECTION_FIELDS: Dict[str, Tuple[str, ...]] = {
    section.NAME: tuple(f.name for f in fields(section)) for section in SECTIONS}


@dataclass(frozen=True, init=False)
class LanguageRules:
    """What mention extraction, features and decoding know about one language.

    Built from sections, from flat fields, or both (a flat field overrides its
    section's)::

        LanguageRules(lang="en", noun_pos=["NOUN"], binding=BindingRules(...))
        dataclasses.replace(rules, subject_salience=0.5)

    Every field reads flat too, at the cost of a plain attribute:
    ``rules.noun_pos`` is ``rules.mentions.noun_pos``. The fields and what they
    mean are documented on their sections (:mod:`neuralcoref.lang.sections`).

    lang (str): the language code ("en").
    mentions (MentionRules): mention extraction (fingerprinted).
    features (FeatureRules): features (fingerprinted).
    candidates (CandidateRules): choices between variants of one head.
    expletives (ExpletiveRules): the expletive filter.
    speech (SpeechRules): speakers of quotations and turns, at decoding.
    binding (BindingRules): binding constraints, at decoding.
    decoding (DecodingRules): decoding preferences and constraints.
    resolved (ResolvedTextRules): the resolved text.
    linking (LinkingRules): the words the entity linker reads.
    RAISES TypeError: a name that is no section and no field, or a bad value.
    """

    lang: str
    mentions: MentionRules
    features: FeatureRules
    candidates: CandidateRules
    expletives: ExpletiveRules
    speech: SpeechRules
    binding: BindingRules
    decoding: DecodingRules
    resolved: ResolvedTextRules
    linking: LinkingRules

    def __init__(self, lang: str, **settings: Any) -> None:
        given = {section.NAME: settings.pop(section.NAME, None) for section in SECTIONS}
        unknown = sorted(name for name in settings if name not in FIELD_SECTIONS)
        if unknown:
            raise TypeError(f"LanguageRules got unknown fields: {', '.join(unknown)}")
        object.__setattr__(self, "lang", lang)
        for section in SECTIONS:
            flat = {name: settings[name] for name in _SECTION_FIELDS[section.NAME] if name in settings}
            self._set_section(_section(section, given[section.NAME], flat))

    def _set_section(self, section: Section) -> None:
        # The fields are copied flat onto the rules: consumers read
        # ``rules.noun_pos`` on hot paths, at the cost of a plain attribute.
        object.__setattr__(self, section.NAME, section)
        for name in _SECTION_FIELDS[section.NAME]:
            object.__setattr__(self, name, getattr(section, name))

    def __hash__(self) -> int:
        # The rules key the caches of the tables built from them (lru_cache, per
        # Doc): the hash of their hundred fields is computed once, not at every lookup.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.lang,) + tuple(getattr(self, section.NAME) for section in SECTIONS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> Dict[str, Any]:
        # The sections only (the flat copies are rebuilt); string hashes differ
        # between processes: a pickled copy computes its own.
        return {"lang": self.lang, **{section.NAME: getattr(self, section.NAME) for section in SECTIONS}}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        object.__setattr__(self, "lang", state["lang"])
        for section in SECTIONS:
            self._set_section(state[section.NAME])

    def sections(self) -> Iterator[Section]:
        """The sections, in order."""
        return (getattr(self, section.NAME) for section in SECTIONS)

    def items(self) -> Iterator[Tuple[str, Any]]:
        """Every (field name, value) pair, ``lang`` first, then section by section."""
        yield "lang", self.lang
        for section in self.sections():
            yield from section.items()

    def fingerprint(self) -> str:
        """A hash of the rules' data that mentions and features depend on (the
        fingerprinted sections' fields and ``lang``), stable across processes (a
        frozenset's repr follows string hashing, which Python randomises per
        process)."""
        data = {"lang": self.lang}
        for section in self.sections():
            data.update((name, sorted(map(str, value)) if isinstance(value, frozenset) else value)
                        for name, value in section.fingerprint_items())
        return hashlib.sha1(json.dumps(data, sort_keys=True).encode("utf8")).hexdigest()[:16]

    def class_map(self, name: str) -> Dict[str, str]:
        """A class map field as a dict, e.g. ``class_map("entity_classes")``."""
        return dict(getattr(self, name))

    @property
    def uses_tags(self) -> bool:
        """Whether the rules read fine-grained tags (then a Doc must have them)."""
        return any(
            getattr(self, name)
            for name in ("pronoun_tags", "possessive_pronoun_tags",
                         "non_referential_pronoun_tags", "punct_tags",
                         "open_bracket_tags", "close_bracket_tags")
        )

    @property
    def uses_morph(self) -> bool:
        """Whether the rules read morphological features (``Token.morph``)."""
        return bool(self.pronoun_morphs or self.non_referential_pronoun_morphs
                    or self.untrimmed_morphs)

    @property
    def uses_word_classes(self) -> bool:
        """Whether words give tag classes (``any_pos_pronoun_words``...)."""
        return bool(self.any_pos_pronoun_words or self.non_referential_pronoun_words
                    or self.clitic_words)


def _section(kind: Type[Section], given: Any, flat: Dict[str, Any]) -> Section:
    """A section from what was given for it (a section, a dict of its fields or
    None), with flat fields overriding."""
    if given is None:
        return kind(**flat)
    if isinstance(given, Mapping):
        return kind(**{**given, **flat})
    if not isinstance(given, kind):
        raise TypeError(f"LanguageRules.{kind.NAME} must be a {kind.__name__}, got {type(given).__name__}")
    return replace(given, **flat) if flat else given


def fingerprinted_fields() -> Tuple[str, ...]:
    """The names of the fields that enter the fingerprint (besides ``lang``)."""
    return tuple(f.name for section in SECTIONS if section.FINGERPRINTED for f in fields(section))


__all__ = ["LanguageRules", "SECTIONS", "FIELD_SECTIONS", "Section", "MentionRules", "FeatureRules",
           "CandidateRules", "ExpletiveRules", "SpeechRules", "BindingRules", "DecodingRules",
           "ResolvedTextRules", "LinkingRules", "Labels", "ClassMap", "labels", "fingerprinted_fields",
           "AGREEMENT_ATTRIBUTES", "BINDING_PRINCIPLES"]
