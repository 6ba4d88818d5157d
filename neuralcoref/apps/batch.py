"""Coreference over JSON Lines or text files, on one machine or on a Dask cluster.

    neuralcoref batch --input in.jsonl --output out.jsonl
    neuralcoref batch --input texts/ --output out.jsonl

Each input line is a JSON object with the text in a field (``text`` by default);
each output line is that object with a ``coref`` field added: the clusters as
character offsets and strings, and the resolved text (see
:mod:`neuralcoref.apps.records`). Output line i belongs to input line i (blank input
lines are skipped: they are not records). A folder input is read as its ``.txt``
files (not its subfolders), in file-name order, and a ``.txt`` file input as one
file: each file is one document, whose record is ``{"id": FILE NAME, "text":
TEXT}`` (the text in ``text_field``).

Resumable: the output is appended to, and a run skips the input records that
already have an output line, so re-running after a crash (or Ctrl-C) finishes the
job without losing or repeating a line. Lines are written and flushed a batch at a
time; a partial last line left by a crash is removed before resuming.

Bad input lines (not JSON, not an object, no string in the text field, a text
longer than ``nlp.max_length``, JSON nested too deep, bytes that are not UTF-8,
NaN or Infinity (not JSON), runs of characters without a space that would cost the
tokenizer quadratic time (E439, :mod:`neuralcoref.apps.input_guard`, the server's
measure), a text the pipeline fails on or
takes too long on) do not stop the run: their output line is an error
record, ``{"coref": null, "coref_error": "[E310] ..."}`` (the input object's
fields kept when there is an object; otherwise ``input_line`` and ``input``, the
line as read). ``strict=True`` (``--strict``) stops at the first bad line
instead, with that coded error, after writing every line before it.

Each record has a deadline (``record_timeout``, ``--record-timeout``: 60 s per
100,000 characters of its text, at least 60 s): spaCy's tokenizer is quadratic
on long runs of brackets or quotes, and 20 KB of "(((" would hold the run for
minutes. A record past its deadline is stopped and written as an error record
(E434), so a resumed run skips it like any other done line.

The output is guarded (:mod:`neuralcoref.apps.output_guard`): never the input, locked
while a run writes it, and tied to its input, which a resumed run must match.
With ``n_process`` > 1 the texts go to worker processes that die with the run,
even after ``kill -9`` (:mod:`neuralcoref.apps.workers`). See docs/serving.md.

On Dask, ``resolve_bag`` maps a bag of JSON lines (or dicts) to output records and
``resolve_jsonl_dask`` runs ``resolve_jsonl`` on many files at once, one task per
file; either way each worker process loads the spaCy pipeline once
(``get_pipeline``). They need ``pip install 'neuralcoref[dask]'``.
"""
from __future__ import annotations

import contextlib
import dataclasses
import glob
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ContextManager, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from ..errors import Errors, NeuralcorefError
from ..validation import check_int, check_known, setting_error
from .batch_records import (OWNER, RECORD_TIMEOUT, TextFile, _check_timeout,  # noqa: F401 (public here too)
                            resolve_records)
from .output_guard import check_output, check_same_input, input_fingerprint, locked_output, write_state
from .workers import terminating

if TYPE_CHECKING:
    from spacy.language import Language

#: Pipelines loaded by this process, by settings (see get_pipeline), each with the
#: lock its users hold while running it: threads of one Dask worker share it, and
#: spaCy pipelines are not thread-safe.
_PIPELINES: Dict[str, Tuple["Language", threading.Lock]] = {}
_PIPELINES_LOCK = threading.Lock()
_LOADS = 0


#: The suffix of the text files of a folder input (one document per file).
TEXT_SUFFIX = ".txt"


@dataclass
class BatchStats:
    """What a batch run did.

    total (int): records (non-blank lines, or text files) in the input.
    skipped (int): records that already had an output line (resumed runs).
    written (int): output lines written by this run.
    errors (int): error records among them.
    earlier_errors (int): error records among the skipped lines (written by an
        earlier run).
    """

    total: int = 0
    skipped: int = 0
    written: int = 0
    errors: int = 0
    earlier_errors: int = 0

    @property
    def all_errors(self) -> int:
        """Error records in the whole output."""
        return self.errors + self.earlier_errors


