"""The records of a batch run: input lines (or text files) parsed into texts or
error records, and the texts resolved into output records, in this process or
in worker processes, each within its deadline (see :mod:`neuralcoref.apps.batch`,
which reads and writes the files).
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Deque, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from ..errors import Errors, NeuralcorefError, quote
from ..validation import check_int, check_text, setting_error
from .deadline import Budget, DeadlineExceeded, record_deadline, time_limit
from .input_guard import MAX_TOKENIZER_COST, tokenizer_cost

if TYPE_CHECKING:
    from spacy.language import Language

#: Whose settings these are, as E170 says.
OWNER = "batch processing"

#: Seconds the pipeline may take on one record, per 100,000 characters of its text
#: (and at least this): about 3x what the shipped English model took on 100,000
#: characters of novel text on a loaded 2-core machine (19 s), ~10x unloaded.
RECORD_TIMEOUT = 60.0


@dataclass(frozen=True)
class TextFile:
    """A text file of the input: one document, read when its turn comes."""

    path: Path



def _describe(value: Any) -> str:
    names = {dict: "a JSON object", list: "a JSON array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _parse(item: Union[str, bytes, dict, TextFile], line: int, path: str, text_field: str,
           max_length: Optional[int] = None) -> Tuple[Optional[dict], Optional[str], Optional[Dict[str, Any]]]:
    """(object, text, None) for a good record, (None, None, error record) for a bad one."""
    if isinstance(item, TextFile):
        return _parse_text_file(item, text_field, max_length)
    if isinstance(item, dict):
        obj: Any = item
        raw = None
    else:
        raw = item
        try:
            obj = _loads(raw, line, path)
        except NeuralcorefError as err:
            return None, None, _error_record(raw, line, str(err))
    if not isinstance(obj, dict):
        message = Errors.E311.format(line=line, path=path, field=text_field,
                                     found=f"the line is {_describe(obj)}, not an object")
        return None, None, _error_record(raw if raw is not None else obj, line, message)
    text = obj.get(text_field)
    if not isinstance(text, str):
        found = "no such field" if text_field not in obj else f"it is {_describe(text)}"
        message = Errors.E311.format(line=line, path=path, field=text_field, found=found)
        return None, None, {**obj, "coref": None, "coref_error": message}
    try:
        check_text(text, f" of line {line} of {path}")
    except NeuralcorefError as err:  # E171, a lone surrogate
        return None, None, {**obj, "coref": None, "coref_error": str(err)}
    if max_length is not None and len(text) > max_length:
        # spaCy would refuse it (E088) and stop the whole run: refused here, alone.
        message = Errors.E335.format(line=line, path=path, length=len(text), limit=max_length)
        return None, None, {**obj, "coref": None, "coref_error": message}
    message = _tokenizer_problem(text, f" of line {line} of {path}")
    if message:
        return None, None, {**obj, "coref": None, "coref_error": message}
    return obj, text, None


def _tokenizer_problem(text: str, where: str) -> Optional[str]:
    """E439 for a text the tokenizer would take quadratic time on, else None."""
    cost, offset, start = tokenizer_cost(text)
    if cost <= MAX_TOKENIZER_COST:
        return None
    return Errors.E439.format(where=where, cost=cost, limit=MAX_TOKENIZER_COST, offset=offset,
                              run=repr(start + "..."))


def _parse_text_file(item: TextFile, text_field: str,
                     max_length: Optional[int]) -> Tuple[Optional[dict], Optional[str], Optional[Dict[str, Any]]]:
    """A text file as a record ``{"id": name, text_field: text}``, or its error record
    (E344 not readable as UTF-8, E345 longer than nlp.max_length)."""
    obj: Dict[str, Any] = {"id": item.path.name}
    try:
        text = item.path.read_bytes().decode("utf8")
    except UnicodeDecodeError as err:
        message = Errors.E344.format(path=item.path, reason=err.reason, position=err.start)
        return None, None, {**obj, "coref": None, "coref_error": message}
    except OSError as err:  # removed or unreadable since the folder was listed
        message = Errors.E344.format(path=item.path, reason=err.strerror or err, position=0)
        return None, None, {**obj, "coref": None, "coref_error": message}
    obj[text_field] = text
    if max_length is not None and len(text) > max_length:
        message = Errors.E345.format(path=item.path, length=len(text), limit=max_length)
        return None, None, {**obj, "coref": None, "coref_error": message}
    message = _tokenizer_problem(text, f" of {item.path}")
    if message:
        return None, None, {**obj, "coref": None, "coref_error": message}
    return obj, text, None


def _loads(raw: Union[str, bytes], line: int, path: str) -> Any:
    """A JSON line (E337 not UTF-8, E336 nested too deep, E310 not JSON), checked to
    be writable back as JSON (its output record holds it)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf8")
        except UnicodeDecodeError as err:
            raise NeuralcorefError(Errors.E337.format(line=line, path=path, reason=err.reason,
                                                      position=err.start)) from None
    try:
        obj = json.loads(raw, parse_constant=_no_constant)
        json.dumps(obj)  # as deep as the reader allows may be too deep for the writer
    except RecursionError:
        raise NeuralcorefError(Errors.E336.format(line=line, path=path)) from None
    except ValueError as err:  # JSONDecodeError
        raise NeuralcorefError(Errors.E310.format(line=line, path=path, error=quote(str(err)))) from None
    return obj


