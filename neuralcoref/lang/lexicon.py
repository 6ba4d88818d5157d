"""Noun classes and first names from the compiled lexicon, loaded once per process.

The data (``data/en_lexicon.txt.gz``, built by ``bench/build_lexicon.py``; see
``data/NOTICE`` for its sources and licences) is read on the first lookup, not
on import: ``import neuralcoref`` stays as fast as without it.
"""
from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Dict, Iterable, Mapping, Tuple

import numpy as np
from spacy.strings import get_string_id

from ..errors import Errors, NeuralcorefError

if TYPE_CHECKING:
    from .base import LanguageRules

DATA = Path(__file__).parent / "data"
#: Noun classes (how pronouns may refer to the noun) and name genders.
NOUN_CLASSES = ("person", "group", "inanimate")
NAME_GENDERS = ("female", "male")
#: The section of nouns that name concrete things ("shop", "dog"; see bench/build_lexicon.py).
THING = "thing"
#: The parts of a loaded lexicon.
_PARTS = ("nouns", "names", "things")
_NOUN = get_string_id("NOUN")


@lru_cache(maxsize=None)
def load(name: str) -> Dict[str, Dict[str, str]]:
    """The lexicon ``data/<name>.txt.gz``: {"nouns": word -> class, "names": name -> gender,
    "things": word -> "thing"}.

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
    out: Dict[str, Dict[str, str]] = {part: {} for part in _PARTS}
    for header, words in zip(lines[0::2], lines[1::2]):
        section = header.strip("[]")
        # Names take the gender values of MENTION_CLASSES.
        if section in NOUN_CLASSES:
            out["nouns"].update(dict.fromkeys(words.split(), section))
        elif section in NAME_GENDERS:
            out["names"].update(dict.fromkeys(words.split(), section))
        elif section == THING:
            out["things"].update(dict.fromkeys(words.split(), section))
        else:
            raise NeuralcorefError(Errors.E071.format(path=path, error=f"unknown section {header!r}"))
    return out


#: What the lexicon says of a mention, for decoding (see core.discourse.classes, decode_signals.agreement_masks).
MENTION_CLASSES = ("none", "person", "group", "inanimate", "female", "male")
#: The class a gender ("masc", "fem": gender words, gender codes) gives a person.
GENDER_CLASSES = {"masc": MENTION_CLASSES.index("male"), "fem": MENTION_CLASSES.index("female")}


@lru_cache(maxsize=None)
def gender_word_ids(rules: "LanguageRules") -> Dict[int, str]:
    """The rules' ``gender_words`` (first names, titles, gendered nouns) by
    string id: id -> "masc", "fem" or "neut"; built once per rules, for the
    gender feature, the names' classes and the given names alike."""
    return {get_string_id(w): g for w, g in rules.class_map("gender_words").items()}


@lru_cache(maxsize=None)
def gendered_ids(rules: "LanguageRules") -> np.ndarray:
    """The string ids of the rules' ``gender_words``, sorted uint64 (as
    :func:`neuralcoref.core.util.sets.in_sorted` reads them); built once per rules."""
    out = np.array(sorted(gender_word_ids(rules)), dtype=np.uint64)
    out.flags.writeable = False
    return out


def word_classes(doc, keys: np.ndarray, lexicons: Iterable[str], part: str = "nouns") -> np.ndarray:
    """What the lexicons say of words given as string ids, as MENTION_CLASSES codes.

    doc (Doc): a Doc whose vocab knows the strings; keys (uint64 (k,)): string ids
        (lemmas of nouns, or lowercase first names).
    lexicons (Iterable[str]): lexicon names (the language rules' ``lexicons``).
    part (str): "nouns" (noun classes) or "names" (first names' genders).
    RETURNS (ndarray): (k,) int8 codes (0: none, or no lexicon).
    """
    if not lexicons or not len(keys):
        return np.zeros(len(keys), dtype=np.int8)
    return _classes(doc, np.asarray(keys), _merged(tuple(sorted(lexicons)))[part])


def has_names(lexicons: Iterable[str]) -> bool:
    """Whether any of the lexicons lists first names (French's has none: the
    rules' ``gender_words`` give a name's gender there)."""
    return bool(lexicons) and bool(_merged(tuple(sorted(lexicons)))["names"])


def noun_classes(arrays, tokens: np.ndarray, lexicons: Iterable[str]) -> np.ndarray:
    """What the lexicons say of the nouns at ``tokens`` (a Doc's ``DocArrays``): a
    word tagged NOUN by its lemma ("engineers": "engineer"), any other as written,
    since its lemma is that of another part of speech ("the cleaner", tagged ADJ:
    "clean").

    RETURNS (ndarray): (k,) int8 MENTION_CLASSES codes.
    """
    return word_classes(arrays.doc, _noun_keys(arrays, tokens), lexicons)


def thing_nouns(arrays, tokens: np.ndarray, lexicons: Iterable[str]) -> np.ndarray:
    """Whether the nouns at ``tokens`` name concrete things (the lexicons'
    "thing" section: "shop", "dog"), looked up as by :func:`noun_classes`.

    RETURNS (ndarray): (k,) bool.
    """
    keys = _noun_keys(arrays, tokens)
    if not lexicons or not len(keys):
        return np.zeros(len(keys), dtype=bool)
    return _classes(arrays.doc, keys, _merged(tuple(sorted(lexicons)))["things"], ("none", THING)) > 0


def _noun_keys(arrays, tokens: np.ndarray) -> np.ndarray:
    tokens = np.asarray(tokens, dtype=np.int64)
    return np.where(arrays.pos[tokens] == _NOUN, arrays.lemma[tokens], arrays.lower[tokens])


@lru_cache(maxsize=None)
def _merged(names: Tuple[str, ...]) -> Dict[str, Dict[str, str]]:
    """The lexicons ``names`` as one, the later ones winning (built once)."""
    if len(names) == 1:
        return load(names[0])
    out: Dict[str, Dict[str, str]] = {part: {} for part in _PARTS}
    for name in names:
        for part in out:
            out[part].update(load(name)[part])
    return out


def _classes(doc, keys: np.ndarray, table: Mapping[str, str],
             values: Tuple[str, ...] = MENTION_CLASSES) -> np.ndarray:
    """Codes (indices into ``values``) of string hashes, looked up once per distinct word."""
    if not len(keys):
        return np.zeros(0, dtype=np.int8)
    strings = doc.vocab.strings

    def code(k: int) -> int:
        return values.index(table.get(strings[k].lower(), "none")) if k in strings else 0

    if len(keys) <= _FEW_KEYS and keys.ndim == 1:
        # A short Doc's few words: a dict of the distinct ones, no sort.
        seen: Dict[int, int] = {}
        return np.array([seen[k] if k in seen else seen.setdefault(k, code(k)) for k in keys.tolist()],
                        dtype=np.int8)
    uniq, inverse = np.unique(keys, return_inverse=True)
    return np.array([code(int(k)) for k in uniq], dtype=np.int8)[inverse.reshape(-1)]


#: Up to this many keys, :func:`_classes` looks the distinct ones up in a dict.
_FEW_KEYS = 64
