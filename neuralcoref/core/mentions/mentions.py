"""Rule-based mention extraction: the candidate mentions every later stage scores.

Candidates, per :class:`~neuralcoref.lang.base.LanguageRules`:

- pronouns, each token alone ("he", "his", demonstrative "that");
- phrases headed by nouns, proper nouns, pronouns (and numbers or adjectives in
  argument position: "the first", "one of them"): the full dependency subtree;
- shorter variants of each phrase, ending before each right dependent that starts
  a prepositional phrase, relative clause, apposition or conjunct, so that "the
  man" is proposed besides "the man in the car" and "X" besides "X and Y";
- the same phrases without leading adverbs and interjections ("almost [all of
  them]"), and only without them past a subject or copula (UD predicates: "she
  is [a doctor]");
- coordinated lists ("X and Y") as one mention of type "list", their members
  being phrases of their own;
- verbs whose subject is left out where the rules say it can be ("et
  [partit]" in French), as pronominal mentions of the omitted subject;
- named entities of referential types;

a noun the parser hangs as a modifier on a later verb or adverb takes that
word's determiner ("caught [the developer] cheating"); and no expletive pronoun
("It is raining": :mod:`neuralcoref.core.mentions.expletives`),
nor the variants of a phrase that gold mentions do not take: a name cut from its
title ("Lincoln" within "President Lincoln"), a phrase with its leading adverb
("just the book" besides "the book").

Every span is trimmed of edge punctuation, conjunctions and dangling prepositions
(a closing bracket or quote stays when its opening partner is inside; the head
always stays). Exact duplicates are removed, the first proposal keeping its head
and type. Types (MENTION_TYPES): "list" for a span holding its head's conjunct,
else by the head: pronouns "pronominal", proper nouns and common nouns inside a
referential entity "proper", other heads "nominal"; entities are "proper".

The work reads the Doc's :class:`~neuralcoref.core.doc.doc_arrays.DocArrays` (one
``doc.to_array`` call, shared with the later stages) and runs the Cython kernels
of :mod:`neuralcoref.core._mentions`; pure numpy/Python versions of those kernels,
which the parity tests hold equal, are in ``tests/oracles.py``.
Classes that rules draw from words or morphology instead of fine-grained tags
(pipelines without such tags, as UD ones) are folded into the tag and dependency
bits in numpy before the kernels run, so the kernels stay the same.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Tuple

import numpy as np
from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, LOWER, POS, SPACY, TAG
from spacy.strings import get_string_id
from spacy.tokens import Doc

from ...errors import Errors, NeuralcorefError
from ...lang.base import LanguageRules
from ...lang.lexicon import MENTION_CLASSES, gendered_ids, noun_classes
from .. import _mentions
from ..doc.doc_arrays import COLUMN, DocArrays, arrays_of
from ..doc.labels import has_label, lower_words
from ..util.sets import in_sorted
from .expletives import without_expletives

MENTION_TYPES = ("pronominal", "nominal", "proper", "list")
PRONOMINAL, NOMINAL, PROPER, LIST = range(len(MENTION_TYPES))

# Class bits of each token attribute; keep equal to the enums of _mentions.pyx.
TAG_PRONOUN, TAG_POSSESSIVE, TAG_NON_REFERENTIAL = 1 << 0, 1 << 1, 1 << 2
TAG_PUNCT, TAG_OPEN, TAG_CLOSE = 1 << 3, 1 << 4, 1 << 5
POS_NOUN, POS_PROPER, POS_PRONOUN, POS_NUMBER, POS_MODIFIER, POS_VERB = (
    1 << k for k in range(6))
DEP_ARGUMENT, DEP_NUMBER_HEAD, DEP_DETERMINER, DEP_PREPOSITION = (1 << k for k in range(4))
DEP_CONJ, DEP_NO_LIST, DEP_CASE, DEP_PUNCT = (1 << k for k in range(4, 8))
DEP_TRIM, DEP_RIGHT_CUT, DEP_LEFT_CUT = 1 << 8, 1 << 9, 1 << 10
DEP_ZERO_SUBJECT, DEP_SUBJECT, DEP_LEFT_DROP = 1 << 11, 1 << 12, 1 << 13
WORD_PRONOUN, WORD_PARTITIVE = 1 << 0, 1 << 1
# Word classes that token_arrays folds into tag bits; the kernels never read them.
WORD_ANY_POS_PRONOUN, WORD_NON_REFERENTIAL, WORD_CLITIC = 1 << 2, 1 << 3, 1 << 4
ENT_REFERENTIAL = 1 << 0
IOB_IN, IOB_BEGIN = 1, 3

#: Rule fields behind each bit, per token attribute.
_BITS = {
    "tag": {
        "pronoun_tags": TAG_PRONOUN,
        "possessive_pronoun_tags": TAG_POSSESSIVE,
        "non_referential_pronoun_tags": TAG_NON_REFERENTIAL,
        "punct_tags": TAG_PUNCT,
        "open_bracket_tags": TAG_OPEN,
        "close_bracket_tags": TAG_CLOSE,
    },
    "pos": {
        "noun_pos": POS_NOUN,
        "proper_pos": POS_PROPER,
        "pronoun_pos": POS_PRONOUN,
        "number_pos": POS_NUMBER,
        "modifier_head_pos": POS_MODIFIER,
        "verb_pos": POS_VERB,
    },
    "dep": {
        "argument_deps": DEP_ARGUMENT,
        "number_head_deps": DEP_NUMBER_HEAD,
        "determiner_deps": DEP_DETERMINER,
        "preposition_deps": DEP_PREPOSITION,
        "conj_deps": DEP_CONJ,
        "no_list_deps": DEP_NO_LIST,
        "case_deps": DEP_CASE,
        "punct_deps": DEP_PUNCT,
        "trim_deps": DEP_TRIM,
        "right_cut_deps": DEP_RIGHT_CUT,
        "left_cut_deps": DEP_LEFT_CUT,
        "zero_subject_deps": DEP_ZERO_SUBJECT,
        "subject_deps": DEP_SUBJECT,
        "left_drop_deps": DEP_LEFT_DROP,
    },
    "word": {
        "pronoun_words": WORD_PRONOUN,
        "partitive_words": WORD_PARTITIVE,
        "any_pos_pronoun_words": WORD_ANY_POS_PRONOUN,
        "non_referential_pronoun_words": WORD_NON_REFERENTIAL,
        "clitic_words": WORD_CLITIC,
    },
    "ent": {"entity_labels": ENT_REFERENTIAL},
}

#: Columns of ``doc.to_array`` the extractor reads, in this order: the first
#: columns of ``doc_arrays.ATTRS``, so that the kernel reads that table as it is.
ATTRS = (POS, TAG, DEP, HEAD, LOWER, ENT_IOB, ENT_TYPE)
_COLUMN = {"pos": COLUMN[POS], "tag": COLUMN[TAG], "dep": COLUMN[DEP], "word": COLUMN[LOWER],
           "ent": COLUMN[ENT_TYPE]}
_HEAD_COLUMN = COLUMN[HEAD]
#: The attributes with a lookup table, in the order of TokenArrays' mask fields.
TABLE_ATTRS = ("tag", "pos", "dep", "word", "ent")


@dataclass(frozen=True)
class Mentions:
    """The candidate mentions of one Doc, sorted by (start, end), no duplicates.

    starts (ndarray): (n,) int32, first token of each mention.
    ends (ndarray): (n,) int32, token after the last (exclusive).
    heads (ndarray): (n,) int32, doc index of each mention's syntactic head.
    types (ndarray): (n,) int8, index into MENTION_TYPES.
    """

    starts: np.ndarray
    ends: np.ndarray
    heads: np.ndarray
    types: np.ndarray

    @classmethod
    def empty(cls) -> "Mentions":
        """No mentions (an empty Doc)."""
        i32 = np.zeros(0, dtype=np.int32)
        return cls(i32, i32.copy(), i32.copy(), np.zeros(0, dtype=np.int8))

    def __len__(self) -> int:
        return int(self.starts.shape[0])

    def spans(self) -> List[Tuple[int, int]]:
        """RETURNS (List[Tuple[int, int]]): (start, end exclusive) of each mention."""
        return list(zip(self.starts.tolist(), self.ends.tolist()))

    def select(self, keep: np.ndarray) -> "Mentions":
        """The mentions picked by a boolean mask or an index array, in order.

        keep (ndarray): (n,) bool, or sorted int indices.
        RETURNS (Mentions): the selected mentions.
        """
        return Mentions(self.starts[keep], self.ends[keep], self.heads[keep], self.types[keep])


class RuleTables(NamedTuple):
    """The rules as sorted label ids with class bits, one table per token attribute.

    Tables follow TABLE_ATTRS; table t is ``keys[bounds[t]:bounds[t + 1]]``, sorted
    and unique: the ids ``doc.to_array`` gives (symbol ids or string hashes, the
    same in every vocab, so the tables serve any Doc).

    keys (ndarray): (n_keys,) uint64 label ids, the tables concatenated.
    masks (ndarray): (n_keys,) uint32 class bits of each label.
    bounds (ndarray): (n_tables + 1,) int64 table boundaries in ``keys``.
    columns (ndarray): (n_tables,) int64 column of ``doc.to_array(ATTRS)`` each
        table looks up.
    """

    keys: np.ndarray
    masks: np.ndarray
    bounds: np.ndarray
    columns: np.ndarray

    def table(self, attr: str) -> Tuple[np.ndarray, np.ndarray]:
        """(keys, masks) of one attribute's table."""
        t = TABLE_ATTRS.index(attr)
        part = slice(self.bounds[t], self.bounds[t + 1])
        return self.keys[part], self.masks[part]