@dataclass(frozen=True)
class BatchSettings:
    """The options of a batch run (resolve_jsonl's), checked once when made
    (E170 for a bad batch_size, n_process or record_timeout).

    text_field (str): the field holding the text.
    model (str | None): shipped model name or model folder.
    spacy_model (str | None): the spaCy pipeline (default: the one the model records).
    settings (Dict[str, Any] | None): other component settings (greedyness...).
    n_process (int): worker processes (1: this process).
    batch_size (int): lines per batch: texts per ``nlp.pipe`` batch, and lines
        written and flushed together.
    strict (bool): stop with the coded error of the first bad line instead of
        writing an error record.
    progress (bool): show a progress bar (on stderr).
    kb (str | None): also link clusters to this knowledge base (a shipped KB's
        name or a KB folder): linked clusters have "kb_id".
    record_timeout (float | None): seconds the pipeline may take on a record per
        100,000 characters of its text, at least this (default RECORD_TIMEOUT);
        a record that takes longer is written as an error record (E434). None
        or 0: no deadline.
    """

    text_field: str = "text"
    model: Optional[str] = None
    spacy_model: Optional[str] = None
    settings: Optional[Dict[str, Any]] = None
    n_process: int = 1
    batch_size: int = 64
    strict: bool = False
    progress: bool = False
    kb: Optional[str] = None
    record_timeout: Optional[float] = RECORD_TIMEOUT

    def __post_init__(self) -> None:
        check_int("batch_size", self.batch_size, 1, OWNER)
        check_int("n_process", self.n_process, 1, OWNER)
        _check_timeout(self.record_timeout)

    @classmethod
    def with_options(cls, base: Optional["BatchSettings"], options: Dict[str, Any],
                     known: Optional[Iterable[str]] = None) -> "BatchSettings":
        """``base`` (default: the defaults) with ``options`` replacing fields;
        E173 for a name not among ``known`` (default: every field)."""
        check_known(options, known or [f.name for f in dataclasses.fields(cls)], OWNER)
        return dataclasses.replace(base or cls(), **options)


#: The options resolve_jsonl_dask takes (each file's run: one process, no progress bar).
DASK_OPTIONS = ("text_field", "model", "spacy_model", "settings", "batch_size", "strict", "kb")


def get_pipeline(model: Optional[str] = None, spacy_model: Optional[str] = None,
                 settings: Optional[Dict[str, Any]] = None, kb: Optional[str] = None) -> "Language":
    """The spaCy pipeline with neuralcoref for these settings, loaded once per
    process and then reused: on a Dask worker, by every task that asks for it.

    model (str | None): shipped model name or model folder.
    spacy_model (str | None): the spaCy pipeline (default: the one the model records).
    settings (Dict[str, Any] | None): other component settings (greedyness...).
    kb (str | None): also link clusters to this knowledge base (a shipped KB's
        name or a KB folder): the records' linked clusters have "kb_id".
    RETURNS (Language): the pipeline (shared: don't change it).
    """
    return _cached_pipeline(model, spacy_model, settings, kb)[0]


def _cached_pipeline(model: Optional[str], spacy_model: Optional[str], settings: Optional[Dict[str, Any]],
                     kb: Optional[str] = None) -> Tuple["Language", threading.Lock]:
    global _LOADS
    key = json.dumps({"model": model, "spacy_model": spacy_model, "settings": settings or {}, "kb": kb},
                     sort_keys=True, default=str)
    with _PIPELINES_LOCK:
        if key not in _PIPELINES:
            from ..api import add_linker, build_pipeline

            nlp = build_pipeline(model, spacy_model, **(settings or {}))  # the model's own pipeline by default
            if kb is not None:
                add_linker(nlp, kb)
            _PIPELINES[key] = (nlp, threading.Lock())
            _LOADS += 1
        return _PIPELINES[key]


def pipeline_loads() -> int:
    """How many pipelines this process has loaded through get_pipeline."""
    return _LOADS


def _dumps(record: Dict[str, Any]) -> bytes:
    text = json.dumps(record, ensure_ascii=False, allow_nan=False)
    try:
        return (text + "\n").encode("utf8")
    except UnicodeEncodeError:  # a lone surrogate in some field: keep it as a \\u escape
        return (json.dumps(record, allow_nan=False) + "\n").encode("utf8")


