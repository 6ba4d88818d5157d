"""neuralcoref: fast, CPU-first coreference resolution for spaCy 3.

Importing the package registers the ``._.coref_*`` extension attributes (getters
over ``doc.spans``, idempotent), so that a Doc read from a ``DocBin`` in a fresh
process answers ``doc._.coref_clusters`` without the component being created.
Nothing else happens at import: the ``neuralcoref`` spaCy factory is found through
its entry point, and ``Coref`` (the convenience API) and ``render`` (the HTML
view) are loaded on first use.

The package is layered: ``core/`` (the runtime: mentions, features, scoring,
decoding, the resolver), ``artifacts/`` (model folders, ensembles, tuning),
``corpora/`` (CoNLL, gold Docs, scorers, evaluation), ``apps/`` (CLI, server,
batch, HTML view, benchmark), beside ``lang/`` and ``models/``; the spaCy glue
(component, extensions, API) sits here. ``tests/test_layers.py`` holds the rules.
"""
from .about import __version__
from .extensions import register_extensions

__all__ = ["Coref", "register_extensions", "render"]

register_extensions()


def __getattr__(name: str):
    if name == "Coref":
        from .api import Coref

        return Coref
    if name == "render":
        from .apps.render import render

        return render
    raise AttributeError(f"module 'neuralcoref' has no attribute {name!r}")


def __dir__():
    # Coref and render are loaded lazily by __getattr__: list them for dir() and tab completion.
    return sorted(set(globals()) | set(__all__))
