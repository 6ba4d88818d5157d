"""Expansion: compact feature codes to the scorers' float32 inputs.

One function per matrix serves runtime scoring and the training dataset alike:
:func:`expand_mention_codes` (``MENTION_LAYOUT``) and :func:`expand_pair_codes`
(``PAIR_LAYOUT``). :func:`pair_tables` precomputes the pair inputs' first-layer
contributions for the pair kernel, and :func:`sparse_pair_inputs` is its numpy
reference.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy as np

from .. import _features
from .contract import (C, COUNT_BINS, DISTANCE_BINS, DISTANCE_CAP, _FLAGS, Layout, LENGTH_BINS, MENTION_LAYOUT,
                       PAIR_CODES, PAIR_INPUTS, PAIR_LAYOUT)


def _bins(values: np.ndarray, bounds: Sequence[int]) -> np.ndarray:
    return _features.bin_values(np.ascontiguousarray(values, dtype=np.int64),
                                np.asarray(bounds, dtype=np.int64))


def _one_hot(out: np.ndarray, layout: Layout, block: str, index: np.ndarray) -> None:
    offset = layout.offset(block)
    out[np.arange(out.shape[0]), offset + index.astype(np.int64)] = 1.0


#: The one-hot blocks of MENTION_LAYOUT read straight from a code column, then
#: those read through bins (lower bounds), in the order of the reference.
_DIRECT_BLOCKS = ("type", "entity", "dep", "definiteness", "number", "gender", "person")
_BINNED_BLOCKS = (("length", LENGTH_BINS), ("head_count", COUNT_BINS), ("string_count", COUNT_BINS),
                  ("head_before", COUNT_BINS), ("string_before", COUNT_BINS))


@dataclass(frozen=True)
class _OneHotSpec:
    """The one-hot blocks as the kernel ``_features.one_hot_codes`` reads them."""

    columns: np.ndarray
    offsets: np.ndarray
    bound_ptr: np.ndarray
    bounds: np.ndarray


def _one_hot_spec() -> _OneHotSpec:
    blocks = [(name, ()) for name in _DIRECT_BLOCKS] + list(_BINNED_BLOCKS)
    sizes = [len(bounds) for _, bounds in blocks]
    return _OneHotSpec(
        columns=np.array([C[name] for name, _ in blocks], dtype=np.int64),
        offsets=np.array([MENTION_LAYOUT.offset(name) for name, _ in blocks], dtype=np.int64),
        bound_ptr=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        bounds=np.array([b for _, bounds in blocks for b in bounds], dtype=np.int64))


_ONE_HOT = _one_hot_spec()
_FLAG_COLUMNS = [C[f] for f in _FLAGS]


def expand_mention_codes(codes: np.ndarray) -> np.ndarray:
    """Mention codes to the scorers' float inputs (MENTION_LAYOUT).

    codes (int32 (n, len(MENTION_CODES))): from :func:`featurize`.
    RETURNS (ndarray): (n, MENTION_LAYOUT.width) float32.
    """
    if codes.dtype != np.int32 or codes.ndim != 2:
        return _expand_mention_codes_numpy(codes)
    n = codes.shape[0]
    out = np.zeros((n, MENTION_LAYOUT.width), dtype=np.float32)
    if n == 0:
        return out
    # The one-hot blocks in one kernel call (a dozen numpy calls each otherwise).
    _features.one_hot_codes(codes, _ONE_HOT.columns, _ONE_HOT.offsets, _ONE_HOT.bound_ptr,
                            _ONE_HOT.bounds, out)
    _set_flags_and_position(out, codes)
    return out


def _expand_mention_codes_numpy(codes: np.ndarray) -> np.ndarray:
    """:func:`expand_mention_codes` in numpy alone: the reference of its kernel."""
    n = codes.shape[0]
    out = np.zeros((n, MENTION_LAYOUT.width), dtype=np.float32)
    if n == 0:
        return out
    L = MENTION_LAYOUT
    for block in _DIRECT_BLOCKS:
        _one_hot(out, L, block, codes[:, C[block]])
    for block, bounds in _BINNED_BLOCKS:
        _one_hot(out, L, block, _bins(codes[:, C[block]], bounds))
    _set_flags_and_position(out, codes)
    return out


_FLAG_SLICE = MENTION_LAYOUT.slice("flags")
_POSITION = MENTION_LAYOUT.offset("position")


def _set_flags_and_position(out: np.ndarray, codes: np.ndarray) -> None:
    out[:, _FLAG_SLICE] = codes[:, _FLAG_COLUMNS]
    position = _POSITION
    out[:, position] = codes[:, C["index"]] / np.maximum(codes[:, C["n_mentions"]], 1)
    out[:, position + 1] = codes[:, C["sent"]] / np.maximum(codes[:, C["n_sents"]], 1)




#: Most rows of one lookup table of :class:`PairTables` (keeps each in cache).
PAIR_TABLE_ROWS = 512


@dataclass(frozen=True)
class PairTables:
    """The pair inputs' first-layer contributions, precomputed per combination of
    code values: the pair kernel adds one table row per group of codes instead of
    one weight row per input (see ``_features.pair_first_layer``).

    tables (float32 (rows, h)): every group's rows, one after the other.
    columns (int32 (k,)): the pair-code column of each code in a group, grouped.
    caps (int32 (k,)): the largest value of each code (larger ones are capped).
    strides (int32 (k,)): the code's stride in its group's row index.
    starts (int32 (k,)): the group's first table row for a group's first code, else -1.
    """

    tables: np.ndarray
    columns: np.ndarray
    caps: np.ndarray
    strides: np.ndarray
    starts: np.ndarray


def _code_contributions(w_pair: np.ndarray) -> Dict[str, np.ndarray]:
    """Per pair code, its first-layer contribution for each value 0..cap:
    (cap + 1, h) float32, from w_pair (PAIR_LAYOUT.width, h)."""
    out: Dict[str, np.ndarray] = {}
    for code, kind, block, index in PAIR_INPUTS:
        offset = PAIR_LAYOUT.offset(block) + index
        if kind in ("binned", "scalar"):
            values = np.arange(DISTANCE_CAP + 1)
            rows = (w_pair[offset + _bins(values, DISTANCE_BINS)] if kind == "binned"
                    else (values / DISTANCE_CAP)[:, None] * w_pair[offset])
        elif kind == "flag":  # the pair kernel writes flags as 0 or 1
            rows = np.stack([np.zeros_like(w_pair[offset]), w_pair[offset]])
        else:
            rows = w_pair[PAIR_LAYOUT.slice(block)]
        out[code] = out[code] + rows if code in out else rows.astype(np.float64)
    return out


def pair_tables(w_pair: np.ndarray, max_rows: int = PAIR_TABLE_ROWS) -> PairTables:
    """Group the pair codes (first fit, largest first, at most ``max_rows``
    combinations per group) and tabulate each group's summed contributions.

    w_pair (float32 (PAIR_LAYOUT.width, h)): the pair first layer's pair weights, transposed.
    RETURNS (PairTables): what ``_features.pair_first_layer`` reads.
    """
    contrib = _code_contributions(w_pair)
    groups: List[List[str]] = []
    for code in sorted(contrib, key=lambda c: -len(contrib[c])):
        for group in groups:
            if np.prod([len(contrib[c]) for c in group]) * len(contrib[code]) <= max_rows:
                group.append(code)
                break
        else:
            groups.append([code])
    P = {name: i for i, name in enumerate(PAIR_CODES)}
    tables, columns, caps, strides, starts, row = [], [], [], [], [], 0
    for group in groups:
        table = np.zeros((1, w_pair.shape[1]))
        for code in group:  # C order: the group's first code varies slowest
            table = (table[:, None, :] + contrib[code][None, :, :]).reshape(-1, w_pair.shape[1])
        sizes = [len(contrib[c]) for c in group]
        for i, code in enumerate(group):
            columns.append(P[code])
            caps.append(sizes[i] - 1)
            strides.append(int(np.prod(sizes[i + 1:])))
            starts.append(row if i == 0 else -1)
        tables.append(table)
        row += len(table)
    as32 = lambda x: np.array(x, dtype=np.int32)  # noqa: E731
    return PairTables(np.ascontiguousarray(np.concatenate(tables), dtype=np.float32),
                      as32(columns), as32(caps), as32(strides), as32(starts))


def sparse_pair_inputs(codes: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Pair codes as the active columns of PAIR_LAYOUT and their values (numpy
    reference of the kernel ``_features.pair_first_layer``).

    Every pair has one entry per PAIR_INPUTS item (a flag's value may be 0).
    codes (int16 (n_pairs, len(PAIR_CODES))): from :func:`pair_codes`.
    RETURNS (Tuple[ndarray, ndarray]): columns (n_pairs, k) int32 and values
        (n_pairs, k) float32.
    """
    n, P = codes.shape[0], {name: i for i, name in enumerate(PAIR_CODES)}
    cols = np.zeros((n, len(PAIR_INPUTS)), dtype=np.int32)
    vals = np.ones((n, len(PAIR_INPUTS)), dtype=np.float32)
    for j, (code, kind, block, index) in enumerate(PAIR_INPUTS):
        values = codes[:, P[code]].astype(np.int64)
        offset = PAIR_LAYOUT.offset(block) + index
        if kind == "binned":
            cols[:, j] = offset + _bins(values, DISTANCE_BINS)
        elif kind == "scalar":
            cols[:, j], vals[:, j] = offset, np.minimum(values, DISTANCE_CAP) / DISTANCE_CAP
        elif kind == "flag":
            cols[:, j], vals[:, j] = offset, values
        else:
            cols[:, j] = offset + values
    return cols, vals


def expand_pair_codes(codes: np.ndarray) -> np.ndarray:
    """Pair codes to the pair scorer's dense float inputs (PAIR_LAYOUT).

    codes (int16 (n_pairs, len(PAIR_CODES))): from :func:`pair_codes`.
    RETURNS (ndarray): (n_pairs, PAIR_LAYOUT.width) float32.
    """
    cols, vals = sparse_pair_inputs(codes)
    out = np.zeros((codes.shape[0], PAIR_LAYOUT.width), dtype=np.float32)
    # The columns of one pair are distinct (each block has its own), so plain
    # assignment is exact.
    out[np.arange(codes.shape[0])[:, None], cols] = vals
    return out
