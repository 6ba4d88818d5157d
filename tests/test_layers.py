"""The package's layers and their import rules, read from the source with ``ast``
(nothing is imported, so a rule broken inside a function is seen too).

    neuralcoref/core/       the runtime: mentions, features, pairs, scoring, decoding, resolver
    neuralcoref/artifacts/  model folders, ensembles, tuning
    neuralcoref/corpora/    CoNLL, gold Docs, coreference and mention scorers, GAP
    neuralcoref/apps/       CLI, server, batch, HTML view, board, predict, benchmark
    neuralcoref/lang/       language rules and data
    neuralcoref/*.py        the spaCy glue (component, extensions, api...) and the
                            re-exports of the documented public modules
    train/                  training (installed as neuralcoref.train)
"""
import ast
from pathlib import Path
from typing import Dict, Iterable, List, NamedTuple, Set

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "neuralcoref"

#: Modules of the package root: the spaCy glue and the public entry points (at
#: most 12, issue 59). A new module belongs in one of the subpackages
#: (apps, corpora, core, lang, artifacts...).
ROOT_MODULES = {
    "__init__", "__main__", "about", "api", "component", "errors", "extensions", "language_check",
    "pipelines", "resolved", "validation", "linker",
}
#: The stages of core/, in the order of the data flow (issue 59): a module of a
#: stage imports only modules of its own stage, of the stages before it, and the
#: Cython kernels that lie in core/ itself; core/'s own modules compose the
#: stages (``prepare_doc``, ``Resolver``).
CORE_STAGES = ("util", "doc", "mentions", "features", "discourse", "scoring", "decode", "linking")
CORE_KERNELS = {"neuralcoref.core._mentions", "neuralcoref.core._features", "neuralcoref.core._scoring"}
CORE_COMPOSITION = {"neuralcoref.core", "neuralcoref.core.prepare", "neuralcoref.core.resolver"}
#: What the core may import from the package besides itself.
CORE_MAY_IMPORT = ("neuralcoref.core", "neuralcoref.lang", "neuralcoref.errors", "neuralcoref.about")
#: The CLI's training commands (apps/cli_training.py) run training: the one place the
#: package imports ``train/``, inside those functions.
TRAIN_IMPORTERS = {"neuralcoref.apps.cli_training"}


class Import(NamedTuple):
    """One imported module (or external top-level package) of a module."""

    target: str
    in_function: bool
    type_checking: bool


