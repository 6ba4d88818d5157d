"""Noun classes and first names from the compiled lexicon, loaded once per process.

The data (``data/en_lexicon.txt.gz``, built by ``bench/build_lexicon.py``; see
``data/NOTICE`` for its sources and licences) is read on the first lookup, not
on import: ``import neuralcoref`` stays as fast as without it.
"""
from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Mapping, Optional, Tuple

import numpy as np
from spacy.strings import get_string_id

from ..core.doc_arrays import DocArrays, arrays_of
from ..core.mentions import NOMINAL, PROPER
from ..errors import Errors, NeuralcorefError

DATA = Path(__file__).parent / "data"
#: Noun classes (how pronouns may refer to the noun) and name genders.
NOUN_CLASSES = ("person", "group", "inanimate")
NAME_GENDERS = ("female", "male")
_PERSON = get_string_id("PERSON")


@lru_cache(maxsize=None)
def load(name: str) -> Dict[str, Dict[str, str]]:
    """The lexicon ``data/<name>.txt.gz``: {"nouns": word -> class, "names": name -> gender}.

    name (str): the lexicon's name, e.g. "en_lexicon" (the language rules' ``lexicon``).
    RETURNS (Dict[str, Dict[str, str]]): lowercase words to a NOUN_CLASSES or
        NAME_GENDERS value; cached, so each lexicon is read once per process.
    RAISES NeuralcorefError: E071 when the file is missing or not a lexicon.
    """
    path = DATA / f"{name}.txt.gz"
    try:
        with gzip.open(path, "rt", encoding="utf8") as f:
            lines = f.read().split("\n")
    except (OSError, EOFError) as err:
        raise NeuralcorefError(Errors.E071.format(path=path, error=err)) from None
    out: Dict[str, Dict[str, str]] = {"nouns": {}, "names": {}}
    for header, words in zip(lines[0::2], lines[1::2]):
        section = header.strip("[]")
        # Names take the gender values of MENTION_CLASSES.
        if section in NOUN_CLASSES:
            out["nouns"].update(dict.fromkeys(words.split(), section))
        elif section in NAME_GENDERS:
            out["names"].update(dict.fromkeys(words.split(), section))
        else:
            raise NeuralcorefError(Errors.E071.format(path=path, error=f"unknown section {header!r}"))
    return out


#: What the lexicon says of a mention, for decoding (see clustering.agreement_masks).
MENTION_CLASSES = ("none", "person", "group", "inanimate", "female", "male")


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
    tables = _merged(tuple(sorted(lexicons)))
    nouns, first_names = tables["nouns"], tables["names"]
    arrays = arrays_of(doc, arrays)
    heads, starts, types = np.asarray(heads), np.asarray(starts), np.asarray(types)
    nominal = np.flatnonzero(types == NOMINAL)
    out[nominal] = _classes(doc, arrays.lemma[heads[nominal]], nouns)
    proper = np.flatnonzero(types == PROPER)
    # The first word only: after a title ("Ms. Garcia") the head is a surname,
    # and many surnames are also first names of the lists.
    by_first = _classes(doc, arrays.lower[starts[proper]], first_names)
    person = np.where(arrays.ent_type[heads[proper]] == _PERSON, MENTION_CLASSES.index("person"), 0)
    out[proper] = np.where(by_first > 0, by_first, person)
    return out


@lru_cache(maxsize=None)
def _merged(names: Tuple[str, ...]) -> Dict[str, Dict[str, str]]:
    """The lexicons ``names`` as one, the later ones winning (built once)."""
    if len(names) == 1:
        return load(names[0])
    out: Dict[str, Dict[str, str]] = {"nouns": {}, "names": {}}
    for name in names:
        for part in out:
            out[part].update(load(name)[part])
    return out


def _classes(doc, keys: np.ndarray, table: Mapping[str, str]) -> np.ndarray:
    """MENTION_CLASSES codes of string hashes, looked up once per distinct word."""
    if not len(keys):
        return np.zeros(0, dtype=np.int8)
    uniq, inverse = np.unique(keys, return_inverse=True)
    strings = doc.vocab.strings
    codes = [MENTION_CLASSES.index(table.get(strings[int(k)].lower(), "none")) if int(k) in strings else 0
             for k in uniq]
    return np.array(codes, dtype=np.int8)[inverse.reshape(-1)]
