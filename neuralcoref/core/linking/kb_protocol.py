"""What the linking code reads of a knowledge base: a :class:`typing.Protocol`,
so that core/ names the KB's type without importing
:mod:`neuralcoref.artifacts` (the layers forbid it, tests/test_layers.py).
:class:`neuralcoref.artifacts.kb.KnowledgeBase` satisfies it.
"""
from __future__ import annotations

from typing import Optional, Protocol, Tuple, runtime_checkable

import numpy as np


class EntityStrings(Protocol):
    """A string per entity row (names, descriptions)."""

    def __getitem__(self, row: int) -> str: ...


@runtime_checkable
class LinkingKB(Protocol):
    """A knowledge base as :mod:`neuralcoref.core.linking.linking` reads it.

    names (EntityStrings): the name of each entity row.
    descriptions (EntityStrings): the description of each entity row.
    priors (ndarray): (n,) float32, how often each entity is mentioned (0 unknown).
    """

    names: EntityStrings
    descriptions: EntityStrings
    priors: np.ndarray

    def alias_index(self, key: str) -> int:
        """The row of an alias key, or -1."""
        ...

    def candidates(self, text: str) -> Tuple[np.ndarray, np.ndarray]:
        """The entity rows (k,) int32 a text may name and P(entity | alias) (k,) float32."""
        ...

    def candidates_of_key(self, key: str) -> Tuple[np.ndarray, np.ndarray]:
        """:meth:`candidates` of an alias key."""
        ...

    def entity_type(self, row: int) -> Optional[str]:
        """The type name of an entity row, None when unknown."""
        ...