@lru_cache(maxsize=32)
def rule_tables(rules: LanguageRules) -> RuleTables:
    """Hash the rules' label sets once (rules are frozen, hence cacheable).

    rules (LanguageRules): the language's rules.
    RETURNS (RuleTables): the lookup tables of TABLE_ATTRS.
    """
    keys: List[int] = []
    masks: List[int] = []
    bounds = [0]
    for attr in TABLE_ATTRS:
        bits: Dict[int, int] = {}
        for name, bit in _BITS[attr].items():
            for label in getattr(rules, name):
                key = get_string_id(label)
                bits[key] = bits.get(key, 0) | bit
        keys.extend(sorted(bits))
        masks.extend(bits[k] for k in sorted(bits))
        bounds.append(len(keys))
    return RuleTables(
        keys=np.array(keys, dtype=np.uint64),
        masks=np.array(masks, dtype=np.uint32),
        bounds=np.array(bounds, dtype=np.int64),
        columns=np.array([_COLUMN[attr] for attr in TABLE_ATTRS], dtype=np.int64),
    )


def check_annotations(doc: Doc, rules: LanguageRules) -> None:
    """Raise a coded error naming the pipeline component a non-empty Doc lacks."""
    if not doc.has_annotation("DEP"):
        raise NeuralcorefError(Errors.E051)
    if not doc.has_annotation("POS"):
        raise NeuralcorefError(Errors.E052)
    if rules.uses_tags and not doc.has_annotation("TAG"):
        raise NeuralcorefError(Errors.E053.format(lang=rules.lang))


