"""The ``neuralcoref`` command line: thin Typer commands over importable functions.

The commands that train or change models are in cli_training.py, those of
entity linking in cli_links.py, what they share in cli_common.py; this module
holds the app and registers them all in the order of its help.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from . import cli_links, cli_training
from .cli_common import (ENTITIES_HELP, KB_HELP, MODEL_HELP, PIPELINE_HELP,  # noqa: F401 (re-exported)
                         _fail, _show_pipeline_choice, _warnings_on_stderr)
from .cli_links import _check_link_options

app = typer.Typer(
    name="neuralcoref",
    help="Coreference resolution for spaCy: resolve, predict, evaluate, train, folds, ensemble, tune, "
         "benchmark, serve, batch, kb (entity linking), evaluate-links.",
    no_args_is_help=True,
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        from ..about import __version__

        typer.echo(f"neuralcoref {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Coreference resolution for spaCy."""


@app.command("evaluate")
def evaluate_command(
    key: Path = typer.Argument(..., help="Gold CoNLL-2012 file (or folder of files)."),
    response: Path = typer.Argument(..., help="System CoNLL-2012 file (or folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the scores as one JSON object."),
    no_singletons: bool = typer.Option(
        False, "--no-singletons", help="Drop one-mention clusters from key and response."),
    allow_missing: bool = typer.Option(
        False, "--allow-missing",
        help="Score the documents key and response share (by default, documents of one that "
             "the other lacks are an error)."),
) -> None:
    """Score RESPONSE against KEY: MUC, B-cubed, CEAF, BLANC, LEA, CoNLL F1."""
    import json

    from ..corpora.evaluation import evaluate_files
    from ..errors import NeuralcorefError

    try:
        result = evaluate_files(key, response, keep_singletons=not no_singletons,
                                allow_missing=allow_missing)
    except (NeuralcorefError, OSError) as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(code=1)
    if result.missing or result.extra:
        typer.echo(f"Scored the {result.scored} documents key and response share; skipped "
                   f"{result.missing} key documents the response lacks and {result.extra} "
                   "response documents the key lacks.", err=True)
    typer.echo(json.dumps(result.scores.to_dict()) if as_json else result.scores.format_table())


def _stdin_is_terminal() -> bool:
    """Whether nothing is piped in: standard input is a terminal."""
    return sys.stdin.isatty()


def _read_text(file: Path) -> str:
    """A UTF-8 file's text; '-' reads standard input (as UTF-8 whatever the locale)."""
    if str(file) == "-":
        return sys.stdin.buffer.read().decode("utf8")
    return file.read_text(encoding="utf8")


