"""docs/architecture.md names every module of the package and of train/."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules():
    for folder in (ROOT / "neuralcoref", ROOT / "train"):
        for path in folder.rglob("*.py"):
            if path.name in ("__init__.py", "__main__.py") or "models" in path.parts or "kbs" in path.parts:
                continue
            yield path
        yield from folder.rglob("*.pyx")


def test_architecture_page_names_every_module():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf8")
    missing = sorted(str(p.relative_to(ROOT)) for p in _modules() if f"`{p.name}`" not in page)
    assert not missing, f"docs/architecture.md does not name: {missing}"


def test_architecture_page_indexes_every_experiment():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf8")
    records = sorted((ROOT / "docs" / "experiments").glob("*.md"))
    missing = [p.name for p in records if f"experiments/{p.name}" not in page]
    assert not missing, f"docs/architecture.md does not index: {missing}"
