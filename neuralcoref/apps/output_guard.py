"""Guards of the files a command writes: never over its input, one writer at a
time, output checked before the run, and a resumed output tied to its input.

Used by ``neuralcoref batch`` (:mod:`neuralcoref.apps.batch`) and ``neuralcoref
predict`` (:mod:`neuralcoref.apps.predict`).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Union

from ..errors import Errors, NeuralcorefError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; a second run is not detected
    fcntl = None  # type: ignore[assignment]

#: The bytes of the input hashed into its fingerprint: its first lines, without
#: reading a large file whole.
FINGERPRINT_BYTES = 1 << 20
#: Suffix of the file beside a batch output that is locked while a run writes the
#: output and records the input it belongs to.
STATE_SUFFIX = ".state.json"


def same_file(first: Union[str, Path], second: Union[str, Path]) -> bool:
    """Whether two paths name one file: the same resolved path, or (both existing)
    the same inode (a hard link, a bind mount)."""
    first, second = Path(first), Path(second)
    if first.resolve() == second.resolve():
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist
        return False


def check_output(output: Union[str, Path], inputs: Union[str, Path]) -> None:
    """Before a run: E340 if ``output`` is the input file (same path or same
    inode), E342 if it cannot be written (a folder, a missing or read-only
    parent folder).

    output (str | Path): the file the command will write.
    inputs (str | Path): the file or folder it reads.
    """
    output, inputs = Path(output), Path(inputs)
    if same_file(output, inputs):
        raise NeuralcorefError(Errors.E340.format(output=output, path=inputs))
    if output.is_dir():
        raise NeuralcorefError(Errors.E342.format(output=output, reason="it is a folder"))
    if output.exists() and not output.is_file():  # opening a FIFO would block, a device is no file
        raise NeuralcorefError(Errors.E342.format(
            output=output, reason="it is not a regular file (a FIFO, a device or a socket)"))
    parent = output.parent if str(output.parent) else Path(".")
    if not parent.is_dir():
        raise NeuralcorefError(Errors.E342.format(output=output, reason=f"the folder {parent} does not exist"))
    if not os.access(parent, os.W_OK) or (output.exists() and not os.access(output, os.W_OK)):
        raise NeuralcorefError(Errors.E342.format(output=output, reason="permission denied"))


def state_path(output: Union[str, Path]) -> Path:
    """The lock-and-state file of a batch output (``out.jsonl.state.json``), beside
    the file a symbolic link leads to: one state for every link to it."""
    output = Path(output).resolve()
    return output.with_name(output.name + STATE_SUFFIX)


def input_fingerprint(path: Union[str, Path]) -> Dict[str, Any]:
    """What identifies a batch input: its file name, size and the SHA-256 of its
    first lines (at most FINGERPRINT_BYTES)."""
    path = Path(path)
    with open(path, "rb") as f:
        head = f.read(FINGERPRINT_BYTES)
    return {"input": path.name, "size": path.stat().st_size,
            "head_sha256": hashlib.sha256(head).hexdigest(), "head_bytes": len(head)}


@contextlib.contextmanager
def locked_output(output: Union[str, Path]) -> Iterator[Optional[Dict[str, Any]]]:
    """Hold the exclusive locks of a batch output for the block: its state file's
    (E339 if another run holds it) and the output file's own, which the kernel
    keeps per file, not per name (E430 if another run writes the file through a
    link; E431 for a file with several names, whose other names have other state
    files). The output is created empty if missing. YIELDS (Dict | None): the
    state recorded by the last run (its input's fingerprint), None if there is
    none. The lock file stays (removing it would let two runs lock two different
    files)."""
    state = state_path(output)
    try:
        fd = os.open(state, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:  # e.g. a link into a folder this user cannot write
        raise NeuralcorefError(Errors.E342.format(output=output, reason=f"its state file {state}: "
                                                  f"{err.strerror or err}")) from err
    try:
        _lock(fd, Errors.E339.format(output=output, lock=state))
        # O_NONBLOCK: a FIFO put there since check_output must not hang the run.
        out_fd = os.open(output, os.O_RDONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o644)
        try:
            _lock(out_fd, Errors.E430.format(output=output))
            links = os.fstat(out_fd).st_nlink
            if links > 1:
                raise NeuralcorefError(Errors.E431.format(output=output, links=links))
            yield _read_state(fd)
        finally:
            os.close(out_fd)
    finally:
        os.close(fd)  # closing releases the lock


def _lock(fd: int, message: str) -> None:
    """An exclusive lock on the open file ``fd``, or NeuralcorefError(message)."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise NeuralcorefError(message) from None


def _read_state(fd: int) -> Optional[Dict[str, Any]]:
    data = os.pread(fd, 1 << 16, 0)
    try:
        state = json.loads(data) if data.strip() else None
    except (ValueError, RecursionError):
        return None  # a damaged state file records nothing: the output is taken as is
    return state if isinstance(state, dict) else None


def write_state(output: Union[str, Path], fingerprint: Dict[str, Any]) -> None:
    """Record the input an output belongs to (call while holding its lock)."""
    state = state_path(output)
    state.write_text(json.dumps(fingerprint, indent=2) + "\n", encoding="utf8")


def check_same_input(output: Union[str, Path], recorded: Optional[Dict[str, Any]],
                     fingerprint: Dict[str, Any], input_path: Union[str, Path]) -> None:
    """E341 if the output's recorded input is not this one (name, size, first lines).
    An output without a record (written before records were kept) is accepted."""
    if not recorded:
        return
    keys = ("input", "size", "head_sha256")
    if any(recorded.get(k) != fingerprint[k] for k in keys):
        def describe(f: Dict[str, Any]) -> str:
            return f"{f.get('input')!s:.100}, {f.get('size')} bytes, first lines {str(f.get('head_sha256'))[:12]}"
        raise NeuralcorefError(Errors.E341.format(output=output, found=describe(recorded),
                                                  path=input_path, expected=describe(fingerprint)))