def _no_constant(name: str) -> Any:
    """NaN and Infinity: Python reads them, JSON has no such values (the output
    line holding them would not be JSON)."""
    raise ValueError(f"{name} is not a JSON value")


def _error_record(raw: Any, line: int, message: str) -> Dict[str, Any]:
    if isinstance(raw, bytes):
        raw = raw.decode("utf8", errors="replace")
    if isinstance(raw, str):
        raw = raw.rstrip("\r\n")
    return {"input_line": line, "input": raw, "coref": None, "coref_error": message}


#: A parsed input record: (line number, object, text, error record); text is None
#: for a bad record, whose error record is then set.
Parsed = Tuple[int, Optional[dict], Optional[str], Optional[Dict[str, Any]]]


def resolve_records(items: Iterable[Tuple[int, Union[str, bytes, dict, TextFile]]], nlp: "Language", *,
                    text_field: str = "text", batch_size: int = 64, n_process: int = 1,
                    strict: bool = False, path: str = "<input>",
                    record_timeout: Optional[float] = RECORD_TIMEOUT) -> Iterator[Dict[str, Any]]:
    """Output records for input records, in order: one per item.

    items (Iterable[Tuple[int, str | bytes | dict]]): (line number, JSON line or
        object); blank lines must already be left out.
    nlp (Language): a pipeline with the neuralcoref component.
    text_field (str): the field holding the text.
    batch_size (int): texts per ``nlp.pipe`` batch.
    n_process (int): worker processes (each dies with this one, see
        :mod:`neuralcoref.apps.workers`); 1 runs in this process.
    strict (bool): raise the coded error of the first bad item (after yielding
        every record before it) instead of yielding an error record.
    path (str): where the items come from, for error messages.
    record_timeout (float | None): seconds the pipeline may take on one record per
        100,000 characters of its text (at least this); a record that takes
        longer is stopped and becomes an error record (E434). None or 0: no
        deadline. Applied in a process's main thread only (not in Dask's threads).
    RETURNS (Iterator[Dict[str, Any]]): lazily, the input object with "coref" added, or an error
        record: a bad line (E310, E311, E171, E335-E337), a text the pipeline
        fails on (E338) or runs past its deadline on (E434) never stops the others.
    RAISES (NeuralcorefError): E170 for a bad batch_size or n_process (at once,
        not at the first record); with ``strict``, the first bad line's error.
    """
    check_int("batch_size", batch_size, 1, OWNER)
    check_int("n_process", n_process, 1, OWNER)
    _check_timeout(record_timeout)
    return _records(items, nlp, text_field, batch_size, n_process, strict, path, record_timeout)


def _check_timeout(record_timeout: Optional[float]) -> None:
    if record_timeout is not None and not (isinstance(record_timeout, (int, float))
                                           and not isinstance(record_timeout, bool)
                                           and 0 <= record_timeout < float("inf")):
        raise setting_error("record_timeout", record_timeout, "seconds, a number >= 0 (0: no deadline)", OWNER)


def _records(items: Iterable[Tuple[int, Union[str, bytes, dict, TextFile]]], nlp: "Language", text_field: str,
             batch_size: int, n_process: int, strict: bool, path: str,
             record_timeout: Optional[float]) -> Iterator[Dict[str, Any]]:
    parsed = (_parsed(line, item, path, text_field, nlp.max_length) for line, item in items)
    chunks = _chunks(parsed, batch_size)
    if n_process == 1:
        results = (_resolve_chunk(nlp, chunk, path, batch_size, record_timeout) for chunk in chunks)
    else:
        results = _pooled(nlp, chunks, path, batch_size, n_process, record_timeout)
    try:
        for records in results:
            for record in records:
                if strict and record["coref"] is None:
                    raise NeuralcorefError(record["coref_error"])
                yield record
    finally:
        results.close()  # now, not when a traceback lets go of it: stops the workers


def _parsed(line: int, item: Union[str, bytes, dict, TextFile], path: str, text_field: str,
            max_length: Optional[int]) -> Parsed:
    obj, text, error = _parse(item, line, path, text_field, max_length)
    return line, obj, text, error


