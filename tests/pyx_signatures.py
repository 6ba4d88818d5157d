"""Function widths of Cython modules (``.pyx``), read from the source text, for
tests/test_code_shape.py.

``ast`` cannot read Cython, so a small scanner does: string literals and
comments are blanked first (a C block in a docstring or a parenthesis in a
comment is no code), then every ``def``, ``cpdef`` and ``cdef`` function and
every function declared in a ``cdef extern`` block is found line by line, and
its parameters are split at the commas outside brackets up to the closing
parenthesis (memoryviews ``[:, ::1]`` and defaults that call hold commas).
``cdef class``, structs, enums and variable declarations are no functions.
Parameters count as in Python: ``self``/``cls`` left out, ``*args`` and
``**kwargs`` one each, a bare ``*`` or ``/`` none. The C functions a module
defines in the verbatim C of a ``cdef extern from *`` block are read too
(:func:`c_functions`; a parameter list written as a macro counts as one).
"""
import re
from typing import Iterator, List, Tuple

_OPEN, _CLOSE = "([{", ")]}"
#: Words after ``cdef`` that start a declaration other than a function's.
_NOT_FUNCTIONS = {"class", "struct", "enum", "extern", "union", "ctypedef", "cppclass", "packed", "fused"}
_CLASS = re.compile(r"(?:cdef\s+)?class\s+(\w+)")
_EXTERN = re.compile(r"cdef\s+extern\b")
_KEYWORD = re.compile(r"(cpdef|cdef|def)\b")
#: What may stand between the keyword and the name: qualifiers and a return type.
_HEAD = re.compile(r"^[\w\s\*\.]*?(\w+)\s*$")


def blank_strings_and_comments(text: str) -> str:
    """``text`` with the insides of string literals and comments removed; newlines kept."""
    out: List[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
            end = text.find(quote, i + len(quote))
            while end != -1 and len(quote) == 1 and _escaped(text, end):
                end = text.find(quote, end + 1)
            end = n if end == -1 else end + len(quote)
            inside = text[i + len(quote):max(end - len(quote), i + len(quote))]
            out.append(quote + re.sub(r"[^\n]", " ", inside) + quote)  # lines and columns kept
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _escaped(text: str, i: int) -> bool:
    backslashes = 0
    while i - backslashes - 1 >= 0 and text[i - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _parameters(text: str, start: int) -> Tuple[List[str], int]:
    """The top-level comma-separated parts of the bracket opened at ``start``, and
    the index after its closing one."""
    depth, parts, current, i = 0, [], [], start
    while i < len(text):
        c = text[i]
        if c in _OPEN:
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                parts.append("".join(current))
                return [p.strip() for p in parts if p.strip()], i + 1
        elif c == "," and depth == 1:
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    raise ValueError(f"unclosed parameter list at {start}")


def _counted(parameter: str) -> bool:
    if parameter in ("*", "/"):
        return False
    declaration = parameter.split("=", 1)[0]
    names = re.findall(r"\w+", declaration)
    return not names or names[-1] not in ("self", "cls") or declaration.lstrip().startswith("*")


def count_parameters(parameters: List[str]) -> int:
    """How many of a signature's parts count (see the module docstring)."""
    return sum(_counted(p) for p in parameters)


def _function_head(stripped: str, in_extern: bool) -> Tuple[str, int]:
    """(name, offset of its "(") if the line starts a function, else ("", -1)."""
    keyword = _KEYWORD.match(stripped)
    if keyword:
        rest_at = keyword.end()
    elif in_extern and not stripped.startswith(("ctypedef", "struct", "enum", "union")):
        rest_at = 0
    else:
        return "", -1
    paren = stripped.find("(", rest_at)
    head = stripped[rest_at:paren] if paren >= 0 else ""
    match = _HEAD.match(head)
    words = head.split()
    if paren < 0 or not match or (words and words[0] in _NOT_FUNCTIONS) or (not keyword and len(words) < 2):
        return "", -1
    return match.group(1), paren


def pyx_functions(text: str, module: str) -> Iterator[Tuple[str, int]]:
    """(qualified name, parameter count) of every function of Cython source ``text``."""
    clean = blank_strings_and_comments(text)
    lines = clean.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    stack: List[Tuple[int, str, str]] = []  # (indent, kind, name) of the open blocks
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped:
            i += 1
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        in_extern = bool(stack) and stack[-1][1] == "extern"
        name, paren = _function_head(stripped, in_extern)
        if name:
            parameters, end = _parameters(clean, offsets[i] + indent + paren)
            scope = ".".join([module] + [n for _, kind, n in stack if kind != "extern"] + [name])
            yield scope, count_parameters(parameters)
            stack.append((indent, "def", name))
            i = next(k for k in range(i, len(lines)) if offsets[k + 1] > end - 1) + 1
            continue
        if _EXTERN.match(stripped):
            stack.append((indent, "extern", ""))
        elif _CLASS.match(stripped):
            stack.append((indent, "class", _CLASS.match(stripped).group(1)))
        i += 1


_VERBATIM = re.compile(r'cdef\s+extern\s+from\s+\*\s*:\s*\n\s*("""|\'\'\')(.*?)\1', re.S)
#: A C function's definition: a name, its parameters (no nested parentheses), "{".
_C_DEFINITION = re.compile(r"\b(\w+)\s*\(([^()]*)\)\s*\{")
_C_STATEMENTS = {"if", "for", "while", "switch", "return", "sizeof"}


def c_functions(text: str, module: str) -> Iterator[Tuple[str, int]]:
    """(qualified name, parameter count) of the C functions defined in the verbatim
    C blocks of Cython source ``text`` (``(void)`` has none)."""
    for block in _VERBATIM.finditer(text):
        code = re.sub(r"/\*.*?\*/", " ", block.group(2), flags=re.S)
        for match in _C_DEFINITION.finditer(code):
            if match.group(1) not in _C_STATEMENTS:
                parameters = [p for p in match.group(2).split(",") if p.strip() and p.strip() != "void"]
                yield f"{module}.{match.group(1)}", len(parameters)