def _write_batch(out, lines: List[bytes]) -> None:
    """Append whole lines and push them to disk before going on (E433 when the
    disk is full, the file too large for the file system or its size limit...)."""
    try:
        data = memoryview(b"".join(lines))
        while data:  # unbuffered: a write may take part of the bytes
            data = data[out.write(data):]
        os.fsync(out.fileno())
    except OSError as err:
        raise NeuralcorefError(Errors.E433.format(output=out.name, reason=_os_reason(err))) from err


def _os_reason(err: OSError) -> str:
    return f"{err.strerror or err} (errno {err.errno})" if err.errno else str(err)


def _count_records(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


def _resume_point(output: Path) -> Tuple[int, int]:
    """(complete lines, error records among them) already in ``output``; a
    partial last line is cut off."""
    if not output.exists():
        return 0, 0
    complete, errors, end = 0, 0, 0
    with open(output, "rb+") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break  # a line cut by a crash: only ever the last one
            stripped = line.strip()
            if not (stripped.startswith(b"{") and stripped.endswith(b"}")):
                raise NeuralcorefError(Errors.E313.format(
                    line=complete + 1, output=output, error=repr(line[:60])))
            errors += b'"coref_error"' in line and _is_error_record(line)
            complete += 1
            end += len(line)
        f.seek(0, os.SEEK_END)
        if f.tell() != end:
            f.truncate(end)
    return complete, errors


def _is_error_record(line: bytes) -> bool:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(record, dict) and record.get("coref") is None and "coref_error" in record


def _text_files(folder: Path) -> List[Path]:
    """The ``.txt`` files of a folder input, by name (E343 when it has none)."""
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == TEXT_SUFFIX and p.is_file())
    if not files:
        others = sorted(p.name for p in folder.iterdir())[:5]
        raise NeuralcorefError(Errors.E343.format(
            path=folder, found=", ".join(others) if others else "nothing"))
    return files


def _folder_fingerprint(folder: Path, files: List[Path]) -> Dict[str, Any]:
    """What identifies a folder input: its name, and the names and sizes of its text files."""
    sizes = [p.stat().st_size for p in files]
    listing = "".join(f"{p.name}\t{size}\n" for p, size in zip(files, sizes)).encode("utf8")
    return {"input": folder.name + "/", "size": sum(sizes),
            "head_sha256": hashlib.sha256(listing).hexdigest(), "head_bytes": len(listing)}


@dataclass
class _Input:
    """A batch input: how many records it has, what identifies it, its records."""

    path: Path
    files: Optional[List[Path]]  # the text files, or None for JSON lines

    @classmethod
    def open(cls, path: Path) -> "_Input":
        if path.is_dir():
            return cls(path, _text_files(path))
        if not path.exists():
            raise NeuralcorefError(Errors.E432.format(path=path, reason="does not exist"))
        if not path.is_file():  # reading a FIFO would wait for a writer
            raise NeuralcorefError(Errors.E432.format(
                path=path, reason="is not a regular file (a FIFO, a device or a socket)"))
        return cls(path, [path] if path.suffix.lower() == TEXT_SUFFIX else None)

    def check_output(self, output: Path) -> None:
        check_output(output, self.path)
        for file in self.files or ():  # a folder's own file is an input too
            check_output(output, file)

    def fingerprint(self) -> Dict[str, Any]:
        if self.path.is_dir():
            return _folder_fingerprint(self.path, self.files)
        return input_fingerprint(self.path)

    def count(self) -> int:
        return _count_records(self.path) if self.files is None else len(self.files)

    def records(self, skip: int) -> Iterator[Tuple[int, Union[bytes, TextFile]]]:
        if self.files is None:
            return _input_lines(self.path, skip)
        return ((i, TextFile(p)) for i, p in enumerate(self.files[skip:], skip + 1))


def _input_lines(path: Path, skip: int) -> Iterator[Tuple[int, bytes]]:
    """(line number, line) for the non-blank lines of ``path`` after the first ``skip``."""
    seen = 0
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            seen += 1
            if seen > skip:
                yield number, line


