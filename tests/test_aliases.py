"""Acronyms and the names they abbreviate (neuralcoref.core.aliases), and how
decoding joins them (clustering.join_aliases)."""
from typing import Dict

import numpy as np

from neuralcoref.core.aliases import acronym_aliases
from neuralcoref.core.clustering import join_aliases
from neuralcoref.core.contract import GENDER, NUMBER
from neuralcoref.core.doc_arrays import arrays_of
from neuralcoref.core.mentions import extract_mentions
from neuralcoref.lang import en


def aliases_of(nlp, text: str) -> Dict[str, str]:
    """Acronym mention text -> the text of the name it abbreviates."""
    doc = nlp(text)
    mentions = extract_mentions(doc, en.RULES)
    n = len(mentions)
    repeats = np.arange(1, n + 1, dtype=np.uint64)
    names = np.arange(100, 100 + n, dtype=np.uint64)
    keys, words, aliases = acronym_aliases(arrays_of(doc, None), en.RULES, mentions.starts, mentions.ends,
                                           mentions.types, repeats, names)
    out = {}
    for m in np.flatnonzero(aliases >= 0).tolist():
        a = int(aliases[m])
        assert keys[m] == repeats[a] and words[m] == names[a]  # the name's key and words
        out[doc[mentions.starts[m]:mentions.ends[m]].text] = doc[mentions.starts[a]:mentions.ends[a]].text
    untouched = aliases < 0
    assert (keys[untouched] == repeats[untouched]).all() and (words[untouched] == names[untouched]).all()
    return out


def test_aliases_acronyms_take_the_name_they_abbreviate(nlp_en):
    found = aliases_of(nlp_en, "She studied at the Massachusetts Institute of Technology. "
                               "MIT gave her a grant.")
    assert found == {"MIT": "the Massachusetts Institute of Technology"}
    found = aliases_of(nlp_en, "The United Kingdom voted in 2016. Since then, the UK has left.")
    assert found.get("the UK") == "The United Kingdom"
    # Defined in parentheses; the nearest name before each use.
    found = aliases_of(nlp_en, "The World Health Organization (WHO) met. Experts say WHO was slow.")
    assert set(found.values()) == {"The World Health Organization"}


def test_aliases_leave_what_is_no_acronym_of_a_name(nlp_en):
    # No name with those initials; a capitalized word that is a name's own word.
    assert aliases_of(nlp_en, "NASA launched a rocket. The European Space Agency watched.") == {}
    assert aliases_of(nlp_en, "Road US-169 South is closed. The US government said so.") == {}
    # A two-letter acronym used before the name with its initials.
    assert aliases_of(nlp_en, "Researchers of the US and the University of Sheffield met. "
                              "The US team won.") == {}
    # People have initials, not acronyms.
    assert aliases_of(nlp_en, "John Fitzgerald Kennedy spoke. JFK was loved.") == {}


def test_aliases_join_acronyms_with_their_names():
    heads = np.arange(6)
    aliases = np.array([-1, -1, 0, -1, -1, 3], dtype=np.int32)
    # Two lone mentions make a cluster; an acronym in a cluster brings it along.
    assert join_aliases([[1, 4]], aliases, heads) == [[0, 2], [1, 4], [3, 5]]
    assert join_aliases([], aliases, heads) == [[0, 2], [3, 5]]
    assert join_aliases([[1, 5]], aliases, heads) == [[0, 2], [1, 3, 5]]
    assert join_aliases([[0, 2]], np.full(6, -1), heads) == [[0, 2]]
    # Binding or another gender in the acronym's cluster keeps the groups apart.
    assert join_aliases([[1, 5]], aliases, heads, partners={1: {3}, 3: {1}}) == [[0, 2], [1, 5]]
    masc, fem = 1 << GENDER.index("masc"), 1 << GENDER.index("fem")
    masks = np.zeros((6, 2), np.uint32)
    masks[1, 0], masks[3, 0] = masc, fem
    assert join_aliases([[1, 5]], aliases, heads, masks=masks) == [[0, 2], [1, 5]]
    # The acronym's own number is no obstacle ("IDD" for "Iodine Deficiency Disorders").
    sing, plur = 1 << NUMBER.index("sing"), 1 << NUMBER.index("plur")
    masks = np.zeros((6, 2), np.uint32)
    masks[0, 1], masks[2, 1] = plur, sing
    assert join_aliases([], aliases, heads, masks=masks) == [[0, 2], [3, 5]]
