"""PyTorch is optional for the tests: the README's test command installs its CPU
build, and without it the training tests skip with a note, never silently."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPU_INDEX = "--extra-index-url https://download.pytorch.org/whl/cpu"


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", setup, re.S)
    assert len(commands) == 2, commands  # install and run; run the tests
    return commands[1]


def test_torch_optional_test_command_installs_cpu_torch_in_readme_and_ci():
    command = readme_test_command()
    assert command.startswith('pip install -e ".[test]"') and CPU_INDEX in command
    assert command.endswith("&& python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf8")
    assert command + "\n" in ci


def test_torch_optional_only_a_missing_torch_skips():
    # A torch that is installed but fails to import (a broken wheel, a missing
    # library) must fail the run, not skip the training tests as if it were absent.
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for line in path.read_text(encoding="utf8").splitlines():
            if re.search(r"importorskip\(\s*[\"']torch[\"']", line):
                assert "exc_type=ModuleNotFoundError" in line, f"{path.name}: {line}"
            assert not re.match(r"\s*(import torch|from torch)", line) or path.parent.name == "train", \
                f"{path.name} imports torch outside tests/train/: {line}"


def test_torch_optional_missing_torch_skips_with_a_note():
    # torch made unimportable in a child pytest (None in sys.modules: ModuleNotFoundError).
    script = ("import sys, pytest; sys.modules['torch'] = None; "
              "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', 'tests/train/test_recipes.py']))")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    # 5: pytest ran no test, the one module being skipped (a whole suite exits 0).
    assert out.returncode == 5, out.stdout + out.stderr
    assert "1 skipped" in out.stdout
    assert "1 training test module skipped: PyTorch is not installed" in out.stdout
    assert CPU_INDEX in out.stdout