def resolve_jsonl(input_path: Union[str, Path], output_path: Union[str, Path], *,
                  nlp: Optional["Language"] = None, stats: Optional[BatchStats] = None,
                  batch_settings: Optional[BatchSettings] = None, **options: Any) -> BatchStats:
    """Resolve coreference in every record of a JSONL file (or of a folder of
    text files), appending to ``output_path`` and resuming where an earlier run
    stopped.

    input_path (str | Path): JSON Lines, one object per line; or a folder, whose
        ``.txt`` files are one document each (in file-name order); or one ``.txt``
        file, one document. A text file's record is ``{"id": FILE NAME,
        text_field: TEXT}``.
    output_path (str | Path): JSON Lines written in input order (appended to).
    nlp (Language | None): a pipeline with neuralcoref; by default one is loaded
        (once per process, see get_pipeline) from ``model``, ``spacy_model`` and
        ``settings``, and only if there is something to do.
    stats (BatchStats | None): filled in as the run goes (else a new one), so
        that a caller whose run is interrupted knows what it did.
    batch_settings (BatchSettings | None): the run's options (default: the
        defaults of BatchSettings).
    **options: the run's options by name, replacing those of ``batch_settings``
        (a BatchSettings field; another name: E173): text_field, model,
        spacy_model, settings, n_process, batch_size, strict, progress, kb
        (adds ``neuralcoref_linker`` to the pipeline loaded here, or to
        ``nlp``; E400-E401 before the pipeline loads) and record_timeout (a
        record past its deadline is written as an error record, E434, so a
        resumed run does not meet it again).
    RETURNS (BatchStats): records in all, skipped, written, error records.
    RAISES (NeuralcorefError): E312 if the output has more lines than the input has
        records, E313 if the output is damaged before its last line, E339 if
        another run writes the output, E340 if the output is the input, E341 if
        the output was begun from another input (see
        :mod:`neuralcoref.apps.output_guard`), E342 if it cannot be written,
        E343 for a folder without ``.txt`` files, E430 if another run writes
        the output through a link, E431 for an output with several names (hard
        links), E432 for a missing input, E433 when writing fails (disk full).
    """
    run = BatchSettings.with_options(batch_settings, options)
    if run.kb is not None:
        from ..artifacts.kb import check_kb_folder

        check_kb_folder(run.kb)
    input_path, output_path = Path(input_path), Path(output_path)
    source = _Input.open(input_path)
    source.check_output(output_path)
    fingerprint = source.fingerprint()
    stats = stats if stats is not None else BatchStats()
    with locked_output(output_path) as recorded:
        total = source.count()
        done, earlier_errors = _resume_point(output_path)
        if done > total:
            raise NeuralcorefError(Errors.E312.format(output=output_path, n_output=done,
                                                      path=input_path, n_input=total))
        if done:
            check_same_input(output_path, recorded, fingerprint, input_path)
        write_state(output_path, fingerprint)
        stats.total, stats.skipped, stats.earlier_errors = total, done, earlier_errors
        if done == total:
            return stats
        lock: ContextManager = contextlib.nullcontext()
        if nlp is None:
            nlp, lock = _cached_pipeline(run.model, run.spacy_model, run.settings, run.kb)
        elif run.kb is not None:
            from ..api import add_linker

            add_linker(nlp, run.kb)
        with lock, terminating():
            return _resolve_into(source.records(done), str(input_path), output_path, nlp, stats, run)


def _resolve_into(items: Iterator[Tuple[int, Union[bytes, TextFile]]], input_label: str,
                  output_path: Path, nlp: "Language", stats: BatchStats, run: BatchSettings) -> BatchStats:
    """Append the output lines of the input records after ``stats.skipped``."""
    from tqdm import tqdm

    total, done, progress, batch_size = stats.total, stats.skipped, run.progress, run.batch_size
    records = resolve_records(items, nlp, text_field=run.text_field,
                              batch_size=batch_size, n_process=run.n_process, strict=run.strict,
                              path=input_label, record_timeout=run.record_timeout)
    # Unbuffered: what a failed write (disk full) leaves is what _write_batch wrote,
    # and closing the file does not try the write again.
    with open(output_path, "ab", buffering=0) as out, tqdm(total=total, initial=done, unit="record",
                                              disable=not progress, desc="neuralcoref") as bar:
        lines: List[bytes] = []
        writing = False

        def write() -> None:
            nonlocal lines, writing
            writing = True
            _write_batch(out, lines)
            writing = False
            stats.written += len(lines)
            bar.update(len(lines))
            lines = []

        try:
            for record in records:
                lines.append(_dumps(record))
                stats.errors += record["coref"] is None
                if len(lines) >= batch_size:
                    write()
        finally:
            # Whatever stops the run (a strict error, Ctrl-C), the lines read before
            # it are complete: keep them. Not after a failed write, which may have
            # left part of them (the next run cuts a partial line, then resumes).
            try:
                if lines and not writing:
                    write()
            finally:
                records.close()  # stops the workers now, whatever happened
    return stats