class TokenArrays(NamedTuple):
    """What the kernels read about each token of a Doc; all (n_tokens,).

    heads (int32): absolute head index, a root being its own head.
    tag, pos, dep, word, ent (uint32): class bits of the token's fine tag, part of
        speech, dependency label, lowercase form and entity type; ``tag`` also
        holds the TAG_PRONOUN and TAG_NON_REFERENTIAL bits of the rules' word
        and morphology classes, ``dep`` the DEP_CASE bit of ``untrimmed_morphs``.
    iob (uint64): ENT_IOB code (3 begin, 1 inside, 2 outside, 0 unset).
    """

    heads: np.ndarray
    tag: np.ndarray
    pos: np.ndarray
    dep: np.ndarray
    word: np.ndarray
    ent: np.ndarray
    iob: np.ndarray


def token_arrays(doc: Doc, rules: LanguageRules,
                 arrays: Optional[DocArrays] = None) -> TokenArrays:
    """The Doc's token arrays, with labels turned into class bits.

    doc (Doc): a non-empty parsed Doc.
    rules (LanguageRules): the language's rules.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (TokenArrays): the per-token arrays.
    """
    arrays = arrays_of(doc, arrays)
    tables = rule_tables(rules)
    heads, masks = _token_classes(arrays.table, tables)
    if rules.uses_morph or rules.uses_word_classes:
        _fold_classes(arrays, rules, heads, masks)
    return TokenArrays(heads, *masks, iob=arrays.ent_iob)


