"""neuralcoref: fast, CPU-first coreference resolution for spaCy 3.

Importing the package registers the ``._.coref_*`` extension attributes (getters
over ``doc.spans``, idempotent), so that a Doc read from a ``DocBin`` in a fresh
process answers ``doc._.coref_clusters`` without the component being created.
Nothing else happens at import: the ``neuralcoref`` spaCy factory is found through
its entry point, and ``Coref`` (the convenience API) is loaded on first use.
"""
__version__ = "5.0.0.dev0"

from .extensions import register_extensions
from .render import render  # stdlib only at import; spaCy is imported when rendering

__all__ = ["Coref", "register_extensions", "render"]

register_extensions()


def __getattr__(name: str):
    if name == "Coref":
        from .api import Coref

        return Coref
    raise AttributeError(f"module 'neuralcoref' has no attribute {name!r}")


def __dir__():
    # Coref is loaded lazily by __getattr__: list it for dir() and tab completion.
    return sorted(set(globals()) | set(__all__))
