"""Language rules for mention extraction, one module per language.

Each module ``neuralcoref/lang/<code>.py`` defines ``RULES``, a
:class:`~neuralcoref.lang.base.LanguageRules`. Modules are imported on first use.
"""
from __future__ import annotations

import importlib
from typing import Dict, Tuple

from ..errors import Errors, NeuralcorefError
from .base import LanguageRules

#: Language codes with rules, mapped to their module.
LANGUAGES: Dict[str, str] = {
    "en": "neuralcoref.lang.en",
}


def available_languages() -> Tuple[str, ...]:
    """The language codes that have rules, sorted.

    RETURNS (Tuple[str, ...]): e.g. ("en",).
    """
    return tuple(sorted(LANGUAGES))


def get_rules(lang: str) -> LanguageRules:
    """The mention-extraction rules of a language.

    lang (str): a spaCy language code, e.g. ``nlp.lang`` ("en").
    RETURNS (LanguageRules): the language's rules.
    """
    module = LANGUAGES.get(lang)
    if module is None:
        raise NeuralcorefError(Errors.E050.format(
            lang=lang, available=", ".join(available_languages())))
    return importlib.import_module(module).RULES


__all__ = ["LanguageRules", "LANGUAGES", "available_languages", "get_rules"]
