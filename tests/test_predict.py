"""``neuralcoref predict``: CoNLL in, the same CoNLL out with predicted coreference."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import EN_PIPELINE, SAMPLE_CONLL
from neuralcoref.api import add_neuralcoref, load_spacy
from neuralcoref.apps.cli import app
from neuralcoref.apps.predict import predict_conll
from neuralcoref.corpora.conll import read_conll
from neuralcoref.errors import NeuralcorefError

runner = CliRunner()


def token_columns(path: Path):
    """Every line with its last (coreference) column cut off."""
    lines = []
    for line in path.read_text(encoding="utf8").splitlines():
        columns = line.split()
        lines.append(columns[:-1] if columns and not line.startswith("#") else line)
    return lines


@pytest.fixture(scope="module")
def predicted(tmp_path_factory, handmade_model) -> Path:
    out = tmp_path_factory.mktemp("predict") / "sample.predicted_conll"
    result = runner.invoke(app, ["predict", str(SAMPLE_CONLL), str(out), "--model", str(handmade_model),
                                 "--spacy-model", EN_PIPELINE, "--batch-size", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Wrote {out}: 3 documents")
    return out


def test_predict_keeps_the_token_columns(predicted):
    assert token_columns(predicted) == token_columns(SAMPLE_CONLL)


def test_predict_coreference_column_parses(predicted):
    gold, response = list(read_conll(SAMPLE_CONLL)), list(read_conll(predicted))
    assert [d.key for d in response] == [d.key for d in gold]
    assert [d.rows for d in response] == [d.rows for d in gold]
    assert any(d.clusters for d in response)
    for doc in response:
        for cluster in doc.clusters:
            assert len(cluster) >= 2
            assert all(0 <= s < e <= len(doc) for s, e in cluster)


def test_predict_scores_with_evaluate(predicted):
    result = runner.invoke(app, ["evaluate", str(SAMPLE_CONLL), str(predicted), "--json"])
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert 0 < scores["conll_f1"] <= 100
    assert scores["mentions"]["precision"] > 0


def test_predict_conll_function(tmp_path, handmade_model):
    nlp = add_neuralcoref(load_spacy(EN_PIPELINE), model=str(handmade_model))
    stats = predict_conll(nlp, SAMPLE_CONLL, tmp_path / "out.conll", progress=False)
    docs = list(read_conll(SAMPLE_CONLL))
    assert stats["docs"] == len(docs) and stats["tokens"] == sum(len(d) for d in docs)
    assert stats["clusters"] == sum(len(d.clusters) for d in read_conll(tmp_path / "out.conll"))


def test_predict_clean_errors(tmp_path, handmade_model):
    result = runner.invoke(app, ["predict", str(tmp_path / "missing.conll"), str(tmp_path / "out"),
                                 "--model", str(handmade_model), "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 1 and "[E009]" in result.output


def test_predict_failure_leaves_no_partial_output(tmp_path):
    out = tmp_path / "out.conll"
    out.write_text("an earlier result\n", encoding="utf8")
    result = runner.invoke(app, ["predict", str(SAMPLE_CONLL), str(out), "--model",
                                 str(tmp_path / "none"), "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 1 and "[E157]" in result.output  # the model is checked first
    assert out.read_text(encoding="utf8") == "an earlier result\n"  # not truncated
    assert [p.name for p in tmp_path.iterdir()] == ["out.conll"]  # no partial file left


def test_predict_to_standard_output(tmp_path, handmade_model, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["predict", str(SAMPLE_CONLL), "-", "--model", str(handmade_model),
                                 "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == []  # no file named '-'
    written = tmp_path / "stdout.conll"
    written.write_text(result.stdout, encoding="utf8")
    assert token_columns(written) == token_columns(SAMPLE_CONLL)  # stdout is the CoNLL alone
    assert "Wrote standard output: 3 documents" in result.stderr


def test_predict_progress_bar_counts_the_documents_first(tmp_path, handmade_model, monkeypatch):
    import neuralcoref.apps.predict as predict

    totals = []

    class Bar(list):
        def __init__(self, iterable, total=None, **kwargs):
            totals.append(total)
            super().__init__(iterable)
    monkeypatch.setattr(predict, "tqdm", Bar)
    nlp = add_neuralcoref(load_spacy(EN_PIPELINE), model=str(handmade_model))
    predict_conll(nlp, SAMPLE_CONLL, tmp_path / "out.conll")
    assert totals == [3] == [len(list(read_conll(SAMPLE_CONLL)))]


def test_predict_document_longer_than_max_length_is_a_coded_error(tmp_path, handmade_model):
    nlp = add_neuralcoref(load_spacy(EN_PIPELINE), model=str(handmade_model))
    nlp.max_length = 100
    out = tmp_path / "out.conll"
    with pytest.raises(NeuralcorefError, match=r"\[E019\].*max_length \(100\).*Split it"):
        predict_conll(nlp, SAMPLE_CONLL, out, progress=False)
    assert not out.exists()
