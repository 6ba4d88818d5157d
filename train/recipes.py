"""Training recipes: the JSON files of ``configs/``, found by name.

The folder is the repository's top-level ``configs/`` in a source checkout, and
``neuralcoref/configs/`` in an installed package (setup.py maps it there, next
to ``neuralcoref/train/``): in both layouts it is this module's grandparent's
``configs`` folder.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Union

from neuralcoref.errors import Errors, NeuralcorefError

RECIPES_DIR = Path(__file__).resolve().parent.parent / "configs"
#: A recipe's free-text note: shown by the listing, not a training setting.
DESCRIPTION = "description"


def recipe_names() -> List[str]:
    """The names of the shipped recipes ("en", "fr", "quick", ...), sorted."""
    return sorted(p.stem for p in RECIPES_DIR.glob("*.json"))


def is_recipe_name(value: Union[str, Path]) -> bool:
    """Whether ``value`` reads as a recipe name rather than a file path: no folder
    part and no ``.json`` suffix."""
    text = str(value)
    return bool(text) and "/" not in text and "\\" not in text and not text.endswith(".json")


def find_recipe(name: str) -> Path:
    """The file of the recipe ``name``.

    RETURNS (Path): ``configs/<name>.json``.
    RAISES (NeuralcorefError): E215 listing the recipes when there is none by that name.
    """
    path = RECIPES_DIR / f"{name}.json"
    if not path.is_file():
        raise NeuralcorefError(Errors.E215.format(name=name, known=", ".join(recipe_names()) or "none",
                                                  folder=RECIPES_DIR))
    return path


def read_settings(path: Union[str, Path]) -> Dict:
    """The settings of a recipe or settings file, without its description.

    RAISES (NeuralcorefError): E203 when the file cannot be read or is not a JSON object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf8"))
    except (OSError, ValueError) as err:
        raise NeuralcorefError(Errors.E203.format(path=path, error=err)) from err
    if not isinstance(data, dict):
        raise NeuralcorefError(Errors.E203.format(path=path, error="not a JSON object"))
    data.pop(DESCRIPTION, None)
    return data

