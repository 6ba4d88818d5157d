"""The feature contract: the layout of every feature, as data.

Read this module first. It names the compact codes the featurizer writes per
mention (``MENTION_CODES``, ``MENTION_HASHES``, ``WORD_SLOTS``, ``SPAN_VECTORS``)
and per candidate pair (``PAIR_CODES``), the bins and classes that encode them,
the column layouts of the scorers' float inputs (``MENTION_LAYOUT``,
``PAIR_LAYOUT``) and :class:`MentionFeatures`, the featurizer's output.
:data:`SCHEMA_HASH` is derived from all of it; model folders and featurized
training data record it, so that a mismatch is detected.

:mod:`neuralcoref.core.features.featurize` computes the codes from spaCy Docs and
:mod:`neuralcoref.core.features.expand` turns them into the float32 inputs of the
scorers; training and inference both call those two modules. Nothing else in
the project declares feature constants.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...errors import Errors, NeuralcorefError
from ..mentions.mentions import MENTION_TYPES

SCHEMA_VERSION = 1

#: Lower bounds of the distance bins: 0, 1, 2, 3, 4, 5-7, 8-15, 16-31, 32-63, 64+.
DISTANCE_BINS = (0, 1, 2, 3, 4, 5, 8, 16, 32, 64)
#: Lower bounds of the mention-length bins (tokens).
LENGTH_BINS = (1, 2, 3, 4, 5, 8, 16)
#: Lower bounds of the bins counting other mentions with the same head or string.
COUNT_BINS = (0, 1, 2, 3, 4, 5, 8, 16)
#: Distances are also given as a scalar, capped here and scaled to [0, 1].
DISTANCE_CAP = 64

ENTITY_CLASSES = ("none", "person", "org", "place", "norp", "time", "number", "other")
DEP_CLASSES = ("other", "subject", "object", "oblique", "possessive", "predicate",
               "appositive", "conjunct", "modifier", "root")
DEFINITENESS = ("none", "definite", "indefinite", "demonstrative", "possessive")
NUMBER = ("unknown", "sing", "plur")
GENDER = ("unknown", "masc", "fem", "neut")
PERSON = ("unknown", "1", "2", "3")
ANIMACY = ("unknown", "animate", "inanimate")
AGREEMENT = ("unknown", "agree", "disagree")
#: First/second-person pronoun pairs by speaker: "I" is the speaker, "you" the addressee.
SPEAKER_RELATIONS = ("none", "same_speaker_same_person", "same_speaker_other_person",
                     "other_speaker_same_person", "other_speaker_other_person")

#: Word slots looked up in the model's trainable embedding table.
WORD_SLOTS = ("head", "first", "last", "prev1", "prev2", "next1", "next2", "head_head")
#: Mean token vectors per mention: the mention, 5 words before and after (within
#: the sentence), the sentence, the document, and the head token itself.
SPAN_VECTORS = ("mention", "before", "after", "sentence", "document", "head")
CONTEXT_WINDOW = 5

#: Columns of the compact mention codes (int32).
MENTION_CODES = ("start", "end", "head", "sent", "speaker", "index", "n_mentions",
                 "n_sents", "type", "length", "entity", "dep", "definiteness",
                 "number", "gender", "person", "nested", "contains", "reflexive",
                 "expletive", "head_count", "string_count", "head_before", "string_before",
                 "animacy")
#: Columns of the mention hashes (uint64; 0 means none).
MENTION_HASHES = ("head", "exact", "relaxed", "speaker_name")
#: Columns of the compact pair codes (int16), as the pair kernel writes them.
PAIR_CODES = ("sent_dist", "mention_dist", "same_speaker", "ante_is_speaker",
              "ana_is_speaker", "head_match", "exact_match", "relaxed_match",
              "overlap", "number", "gender", "person", "type_pair", "speaker_relation",
              "entity", "animacy")

_FLAGS = ("nested", "contains", "reflexive", "expletive")


@dataclass(frozen=True)
class Block:
    """A named run of columns in an expanded feature matrix."""

    name: str
    width: int


@dataclass(frozen=True)
class Layout:
    """Named blocks with widths and offsets: the columns of a feature matrix."""

    blocks: Tuple[Block, ...]

    @property
    def width(self) -> int:
        return sum(b.width for b in self.blocks)

    def offset(self, name: str) -> int:
        start = 0
        for block in self.blocks:
            if block.name == name:
                return start
            start += block.width
        raise KeyError(name)

    def slice(self, name: str) -> slice:
        start = self.offset(name)
        return slice(start, start + next(b.width for b in self.blocks if b.name == name))

    def to_list(self) -> List[Tuple[str, int]]:
        return [(b.name, b.width) for b in self.blocks]


MENTION_LAYOUT = Layout((
    Block("type", len(MENTION_TYPES)),
    Block("length", len(LENGTH_BINS)),
    Block("entity", len(ENTITY_CLASSES)),
    Block("dep", len(DEP_CLASSES)),
    Block("definiteness", len(DEFINITENESS)),
    Block("number", len(NUMBER)),
    Block("gender", len(GENDER)),
    Block("person", len(PERSON)),
    Block("flags", len(_FLAGS)),
    Block("position", 2),
    Block("head_count", len(COUNT_BINS)),
    Block("string_count", len(COUNT_BINS)),
    Block("head_before", len(COUNT_BINS)),
    Block("string_before", len(COUNT_BINS)),
    Block("animacy", len(ANIMACY)),
))

PAIR_LAYOUT = Layout((
    Block("sent_dist", len(DISTANCE_BINS)),
    Block("sent_dist_scalar", 1),
    Block("mention_dist", len(DISTANCE_BINS)),
    Block("mention_dist_scalar", 1),
    Block("speaker", 3),
    Block("string_match", 3),
    Block("overlap", 1),
    Block("number", len(AGREEMENT)),
    Block("gender", len(AGREEMENT)),
    Block("person", len(AGREEMENT)),
    Block("type_pair", len(MENTION_TYPES) ** 2),
    Block("speaker_relation", len(SPEAKER_RELATIONS)),
    Block("entity", len(AGREEMENT)),
    Block("animacy", len(AGREEMENT)),
))


#: How pair codes feed PAIR_LAYOUT, one entry per input of every pair: (code,
#: kind, block, index in block). Kinds: "binned" (one-hot of DISTANCE_BINS),
#: "scalar" (min(code, DISTANCE_CAP) / DISTANCE_CAP), "flag" (the code's value in
#: one column), "one_hot" (the code picks a column of the block).
PAIR_INPUTS = (
    ("sent_dist", "binned", "sent_dist", 0), ("sent_dist", "scalar", "sent_dist_scalar", 0),
    ("mention_dist", "binned", "mention_dist", 0),
    ("mention_dist", "scalar", "mention_dist_scalar", 0),
    ("same_speaker", "flag", "speaker", 0), ("ante_is_speaker", "flag", "speaker", 1),
    ("ana_is_speaker", "flag", "speaker", 2),
    ("head_match", "flag", "string_match", 0), ("exact_match", "flag", "string_match", 1),
    ("relaxed_match", "flag", "string_match", 2), ("overlap", "flag", "overlap", 0),
    ("number", "one_hot", "number", 0), ("gender", "one_hot", "gender", 0),
    ("person", "one_hot", "person", 0), ("type_pair", "one_hot", "type_pair", 0),
    ("speaker_relation", "one_hot", "speaker_relation", 0),
    ("entity", "one_hot", "entity", 0), ("animacy", "one_hot", "animacy", 0),
)


def _schema() -> dict:
    return {
        "version": SCHEMA_VERSION,
        "mention_codes": MENTION_CODES,
        "mention_hashes": MENTION_HASHES,
        "pair_codes": PAIR_CODES,
        "mention_layout": MENTION_LAYOUT.to_list(),
        "pair_layout": PAIR_LAYOUT.to_list(),
        "pair_inputs": PAIR_INPUTS,
        "word_slots": WORD_SLOTS,
        "span_vectors": SPAN_VECTORS,
        "bins": [DISTANCE_BINS, LENGTH_BINS, COUNT_BINS, DISTANCE_CAP, CONTEXT_WINDOW],
        "classes": [ENTITY_CLASSES, DEP_CLASSES, DEFINITENESS, NUMBER, GENDER, PERSON, ANIMACY,
                    AGREEMENT, SPEAKER_RELATIONS],
    }


def schema_hash() -> str:
    """The hash of the feature contract as the module now states it.

    RETURNS (str): 16 hex digits; equals :data:`SCHEMA_HASH` unless a layout was changed.
    """
    return hashlib.sha1(json.dumps(_schema(), sort_keys=True).encode("utf8")).hexdigest()[:16]


#: Derived from the whole contract: any change to it changes the hash.
SCHEMA_HASH = schema_hash()

C = {name: i for i, name in enumerate(MENTION_CODES)}
H = {name: i for i, name in enumerate(MENTION_HASHES)}


@dataclass
class MentionFeatures:
    """Compact features of one document's candidate mentions.

    codes (int32 (n, len(MENTION_CODES))): positions, categories and counts.
    hashes (uint64 (n, len(MENTION_HASHES))): word and string hashes for matching.
    words (uint64 (n, len(WORD_SLOTS))): LOWER hashes of the word slots (0: none).
    vectors (float32 (n, len(SPAN_VECTORS) * dim)): mean token vectors; dim is 0
        when the featurizer runs without token vectors.
    """

    codes: np.ndarray
    hashes: np.ndarray
    words: np.ndarray
    vectors: np.ndarray

    def __len__(self) -> int:
        return self.codes.shape[0]

    def __getitem__(self, index) -> "MentionFeatures":
        """The features of a slice or an index array of mentions."""
        return MentionFeatures(self.codes[index], self.hashes[index], self.words[index],
                               self.vectors[index])

    @property
    def is_pronoun(self) -> np.ndarray:
        """(n,) int8: 1 for pronominal mentions."""
        return (self.codes[:, C["type"]] == MENTION_TYPES.index("pronominal")).astype(np.int8)

    @property
    def head_hash(self) -> np.ndarray:
        """(n,) uint64: LOWER hash of each mention's head word."""
        return np.ascontiguousarray(self.hashes[:, H["head"]])

    @classmethod
    def concat(cls, parts: Sequence["MentionFeatures"]) -> "MentionFeatures":
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in ("codes", "hashes", "words", "vectors")))




def vector_width(dim: int) -> int:
    """Width of MentionFeatures.vectors for token vectors of ``dim`` floats."""
    return len(SPAN_VECTORS) * dim



def check_schema(found: Optional[str], where: str) -> None:
    """Raise a coded error when data or a model was made with another feature schema."""
    if found != SCHEMA_HASH:
        raise NeuralcorefError(Errors.E101.format(where=where, found=found, expected=SCHEMA_HASH))