@app.command("resolve")
def resolve_command(
    text: Optional[str] = typer.Argument(
        None, help="The text to resolve (default: --file, else standard input)."),
    file: Optional[Path] = typer.Option(
        None, "--file", "-f", help="Read the text from a file ('-': standard input)."),
    as_json: bool = typer.Option(False, "--json", help="Clusters as character offsets and strings."),
    model: Optional[str] = typer.Option(None, help=MODEL_HELP),
    spacy_model: Optional[str] = typer.Option(None, help=PIPELINE_HELP),
    greedyness: float = typer.Option(0.5, help="0-1: higher links more."),
    html: Optional[Path] = typer.Option(
        None, "--html", help="Also write the clusters as a self-contained HTML page to this file."),
    split_paragraphs: bool = typer.Option(
        False, "--split-paragraphs",
        help="Parse a long text (over 100,000 characters) a group of paragraphs at a time, with a "
             "progress bar: bounds the parser's memory and lifts spaCy's max_length; coreference "
             "still spans the whole text."),
    kb: Optional[str] = typer.Option(None, "--kb", help=KB_HELP),
) -> None:
    """Resolve coreference in TEXT (or --file, or standard input) and print clusters and resolved text.

    An empty or blank text, whatever its source, prints nothing to resolve (W112 on
    stderr) and exits 0. A text over spaCy's max_length (1,000,000 characters) is
    refused (E020) unless --split-paragraphs is given.
    """
    import json

    from ..api import Coref
    from ..errors import Errors, NeuralcorefError, Warnings

    if text is not None and file is not None:
        _fail(typer.BadParameter("give either TEXT or --file, not both"))
    if text is None and file is None:
        if _stdin_is_terminal():
            _fail(typer.BadParameter("give either TEXT or --file, or a text on standard input"))
        file = Path("-")
    _show_pipeline_choice()
    try:
        content = text if file is None else _read_text(file)
        if not content.strip():
            source = "standard input" if file is not None and str(file) == "-" else (file or "TEXT")
            typer.echo(Warnings.W112.format(source=source), err=True)
        coref = Coref(model=model, spacy_model=spacy_model, greedyness=greedyness, kb=kb)
        with _warnings_on_stderr():
            result = coref.predict(content, split_paragraphs=split_paragraphs)[0]
    except UnicodeDecodeError as err:
        _fail(NeuralcorefError(Errors.E156.format(path=file, reason=err.reason, position=err.start)))
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    if html is not None:
        from .render import render

        try:
            html.write_text(render(result.doc), encoding="utf8")
        except OSError as err:
            _fail(err)
        typer.echo(f"Wrote {html}", err=True)
    if as_json:
        from .records import doc_record

        typer.echo(json.dumps(doc_record(result.doc), ensure_ascii=False))
        return
    for cluster in result.doc._.coref_clusters:
        entity = f" ({cluster.kb_id})" if cluster.kb_id else ""
        typer.echo(f"{cluster.main.text}{entity}: {[m.text for m in cluster.mentions]}")
    typer.echo(f"\n{result.resolved}")


@app.command("predict")
def predict_command(
    input_conll: Path = typer.Argument(
        ..., help="CoNLL-2012 file or folder (gold tokens); '-': standard input."),
    output_conll: Path = typer.Argument(
        ..., help="CoNLL file to write with predicted coreference; '-': standard output."),
    model: Optional[str] = typer.Option(None, help=MODEL_HELP),
    spacy_model: Optional[str] = typer.Option(None, help=PIPELINE_HELP),
    batch_size: int = typer.Option(16, help="Documents per batch."),
    kb: Optional[str] = typer.Option(None, "--kb", help=KB_HELP),
    entities: Optional[Path] = typer.Option(None, "--entities", help=ENTITIES_HELP),
) -> None:
    """Predict coreference for every document of INPUT_CONLL, writing OUTPUT_CONLL."""
    import tempfile

    from ..api import add_linker, build_pipeline
    from ..errors import NeuralcorefError
    from ..errors import Errors
    from .output_guard import check_output
    from .predict import STDOUT, count_documents, predict_conll

    _show_pipeline_choice()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if str(input_conll) == "-":
                input_conll = Path(tmp) / "stdin.conll"
                input_conll.write_bytes(sys.stdin.buffer.read())
            if str(output_conll) != STDOUT:
                check_output(output_conll, input_conll)  # before loading the pipeline
            if not count_documents(input_conll):  # E437, also before loading the pipeline
                raise NeuralcorefError(Errors.E437.format(path=input_conll))
            _check_link_options(kb, entities)
            nlp = build_pipeline(model, spacy_model)
            nlp.get_pipe("neuralcoref").check_language = False  # checked on the file's words
            if kb is not None:
                add_linker(nlp, kb)
            _check_language(nlp, input_conll)
            stats = predict_conll(nlp, input_conll, str(output_conll), batch_size=batch_size,
                                  entities_path=entities)
        except (NeuralcorefError, OSError) as err:
            _fail(err)
    # On stdout the CoNLL stays clean: the summary goes to stderr.
    to_stderr = str(output_conll) == STDOUT
    typer.echo(f"Wrote {'standard output' if to_stderr else output_conll}: "
               f"{stats['docs']} documents, {stats['tokens']} tokens, {stats['clusters']} clusters.",
               err=to_stderr)
    if entities is not None:
        typer.echo(f"Wrote {entities}: the predicted mentions and their entities.", err=to_stderr)