def _fold_classes(arrays: DocArrays, rules: LanguageRules, heads: np.ndarray,
                  masks: np.ndarray) -> None:
    # Classes the kernels read as tag or dependency bits but that these rules
    # draw from words or morphology (pipelines whose tags are parts of speech).
    tag, pos, dep, word = (masks[TABLE_ATTRS.index(a)] for a in ("tag", "pos", "dep", "word"))
    if rules.uses_morph:
        morph_tag, morph_dep = morph_classes(arrays.doc, rules, arrays)
        tag |= morph_tag
        dep |= morph_dep
    if rules.uses_word_classes:
        tag |= np.where(word & WORD_ANY_POS_PRONOUN, TAG_PRONOUN, 0).astype(np.uint32)
        tag |= np.where(word & WORD_NON_REFERENTIAL, TAG_NON_REFERENTIAL, 0).astype(np.uint32)
        # An article attached to a verb, or after a pronoun, is an object
        # clitic the tagger took for an article: "Pauline [la] comprit"; so is
        # one the parser made an argument ("leur métier [les] humiliait").
        pronoun = ((pos & POS_PRONOUN) | (tag & TAG_PRONOUN)) != 0
        after_pronoun = np.concatenate([[False], pronoun[:-1]])
        as_article = ((dep & DEP_DETERMINER) != 0) & (((pos[heads] & POS_VERB) != 0) | after_pronoun)
        clitic = ((word & WORD_CLITIC) != 0) & (as_article | ((dep & DEP_ARGUMENT) != 0))
        tag |= np.where(clitic, TAG_PRONOUN, 0).astype(np.uint32)