# Dask ------------------------------------------------------------------------

def _require_dask():
    try:
        import dask.bag as db
        import distributed  # noqa: F401  (the cluster scheduler the README describes)
    except ImportError:
        raise NeuralcorefError(Errors.E314) from None
    return db


def _resolve_partition(items: Iterable[Union[str, dict]], text_field: str, model: Optional[str],
                       spacy_model: Optional[str], settings: Optional[Dict[str, Any]],
                       batch_size: int, strict: bool, kb: Optional[str] = None) -> List[Dict[str, Any]]:
    numbered = [(i, item) for i, item in enumerate(items, 1)
                if isinstance(item, dict) or (item and item.strip())]
    if not numbered:
        return []
    nlp, lock = _cached_pipeline(model, spacy_model, settings, kb)
    with lock:
        return list(resolve_records(numbered, nlp, text_field=text_field, batch_size=batch_size,
                                    strict=strict, path="a Dask partition"))


def resolve_bag(bag, *, text_field: str = "text", model: Optional[str] = None,
                spacy_model: Optional[str] = None, settings: Optional[Dict[str, Any]] = None,
                batch_size: int = 64, strict: bool = False, kb: Optional[str] = None):
    """Resolve coreference in a Dask bag of records, each worker loading the
    pipeline once (``get_pipeline``).

    bag (dask.bag.Bag): JSON lines (e.g. ``dask.bag.read_text("data/*.jsonl")``)
        or dicts; blank lines are skipped.
    text_field, model, spacy_model, settings, batch_size, strict, kb: as for resolve_jsonl.
    RETURNS (dask.bag.Bag): output records (dicts), lazily; e.g.
        ``.map(json.dumps).to_textfiles("out/*.jsonl")`` or ``.compute()``.
    """
    _require_dask()
    check_int("batch_size", batch_size, 1, OWNER)
    return bag.map_partitions(_resolve_partition, text_field, model, spacy_model,
                              settings, batch_size, strict, kb)


def _resolve_file(job: Tuple[str, str], run: BatchSettings) -> BatchStats:
    return resolve_jsonl(job[0], job[1], batch_settings=run)


def resolve_jsonl_dask(input_glob: str, output_dir: Union[str, Path], **options: Any) -> Dict[str, BatchStats]:
    """Run resolve_jsonl on every file matching ``input_glob``, one Dask task per
    file, writing ``output_dir/<file name>``; resumable like resolve_jsonl.

    Runs on the current Dask scheduler: a ``distributed.Client`` when one is active
    (workers need the same paths: a shared file system), else local processes.
    input_glob (str): e.g. "data/*.jsonl".
    output_dir (str | Path): created if needed.
    **options: text_field, model, spacy_model, settings, batch_size, strict, kb:
        as for resolve_jsonl (DASK_OPTIONS; another name: E173).
    RETURNS (Dict[str, BatchStats]): each input file's stats.
    RAISES (NeuralcorefError): E316 if nothing matches, E170 if two inputs share a name.
    """
    db = _require_dask()
    run = BatchSettings.with_options(None, options, DASK_OPTIONS)
    paths = sorted(glob.glob(str(input_glob)))
    if not paths:
        raise NeuralcorefError(Errors.E316.format(pattern=input_glob))
    names = [Path(p).name for p in paths]
    if len(set(names)) != len(names):
        raise setting_error("input_glob", input_glob, "files with distinct names", OWNER)
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(str(Path(p).resolve()), str((output_dir / name).resolve())) for p, name in zip(paths, names)]
    bag = db.from_sequence(jobs, npartitions=len(jobs))
    stats = bag.map(_resolve_file, run).compute()
    return dict(zip(paths, stats))
