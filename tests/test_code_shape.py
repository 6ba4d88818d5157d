"""The shape of the package's code (issue 59): no function takes more than
MAX_PARAMS parameters and no module is longer than MAX_LINES lines, read from
the source with ``ast`` (nothing is imported).

Parameters count positional and keyword-only ones, ``self`` and ``cls`` left
out, and ``*args`` and ``**kwargs`` one each. Two kinds of function are
exempt, because a framework owns their signature: a spaCy factory (one
parameter per config key, which users write in their pipelines' config) and a
Typer command (one parameter per command-line option). The Cython kernels
(``.pyx``) are not read: their parameters are the typed ``const`` memoryviews
the kernel loops over, which a bundle object would have to unpack again at
each call; the Python module in front of each kernel is checked.

WIDE and LONG list allowances (name -> count) for what is over the limits:
empty since issue 59's last ones were fixed. The check fails when a listed one
grows or another appears, and when one is fixed without its entry going, so
that the lists only shrink.
"""
import ast
from pathlib import Path
from typing import Dict, Iterator, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "neuralcoref"
MAX_PARAMS = 8
MAX_LINES = 700
#: Functions over MAX_PARAMS, to be given settings objects (qualified name -> count).
WIDE: Dict[str, int] = {}
#: Modules over MAX_LINES (module -> lines).
LONG: Dict[str, int] = {}
#: Decorators that make a function's signature a framework's: spaCy factories
#: and registered functions (config keys), Typer commands (options).
FRAMEWORK_DECORATORS = ("factory", "command", "callback")


def package_modules() -> Iterator[Tuple[str, Path]]:
    """(dotted name, path) of each Python module of the package, without the
    ``train`` and ``configs`` links to the top-level folders and the models."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in ("train", "configs", "models") or (PACKAGE / parts[0]).is_symlink():
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        yield name[: -len(".__init__")] if name.endswith(".__init__") else name, path


MODULES = dict(package_modules())


def parameter_count(node: ast.AST) -> int:
    """Positional and keyword-only parameters (without self/cls), *args and **kwargs one each."""
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg not in ("self", "cls")]
    return len(names) + (args.vararg is not None) + (args.kwarg is not None)


def _framework_owned(node: ast.AST) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in FRAMEWORK_DECORATORS:
            return True
    return False


def functions(tree: ast.AST, prefix: str) -> Iterator[Tuple[str, ast.AST]]:
    """(qualified name, node) of every function, nested ones and methods included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}.{node.name}", node
            yield from functions(node, f"{prefix}.{node.name}")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}.{node.name}")


def wide_functions() -> Dict[str, int]:
    out = {}
    for name, path in MODULES.items():
        for qualified, node in functions(ast.parse(path.read_text(encoding="utf8")), name):
            count = parameter_count(node)
            if count > MAX_PARAMS and not _framework_owned(node):
                out[qualified] = count
    return out


def long_modules() -> Dict[str, int]:
    counts = {name: len(path.read_text(encoding="utf8").splitlines()) for name, path in MODULES.items()}
    return {name: n for name, n in counts.items() if n > MAX_LINES}


def test_code_shape_reads_the_whole_package():
    assert "neuralcoref.component" in MODULES and "neuralcoref.core.decode.decode_passes" in MODULES
    assert not any(".train." in name or name.endswith(".train") for name in MODULES)


def test_code_shape_parameters_are_counted_as_documented():
    tree = ast.parse("class A:\n    def f(self, a, b=1, *args, c, **kw): pass\n"
                     "@Language.factory('x')\ndef g(a, b, c, d, e, f, g, h, i): pass\n")
    (_, method), (_, factory) = list(functions(tree, "m"))
    assert parameter_count(method) == 5
    assert parameter_count(factory) == 9 and _framework_owned(factory)


def test_code_shape_no_function_over_eight_parameters():
    found = wide_functions()
    new = {name: n for name, n in found.items() if n > WIDE.get(name, MAX_PARAMS)}
    assert not new, f"functions over {MAX_PARAMS} parameters (bundle them in a settings or inputs object): {new}"
    fixed = sorted(set(WIDE) - set(found))
    assert not fixed, f"no longer over the limit: take them out of WIDE: {fixed}"


def test_code_shape_no_module_over_700_lines():
    found = long_modules()
    new = {name: n for name, n in found.items() if n > LONG.get(name, MAX_LINES)}
    assert not new, f"modules over {MAX_LINES} lines (split them by concern): {new}"
    fixed = sorted(set(LONG) - set(found))
    assert not fixed, f"no longer over the limit: take them out of LONG: {fixed}"


@pytest.mark.parametrize("name", ["neuralcoref.core.decode.cluster_passes", "neuralcoref.core.decode.decode_passes",
                                  "neuralcoref.core.decode.pronoun_chains"])
def test_code_shape_the_decoder_is_within_the_limits(name):
    """The decoder's modules hold no exemption (issue 59's split of clustering.py)."""
    assert name in MODULES
    assert not any(q.startswith(name + ".") for q in WIDE) and name not in LONG
