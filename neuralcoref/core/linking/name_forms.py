"""Forms of a mention's name that the KB may know when the whole does not:
the name after the titles written before it ("Senator Hatfield" -> "Hatfield",
"Vice President Mondale" -> "Mondale", "Reverend Moomaw" -> "Moomaw"). GUM's
spans hold such titles, and the KB's aliases (a title, its surname) do not.
The titles are the language rules' ``link_leading_titles``.
"""
from __future__ import annotations

from typing import AbstractSet


def untitled(key: str, titles: AbstractSet[str]) -> str:
    """An alias key without the title words before the name ('' when the key
    has no title before a name, or is nothing but titles).

    key (str): an alias key (``alias_key``: lower case, single spaces).
    titles (AbstractSet[str]): the words of titles (``link_leading_titles``).
    RETURNS (str): the key of the name after its titles, or ''.
    """
    words = key.split()
    i = 0
    while i < len(words) and words[i] in titles:
        i += 1
    return " ".join(words[i:]) if 0 < i < len(words) else ""
