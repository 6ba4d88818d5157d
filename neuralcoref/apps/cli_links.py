"""Knowledge bases and entity linking (issue 54): kb build, evaluate-links and
the check of the linking options (cli.py registers them on the app)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .cli_common import _fail

#: The commands of this module, registered on ``cli.app`` in the help's order.
commands = typer.Typer()


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


@commands.command("evaluate-links")
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
