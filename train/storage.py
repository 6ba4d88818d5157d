"""Featurized corpora on disk: compact ``.npy`` arrays, memory-mapped on load.

A folder holds one array per kind, all documents concatenated (floats, ints and
hashes apart), the document offsets, what decoding needs besides the scores
(``decode_*.npy``: :func:`neuralcoref.core.decode.decoding.pack_inputs`), each document's gold
clusters, the training words' counts, and ``manifest.json`` with the feature
schema hash and what the data was made from. Writing goes to a temporary folder renamed at the end, so an
interrupted run never leaves half a cache behind.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Sequence, Tuple

import numpy as np

from neuralcoref.core.features.contract import SCHEMA_HASH, MentionFeatures, check_schema
from neuralcoref.core.decode.decoding import PACKED_ARRAYS, DecodeInputs, pack_inputs, unpack_inputs
from neuralcoref.errors import Errors, NeuralcorefError

ARRAYS = ("codes", "hashes", "words", "vectors", "labels", "doc_offsets")
MANIFEST, DOCS, WORD_COUNTS = "manifest.json", "docs.json", "word_counts.json"


@dataclass
class FeaturizedCorpus:
    """Featurized documents: mention features, gold labels and gold clusters.

    features (MentionFeatures): every candidate mention, documents concatenated.
    labels (int32 (n,)): gold cluster index of each mention in its document, -1
        when the candidate is not a gold mention.
    doc_offsets (int64 (n_docs + 1,)): document d's mentions are rows
        ``doc_offsets[d]:doc_offsets[d + 1]``.
    docs (List[dict]): per document: id, part, n_tokens and gold clusters
        (lists of [start, end] spans, end exclusive).
    manifest (dict): schema hash, sources, counts, extractor recall.
    word_counts (Dict[str, int]): lowercased training words and their counts.
    decoding (Mapping[str, ndarray]): every document's decode inputs, packed
        (:func:`neuralcoref.core.decode.decoding.pack_inputs`); see :meth:`decode_inputs`.
    """

    features: MentionFeatures
    labels: np.ndarray
    doc_offsets: np.ndarray
    docs: List[dict]
    manifest: dict
    word_counts: Dict[str, int]
    decoding: Mapping[str, np.ndarray]

    @property
    def n_docs(self) -> int:
        return len(self.docs)

    def doc_slice(self, d: int) -> slice:
        return slice(int(self.doc_offsets[d]), int(self.doc_offsets[d + 1]))

    def gold_clusters(self, d: int) -> List[List[Tuple[int, int]]]:
        return [[(s, e) for s, e in c] for c in self.docs[d]["clusters"]]

    def decode_inputs(self, d: int) -> DecodeInputs:
        """RETURNS (DecodeInputs): what decoding needs about document d's mentions,
        as :func:`neuralcoref.core.decode.decoding.decode_inputs` computed it from its Doc."""
        return unpack_inputs(self.decoding, d, self.doc_slice(d))


def write_corpus(path: Path, features: Sequence[MentionFeatures], labels: Sequence[np.ndarray],
                 docs: List[dict], manifest: dict, word_counts: Dict[str, int],
                 inputs: Sequence[DecodeInputs]) -> None:
    """Write per-document arrays as one featurized folder (atomically).

    inputs (Sequence[DecodeInputs]): each document's decode inputs.
    """
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    merged = MentionFeatures.concat(list(features))
    sizes = [len(f) for f in features]
    arrays = {"codes": merged.codes, "hashes": merged.hashes, "words": merged.words,
              "vectors": merged.vectors, "labels": np.concatenate(labels).astype(np.int32),
              "doc_offsets": np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)}
    for name in ARRAYS:
        np.save(tmp / f"{name}.npy", arrays[name], allow_pickle=False)
    for name, array in pack_inputs(inputs).items():
        np.save(tmp / f"{_DECODE_PREFIX}{name}.npy", array, allow_pickle=False)
    (tmp / DOCS).write_text(json.dumps(docs), encoding="utf8")
    (tmp / WORD_COUNTS).write_text(json.dumps(word_counts, ensure_ascii=False), encoding="utf8")
    (tmp / MANIFEST).write_text(json.dumps({**manifest, "schema_hash": SCHEMA_HASH}, indent=2),
                                encoding="utf8")
    shutil.rmtree(path, ignore_errors=True)
    tmp.rename(path)


def read_corpus(path: Path) -> FeaturizedCorpus:
    """Load a featurized folder; the arrays are memory-mapped, not read into RAM."""
    if not (path / MANIFEST).is_file():
        raise NeuralcorefError(Errors.E206.format(path=path, reason="no manifest.json"))
    manifest = json.loads((path / MANIFEST).read_text(encoding="utf8"))
    check_schema(manifest.get("schema_hash"), f"The featurized data in {path}")
    arrays = {name: np.load(path / f"{name}.npy", mmap_mode="r", allow_pickle=False)
              for name in ARRAYS}
    features = MentionFeatures(arrays["codes"], arrays["hashes"], arrays["words"], arrays["vectors"])
    docs = json.loads((path / DOCS).read_text(encoding="utf8"))
    counts = json.loads((path / WORD_COUNTS).read_text(encoding="utf8"))
    return FeaturizedCorpus(features, arrays["labels"], arrays["doc_offsets"], docs, manifest, counts,
                            _read_decoding(path))


#: File name prefix of the packed decode inputs.
_DECODE_PREFIX = "decode_"


def _read_decoding(path: Path) -> Dict[str, np.ndarray]:
    """The packed decode inputs of a featurized folder, memory-mapped."""
    missing = [name for name in PACKED_ARRAYS if not (path / f"{_DECODE_PREFIX}{name}.npy").is_file()]
    if missing:
        raise NeuralcorefError(Errors.E222.format(path=path, missing=", ".join(
            f"{_DECODE_PREFIX}{name}.npy" for name in missing)))
    return {name: np.load(path / f"{_DECODE_PREFIX}{name}.npy", mmap_mode="r", allow_pickle=False)
            for name in PACKED_ARRAYS}
