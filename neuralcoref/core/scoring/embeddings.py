"""The model's word vocabulary: spaCy LOWER hashes to rows of the embedding table."""
from __future__ import annotations

from typing import Mapping, Optional, Sequence, Tuple

import numpy as np
from spacy.strings import get_string_id as hash_string

from .scoring import FIRST_WORD_ROW, NONE_ROW, OOV_ROW


class WordVocab:
    """Maps lowercased words (as spaCy LOWER hashes) to embedding rows.

    words (Sequence[str]): the vocabulary, lowercased; word i has row i + 2
        (row 0: empty slot, row 1: unknown word).
    """

    def __init__(self, words: Sequence[str]):
        self.words = list(words)
        self._n_rows = FIRST_WORD_ROW + len(self.words)
        self._build(np.array([hash_string(w) for w in self.words], dtype=np.uint64),
                    np.arange(len(self.words), dtype=np.int64) + FIRST_WORD_ROW)

    def _build(self, hashes: np.ndarray, rows: np.ndarray) -> None:
        order = np.argsort(hashes, kind="stable")
        self._hashes, self._rows = hashes[order], rows[order]

    def __len__(self) -> int:
        """Rows of the embedding table this vocabulary needs."""
        return self._n_rows

    def rows(self, word_hashes: np.ndarray) -> np.ndarray:
        """Embedding rows of LOWER hashes (0 -> the empty-slot row).

        word_hashes (uint64 array of any shape).
        RETURNS (ndarray): int64 array of the same shape.
        """
        flat = word_hashes.reshape(-1)
        if self._hashes.size == 0:
            out = np.full(flat.shape, OOV_ROW, dtype=np.int64)
        else:
            pos = np.minimum(self._hashes.searchsorted(flat), self._hashes.size - 1)
            out = np.where(self._hashes[pos] == flat, self._rows[pos], OOV_ROW)
        out[flat == 0] = NONE_ROW
        return out.reshape(word_hashes.shape)

    def with_conversions(self, conv_dict: Mapping[str, Sequence[str]],
                         embeddings: np.ndarray) -> Tuple["WordVocab", np.ndarray]:
        """Represent each key of ``conv_dict`` by the mean embedding of its words.

        conv_dict (Mapping[str, Sequence[str]]): e.g. {"Angela": ["woman", "girl"]}.
        embeddings (float32 (len(self), dim)): the embedding table.
        RETURNS (Tuple[WordVocab, ndarray]): a new vocabulary and table with one
            added row per key (known words are overridden, unknown ones added).
        """
        vocab = WordVocab(self.words)
        rows = [embeddings]
        next_row = embeddings.shape[0]
        row_of = dict(zip(vocab._hashes.tolist(), vocab._rows.tolist()))
        for word, replacements in conv_dict.items():
            known = vocab.rows(np.array([hash_string(r.lower()) for r in replacements],
                                        dtype=np.uint64))
            known = known[known >= FIRST_WORD_ROW]
            if known.size == 0:
                continue
            rows.append(embeddings[known].mean(axis=0, keepdims=True))
            row_of[hash_string(word.lower())] = next_row
            next_row += 1
        vocab._build(np.array(list(row_of), dtype=np.uint64),
                     np.array(list(row_of.values()), dtype=np.int64))
        vocab._n_rows = next_row
        return vocab, np.concatenate(rows).astype(np.float32)


def build_vocab(counts: Mapping[str, int], min_count: int = 2, max_size: Optional[int] = 20000) -> WordVocab:
    """A vocabulary of the most frequent words.

    counts (Mapping[str, int]): lowercased training words and their counts.
    min_count (int): least occurrences to be kept.
    max_size (int | None): most words kept.
    """
    kept = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    return WordVocab(kept[:max_size])
