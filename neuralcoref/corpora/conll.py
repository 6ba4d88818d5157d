"""Read and write CoNLL-2012 coreference files, streaming document by document.

A document starts with ``#begin document (ID); part NNN`` and ends with
``#end document``; each token is a line of whitespace-separated columns with the
coreference annotation last; a blank line ends a sentence. Coreference cells are
``-`` (or ``_`` or empty) or parts like ``(3``, ``3)`` and ``(3)``, joined by ``|`` or
run together. Cells are read exactly as the official reference scorer (v8.01)
reads them: one-token mentions first, then openings, then closings, each closing
matching the latest open mention of its cluster, each part removed from the cell
before the next is searched for.

Spans are ``(start, end)`` token offsets in the document, ``end`` exclusive.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ..errors import ConllFormatError, Errors, quote

Span = Tuple[int, int]
Cluster = List[Span]

_BEGIN = re.compile(r"^#\s*begin document[ \t]?(.*)$")
_END = re.compile(r"^#\s*end document")
_HEADER = re.compile(r"^\((.*)\);?\s*(?:part\s+(\S+))?\s*$")
# The reference discards split-antecedent parts such as '(12+3)'.
_SPLIT_ANTECEDENT = re.compile(r"\((\d+\+\d)\)")
_SINGLE = re.compile(r"\((\d+)\)")
_OPEN = re.compile(r"\((\d+)")
_CLOSE = re.compile(r"(\d+)\)")
_VALID_CELL = re.compile(r"^[\d()|+]*$")
_EMPTY_CELLS = {"", "-", "_"}
# Only ASCII blanks separate columns: a word may hold a no-break space.
_ASCII_BLANKS = " \t\r\n\f\v"
_ASCII_SPLIT = re.compile(r"[ \t\r\n\f\v]+")

#: Columns of the standard 12+ column layout that readers here use.
WORD_COLUMN = 3
SPEAKER_COLUMN = 9
MIN_COLUMNS_FOR_SPEAKER = 10


@dataclass
class ConllDocument:
    """One ``#begin document`` ... ``#end document`` block.

    doc_id (str): the document id, without the brackets.
    part (str): the part number as written ('000'), or '' when absent.
    rows (List[List[str]]): every token's columns except the coreference column.
    sentence_lengths (List[int]): number of tokens in each sentence.
    clusters (List[List[Tuple[int, int]]]): mention spans (end exclusive) per
        cluster, clusters in order of their first appearance in the file.
    header (str): the text after '#begin document ' as read, written back
        unchanged so that the reference scorer pairs the documents as before.
    """

    doc_id: str
    part: str = ""
    rows: List[List[str]] = field(default_factory=list)
    sentence_lengths: List[int] = field(default_factory=list)
    clusters: List[Cluster] = field(default_factory=list)
    header: str = ""

    @property
    def key(self) -> Tuple[str, str]:
        """(doc_id, part): how key and response documents are matched."""
        return (self.doc_id, self.part)

    @property
    def name(self) -> str:
        return f"{self.doc_id} part {self.part}" if self.part else self.doc_id

    @property
    def words(self) -> List[str]:
        """The token texts: the fourth column, or the first when there are < 5."""
        col = WORD_COLUMN if self.rows and len(self.rows[0]) >= WORD_COLUMN + 1 else 0
        return [row[col] for row in self.rows]

    @property
    def speakers(self) -> Optional[List[str]]:
        """The speaker column (10th) when the file has >= 10 columns, else None."""
        if not self.rows or len(self.rows[0]) + 1 < MIN_COLUMNS_FOR_SPEAKER:
            return None
        return [row[SPEAKER_COLUMN] for row in self.rows]

    @property
    def sentence_starts(self) -> List[bool]:
        """True for each token that starts a sentence."""
        starts: List[bool] = []
        for length in self.sentence_lengths:
            starts.extend([True] + [False] * (length - 1))
        return starts

    def __len__(self) -> int:
        return len(self.rows)


def parse_header(header: str) -> Tuple[str, str]:
    """Split the text after '#begin document' into (doc_id, part)."""
    match = _HEADER.match(header.strip())
    if match is None:
        return header.strip(), ""
    return match.group(1), match.group(2) or ""


def split_columns(line: str) -> List[str]:
    """The columns of a token line, split on runs of ASCII blanks."""
    if line.isascii():
        return line.split()
    return [col for col in _ASCII_SPLIT.split(line) if col]


def _take_all(pattern: "re.Pattern[str]", text: str) -> Tuple[List[str], str]:
    """Remove the first match of ``pattern`` until none is left, as the
    reference's ``while (s///)`` loops do (a removal can join a new match).

    RETURNS (Tuple[List[str], str]): the matches' first groups, and the rest.
    """
    found: List[str] = []
    match = pattern.search(text)
    while match is not None:
        found.append(match.group(1))
        text = text[: match.start()] + text[match.end():]
        match = pattern.search(text)
    return found, text


class _DocumentBuilder:
    """Accumulates the lines of one document, resolving brackets as it goes.

    The column count is that of the first token line without a trailing tab;
    on a line with a trailing tab and one column fewer, the tab is read as an
    empty last (coreference) cell. Lines seen before the count is known wait.
    """

    def __init__(self, header: str, path: str, line: int):
        doc_id, part = parse_header(header)
        self.doc = ConllDocument(doc_id=doc_id, part=part, header=header)
        self.path = path
        self.begin_line = line
        self.n_columns: Optional[int] = None
        self.pending: List[Tuple[List[str], int]] = []
        self.sentence_length = 0
        self.cluster_index: Dict[str, int] = {}
        self.open: Dict[str, List[Tuple[int, int]]] = {}

    def _cluster(self, label: str) -> Cluster:
        if label not in self.cluster_index:
            self.cluster_index[label] = len(self.doc.clusters)
            self.doc.clusters.append([])
        return self.doc.clusters[self.cluster_index[label]]

    def add_token(self, raw: str, line: int) -> None:
        columns = split_columns(raw)
        trailing_tab = raw.rstrip("\r\n").endswith("\t")
        self.sentence_length += 1
        if self.n_columns is None:
            if trailing_tab:
                self.pending.append((columns, line))
                return
            self._set_n_columns(len(columns), line)
        self._add_columns(columns, trailing_tab, line)

    def _set_n_columns(self, n_columns: int, line: int) -> None:
        if n_columns < 2:
            raise ConllFormatError(Errors.E014.format(found=n_columns), self.path, line)
        self.n_columns = n_columns
        pending, self.pending = self.pending, []
        for columns, pending_line in pending:
            self._add_columns(columns, True, pending_line)

    def _add_columns(self, columns: List[str], trailing_tab: bool, line: int) -> None:
        if trailing_tab and len(columns) == self.n_columns - 1:
            columns.append("")
        if len(columns) != self.n_columns:
            raise ConllFormatError(
                Errors.E004.format(found=len(columns), expected=self.n_columns),
                self.path, line,
            )
        cell = columns[-1]
        if not _VALID_CELL.match(cell) and cell not in _EMPTY_CELLS:
            raise ConllFormatError(Errors.E007.format(cell=quote(cell)), self.path, line)
        position = len(self.doc.rows)
        self.doc.rows.append(columns[:-1])
        if cell not in _EMPTY_CELLS:
            self._read_cell(cell, position, line)

    def _read_cell(self, cell: str, position: int, line: int) -> None:
        _, rest = _take_all(_SPLIT_ANTECEDENT, cell)
        singles, rest = _take_all(_SINGLE, rest)
        for label in singles:
            self._cluster(label).append((position, position + 1))
        opens, rest = _take_all(_OPEN, rest)
        for label in opens:
            self._cluster(label)
            self.open.setdefault(label, []).append((position, line))
        closes, rest = _take_all(_CLOSE, rest)
        for label in closes:
            stack = self.open.get(label)
            if not stack:
                raise ConllFormatError(Errors.E005.format(cluster=quote(label)), self.path, line)
            self._cluster(label).append((stack.pop()[0], position + 1))
        if rest.strip("|"):
            raise ConllFormatError(Errors.E007.format(cell=quote(cell)), self.path, line)

    def end_sentence(self) -> None:
        if self.sentence_length:
            self.doc.sentence_lengths.append(self.sentence_length)
            self.sentence_length = 0

    def finish(self, line: int) -> ConllDocument:
        if self.n_columns is None and self.pending:
            self._set_n_columns(max(len(cols) for cols, _ in self.pending), self.pending[0][1])
        self.end_sentence()
        unclosed = [(stack[0][1], label) for label, stack in self.open.items() if stack]
        if unclosed:
            first_line, example = min(unclosed)
            labels = ", ".join(sorted(label for _, label in unclosed))
            raise ConllFormatError(
                Errors.E006.format(clusters=quote(labels), doc=quote(self.doc.name), example=quote(example)),
                self.path, first_line,
            )
        return self.doc


def read_conll_lines(lines: Iterable[str], path: str = "<string>") -> Iterator[ConllDocument]:
    """Parse CoNLL-2012 lines, yielding each document as soon as it ends.

    Inside a document every line but blank ones and '#end document' is a token
    line, as for the reference scorer, even one that starts with '#'. Outside
    documents, '#' lines are comments.

    lines (Iterable[str]): the file's lines.
    path (str): the file name used in error messages.
    YIELDS (ConllDocument): the documents, in file order.
    """
    builder: Optional[_DocumentBuilder] = None
    line_no = 0
    for line_no, raw in enumerate(lines, start=1):
        text = raw.strip(_ASCII_BLANKS)
        if not text:
            if builder is not None:
                builder.end_sentence()
            continue
        if text[0] == "#":
            begin = _BEGIN.match(raw.rstrip("\r\n").lstrip(" \t"))
            if begin:
                if builder is not None:
                    raise ConllFormatError(Errors.E003.format(doc=quote(builder.doc.name)), path, line_no)
                builder = _DocumentBuilder(begin.group(1), path, line_no)
                continue
            if _END.match(text):
                if builder is None:
                    raise ConllFormatError(Errors.E008, path, line_no)
                yield builder.finish(line_no)
                builder = None
                continue
            if builder is None:
                continue
        if builder is None:
            raise ConllFormatError(Errors.E001, path, line_no)
        builder.add_token(raw, line_no)
    if builder is not None:
        raise ConllFormatError(Errors.E002.format(doc=quote(builder.doc.name)), path, line_no)


def _decoded_lines(file: BinaryIO, path: str) -> Iterator[str]:
    """The lines of a UTF-8 file (a byte-order mark is skipped), decoding each
    one alone so that an undecodable byte is reported with its line number."""
    for line_no, raw in enumerate(file, start=1):
        try:
            text = raw.decode("utf8")
        except UnicodeDecodeError as err:
            raise ConllFormatError(Errors.E013.format(reason=err.reason), path, line_no) from None
        if line_no == 1:
            text = text.lstrip("\ufeff")
        yield text


def read_conll(path: Union[str, Path]) -> Iterator[ConllDocument]:
    """Stream the documents of one CoNLL-2012 file.

    path (str | Path): the file.
    YIELDS (ConllDocument): the documents, read one at a time.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(Errors.E009.format(path=path))
    with path.open("rb") as file:
        yield from read_conll_lines(_decoded_lines(file, str(path)), str(path))


