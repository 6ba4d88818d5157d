"""The benchmark command's measures, on the sample file (timings are not checked)."""
from pathlib import Path

from neuralcoref.apps.benchmark import run_benchmark

from conftest import _load_en

SAMPLE = Path(__file__).resolve().parent.parent / "conll_data" / "sample.english.v4_gold_conll"


def test_benchmark_measures_every_stage_with_the_model_loaded(handmade_model):
    nlp = _load_en()
    report = run_benchmark(nlp, str(SAMPLE), model=str(handmade_model), batch_sizes=(2,),
                           processes=(1,), long_sizes=(300,))
    names = [m.name for m in report.measures]
    assert names[:3] == ["spaCy pipeline alone", "coref component alone",
                         "coref component alone, pipe(batch_size=64)"]
    assert "whole pipeline, pipe(batch_size=2, n_process=1)" in names
    assert any("one document of" in n for n in names)
    # the component loads its model on first use: the figures include the load
    assert report.model_size_mb > 0 and report.component_rss_mb >= 0
    assert all(m.tokens > 0 and m.seconds > 0 for m in report.measures)
