"""Forms of a mention's name that the KB may know when the whole does not:
the name after the titles written before it ("Senator Hatfield" -> "Hatfield",
"Vice President Mondale" -> "Mondale", "Reverend Moomaw" -> "Moomaw"). GUM's
spans hold such titles, and the KB's aliases (a title, its surname) do not.
"""
from __future__ import annotations

#: Titles written before a name that GUM's mention spans hold ("Dr. William
#: Glennie"): a lone name's span is widened over them to match GUM's mentions.
SPAN_TITLES = frozenset({
    "dr", "mr", "mrs", "ms", "miss", "prof", "professor", "president", "senator", "governor", "judge",
    "justice", "gen", "general", "col", "capt", "captain", "lord", "lady", "sir", "king", "queen",
    "prince", "princess", "emperor", "pope", "saint", "st", "rev", "reverend", "father", "sister",
})
#: Words of a title before a name (alias keys: lower case, no dots): the span
#: titles and the titles and roles the KB's aliases leave out.
LEADING_TITLES = SPAN_TITLES | frozenset({
    "vice", "sen", "gov", "colonel", "lt", "lieutenant", "sgt", "sergeant", "major", "admiral", "dame", "duke",
    "brother", "bishop", "cardinal", "rabbi", "speaker", "secretary", "minister", "mayor", "chancellor",
    "representative", "rep", "congressman", "congresswoman", "ambassador", "detective", "officer", "coach",
    "uncle", "aunt", "madam", "madame", "mister", "sheikh", "chairman", "chief",
})


def untitled(key: str) -> str:
    """An alias key without the title words before the name ('' when the key
    has no title before a name, or is nothing but titles).

    key (str): an alias key (``alias_key``: lower case, single spaces).
    RETURNS (str): the key of the name after its titles, or ''.
    """
    words = key.split()
    i = 0
    while i < len(words) and words[i] in LEADING_TITLES:
        i += 1
    return " ".join(words[i:]) if 0 < i < len(words) else ""
