"""The featurizer: compact codes of a Doc's candidate mentions and pairs.

Per mention, :func:`featurize` returns a :class:`~neuralcoref.core.features.contract.MentionFeatures`
of four compact arrays (see its docstring). Per candidate pair, :func:`pair_codes`
returns int16 codes. The layout of both is stated in
:mod:`neuralcoref.core.features.contract`; :mod:`neuralcoref.core.features.expand` turns them into
the scorers' float inputs. Plain-numpy references of the Cython kernels, for the
parity tests, are in ``tests/oracles.py``.
"""
from __future__ import annotations

from typing import Callable, Dict, Iterable, Mapping, Optional, Tuple

import numpy as np
from spacy.strings import StringStore
from spacy.strings import get_string_id as hash_string
from spacy.tokens import Doc

from ...errors import Errors, NeuralcorefError
from ...lang.base import LanguageRules
from ...lang.lexicon import gender_word_ids, gendered_ids
from .. import _features
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.quotes import quote_ids
from ..mentions.mentions import MENTION_TYPES, Mentions
from ..util.sets import in_sorted, isin
from .contract import (ANIMACY, C, CONTEXT_WINDOW, DEFINITENESS, DEP_CLASSES, ENTITY_CLASSES, GENDER, H,
                       MENTION_CODES, MENTION_HASHES, MentionFeatures, NUMBER, SPAN_VECTORS, WORD_SLOTS)


class FeatureTables:
    """Per-vocab lookups from spaCy hashes to feature classes, built once.

    rules (LanguageRules): the language's data (entity and dependency classes,
        content parts of speech).
    """

    def __init__(self, rules: LanguageRules):
        self.rules = rules
        self.entity = {hash_string(k): ENTITY_CLASSES.index(v)
                       for k, v in rules.class_map("entity_classes").items()}
        self.dep = {hash_string(k): DEP_CLASSES.index(v)
                    for k, v in rules.class_map("dep_classes").items()}
        # Sorted uint64 ids, as :func:`~neuralcoref.core.util.sets.in_sorted` reads them.
        self.content_pos_ids = _sorted_ids(rules.content_pos)
        self.expletive_ids = _sorted_ids(w.lower() for w in rules.expletive_pronouns)
        self.expletive_dep_ids = _sorted_ids(rules.expletive_deps)
        self.gender = {k: GENDER.index(g) for k, g in gender_word_ids(rules).items()}
        self.gendered = gendered_ids(rules)
        self.animacy = {hash_string(w): ANIMACY.index("animate") for w in rules.animate_pronouns}
        self.animacy.update({hash_string(w): ANIMACY.index("inanimate") for w in rules.inanimate_pronouns})
        self.inanimate_entities = np.array([ENTITY_CLASSES.index(c) for c in
                                            ("org", "place", "time", "number", "other")])
        self.word_morphs = {hash_string(w): m for w, m in rules.class_map("word_morphs").items()}
        self._morph: Dict[Tuple[int, int], Tuple[int, int, int, int, int]] = {}

    def morph(self, doc: Doc, key: int, word: int = 0) -> Tuple[int, int, int, int, int]:
        """(number, gender, person, definiteness, reflexive) codes of a MORPH hash,
        overridden by the rules' ``word_morphs`` for the word's LOWER hash."""
        extra = self.word_morphs.get(word, "")
        cache_key = (key, word if extra else 0)
        if cache_key not in self._morph:
            own = doc.vocab.strings[key] if key else ""
            self._morph[cache_key] = _morph_codes({**_feats(own), **_feats(extra)})
        return self._morph[cache_key]


def _feats(morph: str) -> Dict[str, str]:
    return dict(f.split("=", 1) for f in morph.split("|") if "=" in f)


