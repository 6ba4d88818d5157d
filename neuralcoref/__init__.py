"""neuralcoref: fast, CPU-first coreference resolution for spaCy 3.

Importing the package has no side effects: the ``neuralcoref`` spaCy factory is
found through its entry point, and the ``._.coref_*`` extensions are registered
when the factory runs. ``Coref`` (which imports spaCy) is loaded on first use.
"""
__version__ = "5.0.0.dev0"

from .render import render  # stdlib only at import; spaCy is imported when rendering

__all__ = ["Coref", "render"]


def __getattr__(name: str):
    if name == "Coref":
        from .api import Coref

        return Coref
    raise AttributeError(f"module 'neuralcoref' has no attribute {name!r}")
