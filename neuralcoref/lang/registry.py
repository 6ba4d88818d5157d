"""Language rules by name, in spaCy's registry of functions (``registry.misc``).

A language's rules are a function of no argument that returns a
:class:`~neuralcoref.lang.base.LanguageRules`, registered as
``neuralcoref.rules.<lang>.v<N>``::

    from spacy.util import registry

    @registry.misc("neuralcoref.rules.es.v1")
    def spanish_rules() -> LanguageRules:
        return RULES

or declared by a package under the ``spacy_misc`` entry point group, so that
spaCy finds it without an import. The component's ``rules`` setting names such
a function (or a language code); by default a pipeline gets the rules of its
language, the registered name of the highest version for it. The built-in
languages are registered here, and their modules imported on first use.
"""
from __future__ import annotations

import importlib
import re
from functools import lru_cache
from importlib import metadata
from typing import Callable, Dict, Optional, Tuple

import catalogue
from spacy.util import registry

from ..errors import Errors, NeuralcorefError
from .base import LanguageRules

PREFIX = "neuralcoref.rules."
#: A registered name: ``neuralcoref.rules.<lang>.v<version>``.
NAME_PATTERN = re.compile(r"^neuralcoref\.rules\.(?P<lang>[A-Za-z][\w-]*)\.v(?P<version>\d+)$")
#: spaCy's entry point group of ``registry.misc``, where packages declare rules.
ENTRY_POINTS = "spacy_misc"
#: The built-in languages' modules (each defines ``RULES``), by registered name.
BUILT_IN: Dict[str, str] = {
    "neuralcoref.rules.en.v1": "neuralcoref.lang.en",
    "neuralcoref.rules.fr.v1": "neuralcoref.lang.fr",
    "neuralcoref.rules.ud.v1": "neuralcoref.lang.ud",
}
#: Codes that ask for the generic UD rules ("xx" is spaCy's multi-language code).
GENERIC: Dict[str, str] = {"ud": "neuralcoref.rules.ud.v1", "xx": "neuralcoref.rules.ud.v1"}


def _module_rules(module: str) -> Callable[[], LanguageRules]:
    def rules() -> LanguageRules:
        return importlib.import_module(module).RULES
    rules.__doc__ = f"The rules of :mod:`{module}`."
    return rules


for _name, _module in BUILT_IN.items():
    registry.misc.register(_name, func=_module_rules(_module))


@lru_cache(maxsize=1)
def _entry_point_names() -> Tuple[str, ...]:
    # Names only: the packages load when their rules are asked for.
    return tuple(ep.name for ep in metadata.entry_points(group=ENTRY_POINTS) if ep.name.startswith(PREFIX))


def registered_rules() -> Tuple[str, ...]:
    """The names of the registered rules (this process's and the entry points'), sorted.

    RETURNS (Tuple[str, ...]): e.g. ("neuralcoref.rules.en.v1", ...).
    """
    namespace = registry.misc.namespace
    here = {key[-1] for key in list(catalogue.REGISTRY)
            if key[:-1] == namespace and key[-1].startswith(PREFIX)}
    return tuple(sorted(here.union(_entry_point_names())))


def rules_name(lang: str) -> Optional[str]:
    """The registered name of a language's rules: its highest version.

    lang (str): a language code ("en").
    RETURNS (str | None): e.g. "neuralcoref.rules.en.v1"; None when none is registered.
    """
    versions = [(int(match["version"]), name) for name in registered_rules()
                for match in [NAME_PATTERN.match(name)] if match and match["lang"] == lang]
    return max(versions)[1] if versions else None


def rules_by_name(name: str) -> LanguageRules:
    """The rules registered under a name.

    name (str): a registered name (see :func:`registered_rules`).
    RETURNS (LanguageRules): what the registered function returns.
    RAISES NeuralcorefError: E460 for a name that is not registered, E461 when
        the function does not return LanguageRules.
    """
    if name not in registered_rules():
        raise NeuralcorefError(Errors.E460.format(name=name, names=", ".join(registered_rules())))
    rules = registry.misc.get(name)()
    if not isinstance(rules, LanguageRules):
        raise NeuralcorefError(Errors.E461.format(name=name, kind=type(rules).__name__))
    return rules


def resolve_rules(value: object) -> LanguageRules:
    """The rules a ``rules`` setting names.

    value (str | LanguageRules): a registered name ("neuralcoref.rules.en.v1"),
        a language code with registered rules ("en", "ud"), or the rules
        themselves (what spaCy makes of a ``{"@misc": name}`` block).
    RETURNS (LanguageRules): the rules.
    RAISES NeuralcorefError: E460 for a name or code without rules, E462 for a
        value that is neither.
    """
    if isinstance(value, LanguageRules):
        return value
    if not isinstance(value, str):
        raise NeuralcorefError(Errors.E462.format(value=repr(value)[:80], names=", ".join(registered_rules())))
    name = value if value.startswith(PREFIX) else GENERIC.get(value) or rules_name(value) or value
    return rules_by_name(name)


__all__ = ["PREFIX", "NAME_PATTERN", "BUILT_IN", "GENERIC", "registered_rules", "rules_name",
           "rules_by_name", "resolve_rules"]