def _morph_codes(feats: Mapping[str, str]) -> Tuple[int, int, int, int, int]:
    number = {"Sing": 1, "Plur": 2}.get(feats.get("Number", ""), 0)
    gender = {"Masc": 1, "Fem": 2, "Neut": 3}.get(feats.get("Gender", ""), 0)
    person = {"1": 1, "2": 2, "3": 3}.get(feats.get("Person", ""), 0)
    if feats.get("Poss") == "Yes":
        definite = DEFINITENESS.index("possessive")
    elif feats.get("PronType") == "Dem":
        definite = DEFINITENESS.index("demonstrative")
    else:
        definite = {"Def": 1, "Ind": 2}.get(feats.get("Definite", ""), 0)
    return number, gender, person, definite, int(feats.get("Reflex") == "Yes")


def _sorted_ids(strings: Iterable[str]) -> np.ndarray:
    """The distinct string hashes of ``strings``, increasing: (k,) uint64."""
    return np.array(sorted({hash_string(x) for x in strings}), dtype=np.uint64)


def clause_persons(arrays: DocArrays) -> np.ndarray:
    """Each token's grammatical person as its morphology and its auxiliaries'
    give it ("qui [a] dit": the auxiliary's), read once per distinct MORPH
    hash by the features' own parser: (n_tokens,) int32 PERSON codes, 0 where
    none or more than one is given. Computed once per Doc (read-only)."""
    out = arrays.memo.get("clause_persons")
    if out is None:
        out = arrays.memo["clause_persons"] = _clause_persons(arrays)
        out.flags.writeable = False
    return out


#: MORPH hash -> its PERSON code, and DEP hash -> whether the label is an
#: auxiliary's: a hash names one string in every vocab, so one table serves all.
_MORPH_PERSON: Dict[int, int] = {}
_AUX_DEP: Dict[int, bool] = {}
#: Past this many entries a table starts again (a stream of unseen analyses).
_TABLE_SIZE = 100_000


def _per_token(column: np.ndarray, table: Dict[int, object], value: Callable[[str], object],
               strings: StringStore, dtype: type) -> np.ndarray:
    # ``value(string)`` of each entry's string, looked up once per hash ever.
    keys, inverse = (column, None) if len(column) <= _SHORT else np.unique(column, return_inverse=True)
    if len(table) > _TABLE_SIZE:
        table.clear()
    found = []
    for k in keys.tolist():
        v = table.get(k)
        if v is None:
            v = table[k] = value(strings[k] if k else "")
        found.append(v)
    out = np.array(found, dtype=dtype)
    return out if inverse is None else out[inverse.reshape(-1)]


def _clause_persons(arrays: DocArrays) -> np.ndarray:
    strings = arrays.doc.vocab.strings
    own = _per_token(arrays.morph, _MORPH_PERSON, lambda m: _morph_codes(_feats(m))[2], strings, np.int64)
    bits = np.where(own > 0, np.left_shift(1, own), 0)
    aux = _per_token(arrays.dep, _AUX_DEP, lambda d: d.startswith("aux"), strings, bool) \
        & (arrays.head != np.arange(len(own)))
    clause = bits.copy()
    np.bitwise_or.at(clause, arrays.head[aux].astype(np.int64), bits[aux])
    single = (clause > 0) & ((clause & (clause - 1)) == 0)
    return np.where(single, np.log2(np.maximum(clause, 1)).astype(np.int64), 0).astype(np.int32)


#: Up to this many values, _lookup maps each one instead of each distinct one.
_SHORT = 64


