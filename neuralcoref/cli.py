"""The ``neuralcoref`` command line: thin Typer commands over importable functions."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(
    name="neuralcoref",
    help="Coreference resolution for spaCy: resolve, predict, evaluate, train, ensemble, tune, benchmark, serve, batch.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Coreference resolution for spaCy."""


@app.command("evaluate")
def evaluate_command(
    key: Path = typer.Argument(..., help="Gold CoNLL-2012 file (or folder of files)."),
    response: Path = typer.Argument(..., help="System CoNLL-2012 file (or folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the scores as one JSON object."),
    no_singletons: bool = typer.Option(
        False, "--no-singletons", help="Drop one-mention clusters from key and response."),
) -> None:
    """Score RESPONSE against KEY: MUC, B-cubed, CEAF, BLANC, LEA, CoNLL F1."""
    import json

    from .coref_scorer import score_files
    from .errors import NeuralcorefError

    try:
        scores = score_files(key, response, keep_singletons=not no_singletons)
    except (NeuralcorefError, OSError) as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(code=1)
    typer.echo(json.dumps(scores.to_dict()) if as_json else scores.format_table())


def _fail(err: Exception) -> None:
    typer.echo(str(err), err=True)
    raise typer.Exit(code=1)


@app.command("resolve")
def resolve_command(
    text: Optional[str] = typer.Argument(None, help="The text to resolve."),
    file: Optional[Path] = typer.Option(None, "--file", "-f", help="Read the text from a file."),
    as_json: bool = typer.Option(False, "--json", help="Clusters as character offsets and strings."),
    model: Optional[str] = typer.Option(None, help="Shipped model name or model folder."),
    spacy_model: Optional[str] = typer.Option(None, help="spaCy pipeline (default: en_core_web_sm)."),
    greedyness: float = typer.Option(0.5, help="0-1: higher links more."),
    html: Optional[Path] = typer.Option(
        None, "--html", help="Also write the clusters as a self-contained HTML page to this file."),
) -> None:
    """Resolve coreference in TEXT (or --file) and print clusters and resolved text."""
    import json

    from .api import Coref
    from .errors import Errors, NeuralcorefError

    if (text is None) == (file is None):
        _fail(typer.BadParameter("give either TEXT or --file"))
    try:
        content = text if file is None else file.read_text(encoding="utf8")
        result = Coref(model=model, spacy_model=spacy_model, greedyness=greedyness).predict(content)[0]
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
        typer.echo(f"{cluster.main.text}: {[m.text for m in cluster.mentions]}")
    typer.echo(f"\n{result.resolved}")


@app.command("predict")
def predict_command(
    input_conll: Path = typer.Argument(..., help="CoNLL-2012 file or folder (gold tokens)."),
    output_conll: Path = typer.Argument(..., help="CoNLL file to write with predicted coreference."),
    model: Optional[str] = typer.Option(None, help="Shipped model name or model folder."),
    spacy_model: Optional[str] = typer.Option(None, help="spaCy pipeline (default: en_core_web_sm)."),
    batch_size: int = typer.Option(16, help="Documents per batch."),
) -> None:
    """Predict coreference for every document of INPUT_CONLL, writing OUTPUT_CONLL."""
    from .api import add_neuralcoref, load_spacy
    from .errors import NeuralcorefError
    from .predict import predict_conll

    try:
        nlp = add_neuralcoref(load_spacy(spacy_model), model=model)
        stats = predict_conll(nlp, input_conll, output_conll, batch_size=batch_size)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Wrote {output_conll}: {stats['docs']} documents, {stats['tokens']} tokens, "
               f"{stats['clusters']} clusters.")


@app.command("train")
def train_command(
    train: Path = typer.Option(..., "--train", help="Training CoNLL file or folder."),
    dev: Path = typer.Option(..., "--dev", help="Dev CoNLL file or folder (early stopping)."),
    spacy_model: str = typer.Option(..., "--spacy-model", help="spaCy pipeline to parse with."),
    out: Path = typer.Option(..., "--out", help="Output folder (model in OUT/model)."),
    device: str = typer.Option("cpu", help="cpu or cuda."),
    config: Optional[str] = typer.Option(
        None, help="Training recipe: a name (en, fr, quick...: the JSON files of configs/) or a JSON file."),
    resume: bool = typer.Option(False, "--resume", help="Continue from OUT/checkpoint.json."),
    cache_dir: Optional[Path] = typer.Option(None, help="Featurized data cache (default OUT/cache)."),
    seed: Optional[int] = typer.Option(
        None, help="Random seed, overriding the config's (train members of an ensemble with different seeds)."),
    threads: int = typer.Option(
        0, min=0, help="CPU threads for PyTorch (0: its default, every core); 1 per run when runs share "
                       "a machine, since oversubscribed cores slowed two runs on two cores fourfold."),
) -> None:
    """Train a model on CoNLL-2012 data and export it to OUT/model.

    Ctrl-C (SIGINT) or SIGTERM: finish the batch, export the best model so far
    (marked interrupted), exit 130/143; a second Ctrl-C aborts at once.
    """
    import logging

    from .errors import NeuralcorefError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        from .train import TrainingInterrupted, load_config, train as run_training

        if threads:
            import torch
            torch.set_num_threads(threads)
        settings = load_config(config)
        if seed is not None:
            settings.seed = seed
        path = run_training(train, dev, spacy_model, out, device=device, config=settings,
                            resume=resume, cache_dir=cache_dir)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    except TrainingInterrupted as stop:
        _stopped(stop)
    except KeyboardInterrupt:  # while featurizing, or exporting after the last epoch
        typer.echo(f"Aborted: no model written; once an epoch has ended, 'neuralcoref export {out}' "
                   "exports the run's best checkpoint", err=True)
        raise typer.Exit(code=130)
    typer.echo(f"Model written to {path}")


