"""French "celui-ci" / "celle-ci", "the latter" (neuralcoref.core.discourse.latter)."""
import numpy as np
import spacy
from spacy.tokens import Doc

from neuralcoref.core.features.contract import C, GENDER, MENTION_CODES, NUMBER
from neuralcoref.core.doc.doc_arrays import arrays_of
from neuralcoref.core.discourse.latter import latter_referents
from neuralcoref.core.mentions.mentions import MENTION_TYPES
from neuralcoref.lang import en, fr

PROPER, NOMINAL, PRONOMINAL = (MENTION_TYPES.index(t) for t in ("proper", "nominal", "pronominal"))


def _codes(genders, numbers):
    codes = np.zeros((len(genders), len(MENTION_CODES)), dtype=np.int64)
    codes[:, C["gender"]] = [GENDER.index(g) for g in genders]
    codes[:, C["number"]] = [NUMBER.index(n) for n in numbers]
    return codes


def test_latter_takes_the_nearest_phrase_of_its_gender_and_number():
    # "Pauline regarda le médecin et Laurence , et celle -ci sourit ." (gold tokens)
    words = "Pauline regarda le médecin et Laurence , et celle -ci sourit .".split()
    doc = Doc(spacy.blank("fr").vocab, words=words)
    starts, ends = np.array([0, 2, 5, 8]), np.array([1, 4, 6, 10])
    types = np.array([PROPER, NOMINAL, PROPER, PRONOMINAL])
    codes = _codes(["fem", "masc", "fem", "fem"], ["sing", "sing", "sing", "sing"])
    assert latter_referents(arrays_of(doc, None), fr.RULES, starts, ends, types, codes).tolist() == [-1, -1, -1, 2]
    # "celui-ci" (one token, as spaCy's tokenizer leaves it) takes "le médecin".
    words[8:10] = ["celui-ci"]
    doc = Doc(spacy.blank("fr").vocab, words=words)
    ends = np.array([1, 4, 6, 9])
    codes = _codes(["fem", "masc", "fem", "masc"], ["sing", "sing", "sing", "sing"])
    assert latter_referents(arrays_of(doc, None), fr.RULES, starts, ends, types, codes).tolist() == [-1, -1, -1, 1]
    # None agrees: no referent; rules without latter words: none either.
    codes = _codes(["fem", "fem", "fem", "masc"], ["sing", "sing", "sing", "plur"])
    assert latter_referents(arrays_of(doc, None), fr.RULES, starts, ends, types, codes).tolist() == [-1] * 4
    assert latter_referents(arrays_of(doc, None), en.RULES, starts, ends, types, codes).tolist() == [-1] * 4
