"""The ``neuralcoref resolve`` command."""
import json
import warnings

import pytest
from typer.testing import CliRunner

from conftest import EN_PIPELINE
from neuralcoref.apps.cli import app

ANNA = "Anna said she likes Paris."
runner = CliRunner()


@pytest.fixture(scope="module")
def options(handmade_model):
    return ["--model", str(handmade_model), "--spacy-model", EN_PIPELINE]


def resolve(*args: str):
    return runner.invoke(app, ["resolve", *map(str, args)])


def test_cli_resolve_text(options):
    result = resolve(ANNA, *options)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Anna: ['Anna', 'she']"
    assert lines[-1] == "Anna said Anna likes Paris."


def test_cli_resolve_json(options):
    result = resolve(ANNA, "--json", *options)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["resolved"] == "Anna said Anna likes Paris."
    (cluster,) = data["clusters"]
    assert cluster["main"] == {"start": 0, "end": 4, "text": "Anna"}
    mentions = [(m["start"], m["end"], m["text"]) for m in cluster["mentions"]]
    assert mentions == [(0, 4, "Anna"), (10, 13, "she")]
    for mention in cluster["mentions"]:
        assert ANNA[mention["start"]:mention["end"]] == mention["text"]


def test_cli_resolve_file(tmp_path, options):
    path = tmp_path / "text.txt"
    path.write_text("Anna said she was late.\nAnna agreed.\n", encoding="utf8")
    result = resolve("--file", path, "--json", *options)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [m["text"] for m in data["clusters"][0]["mentions"]] == ["Anna", "she", "Anna"]
    assert data["resolved"] == "Anna said Anna was late.\nAnna agreed.\n"


def test_cli_resolve_greedyness(options):
    result = resolve(ANNA, "--greedyness", "0", *options)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == ANNA  # no cluster, the text unchanged


@pytest.mark.parametrize("args", [[], [ANNA, "--file", "x.txt"]], ids=["neither", "both"])
def test_cli_resolve_text_or_file(options, args, monkeypatch):
    import neuralcoref.apps.cli as cli

    monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: True)  # "neither": nothing piped, a terminal
    result = resolve(*args, *options)
    assert result.exit_code == 1
    assert "give either TEXT or --file" in result.output
    assert "Traceback" not in result.output


def test_cli_resolve_clean_errors(tmp_path, options):
    result = resolve("--file", tmp_path / "missing.txt", *options)
    assert result.exit_code == 1 and "missing.txt" in result.output and result.exception is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the unknown model is refused before anything warns
        result = resolve(ANNA, "--model", tmp_path / "no_model", "--spacy-model", EN_PIPELINE)
    assert result.exit_code == 1 and result.output.startswith("[E157]")
    assert "en, en_fast, en_portable, fr, fr_sm" in result.output
    result = resolve(ANNA, "--model", "en", "--spacy-model", "no_such_pipeline")
    assert result.exit_code == 1 and "[E152]" in result.output
    assert "python -m spacy download no_such_pipeline" in result.output


def test_cli_resolve_html(tmp_path, options):
    page = tmp_path / "out.html"
    result = resolve(ANNA, "--json", "--html", page, *options)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["resolved"] == "Anna said Anna likes Paris."  # stdout stays JSON
    html = page.read_text(encoding="utf8")
    assert html.startswith("<!DOCTYPE html>")
    assert html.count('class="nc-mention nc-main" data-cluster="0"') == 1
    assert html.count('data-cluster="0" data-mention=') == 2
    result = resolve(ANNA, "--html", tmp_path / "no_dir" / "out.html", *options)
    assert result.exit_code == 1 and "no_dir" in result.output


def test_cli_every_command_summary_is_one_line():
    # click shows a docstring's first paragraph in the command list: a summary
    # broken over lines wraps there at the docstring's own breaks.
    from neuralcoref.apps.cli import build_command

    for name, command in build_command().commands.items():
        first = (command.help or "").strip().split("\n\n")[0]
        assert "\n" not in first, f"{name}: {first!r}"


@pytest.mark.parametrize("source", ["file", "stdin", "text"])
def test_cli_resolve_empty_text_is_the_same_from_every_source(tmp_path, options, source):
    (tmp_path / "empty.txt").write_text("  \n", encoding="utf8")
    args = {"file": ["--file", tmp_path / "empty.txt"], "stdin": [], "text": ["  \n"]}[source]
    result = runner.invoke(app, ["resolve", *map(str, args), "--json", *options], input="  \n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"clusters": [], "resolved": "  \n"}
    assert "[W112]" in result.stderr and "nothing to resolve" in result.stderr


def _small_parser_limit(monkeypatch, max_length):
    import neuralcoref.api as api

    real = api.build_pipeline

    def build(*args, **kwargs):
        nlp = real(*args, **kwargs)
        nlp.max_length = max_length
        return nlp
    monkeypatch.setattr(api, "build_pipeline", build)


def test_cli_resolve_text_over_the_parser_limit_is_refused_or_split(tmp_path, options, monkeypatch):
    text = "Anna bought a car. It was red.\n\nTom met Anna. He said hello.\n\nLater she drove it home.\n"
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf8")
    _small_parser_limit(monkeypatch, 40)
    result = resolve("--file", path, *options)
    assert result.exit_code == 1 and result.stderr.startswith("[E020]"), result.output
    assert "--split-paragraphs" in result.stderr and "neuralcoref batch" in result.stderr
    assert "Traceback" not in result.output
    result = resolve("--file", path, "--json", "--split-paragraphs", *options)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # linked across the three chunks the parser saw one at a time
    assert data["resolved"] == "Anna bought a car. A car was red.\n\nTom met Anna. Tom said hello.\n\n" \
        "Later Anna drove a car home.\n"
    for cluster in data["clusters"]:
        assert all(text[m["start"]:m["end"]] == m["text"] for m in cluster["mentions"])


def test_cli_resolve_long_text_warns_before_parsing_whole(options, monkeypatch):
    import neuralcoref.api as api

    monkeypatch.setattr(api, "PARSE_CHUNK_CHARS", 10)
    result = resolve(ANNA, *options)
    assert result.exit_code == 0 and "[W111]" in result.stderr and "--split-paragraphs" in result.stderr


def test_cli_resolve_kb_names_the_entities(tmp_path, options):
    from neuralcoref.artifacts.kb_build import build_kb, read_kb_tsv

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\nQ1\tAnna\t\t\tperson\n", encoding="utf8")
    build_kb(read_kb_tsv(tmp_path / "kb.tsv")).to_disk(tmp_path / "kb")
    result = resolve(ANNA, "--kb", tmp_path / "kb", *options)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Anna (Q1): ['Anna', 'she']"
    result = resolve(ANNA, "--json", "--kb", tmp_path / "kb", *options)
    assert json.loads(result.stdout)["clusters"][0]["kb_id"] == "Q1"