def _lookup(values: np.ndarray, table: Mapping[int, int], default: int = 0) -> np.ndarray:
    """Map hash values through a dict, once per distinct value. RETURNS (n,) int32."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int32)
    if values.size <= _SHORT:  # a short Doc: fewer dict lookups than numpy calls
        get = table.get
        return np.array([get(v, default) for v in values.ravel().tolist()], dtype=np.int32)
    uniq, inverse = np.unique(values, return_inverse=True)
    mapped = np.array([table.get(int(u), default) for u in uniq], dtype=np.int32)
    return mapped[inverse.reshape(-1)]


def hash_words(words: Iterable[str]) -> int:
    """The span hash of a sequence of words, as :func:`featurize` computes it."""
    hashes = np.array([hash_string(w.lower()) for w in words], dtype=np.uint64)
    if hashes.size == 0:
        return 0
    n = np.int32(hashes.size)
    return int(_features.hash_spans(hashes, np.ones(hashes.size, dtype=np.uint8),
                                    np.zeros(1, dtype=np.int32), np.array([n]))[0])


def prior_argument(document_prior: Mapping) -> Optional[Tuple[np.ndarray, float]]:
    """:func:`featurize`'s ``document_prior`` from a model's ``ModelConfig.document_prior``
    ({"mean": [...], "tokens": k}), for training and inference alike; None when empty."""
    if not document_prior:
        return None
    return np.asarray(document_prior["mean"], dtype=np.float32), float(document_prior["tokens"])


def featurize(doc: Doc, mentions: Mentions, tables: FeatureTables,
              use_vectors: bool = True,
              document_windows: Optional[Tuple[np.ndarray, np.ndarray]] = None,
              document_prior: Optional[Tuple[np.ndarray, float]] = None,
              arrays: Optional[DocArrays] = None) -> MentionFeatures:
    """Compute the compact features of a Doc's candidate mentions.

    doc (Doc): a parsed Doc.
    mentions (Mentions): its candidate mentions, from :func:`extract_mentions`.
    tables (FeatureTables): the language's lookups.
    use_vectors (bool): compute span vectors from ``doc.tensor``.
    document_windows (Tuple[ndarray, ndarray] | None): per mention, the token
        range (starts, ends) its "document" vector averages; None: the whole Doc,
        as at inference (training passes shorter windows, see train/featurize.py).
    document_prior (Tuple[ndarray, float] | None): (mean, tokens): the "document"
        vector counts ``tokens`` more tokens of vector ``mean`` (the training
        documents' mean), so that a short text's stays near what the model saw
        in training while a long one's is its own (see ``ModelConfig.document_prior``).
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    RETURNS (MentionFeatures): n = len(mentions) rows.
    """
    n, n_tok = len(mentions), len(doc)
    if n == 0:
        tensor = doc.tensor
        dim = tensor.shape[1] if use_vectors and tensor is not None and tensor.ndim == 2 else 0
        return MentionFeatures(np.zeros((0, len(MENTION_CODES)), np.int32),
                               np.zeros((0, len(MENTION_HASHES)), np.uint64),
                               np.zeros((0, len(WORD_SLOTS)), np.uint64),
                               np.zeros((0, len(SPAN_VECTORS) * dim), np.float32))
    arrays = arrays_of(doc, arrays)
    lower, pos, dep, ent, morph = arrays.lower, arrays.pos, arrays.dep, arrays.ent_type, arrays.morph
    token_heads, sent_ids = arrays.head, arrays.sent
    starts, ends, heads = mentions.starts, mentions.ends, mentions.heads

    codes = np.zeros((n, len(MENTION_CODES)), dtype=np.int32)
    codes[:, C["start"]], codes[:, C["end"]], codes[:, C["head"]] = starts, ends, heads
    codes[:, C["sent"]] = sent_ids[heads] if n else 0
    codes[:, C["index"]] = np.arange(n)
    codes[:, C["n_mentions"]] = n
    codes[:, C["n_sents"]] = (sent_ids[-1] + 1) if n_tok else 0
    codes[:, C["type"]] = mentions.types
    codes[:, C["length"]] = ends - starts
    codes[:, C["entity"]] = _lookup(ent[heads], tables.entity)
    codes[:, C["dep"]] = _lookup(dep[heads], tables.dep)
    _set_morph_codes(codes, doc, tables, morph, lower, starts, heads, mentions.types)
    _set_lexicon_gender(codes, tables, lower, starts, heads, mentions.types)
    codes[:, C["animacy"]] = _animacy(codes, tables, lower[heads])
    codes[:, C["nested"]], codes[:, C["contains"]] = _nesting(starts, ends)
    codes[:, C["expletive"]] = _is_expletive(lower[heads], dep[heads], tables)

    hashes = np.zeros((n, len(MENTION_HASHES)), dtype=np.uint64)
    pronoun = mentions.types == MENTION_TYPES.index("pronominal")
    hashes[:, H["head"]] = lower[heads]
    every = np.ones(n_tok, dtype=np.uint8)
    hashes[:, H["exact"]] = _features.hash_spans(lower, every, starts, ends)
    content = in_sorted(pos, tables.content_pos_ids).astype(np.uint8)
    hashes[:, H["relaxed"]] = _features.hash_spans(lower, content, starts, ends)
    # Earlier occurrences tell a repeated name's first mention from its later ones.
    codes[:, C["head_count"]], codes[:, C["head_before"]] = _value_counts(np.where(pronoun, 0, hashes[:, H["head"]]))
    codes[:, C["string_count"]], codes[:, C["string_before"]] = _value_counts(
        np.where(pronoun, 0, hashes[:, H["exact"]]))
    _set_speakers(codes, hashes, arrays, heads, tables.rules)

    words = _word_slots(lower, token_heads, sent_ids, starts, ends, heads)
    vectors = _span_vectors(arrays.tensor, sent_ids, starts, ends, heads, document_windows, document_prior) \
        if use_vectors else np.zeros((n, 0), dtype=np.float32)
    return MentionFeatures(codes, hashes, words, vectors)




def _set_morph_codes(codes, doc, tables, morph, lower, starts, heads, types) -> None:
    head_codes = np.array([tables.morph(doc, k, w) for k, w in
                           zip(morph[heads].tolist(), lower[heads].tolist())], dtype=np.int32)
    first_codes = np.array([tables.morph(doc, k, w) for k, w in
                            zip(morph[starts].tolist(), lower[starts].tolist())], dtype=np.int32)
    if len(heads) == 0:
        return
    codes[:, C["number"]] = head_codes[:, 0]
    codes[:, C["gender"]] = head_codes[:, 1]
    codes[:, C["person"]] = head_codes[:, 2]
    codes[:, C["reflexive"]] = head_codes[:, 4]
    codes[:, C["definiteness"]] = first_codes[:, 3]
    # A coordinated list is plural whatever its members are.
    codes[types == MENTION_TYPES.index("list"), C["number"]] = NUMBER.index("plur")


def _set_lexicon_gender(codes, tables, lower, starts, heads, types) -> None:
    """Gender from the language's word list. A proper name listed by its first
    word ("Mary Smith", "Mme Pictet") or head takes the list's gender even over
    the morphology, which guesses names from their form (French "Jean" comes out
    feminine); other mentions take their head's where the morphology gives none
    ("my sister")."""
    if not tables.gender or len(heads) == 0:
        return
    by_head = _lookup(lower[heads], tables.gender)
    by_first = _lookup(lower[starts], tables.gender)
    proper = types == MENTION_TYPES.index("proper")
    name = proper & ((by_first > 0) | (by_head > 0))
    codes[name, C["gender"]] = np.where(by_first > 0, by_first, by_head)[name]
    other = ~proper & (codes[:, C["gender"]] == 0)
    codes[other, C["gender"]] = by_head[other]


def _animacy(codes: np.ndarray, tables: "FeatureTables", head_lower: np.ndarray) -> np.ndarray:
    """Animate or inanimate, from the head word (pronoun lists, gendered nouns and
    names) or the entity class. RETURNS (n,) int32 codes of ANIMACY."""
    out = _lookup(head_lower, tables.animacy)
    entity = codes[:, C["entity"]]
    by_entity = np.where(entity == ENTITY_CLASSES.index("person"), 1,
                         np.where(isin(entity, tables.inanimate_entities), 2, 0))
    out = np.where(out == 0, by_entity, out)
    lexical_gender = in_sorted(head_lower, tables.gendered)
    return np.where((out == 0) & lexical_gender, 1, out).astype(np.int32)


def _nesting(starts: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Flags for mentions inside another mention, and containing another one, in
    one kernel call (``_features.nesting``; its reference: ``tests/oracles.py``).

    Relies on mentions sorted by (start, end) without duplicates.
    RETURNS (Tuple[ndarray, ndarray]): (nested, contains), each (n,) int32.
    """
    return _features.nesting(np.ascontiguousarray(starts, dtype=np.int32),
                             np.ascontiguousarray(ends, dtype=np.int32))


def _is_expletive(head_lower: np.ndarray, head_dep: np.ndarray, tables: FeatureTables) -> np.ndarray:
    """1 for pronouns that may be pleonastic ('it' as expletive or subject)."""
    return (in_sorted(head_lower, tables.expletive_ids) & in_sorted(head_dep, tables.expletive_dep_ids)
            ).astype(np.int32)


def _value_counts(values: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """:func:`_same_value_counts` and :func:`_earlier_value_counts` of (n,) uint64
    values: for a short Doc's few mentions one kernel call (``_features.value_counts``)
    compares all pairs. RETURNS (Tuple[ndarray, ndarray]): (n,) int32 each."""
    if 0 < values.size <= _SHORT and values.dtype == np.uint64:
        return _features.value_counts(np.ascontiguousarray(values.reshape(-1)))
    return _same_value_counts(values), _earlier_value_counts(values)


def _same_value_counts(values: np.ndarray) -> np.ndarray:
    """How many other mentions share each mention's value (0 never matches)."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int32)
    if values.size <= _SHORT:  # a few mentions: one comparison of all pairs
        out = (values.reshape(-1, 1) == values.reshape(-1)).sum(axis=1) - 1
        out[values.reshape(-1) == 0] = 0
        return out.astype(np.int32)
    uniq, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    out = counts[inverse.reshape(-1)] - 1
    out[values == 0] = 0
    return out.astype(np.int32)


def _earlier_value_counts(values: np.ndarray) -> np.ndarray:
    """How many earlier mentions share each mention's value (0 never matches).

    RETURNS (ndarray): (n,) int32.
    """
    n = values.size
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    if n <= _SHORT:  # a few mentions: one comparison of all pairs
        flat = values.reshape(-1)
        out = np.tril(flat.reshape(-1, 1) == flat, -1).sum(axis=1).astype(np.int32)
        out[flat == 0] = 0
        return out
    order = np.argsort(values, kind="stable")  # equal values keep document order
    ordered = values[order]
    group_start = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    starts = np.repeat(group_start, np.diff(np.concatenate([group_start, [n]])))
    out = np.empty(n, dtype=np.int32)
    out[order] = np.arange(n) - starts
    out[values == 0] = 0
    return out


def _set_speakers(codes: np.ndarray, hashes: np.ndarray, arrays: DocArrays, heads: np.ndarray,
                  rules: LanguageRules) -> None:
    # Given speakers win; where none is known, the rules' quotation marks give
    # them, as numbers that name no one (the speaker-name hashes stay 0).
    speakers = arrays.speakers or []
    names = sorted({s for s in speakers if s not in ("-", "", None)})
    codes[:, C["speaker"]] = -1
    if len(heads) == 0:
        return
    if not names:
        ids = quote_ids(arrays.doc, rules, arrays)
        if ids is not None:
            codes[:, C["speaker"]] = ids[heads]
        return
    index = {name: i for i, name in enumerate(names)}
    name_hash = {name: hash_words(name.replace("_", " ").split()) for name in names}
    head_speakers = [speakers[h] for h in heads]
    codes[:, C["speaker"]] = [index.get(s, -1) for s in head_speakers]
    hashes[:, H["speaker_name"]] = [name_hash.get(s, 0) for s in head_speakers]


#: The word slots in the order the kernel ``_features.word_slots`` writes them.
_KERNEL_SLOTS = ("head", "first", "last", "prev1", "prev2", "next1", "next2", "head_head")


def _word_slots(lower, token_heads, sent_ids, starts, ends, heads) -> np.ndarray:
    """LOWER hashes of the word slots, 0 outside the mention's sentence.

    RETURNS (ndarray): (n, len(WORD_SLOTS)) uint64.
    """
    if WORD_SLOTS == _KERNEL_SLOTS and lower.dtype == np.uint64 and all(
            a.dtype == np.int32 and a.ndim == 1 for a in (token_heads, sent_ids, starts, ends, heads)):
        return _features.word_slots(lower, token_heads, sent_ids, starts, ends, heads)
    return _word_slots_numpy(lower, token_heads, sent_ids, starts, ends, heads)


def _word_slots_numpy(lower, token_heads, sent_ids, starts, ends, heads) -> np.ndarray:
    """:func:`_word_slots` in numpy alone: the reference of its kernel."""
    if len(heads) == 0:
        return np.zeros((0, len(WORD_SLOTS)), dtype=np.uint64)
    n_tok = len(lower)
    # Position n_tok reads 0. Both parts uint64: mixing in an int64 would promote
    # to float64 and corrupt the hashes.
    padded = np.concatenate([lower, np.zeros(1, dtype=np.uint64)])

    def within_sentence(positions: np.ndarray, ref: np.ndarray) -> np.ndarray:
        ok = (positions >= 0) & (positions < n_tok)
        ok &= sent_ids[np.clip(positions, 0, n_tok - 1)] == sent_ids[ref]
        return np.where(ok, positions, n_tok)

    slots = {
        "head": heads, "first": starts, "last": ends - 1,
        "prev1": within_sentence(starts - 1, starts), "prev2": within_sentence(starts - 2, starts),
        "next1": within_sentence(ends, ends - 1), "next2": within_sentence(ends + 1, ends - 1),
        "head_head": token_heads[heads],
    }
    return np.stack([padded[slots[s]] for s in WORD_SLOTS], axis=1)


#: The windows in the order ``_features.span_vectors`` writes them: SPAN_VECTORS's
#: (a test holds them equal).
_KERNEL_VECTORS = ("mention", "before", "after", "sentence", "document", "head")
_NO_WINDOW = np.zeros(0, dtype=np.int64)
_NO_PRIOR = np.zeros(0, dtype=np.float64)


def _span_vectors(tensor: Optional[np.ndarray], sent_ids, starts, ends, heads, document_windows=None,
                  document_prior=None) -> np.ndarray:
    """Mean token vectors of the SPAN_VECTORS windows, from the Doc's tensor, in
    one kernel call (``_features.span_vectors``; its reference: ``tests/oracles.py``).
    RETURNS (n, 6 * dim) float32."""
    n_tok = len(sent_ids)
    if tensor is None or tensor.size == 0 or tensor.shape[0] != n_tok:
        raise NeuralcorefError(Errors.E100.format(n_tokens=n_tok))
    sent_ids = np.asarray(sent_ids, dtype=np.int32)
    bounds = np.searchsorted(sent_ids, np.arange(sent_ids[-1] + 2))
    lo, hi = (_NO_WINDOW, _NO_WINDOW) if document_windows is None else \
        (np.ascontiguousarray(w, dtype=np.int64) for w in document_windows)
    prior, weight = (_NO_PRIOR, 0.0) if document_prior is None else \
        (np.ascontiguousarray(document_prior[0], dtype=np.float64), float(document_prior[1]))
    return _features.span_vectors(
        np.ascontiguousarray(tensor, dtype=np.float32), bounds.astype(np.int64, copy=False), sent_ids,
        tuple(np.asarray(a, dtype=np.int32) for a in (starts, ends, heads)), (lo, hi), (prior, weight),
        CONTEXT_WINDOW)


_PAIR_CODE_COLS = np.array([C[c] for c in ("start", "end", "sent", "speaker", "type",
                                           "number", "gender", "person", "index", "entity",
                                           "animacy")],
                           dtype=np.int32)
_PAIR_HASH_COLS = np.array([H[h] for h in MENTION_HASHES], dtype=np.int32)


def pair_codes(features: MentionFeatures, ptr: np.ndarray, ante: np.ndarray) -> np.ndarray:
    """Compact codes of every candidate pair (see PAIR_CODES).

    features (MentionFeatures): the document's (or documents') mentions.
    ptr, ante: candidate antecedents from :func:`neuralcoref.core.features.pairs.candidate_antecedents`.
    RETURNS (ndarray): (n_pairs, len(PAIR_CODES)) int16.
    """
    return _features.pair_codes(
        np.ascontiguousarray(features.codes), np.ascontiguousarray(features.hashes),
        np.ascontiguousarray(ptr, dtype=np.int64), np.ascontiguousarray(ante, dtype=np.int32),
        _PAIR_CODE_COLS, _PAIR_HASH_COLS, len(MENTION_TYPES),
    )
