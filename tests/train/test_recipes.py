"""The README's training recipes give the settings the shipped models record."""
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("torch")

from neuralcoref.train import TrainConfig  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "neuralcoref" / "models"


def card_settings(model: str, member: int = 0) -> dict:
    """The training settings a shipped model's card records (a merged model
    lists its members in order)."""
    card = (MODELS / model / "model_card.md").read_text(encoding="utf8")
    blocks = re.findall(r"##+ Settings\s+```json\n(.*?)```", card, re.S)
    return json.loads(blocks[member])


def readme_french_recipe() -> dict:
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    found = re.search(r"with `fr.json` = `(\{.*?\})`", readme, re.S)
    assert found, "the README gives the French recipe as fr.json"
    return json.loads(found.group(1))


def recorded(config: TrainConfig, card: dict) -> dict:
    # Settings added after the model was trained are not in its card.
    mine = config.to_dict()
    mine["phases"] = [{k: v for k, v in p.items() if k in card["phases"][i]}
                      for i, p in enumerate(mine["phases"])]
    return {k: mine[k] for k in card}


@pytest.mark.parametrize("model,member,changes", [
    ("fr", 0, {"vector_dropout": 0.3, "seed": 0}),  # fr_vd.json
    ("fr", 1, {"seed": 1}),
    ("fr_sm", 0, {"word_dropout": 0.0, "seed": 0}),  # fr.json less word dropout
    ("fr_sm", 1, {"word_dropout": 0.0, "seed": 1}),
])
def test_recipes_readme_french_config_is_the_shipped_french_models(model, member, changes):
    card = card_settings(model, member)
    config = TrainConfig.from_dict({**readme_french_recipe(), **changes})
    config.drop_singletons = card["drop_singletons"]  # detected from the data
    assert recorded(config, card) == card


def test_recipes_training_defaults_are_the_shipped_english_members():
    for model in ("en_fast", "en"):
        card = card_settings(model)
        assert recorded(TrainConfig(seed=card["seed"], drop_singletons=card["drop_singletons"]),
                        card) == card
