"""Hostile texts and Docs (issue 58): ``nlp(text)`` with a lone surrogate, scores in
a Doc's user_data that are not the component's, a CoNLL input without documents:
each a coded error, never a bare traceback or a silent success."""
import pickle

import pytest
import spacy
from spacy.tokenizer import Tokenizer
from typer.testing import CliRunner

from neuralcoref.apps.cli import app
from neuralcoref.apps.predict import predict_conll
from neuralcoref.errors import NeuralcorefError
from neuralcoref.extensions import SCORES_KEY

SURROGATE = "Anna said \udc80 she left."


@pytest.fixture
def blank_coref(handmade_model):
    """A pipeline of its own (its tokenizer is changed), tokenizer and neuralcoref only."""
    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": str(handmade_model)})
    return nlp


def test_hostile_texts_nlp_call_with_lone_surrogate_is_e171(blank_coref):
    with pytest.raises(NeuralcorefError, match=r"^\[E171\] The text holds a lone surrogate \(U\+DC80\) at "
                                               r"character 10: .*errors='replace'"):
        blank_coref(SURROGATE)
    with pytest.raises(NeuralcorefError, match=r"^\[E171\]"):
        list(blank_coref.pipe(["Anna left.", SURROGATE]))
    with pytest.raises(NeuralcorefError, match=r"^\[E171\]"):
        list(blank_coref.tokenizer.pipe([SURROGATE]))
    assert [t.text for t in blank_coref.make_doc("Anna left.")] == ["Anna", "left", "."]


def test_hostile_texts_checked_tokenizer_is_the_tokenizer(blank_coref, tmp_path):
    """Settings, special cases, pickling and saving reach the wrapped tokenizer."""
    from neuralcoref.validation import CheckedTokenizer

    tokenizer = blank_coref.tokenizer
    assert isinstance(tokenizer, CheckedTokenizer)
    assert isinstance(tokenizer, Tokenizer)  # code that checks the tokenizer's type still works
    tokenizer.add_special_case("gimme", [{"ORTH": "gim"}, {"ORTH": "me"}])
    tokenizer.token_match = None  # an assignment changes the tokenizer itself
    assert tokenizer.tokenizer.token_match is None
    assert [t.text for t in blank_coref.make_doc("gimme that")] == ["gim", "me", "that"]
    copy = pickle.loads(pickle.dumps(blank_coref))
    assert isinstance(copy.tokenizer, CheckedTokenizer)
    assert [t.text for t in copy.make_doc("gimme that")] == ["gim", "me", "that"]
    blank_coref.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert isinstance(loaded.tokenizer, CheckedTokenizer)
    assert isinstance(loaded.tokenizer, Tokenizer)
    assert not isinstance(loaded.tokenizer.tokenizer, CheckedTokenizer)  # wrapped once
    assert [t.text for t in loaded.make_doc("gimme that")] == ["gim", "me", "that"]
    with pytest.raises(NeuralcorefError, match=r"^\[E171\]"):
        loaded(SURROGATE)


BAD_SCORES = {
    "not-a-dict": [1, 2],
    "no-mentions": {"single": [], "pairs": []},
    "mention-not-a-pair": {"mentions": [5], "single": [0.1], "pairs": []},
    "mention-outside": {"mentions": [[0, 99]], "single": [0.1], "pairs": []},
    "index-outside": {"mentions": [[0, 1]], "single": [0.1], "pairs": [[0, 7, 0.5]]},
    "negative-index": {"mentions": [[0, 1], [2, 3]], "single": [0.1, 0.2], "pairs": [[1, -1, 0.5]]},
    "score-a-string": {"mentions": [[0, 1]], "single": ["high"], "pairs": []},
    "lengths-differ": {"mentions": [[0, 1], [2, 3]], "single": [0.1], "pairs": []},
}


@pytest.mark.parametrize("case", list(BAD_SCORES), ids=list(BAD_SCORES))
def test_hostile_texts_coref_scores_on_bad_user_data(nlp_coref, case):
    doc = nlp_coref("Anna said she left.")
    assert doc._.coref_scores is not None  # the component's own form reads
    doc.user_data[SCORES_KEY] = BAD_SCORES[case]
    with pytest.raises(NeuralcorefError, match=r"^\[E438\] Cannot read the document attribute coref_scores"):
        doc._.coref_scores
    with pytest.raises(NeuralcorefError, match=r"^\[E438\]"):
        doc[0:1]._.coref_scores


def test_hostile_texts_predict_on_empty_input(tmp_path, monkeypatch):
    import neuralcoref.api

    def no_pipeline(*args, **kwargs):
        raise AssertionError("the pipeline was loaded for an empty input")

    monkeypatch.setattr(neuralcoref.api, "load_spacy", no_pipeline)
    empty, out = tmp_path / "empty.conll", tmp_path / "out.conll"
    empty.write_text("")
    result = CliRunner().invoke(app, ["predict", str(empty), str(out)])
    assert result.exit_code == 1 and result.output.startswith("[E437] No CoNLL-2012 documents in"), result.output
    assert not out.exists()


def test_hostile_texts_predict_conll_without_documents(nlp_coref, tmp_path):
    """The library call too (a file of comments only): nothing is written."""
    path, out = tmp_path / "comments.conll", tmp_path / "out.conll"
    path.write_text("# only a comment\n\n")
    out.write_text("earlier\n")
    with pytest.raises(NeuralcorefError, match=r"^\[E437\]"):
        predict_conll(nlp_coref, path, out, progress=False)
    assert out.read_text() == "earlier\n"


def test_hostile_texts_predict_past_the_file_size_limit(nlp_coref, tmp_path):
    """Errno 27 for real (the process's file size limit): coded, the earlier output kept."""
    import resource

    from conftest import SAMPLE_CONLL

    out = tmp_path / "out.conll"
    out.write_text("earlier\n")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, hard))
    try:
        with pytest.raises(NeuralcorefError, match=r"^\[E440\] Cannot write the output .*out\.conll "
                                                   r"\(File too large \(errno 27\)\): nothing was written"):
            predict_conll(nlp_coref, SAMPLE_CONLL, out, progress=False)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert out.read_text() == "earlier\n"
    assert not (tmp_path / "out.conll.partial").exists()
