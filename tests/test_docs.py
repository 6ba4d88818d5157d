"""Documentation kept as data: the generated model table and cards match their
sources, and nothing the package ships names a machine's paths."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MACHINE_PATH = re.compile(r"(/work/|/home/|/Users/|/tmp/|/root/|[A-Z]:\\\\)")
TEXT_SUFFIXES = {".py", ".pyx", ".pyi", ".md", ".json", ".txt", ".cfg"}


def test_generated_docs_match_metrics_and_configs():
    result = subprocess.run([sys.executable, str(ROOT / "docs" / "generate.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"run `python docs/generate.py`: {result.stdout}{result.stderr}"


def test_generator_notices_a_stale_card(monkeypatch):
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    card = generate.model_card(generate.load("en_fast"))
    assert "## Dev scores" in card and "OntoGUM dev" in card
    metrics = generate.load("en_fast")
    metrics["dev"][0]["scores"] = dict(metrics["dev"][0]["scores"], conll_f1=1.0)
    assert generate.model_card(metrics) != card


def test_no_machine_paths_in_the_package():
    offenders = [f"{path.relative_to(ROOT)}:{n}"
                 for path in (ROOT / "neuralcoref").rglob("*") if path.suffix in TEXT_SUFFIXES
                 for n, line in enumerate(path.read_text(encoding="utf8", errors="replace").splitlines(), 1)
                 if MACHINE_PATH.search(line)]
    assert not offenders, offenders
