"""Each mention's class in the language's lexicons (person, group, inanimate, a
name's gender), for decoding's agreement (:func:`clustering.agreement_masks`)."""
from __future__ import annotations

from typing import Iterable, Optional

import numpy as np
from spacy.strings import get_string_id

from ..lang.lexicon import MENTION_CLASSES, noun_classes, word_classes
from .doc_arrays import DocArrays, arrays_of
from .mentions import NOMINAL, PROPER

_PERSON = get_string_id("PERSON")


def mention_classes(doc, starts: np.ndarray, ends: np.ndarray, heads: np.ndarray,
                    types: np.ndarray, lexicons: Iterable[str],
                    arrays: Optional[DocArrays] = None) -> np.ndarray:
    """Each mention's class in the lexicons: a nominal mention's by its head's
    lemma ("engineers": person), a proper name's by its first word when that is
    a first name of one gender ("Anna Smith": female), else "person" for a name
    the entity recognizer calls a person.

    doc (Doc): the parsed Doc; starts, ends, heads, types (int (n,)): the mentions.
    lexicons (Iterable[str]): lexicon names (the language rules' ``lexicons``).
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (ndarray): (n,) int8 codes of MENTION_CLASSES (0: none, or no lexicon).
    """
    out = np.zeros(len(heads), dtype=np.int8)
    if not lexicons or not len(heads):
        return out
    arrays = arrays_of(doc, arrays)
    heads, starts, types = np.asarray(heads), np.asarray(starts), np.asarray(types)
    nominal = types == NOMINAL
    out[nominal] = noun_classes(arrays, heads[nominal], lexicons)
    proper = types == PROPER
    # The first word only: after a title ("Ms. Garcia") the head is a surname,
    # and many surnames are also first names of the lists.
    name_heads, first = heads[proper], arrays.lower[starts[proper]]
    by_first = word_classes(doc, first, lexicons, part="names")
    # Nor a name headed by its first word that is the last word of a longer name
    # of the Doc: "Collins" after "Sandra Collins" is her surname, whatever the
    # lists say of "Collins".
    alone = name_heads == starts[proper]
    by_first[alone & np.isin(first, arrays.lower[name_heads[~alone]])] = 0
    person = np.where(arrays.ent_type[name_heads] == _PERSON, MENTION_CLASSES.index("person"), 0)
    out[proper] = np.where(by_first > 0, by_first, person)
    return out
