"""The documented first examples run as written: docs/training.md's first run on the
bundled sample, and docs/languages.md's recipe for a new language."""
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from typer.testing import CliRunner  # noqa: E402

from neuralcoref.apps.cli import app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: One short epoch per phase, for the fast variants of the documented commands.
TINY = {"single_hidden": [16], "pair_hidden": [16, 8], "embedding_dim": 4, "use_vectors": False,
        "phases": [{"loss": "softmax", "max_epochs": 1, "patience": 1, "lr": 0.002}],
        "tune_link_offsets": False}


def documented_commands(doc: str, heading: str) -> List[List[str]]:
    """The ``neuralcoref`` commands of the first bash block under ``heading`` in
    ``docs/<doc>``, continuation lines joined, each split into words."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf8")
    section = text.split(heading + "\n", 1)[1]
    block = re.search(r"```bash\n(.*?)\n```", section, re.S).group(1).replace("\\\n", " ")
    return [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("neuralcoref ")]


def in_folder(args: List[str], out: Path) -> List[str]:
    """Outputs written under runs/ go to ``out`` instead."""
    return [str(out / a[len("runs/"):]) if a.startswith("runs/") else a for a in args]


def run_cli(args: List[str]):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, f"neuralcoref {' '.join(args)}:\n{result.output}"
    return result


def test_first_examples_training_first_run(tmp_path, monkeypatch):
    # The documented commands, from the repository's root, with one tiny epoch
    # instead of the quick recipe.
    monkeypatch.chdir(ROOT)
    (tmp_path / "tiny.json").write_text(json.dumps(TINY))
    commands = documented_commands("training.md", "## A first run")
    assert [c[0] for c in commands] == ["train", "predict", "evaluate"]
    train, predict, evaluate = (in_folder(c, tmp_path) for c in commands)
    train[train.index("--config") + 1] = str(tmp_path / "tiny.json")
    with pytest.warns(UserWarning, match=r"\[W116\].* 24 gold links"):
        run_cli(train)
    assert (tmp_path / "first" / "model" / "config.json").is_file()
    run_cli(predict)
    assert "CoNLL F1" in run_cli(evaluate).output


@pytest.mark.slow
def test_first_examples_training_first_run_as_documented(tmp_path):
    # Word for word (the quick recipe: about 30 s on one core), in a fresh process.
    outputs = []
    for args in documented_commands("training.md", "## A first run"):
        out = subprocess.run([sys.executable, "-m", "neuralcoref", *in_folder(args, tmp_path)],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stdout + out.stderr
        outputs.append(out)
    assert "[W116]" in outputs[0].stderr and "[W117]" in outputs[0].stderr
    assert "CoNLL F1" in outputs[-1].stdout