def _check_language(nlp, path: Path) -> None:
    """Warn (W104, W105) when the first words of a CoNLL input are not in the pipeline's language."""
    import itertools

    from ..corpora.conll import read_conll_path
    from ..language_check import SAMPLE_WORDS, warn_if_other_language

    words = itertools.islice((w for doc in read_conll_path(path) for w in doc.words), 2 * SAMPLE_WORDS)
    with _warnings_on_stderr():
        warn_if_other_language(nlp, list(words), f"The text of {path}")


@app.command("mentions")
def mentions_command(
    conll_path: Path = typer.Argument(..., help="CoNLL-2012 file or folder with gold coreference."),
    spacy_model: str = typer.Option(..., "--spacy-model", help="spaCy pipeline to parse with."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
    misses: int = typer.Option(0, "--misses", help="Also print this many missed gold mentions."),
) -> None:
    """Recall and precision of mention extraction against the gold mentions of CONLL_PATH."""
    from ..corpora.mention_eval import evaluate_conll_file
    from ..errors import NeuralcorefError
    from ..pipelines import resolve_pipeline_name

    _show_pipeline_choice()
    try:
        stats = evaluate_conll_file(conll_path, resolve_pipeline_name(spacy_model), max_misses=misses)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(stats.to_json() if as_json else stats.format())
    for miss in stats.misses if not as_json else []:
        typer.echo(f"missed {miss.kind:<8} {miss.doc}: {miss.context}")


@app.command("benchmark")
def benchmark_command(
    conll: Path = typer.Argument(..., help="CoNLL file whose documents make the texts."),
    spacy_model: Optional[str] = typer.Option(None, help=PIPELINE_HELP),
    model: Optional[str] = typer.Option(None, help=MODEL_HELP),
    repeats: int = typer.Option(1, help="Passes over the texts per stage."),
    threads: int = typer.Option(1, help="BLAS threads (1: one core; 0: the library default)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Time spaCy, the coref step and the whole pipeline (tokens/s, docs/s, peak RSS)."""
    import json

    from ..api import model_pipeline
    from ..errors import NeuralcorefError
    from .benchmark import run_benchmark

    _show_pipeline_choice()
    try:
        nlp = model_pipeline(model, spacy_model)
        report = run_benchmark(nlp, str(conll), model=model, repeats=repeats, threads=threads or None)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(json.dumps(report.to_dict(), indent=2) if as_json else report.format())


def _server_limits():
    from .server_limits import ServerLimits

    return ServerLimits()


#: The REST server's default limits (docs/serving.md), shown by serve --help.
_LIMITS = _server_limits()


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    model: Optional[str] = typer.Option(None, help=MODEL_HELP),
    spacy_model: Optional[str] = typer.Option(None, help=PIPELINE_HELP),
    max_body_bytes: int = typer.Option(_LIMITS.max_body_bytes, help="Largest request body; larger ones get 413."),
    batch_size: int = typer.Option(32, help="Texts per nlp.pipe batch."),
    workers: int = typer.Option(2, help="Worker processes, each resolving a batch of requests at a time."),
    max_text_chars: int = typer.Option(_LIMITS.max_text_chars, help="Largest text in characters; 413 beyond."),
    max_texts: int = typer.Option(_LIMITS.max_texts, help="Most texts per request; 413 beyond."),
    max_tokens: int = typer.Option(_LIMITS.max_tokens, help="Most tokens per request; 413 beyond."),
    max_response_bytes: int = typer.Option(_LIMITS.max_response_bytes, help="Largest response; 413 beyond."),
    timeout: float = typer.Option(_LIMITS.timeout, help="Seconds a worker may spend on a request; 422 beyond."),
    header_timeout: float = typer.Option(
        _LIMITS.header_timeout, help="Seconds to send a request's headers; 408 beyond."),
    body_timeout: float = typer.Option(_LIMITS.body_timeout, help="Seconds to send a request's body; 408 beyond."),
    max_waiting: int = typer.Option(_LIMITS.max_waiting, help="Requests that may wait for a worker; 503 beyond."),
    worker_memory_mb: Optional[int] = typer.Option(
        None, help="MB a worker may allocate beyond its pipeline (Linux); 422 beyond. Default: no limit."),
    max_connections: int = typer.Option(
        _LIMITS.max_connections, help="Open connections; beyond, an idle one is closed, else 503."),
    max_client_connections: int = typer.Option(
        _LIMITS.max_client_connections, help="Open connections per client address; 503 beyond."),
    idle_timeout: float = typer.Option(
        _LIMITS.idle_timeout, help="Seconds a connection may stay open without sending a byte."),
    max_tokenizer_cost: int = typer.Option(
        _LIMITS.max_tokenizer_cost, help="Tokenizer cost of a request (runs without a space); 422 beyond."),
    heavy_tokens: int = typer.Option(
        _LIMITS.heavy_tokens, help="Tokens above which a request is large (on at most workers-1 workers)."),
    health_details: bool = typer.Option(
        False, help="GET /health also reports versions, limits and workers (keep off on a public port)."),
    kb: Optional[str] = typer.Option(None, "--kb", help=KB_HELP),
) -> None:
    """Serve POST /resolve and GET /health over HTTP (FastAPI + uvicorn)."""
    from ..errors import NeuralcorefError
    from .server import serve

    _show_pipeline_choice()
    try:
        serve(host, port, model=model, spacy_model=spacy_model, batch_size=batch_size,
              workers=workers, max_body_bytes=max_body_bytes, max_text_chars=max_text_chars,
              max_texts=max_texts, max_tokens=max_tokens, max_response_bytes=max_response_bytes,
              timeout=timeout, header_timeout=header_timeout, body_timeout=body_timeout,
              max_waiting=max_waiting, worker_memory_mb=worker_memory_mb,
              max_connections=max_connections, max_client_connections=max_client_connections,
              idle_timeout=idle_timeout, max_tokenizer_cost=max_tokenizer_cost,
              heavy_tokens=heavy_tokens, health_details=health_details, kb=kb)
    except (NeuralcorefError, OSError) as err:
        _fail(err)


@app.command("batch")
def batch_command(
    input_path: Path = typer.Option(
        ..., "--input", help="JSONL file (one JSON object per line), folder of .txt files (one document "
                             "each, in file-name order), or one .txt file (one document)."),
    output_path: Path = typer.Option(..., "--output", help="JSONL file to write (appended to: re-running resumes)."),
    text_field: str = typer.Option("text", help="Field of each object holding the text."),
    model: Optional[str] = typer.Option(None, help=MODEL_HELP),
    spacy_model: Optional[str] = typer.Option(None, help=PIPELINE_HELP),
    n_process: int = typer.Option(1, help="Worker processes (they die with the run, even after kill -9)."),
    batch_size: int = typer.Option(64, help="Records per batch (written and flushed together)."),
    strict: bool = typer.Option(
        False, "--strict", help="Stop at the first bad record instead of writing an error record."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    kb: Optional[str] = typer.Option(None, "--kb", help=KB_HELP),
    record_timeout: float = typer.Option(
        60.0, help="Seconds the pipeline may take on one record per 100,000 characters of its text "
                   "(at least this); a slower record becomes an error record (E434). 0: no deadline."),
) -> None:
    """Resolve coreference in every record of a JSONL file or folder of texts, resumably.

    Exit status: 0 when every record is resolved; 2 when the run finished but the
    output holds error records ("coref": null, "coref_error": "[Ennn] ..."); 1
    when the run failed (bad input or output, or with --strict the first bad
    record); 130 (Ctrl-C) or 143 (SIGTERM) when interrupted, the complete lines
    kept: run the same command again to resume.
    """
    from ..errors import NeuralcorefError
    from .batch import BatchStats, resolve_jsonl
    from .workers import Terminated

    _show_pipeline_choice()
    stats = BatchStats()
    try:
        resolve_jsonl(input_path, output_path, text_field=text_field, model=model,
                      spacy_model=spacy_model, n_process=n_process, batch_size=batch_size,
                      strict=strict, progress=progress, stats=stats, kb=kb,
                      record_timeout=record_timeout)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    except (KeyboardInterrupt, Terminated) as stop:  # Ctrl-C, or SIGTERM (SystemExit(143))
        code = stop.code if isinstance(stop, Terminated) else 130
        done = stats.skipped + stats.written
        typer.echo(f"Interrupted: {output_path} has {done} of {stats.total} records "
                   f"({stats.written} written by this run); run the same command again to resume.",
                   err=True)
        raise typer.Exit(code=code)
    typer.echo(f"Wrote {output_path}: {stats.written} new lines ({stats.errors} error records), "
               f"{stats.skipped} already done, {stats.total} in all.", err=True)
    if stats.all_errors:
        typer.echo(f"{stats.all_errors} records of {output_path} are error records: each says why in "
                   "its \"coref_error\" field (grep coref_error); exit status 2.", err=True)
        raise typer.Exit(code=2)


@app.command("evaluate-board")
def evaluate_board_command(
    model: str = typer.Option("en", help="English model (shipped name or folder)."),
    fr_model: str = typer.Option("fr", "--fr-model", help="French model (shipped name or folder)."),
    data: Optional[Path] = typer.Option(
        None, help="Dev data folder (default: shared/data beside the checkout, else $NEURALCOREF_DATA)."),
    only: Optional[str] = typer.Option(
        None, help="Comma-separated rows: ontogum, litbank, fr-litbank, democrat, gap, winobias, challenge, speed, folds."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write every figure to this JSON file."),
    spacy_model: Optional[str] = typer.Option(None, help="English spaCy pipeline (default: the model's own)."),
    fr_spacy_model: Optional[str] = typer.Option(None, help="French spaCy pipeline (default: the model's own)."),
    folds: Optional[Path] = typer.Option(
        None, help="The fold board's results: a 'neuralcoref folds --out' folder or their parent (default: runs/folds)."),
) -> None:
    """Print the dev board: CoNLL F1, GAP, WinoBias, challenge set and speed in one table."""
    import json

    from ..errors import NeuralcorefError
    from .board import find_data_dir, parse_only, run_board

    try:
        rows = parse_only(only)
        board = run_board(find_data_dir(data), rows, model=model, fr_model=fr_model,
                          spacy_model=spacy_model, fr_spacy_model=fr_spacy_model,
                          **({"folds_dir": folds} if folds is not None else {}))
        if json_out is not None:
            json_out.write_text(json.dumps(board.figures, indent=2), encoding="utf8")
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(board.format())
    typer.echo(f"\n{board.figures['meta']['wall_s']:.0f} s in all", err=True)
#: The commands in the order of ``neuralcoref --help`` (the kb group comes after them).
COMMAND_ORDER = ("evaluate", "resolve", "predict", "train", "pretrain", "export", "mentions", "gap-to-conll",
                 "ensemble", "tune", "benchmark", "serve", "batch", "evaluate-board", "evaluate-links", "folds")


def _register_commands() -> None:
    """Put the command modules' commands on the app, all in COMMAND_ORDER."""
    infos = {info.name: info for info in app.registered_commands}
    for module in (cli_training, cli_links):
        infos.update((info.name, info) for info in module.commands.registered_commands)
    assert set(infos) == set(COMMAND_ORDER), sorted(set(infos) ^ set(COMMAND_ORDER))
    app.registered_commands[:] = [infos[name] for name in COMMAND_ORDER]
    app.add_typer(cli_links.kb_app, name="kb")


_register_commands()


def build_command():
    """The click command of the CLI, with readable help (see cli_help.make_readable)."""
    from .cli_help import make_readable

    command = typer.main.get_command(app)
    make_readable(command)
    return command


def main() -> None:
    """Entry point of the console script and of ``python -m neuralcoref``."""
    build_command()()
