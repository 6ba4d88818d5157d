"""The shape of the package's code (issue 59): no function takes more than
MAX_PARAMS parameters and no module is longer than MAX_LINES lines, read from
the source with ``ast`` and, for Cython, ``pyx_signatures`` (nothing is imported).

Parameters count positional and keyword-only ones, ``self`` and ``cls`` left
out, and ``*args`` and ``**kwargs`` one each. Two kinds of function are
exempt, because a framework owns their signature: a spaCy factory (one
parameter per config key, which users write in their pipelines' config) and a
Typer command (one parameter per command-line option). The Cython kernels
(``.pyx``) are held to the same limits: their ``def``, ``cpdef`` and ``cdef``
functions and the C functions they declare or define in verbatim C.

There is no allowance list: every function and module of the package is
within the limits since issue 59, and the check fails on any one over them.
"""
import ast
from pathlib import Path
from typing import Dict, Iterator, Tuple

import pytest
from pyx_signatures import c_functions, pyx_functions

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "neuralcoref"
MAX_PARAMS = 8
MAX_LINES = 700
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
#: The Cython modules (dotted name -> path).
PYX_MODULES = {".".join(p.relative_to(ROOT).with_suffix("").parts): p for p in sorted(PACKAGE.rglob("*.pyx"))}


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
    for name, path in PYX_MODULES.items():
        text = path.read_text(encoding="utf8")
        for found in (pyx_functions(text, name), c_functions(text, name)):
            out.update((q, n) for q, n in found if n > MAX_PARAMS)
    return out


def long_modules() -> Dict[str, int]:
    paths = {**MODULES, **PYX_MODULES}
    counts = {name: len(path.read_text(encoding="utf8").splitlines()) for name, path in paths.items()}
    return {name: n for name, n in counts.items() if n > MAX_LINES}


def test_code_shape_reads_the_whole_package():
    assert "neuralcoref.component" in MODULES and "neuralcoref.core.decode.decode_passes" in MODULES
    assert not any(".train." in name or name.endswith(".train") for name in MODULES)


def test_code_shape_reads_the_cython_kernels():
    assert {"neuralcoref.core._scoring", "neuralcoref.core._features", "neuralcoref.core._mentions"} <= set(PYX_MODULES)
    found = dict(pyx_functions(PYX_MODULES["neuralcoref.core._scoring"].read_text(encoding="utf8"),
                               "neuralcoref.core._scoring"))
    assert {"neuralcoref.core._scoring.pair_net", "neuralcoref.core._scoring.PairNet.__init__",
            "neuralcoref.core._scoring.nc_rows"} <= set(found)
    c_found = dict(c_functions(PYX_MODULES["neuralcoref.core._scoring"].read_text(encoding="utf8"), "s"))
    assert {"s.nc_rows_tile", "s.nc_sparse_rows", "s.nc_pair_loop"} <= set(c_found)


#: Cython text the scanner must read: multi-line signatures, memoryviews, defaults
#: that call, a method, a C declaration, and what is no function.
SAMPLE_PYX = '''
cdef extern from *:
    """
    /* a comment (x, y) { */
    static void hidden(int a, int b, int c, int d, int e, int f, int g, int h, int i) {
        if (a > b) { return; }
    }
    static inline int none(void) { return 0; }
    """
    ctypedef struct args_t:
        const float* x
        Py_ssize_t n, m
    void declared(float* out, Py_ssize_t ldo, const float* x, Py_ssize_t ldx,
                  const long* cols, const float* W, Py_ssize_t M, Py_ssize_t K, Py_ssize_t N) nogil
    int flag

cdef struct Out_:
    int* starts

cdef class Bundle:
    cdef const float[:, ::1] w  # (rows, h) weights; not a function (a, b)
    cdef readonly float b
    def __init__(self, tables, edges, second):
        self.b = 0.0
    cdef _check(self):
        pass

def kernel(const float[:, ::1] a_part, const float[:, ::1] m_part,
           const long[::1] ante, const short[:, ::1] codes,  # a comment (with, commas)
           double offset=f(1, 2), tuple blocks=(0, 1), *, bint bias=True, **options):
    """A docstring with def fake(a, b, c, d, e, f, g, h, i): no code."""
    cdef float[::1] out = np.zeros((3, 4), dtype=np.float32)
    cdef Py_ssize_t rows[64]
    cdef float* row
    return out

cdef inline Py_ssize_t _helper(Py_ssize_t p, Py_ssize_t ref,
                               const int[:] ids) noexcept nogil:
    return p
'''


def test_code_shape_counts_cython_signatures():
    found = dict(pyx_functions(SAMPLE_PYX, "m"))
    assert found == {"m.declared": 9, "m.Bundle.__init__": 3, "m.Bundle._check": 0, "m.kernel": 8,
                     "m._helper": 3}
    assert dict(c_functions(SAMPLE_PYX, "m")) == {"m.hidden": 9, "m.none": 0}


def test_code_shape_parameters_are_counted_as_documented():
    tree = ast.parse("class A:\n    def f(self, a, b=1, *args, c, **kw): pass\n"
                     "@Language.factory('x')\ndef g(a, b, c, d, e, f, g, h, i): pass\n")
    (_, method), (_, factory) = list(functions(tree, "m"))
    assert parameter_count(method) == 5
    assert parameter_count(factory) == 9 and _framework_owned(factory)


def test_code_shape_no_function_over_eight_parameters():
    found = wide_functions()
    assert not found, f"functions over {MAX_PARAMS} parameters (bundle them in a settings or inputs object): {found}"


def test_code_shape_no_module_over_700_lines():
    found = long_modules()
    assert not found, f"modules over {MAX_LINES} lines (split them by concern): {found}"


@pytest.mark.parametrize("name", ["neuralcoref.core.decode.cluster_passes", "neuralcoref.core.decode.decode_passes",
                                  "neuralcoref.core.decode.pronoun_chains"])
def test_code_shape_the_decoder_is_within_the_limits(name):
    """The decoder's modules are read and within the limits (issue 59's split of clustering.py)."""
    assert name in MODULES
    assert not any(q.startswith(name + ".") for q in wide_functions()) and name not in long_modules()
