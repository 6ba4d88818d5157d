"""Test oracles: plain numpy/Python references of the Cython kernels and of the
stages built on them, which the parity tests hold the runtime equal to.

They are slow and exist only to be compared against, so they live with the tests
rather than in the package (issue 59).
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np
from spacy.tokens import Doc

from neuralcoref.core.features.contract import C, CONTEXT_WINDOW, H, PAIR_CODES, SPAN_VECTORS, MentionFeatures
from neuralcoref.core.doc.doc_arrays import DocArrays, arrays_of, read_doc
from neuralcoref.core.mentions.mentions import (  # private ones: the oracles reuse the runtime's own steps
    DEP_ARGUMENT, DEP_CASE, DEP_CONJ, DEP_DETERMINER, DEP_LEFT_CUT, DEP_LEFT_DROP, DEP_NO_LIST,
    DEP_NUMBER_HEAD, DEP_PREPOSITION, DEP_PUNCT, DEP_RIGHT_CUT, DEP_SUBJECT, DEP_TRIM,
    DEP_ZERO_SUBJECT, ENT_REFERENTIAL, IOB_BEGIN, IOB_IN, LIST, MENTION_TYPES, Mentions, NOMINAL,
    POS_MODIFIER, POS_NOUN, POS_NUMBER, POS_PRONOUN, POS_PROPER, POS_VERB, PRONOMINAL, PROPER,
    RuleTables, TABLE_ATTRS, TAG_CLOSE, TAG_NON_REFERENTIAL, TAG_OPEN, TAG_POSSESSIVE, TAG_PRONOUN,
    TAG_PUNCT, TokenArrays, WORD_PARTITIVE, WORD_PRONOUN, _HEAD_COLUMN, _filtered, _fold_classes,
    _only_whitespace, check_annotations, rule_tables,
)
from neuralcoref.core.features.pairs import nominal_window
from neuralcoref.core.util.sets import isin
from neuralcoref.errors import Errors, NeuralcorefError
from neuralcoref.lang.base import LanguageRules


# Features (neuralcoref.core._features, core/features/featurize.py).
#: The kernels' span hash (64-bit FNV-1a over word hashes); equal to _features.pyx.
_HASH_SEED, _HASH_MULT, _MASK64 = 14695981039346656037, 1099511628211, (1 << 64) - 1
_INT16_MAX = 32767


def bin_values_reference(values: np.ndarray, lower_bounds: Sequence[int]) -> np.ndarray:
    """Reference of ``_features.bin_values``, for the parity tests.

    RETURNS (ndarray): (n,) int8 bin indices (values below the first bound go to 0).
    """
    index = np.searchsorted(np.asarray(lower_bounds), np.asarray(values), side="right") - 1
    return np.maximum(index, 0).astype(np.int8)


def hash_spans_reference(words: np.ndarray, keep: np.ndarray, starts: np.ndarray,
                         ends: np.ndarray) -> np.ndarray:
    """Reference of ``_features.hash_spans``, for the parity tests.

    words (uint64 (n_tokens,)), keep (uint8 (n_tokens,)), starts and ends (int32 (n_spans,)).
    RETURNS (ndarray): (n_spans,) uint64, 0 for spans with no kept word.
    """
    out = np.zeros(len(starts), dtype=np.uint64)
    for i, (start, end) in enumerate(zip(np.asarray(starts).tolist(), np.asarray(ends).tolist())):
        h, kept = _HASH_SEED, False
        for t in range(start, end):
            if keep[t]:
                h = ((h ^ int(words[t])) * _HASH_MULT) & _MASK64
                kept = True
        out[i] = h if kept else 0
    return out


def nesting_reference(starts: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Reference of ``_features.nesting`` (``featurize._nesting``), for the parity tests."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    prev_max_end = np.concatenate([[-1], np.maximum.accumulate(ends)[:-1]])
    next_min_end = np.concatenate([np.minimum.accumulate(ends[::-1])[::-1][1:], [np.iinfo(np.int32).max]])
    same_start_next = np.concatenate([starts[1:] == starts[:-1], [False]])
    same_start_prev = np.concatenate([[False], starts[1:] == starts[:-1]])
    nested = (prev_max_end >= ends) | same_start_next
    contains = (next_min_end <= ends) | same_start_prev
    return nested.astype(np.int32), contains.astype(np.int32)


def span_vectors_reference(tensor: Optional[np.ndarray], sent_ids, starts, ends, heads, document_windows=None,
                             document_prior=None) -> np.ndarray:
    """Reference of ``_features.span_vectors`` (``featurize._span_vectors``), for the parity tests.
    RETURNS (n, 6 * dim) float32."""
    n_tok = len(sent_ids)
    if tensor is None or tensor.size == 0 or tensor.shape[0] != n_tok:
        raise NeuralcorefError(Errors.E100.format(n_tokens=n_tok))
    tensor = np.asarray(tensor, dtype=np.float32)
    n, dim = len(starts), tensor.shape[1]
    cumsum = np.zeros((n_tok + 1, dim), dtype=np.float64)
    np.cumsum(tensor, axis=0, out=cumsum[1:])
    sent_bounds = np.searchsorted(sent_ids, np.arange(sent_ids[-1] + 2))
    s_start, s_end = sent_bounds[sent_ids[heads]], sent_bounds[sent_ids[heads] + 1]

    def mean(lo: np.ndarray, hi: np.ndarray, prior=None) -> np.ndarray:
        if prior is not None:  # the prior's mean, counted as ``weight`` more tokens
            vector, weight = prior
            return (cumsum[hi] - cumsum[lo] + weight * np.asarray(vector, np.float64)) / \
                (hi - lo + weight)[:, None]
        width = np.maximum(hi - lo, 1)[:, None]
        return ((cumsum[hi] - cumsum[lo]) / width) * (hi > lo)[:, None]

    windows = {
        "mention": (starts, ends),
        "before": (np.maximum(starts - CONTEXT_WINDOW, s_start), starts),
        "after": (ends, np.minimum(ends + CONTEXT_WINDOW, s_end)),
        "sentence": (s_start, s_end),
        "document": document_windows or (np.zeros(n, dtype=np.int64), np.full(n, n_tok)),
    }
    parts = [tensor[heads] if name == "head" else
             mean(*windows[name], document_prior if name == "document" else None)
             for name in SPAN_VECTORS]
    return np.concatenate(parts, axis=1).astype(np.float32)


def pair_codes_reference(features: MentionFeatures, ptr: np.ndarray, ante: np.ndarray) -> np.ndarray:
    """Reference of :func:`neuralcoref.core.features.featurize.pair_codes` in plain numpy, for the parity tests.

    RETURNS (ndarray): (n_pairs, len(PAIR_CODES)) int16.
    """
    ante = np.asarray(ante, dtype=np.int64)
    ana = np.repeat(np.arange(len(ptr) - 1), np.diff(np.asarray(ptr)))
    a, m = features.codes[ante].astype(np.int64), features.codes[ana].astype(np.int64)
    ha, hm = features.hashes[ante], features.hashes[ana]

    def agreement(name: str) -> np.ndarray:
        x, y = a[:, C[name]], m[:, C[name]]
        return np.where((x == 0) | (y == 0), 0, np.where(x == y, 1, 2))

    def match(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return (x != 0) & (x == y)

    columns = {
        "sent_dist": np.minimum(m[:, C["sent"]] - a[:, C["sent"]], _INT16_MAX),
        "mention_dist": np.minimum(m[:, C["index"]] - a[:, C["index"]], _INT16_MAX),
        "same_speaker": (m[:, C["speaker"]] >= 0) & (m[:, C["speaker"]] == a[:, C["speaker"]]),
        "ante_is_speaker": match(ha[:, H["exact"]], hm[:, H["speaker_name"]]),
        "ana_is_speaker": match(hm[:, H["exact"]], ha[:, H["speaker_name"]]),
        "head_match": match(ha[:, H["head"]], hm[:, H["head"]]),
        "exact_match": match(ha[:, H["exact"]], hm[:, H["exact"]]),
        "relaxed_match": match(ha[:, H["relaxed"]], hm[:, H["relaxed"]]),
        "overlap": (a[:, C["start"]] < m[:, C["end"]]) & (m[:, C["start"]] < a[:, C["end"]]),
        "number": agreement("number"),
        "gender": agreement("gender"),
        "person": agreement("person"),
        "entity": agreement("entity"),
        "animacy": agreement("animacy"),
        "type_pair": a[:, C["type"]] * len(MENTION_TYPES) + m[:, C["type"]],
        "speaker_relation": _speaker_relation_reference(a, m),
    }
    return np.stack([columns[name].astype(np.int64) for name in PAIR_CODES], axis=1).astype(np.int16)


def _speaker_relation_reference(a: np.ndarray, m: np.ndarray) -> np.ndarray:
    spk_a, spk_m, per_a, per_m = a[:, C["speaker"]], m[:, C["speaker"]], a[:, C["person"]], m[:, C["person"]]
    known = (spk_a >= 0) & (spk_m >= 0) & isin(per_a, (1, 2)) & isin(per_m, (1, 2))
    relation = np.where(spk_a == spk_m, np.where(per_a == per_m, 1, 2), np.where(per_a == per_m, 3, 4))
    return np.where(known, relation, 0)


# Candidate antecedents (core/features/pairs.py).
def candidate_antecedents_reference(
    is_pronoun: np.ndarray, head_hash: np.ndarray, max_dist: int, max_dist_match: int,
    max_dist_nominal: Optional[int] = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """Pure-Python reference of the Cython kernel, for the parity tests."""
    nominal = nominal_window(max_dist, max_dist_nominal)
    max_dist_match = max(max_dist_match, max_dist, nominal)
    rows = []
    for m in range(len(is_pronoun)):
        lo_near = max(m - (max_dist if is_pronoun[m] else nominal), 0)
        row = list(range(m - 1, lo_near - 1, -1))
        if not is_pronoun[m] and head_hash[m] != 0:
            row += [a for a in range(lo_near - 1, max(m - max_dist_match, 0) - 1, -1)
                    if not is_pronoun[a] and head_hash[a] == head_hash[m]]
        rows.append(row)
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(r) for r in rows])
    ante = np.array([a for r in rows for a in r], dtype=np.int32)
    return ptr, ante


def top_candidates_reference(scores: np.ndarray, ptr: np.ndarray, k: int) -> np.ndarray:
    """Pure-numpy reference of :func:`neuralcoref.core.features.pairs.top_candidates`, for the parity tests."""
    kept = []
    for lo, hi in zip(ptr[:-1], ptr[1:]):
        order = np.argsort(-scores[lo:hi], kind="stable")[:k]  # stable: earlier ties first
        kept.append(np.sort(order) + lo)
    return np.concatenate(kept).astype(np.int64) if kept else np.zeros(0, np.int64)


# Mentions (neuralcoref.core._mentions, core/mentions/mentions.py).
def token_arrays_reference(doc: Doc, rules: LanguageRules,
                           arrays: Optional[DocArrays] = None) -> TokenArrays:
    """:func:`~neuralcoref.core.mentions.mentions.token_arrays` with :func:`token_classes_reference`
    in place of the Cython kernel (the numpy folding of word and morphology classes
    is the runtime's own)."""
    arrays = arrays_of(doc, arrays)
    heads, masks = token_classes_reference(arrays.table, rule_tables(rules))
    if rules.uses_morph or rules.uses_word_classes:
        _fold_classes(arrays, rules, heads, masks)
    return TokenArrays(heads, *masks, iob=arrays.ent_iob)


def extract_mentions_reference(doc: Doc, rules: LanguageRules) -> Mentions:
    """:func:`extract_mentions` through the pure-Python references of the kernels."""
    if _only_whitespace(doc):
        return Mentions.empty()
    check_annotations(doc, rules)
    arrays = read_doc(doc)
    t = token_arrays_reference(doc, rules, arrays)
    left, right = subtree_bounds_reference(t.heads)
    candidates = extract_candidates_reference(
        t.heads, left, right, t.tag, t.pos, t.dep, t.word, t.ent, t.iob)
    return _filtered(arrays, rules, t, Mentions(*sort_unique_reference(len(doc), *candidates)))


def token_classes_reference(array: np.ndarray,
                            tables: RuleTables) -> Tuple[np.ndarray, np.ndarray]:
    """Reference of ``_mentions.token_classes``.

    array (ndarray): (n_tokens, len(ATTRS)) uint64 from ``doc.to_array(ATTRS)``.
    tables (RuleTables): the rules' lookup tables.
    RETURNS (Tuple[ndarray, ndarray]): heads (n_tokens,) int32 and masks
        (n_tables, n_tokens) uint32, 0 for labels not in a table.
    """
    n = array.shape[0]
    heads = (np.arange(n, dtype=np.int64) + array[:, _HEAD_COLUMN].view(np.int64)).astype(np.int32)
    masks = np.zeros((len(TABLE_ATTRS), n), dtype=np.uint32)
    for t, attr in enumerate(TABLE_ATTRS):
        keys, bits = tables.table(attr)
        if keys.shape[0] == 0:
            continue
        column = array[:, tables.columns[t]]
        at = np.minimum(np.searchsorted(keys, column), keys.shape[0] - 1)
        masks[t] = np.where(keys[at] == column, bits[at], 0)
    return heads, masks


def sort_unique_reference(n_tokens: int, starts: np.ndarray, ends: np.ndarray,
                          heads: np.ndarray, types: np.ndarray):
    """Reference of ``_mentions.sort_unique``: sort by (start, end), first kept.

    n_tokens (int): the Doc's length.
    starts, ends, heads (ndarray): (n_candidates,) int32, in emission order.
    types (ndarray): (n_candidates,) int8.
    RETURNS (Tuple[ndarray, ndarray, ndarray, ndarray]): the unique candidates.
    """
    key = starts.astype(np.int64) * (n_tokens + 1) + ends
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = sorted_key[1:] != sorted_key[:-1]
    keep = order[first]
    return starts[keep], ends[keep], heads[keep], types[keep]


def subtree_bounds_reference(heads: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Reference of ``_mentions.subtree_bounds``.

    heads (ndarray): (n_tokens,) int32 absolute heads, roots their own head.
    RETURNS (Tuple[ndarray, ndarray]): (left, right), each (n_tokens,) int32,
        right inclusive.
    """
    n = heads.shape[0]
    left = np.arange(n, dtype=np.int32)
    right = np.arange(n, dtype=np.int32)
    for i in range(n):
        h, steps = i, 0
        while heads[h] != h and steps < n:
            h = heads[h]
            left[h] = min(left[h], i)
            right[h] = max(right[h], i)
            steps += 1
    return left, right


def extract_candidates_reference(heads, left, right, tag, pos, dep, word, ent, iob):
    """Reference of ``_mentions.extract_candidates``: same candidates, same order.

    Arguments as in :func:`token_arrays` plus ``left`` and ``right`` from
    :func:`subtree_bounds_reference`.
    RETURNS (Tuple[ndarray, ndarray, ndarray, ndarray]): starts, ends, heads
        (n_candidates,) int32 and types (n_candidates,) int8, in emission order.
    """
    n = len(heads)
    children: List[List[int]] = [[] for _ in range(n)]
    for j in range(n):
        if heads[j] != j:
            children[heads[j]].append(j)
    opened = np.concatenate([[0], np.cumsum((tag & TAG_OPEN) != 0)])
    closed = np.concatenate([[0], np.cumsum((tag & TAG_CLOSE) != 0)])
    out: List[Tuple[int, int, int, int]] = []

    def trimmed(k: int) -> bool:
        return bool((tag[k] & TAG_PUNCT) or (dep[k] & DEP_TRIM)) and not dep[k] & DEP_CASE

    def emit(start: int, end: int, head: int, mtype: int) -> None:
        while start < head and trimmed(start):
            start += 1
        while end > head + 1 and trimmed(end - 1):
            if tag[end - 1] & TAG_CLOSE and (
                    opened[end - 1] - opened[start] > closed[end - 1] - closed[start]):
                break
            end -= 1
        out.append((start, end, head, mtype))

    def head_type(i: int) -> int:
        if pos[i] & POS_PROPER:
            return PROPER
        if pos[i] & POS_NOUN:
            return PROPER if ent[i] & ENT_REFERENTIAL else NOMINAL
        if pos[i] & POS_PRONOUN:
            return -1 if tag[i] & (TAG_NON_REFERENTIAL | TAG_POSSESSIVE) else PRONOMINAL
        if pos[i] & POS_NUMBER and dep[i] & DEP_NUMBER_HEAD:
            return NOMINAL
        if pos[i] & POS_MODIFIER and dep[i] & DEP_ARGUMENT:
            for c in children[i]:
                if c < i and dep[c] & DEP_DETERMINER:
                    return NOMINAL
                if c > i and dep[c] & DEP_PREPOSITION and word[c] & WORD_PARTITIVE:
                    return NOMINAL
        return -1

    def has_subject(i: int) -> bool:
        return any(dep[c] & DEP_SUBJECT for c in children[i])

    def phrase(i: int, htype: int) -> None:
        start, end = int(left[i]), int(right[i]) + 1
        rights = [c for c in children[i] if c > i]
        conj = [c for c in rights if dep[c] & DEP_CONJ]
        first_conj = conj[0] if conj else -1
        whole = first_conj < 0 or not (dep[i] & DEP_NO_LIST or any(has_subject(c) for c in conj))
        whole_type = htype if first_conj < 0 else LIST
        cuts = [int(left[c]) for c in rights if left[c] > i and dep[c] & DEP_RIGHT_CUT]
        for begin in _phrase_starts(i, start, children[i], dep, right):
            if whole:
                emit(begin, end, i, whole_type)
            for cut in cuts:
                emit(begin, cut, i, LIST if 0 <= first_conj < cut else htype)

    def zero_subject(i: int) -> bool:
        return bool(pos[i] & POS_VERB and dep[i] & DEP_ZERO_SUBJECT) and not has_subject(i)

    for i in range(n):
        if tag[i] & TAG_PRONOUN or (pos[i] & POS_PRONOUN and word[i] & WORD_PRONOUN):
            emit(i, i + 1, i, PRONOMINAL)
        if zero_subject(i):
            emit(i, i + 1, i, PRONOMINAL)
        htype = head_type(i)
        if htype >= 0:
            phrase(i, htype)
    i = 0
    while i < n:
        if iob[i] != IOB_BEGIN or not ent[i] & ENT_REFERENTIAL:
            i += 1
            continue
        s, e = i, i + 1
        while e < n and iob[e] == IOB_IN:
            e += 1
        root = next((k for k in range(s, e) if heads[k] == k or not s <= heads[k] < e), s)
        if e < n and dep[e] & DEP_CASE and heads[e] == root:
            e += 1
        emit(s, e, root, PROPER)
        i = e
    if not out:
        return (np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32),
                np.zeros(0, np.int8))
    starts, ends, mheads, types = zip(*out)
    return (np.array(starts, np.int32), np.array(ends, np.int32),
            np.array(mheads, np.int32), np.array(types, np.int8))


def _phrase_starts(i: int, start: int, children: List[int], dep: np.ndarray,
                   right: np.ndarray) -> List[int]:
    # The phrase's own start, and a later one past leading left-cut dependents
    # (punctuation among them too, once one was dropped); only the later one
    # past a left-drop dependent (the subject or copula of a predicate).
    late = start
    drop = False
    for c in children:
        if c > i:
            break
        if dep[c] & (DEP_LEFT_CUT | DEP_LEFT_DROP) or (dep[c] & DEP_PUNCT and late > start):
            late = int(right[c]) + 1
            drop = drop or bool(dep[c] & DEP_LEFT_DROP)
        else:
            break
    if late == start or late > i:
        return [start]
    return [late] if drop else [start, late]
