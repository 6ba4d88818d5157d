"""The ``neuralcoref`` command line: thin Typer commands over importable functions."""
from __future__ import annotations

import typer

app = typer.Typer(
    name="neuralcoref",
    help="Coreference resolution for spaCy: resolve, predict, evaluate, train, benchmark.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Coreference resolution for spaCy."""


def main() -> None:
    """Entry point of the console script and of ``python -m neuralcoref``."""
    app()