def conll_files(path: Union[str, Path]) -> List[Path]:
    """The CoNLL files at ``path``: the file itself, or a folder's files sorted by name."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(Errors.E009.format(path=path))
    files = sorted(
        p for p in path.rglob("*")
        if p.is_file() and (p.name.endswith("conll") or p.suffix == ".conll")
    )
    if not files:
        raise FileNotFoundError(Errors.E010.format(path=path))
    return files


def read_conll_path(path: Union[str, Path]) -> Iterator[ConllDocument]:
    """Stream the documents of a CoNLL file or of every CoNLL file in a folder."""
    for file in conll_files(path):
        yield from read_conll(file)


def coref_cells(n_tokens: int, clusters: Sequence[Sequence[Span]], doc: str = "") -> List[str]:
    """The coreference column for ``clusters``, numbered from 0 in the given order.

    On each token openings come first, then one-token mentions, then closings,
    joined by '|'. The reference scorer reads back exactly these spans for any
    mentions except two of the same cluster that cross (the format cannot tell
    which opening a closing belongs to); nested ones of the same cluster, and
    crossing ones of different clusters, are fine.

    n_tokens (int): the document's length.
    clusters (Sequence[Sequence[Tuple[int, int]]]): spans, end exclusive.
    doc (str): the document's name, for error messages.
    RETURNS (List[str]): one cell per token.
    """
    opens: List[List[Tuple[int, int]]] = [[] for _ in range(n_tokens)]
    singles: List[List[int]] = [[] for _ in range(n_tokens)]
    closes: List[List[Tuple[int, int]]] = [[] for _ in range(n_tokens)]
    for label, cluster in enumerate(clusters):
        for start, end in sorted(set(map(tuple, cluster))):
            if not 0 <= start < end <= n_tokens:
                raise ValueError(Errors.E017.format(
                    start=start, end=end, doc=doc, n_tokens=n_tokens))
            if end - start == 1:
                singles[start].append(label)
            else:
                opens[start].append((-(end - start), label))
                closes[end - 1].append((end - start, label))
    cells = []
    for i in range(n_tokens):
        parts = [f"({label}" for _, label in sorted(opens[i])]
        parts += [f"({label})" for label in singles[i]]
        parts += [f"{label})" for _, label in sorted(closes[i])]
        cells.append("|".join(parts) if parts else "-")
    return cells


def write_conll(
    out: Union[str, Path, IO[str]],
    docs: Iterable[ConllDocument],
    clusters: Optional[Iterable[Sequence[Sequence[Span]]]] = None,
) -> None:
    """Write documents in CoNLL-2012 format, tab-separated.

    out (str | Path | IO[str]): a path or an open text file.
    docs (Iterable[ConllDocument]): the documents; their rows are written as
        they are, except that blanks inside a cell become '_' and an empty
        cell '-', so that the columns read back the same.
    clusters (Iterable | None): clusters to write instead of each document's own,
        one entry per document (used to write predictions into a copy of a key).
    """
    if isinstance(out, (str, Path)):
        with Path(out).open("w", encoding="utf8") as file:
            write_conll(file, docs, clusters)
        return
    if clusters is None:
        for doc in docs:
            _write_document(out, doc, doc.clusters)
        return
    docs, clusters = list(docs), list(clusters)
    if len(docs) != len(clusters):
        raise ValueError(Errors.E016.format(n_clusters=len(clusters), n_docs=len(docs)))
    for doc, doc_clusters in zip(docs, clusters):
        _write_document(out, doc, doc_clusters)


def _header(doc: ConllDocument) -> str:
    if doc.header and parse_header(doc.header) == doc.key:
        return doc.header
    part = f"; part {doc.part}" if doc.part else ""
    return f"({doc.doc_id}){part}"


def _row_line(row: Sequence[str], cell: str) -> str:
    line = "\t".join(row)
    if line.count("\t") != len(row) - 1 or " " in line or "" in row or "\n" in line:
        line = "\t".join(_ASCII_SPLIT.sub("_", col) or "-" for col in row)
    return f"{line}\t{cell}\n" if row else f"{cell}\n"


def _write_document(out: IO[str], doc: ConllDocument, clusters: Sequence[Sequence[Span]]) -> None:
    if sum(doc.sentence_lengths) != len(doc.rows):
        raise ValueError(Errors.E015.format(
            doc=doc.name, n_rows=len(doc.rows), n_sentence_tokens=sum(doc.sentence_lengths)))
    cells = coref_cells(len(doc.rows), clusters, doc.name)
    out.write(f"#begin document {_header(doc)}\n")
    position = 0
    for length in doc.sentence_lengths:
        for _ in range(length):
            out.write(_row_line(doc.rows[position], cells[position]))
            position += 1
        out.write("\n")
    out.write("#end document\n")