def _stopped(stop) -> None:
    """Report a training run stopped by a signal and exit with 128 + its number."""
    if stop.model_path is not None:
        typer.echo(f"Interrupted ({stop}): best model so far written to {stop.model_path}", err=True)
    else:
        typer.echo(f"Aborted ({stop}): no model written; 'neuralcoref export' exports the last "
                   "checkpoint", err=True)
    raise typer.Exit(code=stop.exit_code)


@app.command("export")
def export_command(
    run_dir: Path = typer.Argument(..., help="Output folder of a training run (--out of train)."),
) -> None:
    """Export the best checkpoint of a training run (finished, interrupted or killed) to RUN_DIR/model."""
    import logging

    from .errors import NeuralcorefError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        from .train import export_run

        path = export_run(run_dir)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Model written to {path}")


@app.command("mentions")
def mentions_command(
    conll_path: Path = typer.Argument(..., help="CoNLL-2012 file or folder with gold coreference."),
    spacy_model: str = typer.Option(..., "--spacy-model", help="spaCy pipeline to parse with."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
    misses: int = typer.Option(0, "--misses", help="Also print this many missed gold mentions."),
) -> None:
    """Recall and precision of mention extraction against the gold mentions of CONLL_PATH."""
    from .errors import NeuralcorefError
    from .mention_eval import evaluate_conll_file

    try:
        stats = evaluate_conll_file(conll_path, spacy_model, max_misses=misses)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(stats.to_json() if as_json else stats.format())
    for miss in stats.misses if not as_json else []:
        typer.echo(f"missed {miss.kind:<8} {miss.doc}: {miss.context}")

@app.command("ensemble")
def ensemble_command(
    models: list[Path] = typer.Argument(..., help="Two or more model folders to merge."),
    out: Path = typer.Option(..., "--out", help="Folder of the merged model."),
    greedyness: float = typer.Option(
        0.5, min=0.0, max=1.0, help="Link threshold folded into the merged model (0.5: the members' mean as is)."),
    top_antecedents: int = typer.Option(
        0, min=0, help="Coarse-to-fine: all members score only the k best candidates of each mention by "
                       "the first model's scores (0: every candidate)."),
) -> None:
    """Merge trained models into one model folder that scores their mean."""
    from .ensemble import save_ensemble
    from .errors import NeuralcorefError

    try:
        path = save_ensemble(models, out, greedyness, top_antecedents)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Ensemble of {len(models)} models written to {path}")


@app.command("tune")
def tune_command(
    model: str = typer.Argument(..., help="Shipped model name or model folder."),
    dev: Path = typer.Argument(..., help="Gold dev CoNLL-2012 file or folder."),
    out: Path = typer.Option(..., "--out", help="New folder for the tuned copy of the model."),
    spacy_model: Optional[str] = typer.Option(
        None, help="spaCy pipeline (default: the model's own if installed, else the language's)."),
    no_singletons: bool = typer.Option(
        False, "--no-singletons", help="Tune for scores without one-mention clusters."),
) -> None:
    """Fit one link threshold offset per mention type on DEV; write the tuned model to OUT."""
    from .api import load_spacy
    from .errors import NeuralcorefError
    from .model_dir import read_config, resolve_model_path
    from .tuning import format_result, tune_model

    try:
        path = resolve_model_path(model, "en")
        config = read_config(path)
        # The model's own pipeline first: another one's vectors would tune it wrong.
        nlp = load_spacy(spacy_model, lang=config.lang, prefer=config.spacy_package)
        result = tune_model(nlp, path, dev, out, keep_singletons=not no_singletons)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(format_result(result))
    typer.echo(f"Tuned model written to {out}")


@app.command("benchmark")
def benchmark_command(
    conll: Path = typer.Argument(..., help="CoNLL file whose documents make the texts."),
    spacy_model: Optional[str] = typer.Option(None, help="spaCy pipeline (default: en_core_web_sm)."),
    model: Optional[str] = typer.Option(None, help="Shipped model name or model folder."),
    repeats: int = typer.Option(1, help="Passes over the texts per stage."),
    threads: int = typer.Option(1, help="BLAS threads (1: one core; 0: the library default)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Time spaCy, the coref step and the whole pipeline (tokens/s, docs/s, peak RSS)."""
    import json

    from .api import load_spacy
    from .benchmark import run_benchmark
    from .errors import NeuralcorefError

    try:
        nlp = load_spacy(spacy_model)
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
    model: Optional[str] = typer.Option(None, help="Shipped model name or model folder."),
    spacy_model: Optional[str] = typer.Option(None, help="spaCy pipeline (default: en_core_web_sm)."),
    max_body_bytes: int = typer.Option(_LIMITS.max_body_bytes, help="Largest request body; larger ones get 413."),
    batch_size: int = typer.Option(32, help="Texts per nlp.pipe batch."),
    workers: int = typer.Option(2, help="Worker processes, each resolving one request at a time."),
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
    max_connections: int = typer.Option(_LIMITS.max_connections, help="Open connections; 503 beyond."),
) -> None:
    """Serve POST /resolve and GET /health over HTTP (FastAPI + uvicorn)."""
    from .errors import NeuralcorefError
    from .server import serve

    try:
        serve(host, port, model=model, spacy_model=spacy_model, batch_size=batch_size,
              workers=workers, max_body_bytes=max_body_bytes, max_text_chars=max_text_chars,
              max_texts=max_texts, max_tokens=max_tokens, max_response_bytes=max_response_bytes,
              timeout=timeout, header_timeout=header_timeout, body_timeout=body_timeout,
              max_waiting=max_waiting, worker_memory_mb=worker_memory_mb,
              max_connections=max_connections)
    except (NeuralcorefError, OSError) as err:
        _fail(err)


@app.command("batch")
def batch_command(
    input_path: Path = typer.Option(..., "--input", help="JSONL file: one JSON object per line."),
    output_path: Path = typer.Option(..., "--output", help="JSONL file to write (appended to: re-running resumes)."),
    text_field: str = typer.Option("text", help="Field of each object holding the text."),
    model: Optional[str] = typer.Option(None, help="Shipped model name or model folder."),
    spacy_model: Optional[str] = typer.Option(None, help="spaCy pipeline (default: en_core_web_sm)."),
    n_process: int = typer.Option(1, help="Processes for nlp.pipe."),
    batch_size: int = typer.Option(64, help="Lines per batch (written and flushed together)."),
    strict: bool = typer.Option(
        False, "--strict", help="Stop at the first bad line instead of writing an error record."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Resolve coreference in every line of a JSONL file, resumably."""
    from .batch import resolve_jsonl
    from .errors import NeuralcorefError

    try:
        stats = resolve_jsonl(input_path, output_path, text_field=text_field, model=model,
                              spacy_model=spacy_model, n_process=n_process,
                              batch_size=batch_size, strict=strict, progress=progress)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Wrote {output_path}: {stats.written} new lines ({stats.errors} error records), "
               f"{stats.skipped} already done, {stats.total} in all.", err=True)


@app.command("evaluate-board")
def evaluate_board_command(
    model: str = typer.Option("en", help="English model (shipped name or folder)."),
    fr_model: str = typer.Option("fr", "--fr-model", help="French model (shipped name or folder)."),
    data: Optional[Path] = typer.Option(
        None, help="Dev data folder (default: shared/data beside the checkout, else $NEURALCOREF_DATA)."),
    only: Optional[str] = typer.Option(
        None, help="Comma-separated rows: ontogum, litbank, fr-litbank, gap, winobias, challenge, speed."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write every figure to this JSON file."),
    spacy_model: Optional[str] = typer.Option(None, help="English spaCy pipeline (default: the model's own)."),
    fr_spacy_model: Optional[str] = typer.Option(None, help="French spaCy pipeline (default: the model's own)."),
) -> None:
    """Print the dev board: CoNLL F1, GAP, WinoBias, challenge set and speed in one table."""
    import json

    from .board import find_data_dir, parse_only, run_board
    from .errors import NeuralcorefError

    try:
        rows = parse_only(only)
        board = run_board(find_data_dir(data), rows, model=model, fr_model=fr_model,
                          spacy_model=spacy_model, fr_spacy_model=fr_spacy_model)
        if json_out is not None:
            json_out.write_text(json.dumps(board.figures, indent=2), encoding="utf8")
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(board.format())
    typer.echo(f"\n{board.figures['meta']['wall_s']:.0f} s in all", err=True)


def main() -> None:
    """Entry point of the console script and of ``python -m neuralcoref``."""
    app()