def module_name(path: Path) -> str:
    """Dotted name of a source file; ``train/`` is named ``train``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def source_files() -> Dict[str, Path]:
    files = sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.pyx")) + sorted((ROOT / "train").rglob("*.py"))
    return {module_name(p): p for p in files if "models" not in p.relative_to(ROOT).parts}


MODULES = source_files()


def _canonical(name: str) -> str:
    # The package imports train/ as neuralcoref.train (setup.py's package_dir).
    if name == "neuralcoref.train" or name.startswith("neuralcoref.train."):
        return name[len("neuralcoref."):]
    return name


def _known(name: str) -> str:
    """The longest prefix of ``name`` that is a module of ours, else its top-level package."""
    name = _canonical(name)
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in MODULES:
            return ".".join(parts[:i])
    return parts[0]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str) -> List[Import]:
    """Every import of a module, with where it sits (function body, TYPE_CHECKING block)."""
    path = MODULES[module]
    if path.suffix == ".pyx":
        return []  # the kernels cimport libc only (no Python-level imports)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: List[Import] = []

    def visit(node: ast.AST, in_function: bool, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend(Import(_known(a.name), in_function, type_checking) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[:len(package.split(".")) - child.level + 1]
                    base = ".".join(anchor + ([child.module] if child.module else []))
                for alias in child.names:
                    # "from . import _features" imports a module; "from .x import y" a name of x.
                    sub = _canonical(f"{base}.{alias.name}")
                    target = sub if sub in MODULES else _known(base)
                    found.append(Import(target, in_function, type_checking))
            else:
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)),
                      type_checking or (isinstance(child, ast.If) and _is_type_checking(child)))

    visit(ast.parse(path.read_text(encoding="utf8")), False, False)
    return found


IMPORTS = {module: imports_of(module) for module in MODULES}


def layer(module: str) -> str:
    """core, artifacts, corpora, apps, lang, train, or root (the glue)."""
    parts = module.split(".")
    if parts[0] == "train":
        return "train"
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in
                                          ("core", "artifacts", "corpora", "apps", "lang")) else "root"


def modules_in(*layers: str) -> List[str]:
    return [m for m in MODULES if layer(m) in layers]


def offending(modules: Iterable[str], bad) -> List[str]:
    return sorted(f"{m} imports {i.target}" + (" (in a function)" if i.in_function else "")
                  for m in modules for i in IMPORTS[m] if bad(i))


def find_cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components of more than one module (and self-imports):
    each is at least one import cycle. Tarjan's algorithm, iterative."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    cycles: List[List[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    cycles.append(sorted(component))
    return cycles


def import_graph() -> Dict[str, Set[str]]:
    """Module -> the modules of ours it imports, function-level imports included.

    Imports under ``if TYPE_CHECKING:`` are left out: they never run. A module's
    parent package, which Python imports first, is not an edge either: every
    ``__init__`` here imports only what it names, and those imports are edges.
    """
    return {m: {i.target for i in IMPORTS[m] if i.target in MODULES and not i.type_checking}
            for m in MODULES}


def test_layers_the_parser_sees_module_and_function_level_imports():
    resolver = {i.target: i for i in IMPORTS["neuralcoref.core.resolver"]}
    assert not resolver["neuralcoref.core.features.featurize"].in_function
    assert not resolver["neuralcoref.errors"].in_function
    cli = [i for i in IMPORTS["neuralcoref.apps.cli_training"] if i.target == "train"]
    assert cli and all(i.in_function for i in cli)
    assert "neuralcoref.core._features" in {i.target for i in IMPORTS["neuralcoref.core.features.pairs"]}
    assert layer("neuralcoref.core.resolver") == "core" and layer("neuralcoref.component") == "root"
    assert layer("neuralcoref.lang") == "lang" and layer("train.trainer") == "train"


def test_layers_cycle_finder_on_small_graphs():
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"a"}}) == [["a"]]


def test_layers_root_holds_only_the_glue_and_the_entry_points():
    found = {p.stem for p in PACKAGE.glob("*.py")}
    assert found - ROOT_MODULES == set(), "put new modules in core/, artifacts/, corpora/ or apps/"
    assert len(found) <= 12


def test_layers_core_imports_only_core_lang_and_errors():
    def bad(i: Import) -> bool:
        ours = i.target.startswith("neuralcoref") or i.target == "train"
        return (ours and not i.target.startswith(CORE_MAY_IMPORT)) or i.target == "torch"
    assert offending(modules_in("core"), bad) == []


def test_layers_artifacts_and_corpora_import_no_applications():
    def bad_artifacts(i: Import) -> bool:
        return (i.target in MODULES and layer(i.target) in ("apps", "train")) or i.target == "torch"

    def bad_corpora(i: Import) -> bool:
        return (i.target in MODULES and layer(i.target) in ("apps", "artifacts", "train")) or i.target == "torch"
    assert offending(modules_in("artifacts"), bad_artifacts) == []
    assert offending(modules_in("corpora"), bad_corpora) == []


def test_layers_lang_imports_only_lang_core_and_errors():
    def bad(i: Import) -> bool:
        return i.target in MODULES and not i.target.startswith(CORE_MAY_IMPORT)
    assert offending(modules_in("lang"), bad) == []


def test_layers_package_imports_train_only_from_the_cli_training_commands():
    def bad(i: Import) -> bool:
        return i.target in MODULES and layer(i.target) == "train"
    outside_cli = [m for m in MODULES if layer(m) != "train" and m not in TRAIN_IMPORTERS]
    assert offending(outside_cli, bad) == []
    assert offending(TRAIN_IMPORTERS, lambda i: bad(i) and not i.in_function) == []


def test_layers_torch_only_in_train_and_the_cli_training_commands():
    package = [m for m in MODULES if layer(m) != "train" and m not in TRAIN_IMPORTERS]
    assert offending(package, lambda i: i.target == "torch") == []
    assert offending(TRAIN_IMPORTERS, lambda i: i.target == "torch" and not i.in_function) == []


def test_layers_train_imports_the_runtime_not_the_applications():
    # train/__main__.py is `python -m neuralcoref.train`: the CLI's entry point.
    modules = [m for m in modules_in("train") if m != "train.__main__"]
    assert offending(modules, lambda i: i.target in MODULES and layer(i.target) == "apps") == []
    uses = {layer(i.target) for m in modules for i in IMPORTS[m] if i.target in MODULES}
    assert {"core", "artifacts", "corpora"} <= uses


def test_layers_import_neuralcoref_loads_no_application_corpus_or_artifact():
    # What `import neuralcoref` runs: the closure of module-level imports from the root.
    seen, todo = set(), ["neuralcoref"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(i.target for i in IMPORTS.get(module, ())
                    if i.target in MODULES and not i.in_function and not i.type_checking)
    assert {layer(m) for m in seen} <= {"root", "lang", "core"}
    assert "neuralcoref.apps.render" not in seen


def test_layers_no_import_cycles():
    assert find_cycles(import_graph()) == []


@pytest.mark.parametrize("name", ["Coref", "render", "register_extensions"])
def test_layers_public_names_of_the_package_root(name):
    import neuralcoref

    assert callable(getattr(neuralcoref, name))


@pytest.mark.parametrize("module,names", [
    ("apps.batch", ["resolve_jsonl", "resolve_bag", "resolve_jsonl_dask"]),
    ("apps.server", ["create_app"]),
    ("corpora.gap", ["decide", "score_gap"]),
    ("corpora.gold", ["parse_conll_docs"]),
    ("core.doc.speakers", ["set_speakers"]),
    ("apps.records", ["doc_record"]),
], ids=["batch", "server", "gap", "gold", "speakers", "records"])
def test_layers_documented_modules_keep_working(module, names):
    import importlib

    reexport = importlib.import_module(f"neuralcoref.{module}")
    for name in names:
        assert callable(getattr(reexport, name))


def core_stage(module: str) -> str:
    """The stage of a module of core/ ("" for core/'s own modules)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["neuralcoref", "core"] else ""


def test_layers_core_is_stages_the_kernels_and_their_composition():
    core = {m for m in MODULES if layer(m) == "core"}
    assert {core_stage(m) for m in core} == set(CORE_STAGES) | {""}
    assert {m for m in core if not core_stage(m)} == CORE_KERNELS | CORE_COMPOSITION \
        | {f"neuralcoref.core.{stage}" for stage in CORE_STAGES}


def test_layers_core_stages_import_in_the_order_of_the_data_flow():
    bad = []
    for module in modules_in("core"):
        stage = core_stage(module)
        if not stage:
            continue
        for i in IMPORTS[module]:
            if i.target.startswith("neuralcoref.core") and i.target not in CORE_KERNELS:
                target = core_stage(i.target)
                if not target or CORE_STAGES.index(target) > CORE_STAGES.index(stage):
                    bad.append(f"{module} ({stage}) imports {i.target} ({target or 'core/'})")
    assert bad == [], f"a stage imports a later one (order: {' -> '.join(CORE_STAGES)})"


def test_layers_core_stage_order_is_checked():
    # The check reads its order: decoding importing the linker would be caught.
    assert core_stage("neuralcoref.core.decode.decoding") == "decode"
    assert CORE_STAGES.index("linking") > CORE_STAGES.index("decode")
    assert core_stage("neuralcoref.core.resolver") == "" and core_stage("neuralcoref.core.decode") == ""
