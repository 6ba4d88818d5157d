"""Language rules for mention extraction, features and decoding, by language.

A language's rules are a :class:`~neuralcoref.lang.base.LanguageRules` registered
in spaCy's registry as ``neuralcoref.rules.<code>.v<N>`` (see
:mod:`neuralcoref.lang.registry`): the built-in ones (``neuralcoref/lang/<code>.py``,
each defining ``RULES``, imported on first use) and those of any package that
registers its own. The component's ``rules`` setting names them; by default a
pipeline gets its language's.

Languages without rules of their own get the generic Universal Dependencies rules
of :mod:`neuralcoref.lang.ud` (with a warning), which fit any spaCy pipeline whose
parser writes UD labels ("nsubj", "obj", "obl", "case"...) and whose tagger or
morphologizer writes UD parts of speech, as spaCy's pipelines trained on UD
treebanks do. Not every pipeline does: English ones write ClearNLP labels ("dobj",
"pobj"), German ones TIGER labels ("sb", "oa"). So the labels are checked when
they are known: :func:`get_pipeline_rules` (which the component uses) passes the
parser's labels to :func:`get_rules`, and labels that are not UD labels are a
coded error (E050) rather than silently poor mentions. A pipeline being loaded
(``spacy.load``) has a parser without labels until ``from_disk`` brings them:
:func:`pending_pipeline_rules` then defers the choice (see :class:`PendingRules`).
"""
from __future__ import annotations

import warnings
from typing import Iterable, List, Optional, Set, Tuple, Union

from ..errors import Errors, NeuralcorefError, Warnings
from .base import LanguageRules
from .registry import GENERIC, NAME_PATTERN, registered_rules, resolve_rules, rules_by_name, rules_name

#: Labels only UD parsers write (ClearNLP writes "dobj", "pobj"; TIGER "oa", "nk").
UD_MARKERS = frozenset({"obj", "obl", "obl:arg", "obl:mod", "nsubj:pass", "flat",
                        "flat:name", "fixed", "iobj", "nmod"})
#: How many UD_MARKERS a parser's labels must hold to count as UD labels.
MIN_UD_MARKERS = 2


def available_languages() -> Tuple[str, ...]:
    """The language codes that have rules of their own (registered), sorted.

    RETURNS (Tuple[str, ...]): e.g. ("en", "fr").
    """
    codes = {match["lang"] for match in map(NAME_PATTERN.match, registered_rules()) if match}
    return tuple(sorted(codes - set(GENERIC)))


def uses_ud_labels(parser_labels: Iterable[str]) -> bool:
    """Whether a parser's dependency labels look like Universal Dependencies ones.

    parser_labels (Iterable[str]): e.g. ``nlp.get_pipe("parser").labels``.
    RETURNS (bool): True when at least MIN_UD_MARKERS of UD_MARKERS occur, labels
        that English (ClearNLP) and German (TIGER) parsers do not write together.
    """
    return len(UD_MARKERS.intersection(parser_labels)) >= MIN_UD_MARKERS


def get_rules(lang: str, parser_labels: Optional[Iterable[str]] = None) -> LanguageRules:
    """The mention-extraction rules of a language.

    A language without rules of its own gets the generic UD rules and a warning;
    "ud" (or "xx") asks for them without one.

    lang (str): a spaCy language code, e.g. ``nlp.lang`` ("en"), or "ud".
    parser_labels (Iterable[str] | None): the dependency labels of the pipeline's
        parser. When given, a language without rules of its own must have UD
        labels (see :func:`uses_ud_labels`), else a coded error (E050).
    RETURNS (LanguageRules): the language's rules, or the generic UD rules.
    """
    name = GENERIC.get(lang) or rules_name(lang)
    if name is not None:
        return rules_by_name(name)
    if parser_labels is not None:
        parser_labels = sorted(parser_labels)
        if not uses_ud_labels(parser_labels):
            raise NeuralcorefError(Errors.E050.format(
                lang=lang, available=", ".join(available_languages()),
                labels=", ".join(parser_labels[:8]) + (", ..." if len(parser_labels) > 8 else "")
                or "none"))
    warnings.warn(Warnings.W050.format(lang=lang, available=", ".join(available_languages())),
                  stacklevel=2)
    return rules_by_name(GENERIC["ud"])


def _parsers(nlp) -> List:
    from spacy.pipeline import DependencyParser

    return [pipe for _, pipe in nlp.pipeline if isinstance(pipe, DependencyParser)]


def _labels(parsers: List) -> Optional[Set[str]]:
    # Without a parser there is nothing to check; extraction fails with E051.
    return {label for pipe in parsers for label in pipe.labels} if parsers else None


def get_pipeline_rules(nlp) -> LanguageRules:
    """The rules for a spaCy pipeline: its language's, or the generic UD rules
    after checking that its parser writes UD labels.

    nlp (Language): the pipeline; its dependency parser's labels are checked
        when its language has no rules of its own.
    RETURNS (LanguageRules): see :func:`get_rules`.
    """
    return get_rules(nlp.lang, _labels(_parsers(nlp)))


class PendingRules:
    """The rules of a pipeline whose language has no rules of its own and whose
    parser has no labels yet: a pipeline that ``spacy.load`` is building, before
    ``from_disk`` loads the parser. Called once the labels are there.

    lang (str): the pipeline's language.
    parsers (List[DependencyParser]): its parsers, whose labels are checked then.
    """

    def __init__(self, lang: str, parsers: List):
        self.lang, self.parsers = lang, parsers

    @property
    def ready(self) -> bool:
        """Whether a parser has labels now (so that the check can be made)."""
        return any(len(pipe.labels) for pipe in self.parsers)

    def __call__(self) -> LanguageRules:
        """The rules: see :func:`get_rules` (E050 when the labels are not UD labels)."""
        return get_rules(self.lang, _labels(self.parsers))


def pending_pipeline_rules(nlp) -> Optional[PendingRules]:
    """For a pipeline whose rules depend on parser labels it does not have yet,
    the rules to choose later; None when :func:`get_pipeline_rules` can choose now.

    nlp (Language): the pipeline.
    RETURNS (PendingRules | None): see :class:`PendingRules`.
    """
    parsers = _parsers(nlp)
    if nlp.lang in GENERIC or rules_name(nlp.lang) or not parsers or _labels(parsers):
        return None
    return PendingRules(nlp.lang, parsers)


def pipeline_rules(nlp, rules: Union[str, LanguageRules, None] = None) -> Union[LanguageRules, PendingRules]:
    """The rules of the component's ``rules`` setting for a pipeline.

    nlp (Language): the pipeline.
    rules (str | LanguageRules | None): a registered name or a language code
        (see :func:`~neuralcoref.lang.registry.resolve_rules`); None: the
        pipeline's language's (see :func:`get_pipeline_rules`), or
        :class:`PendingRules` until its parser has labels.
    RETURNS (LanguageRules | PendingRules): the rules, or those to choose later.
    RAISES NeuralcorefError: E460-E462 for a bad setting, E050 (see :func:`get_rules`).
    """
    if rules is None:
        return pending_pipeline_rules(nlp) or get_pipeline_rules(nlp)
    return resolve_rules(rules)


__all__ = ["LanguageRules", "GENERIC", "pipeline_rules", "registered_rules", "resolve_rules", "rules_name",
           "available_languages", "get_rules", "get_pipeline_rules", "pending_pipeline_rules", "PendingRules",
           "uses_ud_labels"]