def morph_classes(doc: Doc, rules: LanguageRules,
                  arrays: Optional[DocArrays] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Class bits from the rules' morphological features.

    doc (Doc): a non-empty Doc; without morphology every token gets 0.
    rules (LanguageRules): the language's rules.
    arrays (DocArrays | None): the Doc's arrays; None: read them now.
    RETURNS (Tuple[ndarray, ndarray]): tag bits (TAG_PRONOUN for
        ``pronoun_morphs``, TAG_NON_REFERENTIAL for
        ``non_referential_pronoun_morphs``) and dependency bits (DEP_CASE, never
        trimmed, for ``untrimmed_morphs``), each (n_tokens,) uint32.
    """
    # A Doc has few distinct analyses: classify each once.
    keys, inverse = np.unique(arrays_of(doc, arrays).morph, return_inverse=True)
    bits = np.array([_morph_bits(rules, doc.vocab.strings[int(k)] if k else "")
                     for k in keys.tolist()], dtype=np.uint32).reshape(-1, 2)
    inverse = inverse.reshape(-1)
    return bits[inverse, 0], bits[inverse, 1]


@lru_cache(maxsize=4096)
def _morph_bits(rules: LanguageRules, morph: str) -> Tuple[int, int]:
    feats = set(morph.split("|"))
    tag = ((TAG_PRONOUN if feats & rules.pronoun_morphs else 0)
           | (TAG_NON_REFERENTIAL if feats & rules.non_referential_pronoun_morphs else 0))
    return tag, DEP_CASE if feats & rules.untrimmed_morphs else 0


def _token_classes(array: np.ndarray, tables: RuleTables) -> Tuple[np.ndarray, np.ndarray]:
    return _mentions.token_classes(array, _HEAD_COLUMN, tables.columns, tables.keys,
                                   tables.masks, tables.bounds)


def _only_whitespace(doc: Doc) -> bool:
    # Empty and whitespace-only texts have no mentions, parsed or not: no error
    # for a pipeline that leaves whitespace unparsed. Stops at the first word.
    return all(token.is_space for token in doc)


def extract_mentions(doc: Doc, rules: LanguageRules,
                     arrays: Optional[DocArrays] = None) -> Mentions:
    """The candidate mentions of a parsed Doc.

    doc (Doc): a Doc with part-of-speech tags and a dependency parse (and named
        entities, if the pipeline has them); an empty or whitespace-only Doc
        needs neither and has no mentions.
    rules (LanguageRules): the language's rules, see ``neuralcoref.lang.get_rules``.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (Mentions): sorted by (start, end), no duplicate spans.
    """
    if _only_whitespace(doc):
        return Mentions.empty()
    check_annotations(doc, rules)
    arrays = arrays_of(doc, arrays)
    t = token_arrays(doc, rules, arrays=arrays)
    candidates = _mentions.extract_candidates(t, arrays.left, arrays.right)
    return _filtered(arrays, rules, t, Mentions(*_mentions.sort_unique(len(doc), *candidates)))


def _filtered(arrays: DocArrays, rules: LanguageRules, t: "TokenArrays", mentions: Mentions) -> Mentions:
    """The candidates left once spans of punctuation or symbols alone and expletive
    pronouns are dropped: the last step of both :func:`extract_mentions` and its
    reference, so the two keep the same filters (``t``: the token classes the
    kernels read)."""
    # A span of punctuation alone is never a mention, whatever its tag says
    # (French pipelines tag "«" and "…" as nouns now and then); nor one of emoji
    # or other symbols ("😀😀 🎉 He said 👍 to her" made "😀😀 🎉" a mention that
    # replaced "He"): a span with no letter or digit.
    words = _word_types(arrays)
    mentions = _with_a_word(mentions, arrays.is_punct, _symbol_tokens(*words))
    mentions = _whole_hyphenated_words(arrays, mentions, _continuations(arrays, *words, rules.any_pos_pronoun_words))
    mentions = _names_cut_at_small_letters(arrays, rules, mentions, *words)
    mentions = _modifier_nouns_as_phrases(arrays, rules, t, mentions)
    mentions = _preferred_variants(arrays, rules, mentions)
    mentions = _withheld_names(arrays, mentions, *words)
    mentions = _outside_interjections(arrays, rules, mentions)
    # A euphonic "-t" ("viendra-[t]-il") is no word of any mention.
    mentions = mentions.select(~has_label(arrays.lower, rules.euphonic_words)[mentions.starts])
    return without_expletives(arrays.doc, rules, mentions, arrays)


def _whole_hyphenated_words(arrays: DocArrays, mentions: Mentions, cont: np.ndarray) -> Mentions:
    """The candidates with no boundary inside a hyphenated word, which spaCy's
    tokenizers split ("Celles" "-" "ci", "Ceux" "-là", "Jean" "-" "Pierre"): a
    mention ending before a continuation of its last word takes the word's
    rest in ("Celles-ci"), and a mention starting on such a continuation goes
    when another holds the whole word ("ci" beside "Celles-ci"); one that
    stands alone stays ("Sais" "-tu": "-tu"). Gold-tokenized text, a space
    after each token, is left as it is. ``cont``: :func:`_continuations`."""
    if not len(mentions) or not np.count_nonzero(cont):
        return mentions
    n = len(cont)
    word = np.cumsum(~cont) - 1
    first = np.flatnonzero(~cont)[word]  # each token's word start
    last = np.append(np.flatnonzero(~cont)[1:], n)[word]  # its word end
    starts, ends = mentions.starts, mentions.ends.copy()
    inside = ends < n
    inside[inside] = cont[ends[inside]]
    ends[inside] = last[ends[inside]]
    # The furthest end of a mention starting at or before each token.
    reach = np.zeros(n, dtype=ends.dtype)
    np.maximum.at(reach, starts, ends)
    reach = np.maximum.accumulate(reach)
    keep = ~(cont[starts] & (reach[first[starts]] >= last[starts]))
    if keep.all() and not inside.any():
        return mentions
    return Mentions(*_mentions.sort_unique(n, starts[keep], ends[keep], mentions.heads[keep],
                                           mentions.types[keep]))


#: Marks of the letters a writer withholds from a name ("madame D…", "à J***").
_WITHHELD_MARKS = frozenset(("…", "...", "***", "**", "*"))


def _withheld_names(arrays: DocArrays, mentions: Mentions, texts: List[str], inverse: np.ndarray) -> Mentions:
    """The candidates, one ending on a name's initial takes in the mark of the
    letters withheld after it ("madame D …", "à J***"), which novels of the
    nineteenth century write for a name they keep back. ``texts``,
    ``inverse``: :func:`_word_types`."""
    n = len(inverse)
    if not len(mentions) or n < 2 or _WITHHELD_MARKS.isdisjoint(texts):
        return mentions
    initial = np.array([len(t) == 1 and t.isupper() for t in texts], dtype=bool)[inverse]
    mark = np.array([t in _WITHHELD_MARKS for t in texts], dtype=bool)[inverse]
    withheld = np.zeros(n, dtype=bool)
    withheld[:-1] = initial[:-1] & mark[1:]
    ends = mentions.ends
    grow = withheld[ends - 1]
    if not grow.any():
        return mentions
    return Mentions(*_mentions.sort_unique(n, mentions.starts, np.where(grow, ends + 1, ends).astype(ends.dtype),
                                           mentions.heads, mentions.types))


def _outside_interjections(arrays: DocArrays, rules: LanguageRules, mentions: Mentions) -> Mentions:
    """The candidates but those inside an interjection (``rules.interjections``:
    "mon Dieu !", "Mon Dieu, que tu es belle"), which names no one: the phrase
    followed by punctuation."""
    doc = arrays.doc
    n = len(doc)
    if not len(mentions) or not rules.interjections:
        return mentions
    inside = np.zeros(n + 1, dtype=np.int64)
    for phrase in rules.interjections:
        words = tuple(phrase.split())
        k = len(words)
        for i in np.flatnonzero(arrays.lower == doc.vocab.strings[words[0]]).tolist():
            if i + k < n and arrays.is_punct[i + k] and lower_words(doc, i, k) == words:
                inside[i] += 1
                inside[i + k] -= 1
    covered = np.cumsum(inside)[:n] > 0
    if not covered.any():
        return mentions
    # A mention inside: all its tokens covered, or punctuation between two ("mon Dieu, mon Dieu").
    counts = np.concatenate([[0], np.cumsum(covered | arrays.is_punct)])
    keep = counts[mentions.ends] - counts[mentions.starts] < mentions.ends - mentions.starts
    return mentions.select(keep)


def _names_cut_at_small_letters(arrays: DocArrays, rules: LanguageRules, mentions: Mentions,
                                texts: List[str], inverse: np.ndarray) -> Mentions:
    """The candidates, each ending before the first later word of a name inside
    it that starts with a small letter and is no particle: French pipelines
    tag the verb of a two-word sentence as the name's second word ("Marie
    dort." gave "Marie dort" beside "Marie", "Le chat de Marie dort." "Le
    chat de Marie dort"). ``texts``, ``inverse``: :func:`_word_types`."""
    if not len(mentions) or not rules.name_part_deps:
        return mentions
    small = np.array([t[:1].islower() for t in texts], dtype=bool)[inverse]
    # A name: a proper noun, or a first name of the lexicon the tagger took for
    # a noun ("Marie sourit." tags "Marie" NOUN).
    capital = np.array([t[:1].isupper() for t in texts], dtype=bool)[inverse]
    named = has_label(arrays.pos, rules.proper_pos) | (capital & in_sorted(arrays.lower, gendered_ids(rules)))
    parts = np.flatnonzero(small & has_label(arrays.dep, rules.name_part_deps)
                           & ~has_label(arrays.lower, rules.name_particles) & named[arrays.head])
    if not len(parts):
        return mentions
    # Each mention's first such word after its start, cut where the name it
    # follows is inside the mention too: the name's own candidate ("Marie dort")
    # or a phrase that ends with it ("Le chat de Marie dort").
    at = np.minimum(np.searchsorted(parts, mentions.starts, side="right"), len(parts) - 1)
    word = parts[at]
    cut = (word > mentions.heads) & (word < mentions.ends) & (arrays.head[word] >= mentions.starts) \
        & (arrays.head[word] < word)
    if not cut.any():
        return mentions
    ends = np.where(cut, word, mentions.ends).astype(mentions.ends.dtype)
    return Mentions(*_mentions.sort_unique(len(arrays.head), mentions.starts, ends, mentions.heads,
                                           mentions.types))


def _continuations(arrays: DocArrays, texts: List[str], inverse: np.ndarray,
                   pronouns: FrozenSet[str] = frozenset()) -> np.ndarray:
    """(n_tokens,) bool: tokens that continue the word before them, with no
    space between: a hyphen and letters ("-là"), or a hyphen alone and the
    word after it ("-" "ci"); not a dash ("--") nor a range ("1325-1380"), nor
    a subject pronoun after its verb (``pronouns``: "répondit-elle" is two
    words, even where the tagger makes the verb a noun). ``texts``,
    ``inverse``: :func:`_word_types`."""
    n = len(inverse)
    if n < 2 or not any(t[:1] == "-" for t in texts):  # no suffix, no hyphen: nothing continues
        return np.zeros(n, dtype=bool)
    suffix = np.array([t[:1] == "-" and t[1:2].isalpha() and t.lower() not in pronouns for t in texts],
                      dtype=bool)[inverse]
    hyphen = np.array([t == "-" for t in texts], dtype=bool)[inverse]
    if not (suffix.any() or hyphen.any()):
        return np.zeros(n, dtype=bool)
    attached = np.zeros(n, dtype=bool)
    attached[1:] = arrays.doc.to_array(SPACY)[:-1] == 0
    cont = np.zeros(n, dtype=bool)
    cont[1:] = suffix[1:] | (hyphen[:-1] & attached[:-1] & arrays.is_alpha[1:])
    cont[:-1] |= hyphen[:-1] & attached[1:] & cont[1:]
    # Gold-tokenized text puts a space after every token: there a small-letter
    # suffix after a word continues it all the same ("celle" "-ci").
    spaced = np.zeros(n, dtype=bool)
    small = np.array([t[1:2].islower() for t in texts], dtype=bool)[inverse]
    spaced[1:] = suffix[1:] & small[1:] & arrays.is_alpha[:-1]
    return (cont & attached) | spaced


def _modifier_nouns_as_phrases(arrays: DocArrays, rules: LanguageRules, t: "TokenArrays",
                               mentions: Mentions) -> Mentions:
    """The candidates, a noun the parser hung as a modifier on a later word
    taking that word's determiner where the two make no phrase: a word of no
    nominal part of speech ("caught [the developer] cheating", parsed as "the
    developer cheating" headed by the verb; "drove [the mover] back home"), for
    a verb or adverb heads no noun phrase; and a person noun on the only
    object of a double-object verb (``rules.double_object_lemmas``: "owed [the
    cashier] money"), which is the indirect object. Arguments (a subject
    before its verb) keep their own spans."""
    if not len(mentions):
        return mentions
    one = ((mentions.ends - mentions.starts == 1) & (mentions.types != PRONOMINAL)).nonzero()[0]
    if not len(one):
        return mentions
    # The kernels' token classes: nouns, heads of nominal phrases, arguments.
    words = mentions.heads[one]
    heads = t.heads[words]
    noun = (t.pos & (POS_NOUN | POS_PROPER)) != 0
    nominal = (t.pos & (POS_NOUN | POS_PROPER | POS_PRONOUN | POS_NUMBER | POS_MODIFIER)) != 0
    modifier = (heads > words) & noun[words] & ((t.dep[words] & (DEP_ARGUMENT | DEP_SUBJECT)) == 0)
    candidate = modifier & (~nominal[heads] | _indirect_objects(arrays, rules, words, heads, modifier))
    if not candidate.any():
        return mentions
    determiners = np.flatnonzero(t.dep & DEP_DETERMINER)
    first = np.full(len(t.heads), len(t.heads), dtype=np.int64)
    np.minimum.at(first, t.heads[determiners], determiners)
    start = first[heads]
    moved = candidate & (start < words)
    if not moved.any():
        return mentions
    starts = mentions.starts.copy()
    starts[one[moved]] = start[moved]
    return Mentions(*_mentions.sort_unique(len(t.heads), starts, mentions.ends, mentions.heads,
                                           mentions.types))


def _indirect_objects(arrays: DocArrays, rules: LanguageRules, words: np.ndarray, heads: np.ndarray,
                      modifier: np.ndarray) -> np.ndarray:
    # Which modifiers ``words`` (of ``heads``) are person nouns on the only
    # object of a double-object verb: "owed [the cashier] money". A verb's
    # objects are the words whose label the rules class as objects
    # (``dep_classes``, the grammatical role of the mention features).
    out = np.zeros(len(words), dtype=bool)
    if not rules.double_object_lemmas:
        return out
    object_deps = frozenset(d for d, c in rules.class_map("dep_classes").items() if c == "object")
    verbs = arrays.head[heads]
    frame = modifier & (verbs != heads) & has_label(arrays.lemma[verbs], rules.double_object_lemmas) \
        & has_label(arrays.dep[heads], object_deps)
    if not frame.any():
        return out
    objects = np.bincount(arrays.head[has_label(arrays.dep, object_deps)], minlength=len(arrays.head))
    frame &= objects[verbs] == 1
    person = noun_classes(arrays, words[frame], rules.lexicons) == MENTION_CLASSES.index("person")
    out[np.flatnonzero(frame)[person]] = True
    return out


def _preferred_variants(arrays: DocArrays, rules: LanguageRules, mentions: Mentions) -> Mentions:
    """The candidates but the variants of one phrase that gold mentions do not
    take. Of two candidates with the same head and end: the later-starting one
    when the words between are title words (``rules.title_deps``: "Lincoln",
    the entity, within "President Lincoln"); the earlier-starting one when
    they are leading words (``rules.lead_deps``: "just the book", "plus rien").
    And a title word alone that the lexicon calls a person ("Captain" of
    "Captain Ahab")."""
    if not len(mentions) or not (rules.title_deps or rules.lead_deps):
        return mentions
    order = np.lexsort((mentions.starts, mentions.ends, mentions.heads))
    heads, ends, starts = mentions.heads[order], mentions.ends[order], mentions.starts[order]
    # Each candidate against the one starting before it in its (head, end) group.
    pair = (heads[1:] == heads[:-1]) & (ends[1:] == ends[:-1])
    keep = np.ones(len(mentions), dtype=bool)
    title = has_label(arrays.dep, rules.title_deps)
    if np.count_nonzero(pair):  # no two candidates of one head and end: no variant to choose
        lead = has_label(arrays.dep, rules.lead_deps)
        for words, dropped in ((title, order[1:]), (lead, order[:-1])):
            others = np.concatenate([[0], np.cumsum(~words)])
            keep[dropped[pair & (others[starts[1:]] == others[starts[:-1]])]] = False
    if np.count_nonzero(title):
        alone = np.flatnonzero((mentions.ends - mentions.starts == 1) & title[mentions.heads]
                               & has_label(arrays.pos, rules.proper_pos)[arrays.head[mentions.heads]])
        person = noun_classes(arrays, mentions.heads[alone], rules.lexicons)
        keep[alone[person == MENTION_CLASSES.index("person")]] = False
    return mentions if keep.all() else mentions.select(keep)


def _with_a_word(mentions: Mentions, *blanks: np.ndarray) -> Mentions:
    # The mentions holding, for each of ``blanks`` ((n_tokens,) bool), a token
    # that is not blank: one selection for all.
    keep = None
    for blank in blanks:
        if not np.count_nonzero(blank):
            continue
        words = np.concatenate([[0], (~blank).cumsum()])
        has = words[mentions.ends] > words[mentions.starts]
        keep = has if keep is None else keep & has
    return mentions if keep is None or keep.all() else mentions.select(keep)


def _word_types(arrays: DocArrays) -> Tuple[List[str], np.ndarray]:
    """The Doc's distinct token texts and each token's index into them: checks
    by text run once per word type."""
    strings = arrays.doc.vocab.strings
    if len(arrays.orth) <= _FEW_TOKENS:
        # A short Doc: np.unique's order (increasing ids) and inverse, without its sort calls.
        orth = arrays.orth.tolist()
        distinct = sorted(set(orth))
        index = {t: i for i, t in enumerate(distinct)}
        return [strings[t] for t in distinct], np.array([index[t] for t in orth], dtype=np.intp)
    types, inverse = np.unique(arrays.orth, return_inverse=True)
    return [strings[int(t)] for t in types], inverse.reshape(-1)


#: Up to this many tokens, :func:`_word_types` works on Python lists.
_FEW_TOKENS = 64


def _symbol_tokens(texts: List[str], inverse: np.ndarray) -> np.ndarray:
    """(n_tokens,) bool: tokens without a letter or digit (``texts``,
    ``inverse``: :func:`_word_types`)."""
    wordless = np.array([_wordless(t) for t in texts], dtype=bool)
    return wordless[inverse]


@lru_cache(maxsize=1 << 16)
def _wordless(text: str) -> bool:
    # Cached: a short Doc's word types are mostly words seen before.
    return not any(c.isalnum() for c in text)