def _chunks(parsed: Iterable[Parsed], batch_size: int) -> Iterator[List[Parsed]]:
    """Records in groups of ``batch_size`` texts (bad records ride along): the
    batches of one ``nlp.pipe`` over the good ones, whatever the bad ones."""
    chunk: List[Parsed] = []
    texts = 0
    for record in parsed:
        chunk.append(record)
        texts += record[2] is not None
        if texts >= batch_size:
            yield chunk
            chunk, texts = [], 0
    if chunk:
        yield chunk


def _resolve_chunk(nlp: "Language", chunk: List[Parsed], path: str, batch_size: int,
                   record_timeout: Optional[float]) -> Iterator[Dict[str, Any]]:
    """The output records of one chunk, in order, as their Docs come."""
    results = _coref_records(nlp, [(line, text) for line, _, text, _ in chunk if text is not None],
                             path, batch_size, record_timeout)
    for _, obj, text, error in chunk:
        if text is None:
            yield error
        else:
            coref, message = next(results)
            yield {**obj, "coref": coref, **({"coref_error": message} if message else {})}


def _coref_records(nlp: "Language", texts: List[Tuple[int, str]], path: str, batch_size: int,
                   record_timeout: Optional[float]) -> Iterator[Tuple[Optional[Dict[str, Any]], Optional[str]]]:
    """(doc_record, None) per text, or (None, E338 message) for a text the pipeline
    fails on, (None, E434 message) for one it runs past its deadline on.

    Each text is tokenized within its own deadline first (spaCy's tokenizer is
    where some texts take quadratic time); the Docs then go through the
    components together (``nlp.pipe``), within the deadline of one text as long
    as all of them. The timer runs only while the pipeline does, not while the
    caller writes. After a failure or that deadline, the rest are run one by
    one, each within its own deadline."""
    from .records import doc_record

    early: Dict[int, Tuple[None, str]] = {}  # position -> error of a text its tokenizer failed on
    docs = []
    for k, (line, text) in enumerate(texts):
        doc, error = _tokenized(nlp, line, text, path, record_timeout)
        if error is None:
            docs.append(doc)
        else:
            early[k] = (None, error)
    budget = Budget(record_deadline(sum(len(doc.text) for doc in docs), record_timeout))
    pipe = nlp.pipe(docs, batch_size=batch_size)
    k = 0
    try:
        while k < len(texts):
            if k not in early:
                with budget.spend():
                    record = doc_record(next(pipe))
                yield record, None
            else:
                yield early[k]
            k += 1
    except Exception:  # which text failed (or was slow) is unknown: each of the rest alone
        for j in range(k, len(texts)):
            yield early[j] if j in early else _one_record(nlp, *texts[j], path, record_timeout)


def _tokenized(nlp: "Language", line: int, text: str, path: str,
               record_timeout: Optional[float]) -> Tuple[Any, Optional[str]]:
    """(Doc, None), or (None, E434 / E338 message) when the tokenizer runs past the
    text's deadline or fails."""
    seconds = record_deadline(len(text), record_timeout)
    try:
        with time_limit(seconds):
            return nlp.make_doc(text), None
    except DeadlineExceeded:
        return None, Errors.E434.format(seconds=seconds, line=line, path=path, length=len(text),
                                        per_unit=record_timeout)
    except Exception as err:
        return None, Errors.E338.format(line=line, path=path, error=quote(f"{type(err).__name__}: {err}"))


def _one_record(nlp: "Language", line: int, text: str, path: str,
                record_timeout: Optional[float]) -> Tuple[Optional[Dict[str, Any]], Optional[str]]:
    from .records import doc_record

    seconds = record_deadline(len(text), record_timeout)
    try:
        with time_limit(seconds):
            return doc_record(nlp(text)), None
    except DeadlineExceeded:
        return None, Errors.E434.format(seconds=seconds, line=line, path=path, length=len(text),
                                        per_unit=record_timeout)
    except Exception as err:
        return None, Errors.E338.format(line=line, path=path, error=quote(f"{type(err).__name__}: {err}"))


def _pooled(nlp: "Language", chunks: Iterator[List[Parsed]], path: str, batch_size: int,
            n_process: int, record_timeout: Optional[float]) -> Iterator[List[Dict[str, Any]]]:
    """The chunks' records from worker processes, in order, with at most two
    chunks per worker in flight (the input is never read far ahead)."""
    from .workers import worker_pool

    with worker_pool(n_process, {"nlp": nlp}) as pool:
        pending: Deque = deque()
        for chunk in chunks:
            pending.append(pool.submit(_worker_chunk, chunk, path, batch_size, record_timeout))
            if len(pending) >= 2 * n_process:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _worker_chunk(chunk: List[Parsed], path: str, batch_size: int,
                  record_timeout: Optional[float]) -> List[Dict[str, Any]]:
    from .workers import worker_state

    return list(_resolve_chunk(worker_state()["nlp"], chunk, path, batch_size, record_timeout))
