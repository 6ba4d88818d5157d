"""Read and write CoNLL-2012 coreference files, streaming document by document.

A document starts with ``#begin document (ID); part NNN`` and ends with
``#end document``; each token is a line of whitespace-separated columns with the
coreference annotation last; a blank line ends a sentence. Coreference cells are
``-`` (or ``_`` or empty) or parts like ``(3``, ``3)`` and ``(3)``, joined by ``|`` or
run together. Cells are read exactly as the official reference scorer (v8.01)
reads them: one-token mentions first, then openings, then closings, each closing
matching the latest open mention of its cluster.

Spans are ``(start, end)`` token offsets in the document, ``end`` exclusive.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from .errors import ConllFormatError, Errors

Span = Tuple[int, int]
Cluster = List[Span]

_BEGIN = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
_END = re.compile(r"^#\s*end document")
_HEADER = re.compile(r"^\((.*)\);?\s*(?:part\s+(\S+))?\s*$")
_SINGLE = re.compile(r"\((\d+)\)")
_OPEN = re.compile(r"\((\d+)")
_CLOSE = re.compile(r"(\d+)\)")
_VALID_CELL = re.compile(r"^[\d()|]*$")
_EMPTY_CELLS = {"", "-", "_"}

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
    """

    doc_id: str
    part: str = ""
    rows: List[List[str]] = field(default_factory=list)
    sentence_lengths: List[int] = field(default_factory=list)
    clusters: List[Cluster] = field(default_factory=list)

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


def _is_coref_cell(cell: str) -> bool:
    return cell in _EMPTY_CELLS or bool(_VALID_CELL.match(cell))


class _DocumentBuilder:
    """Accumulates the lines of one document, resolving brackets as it goes."""

    def __init__(self, header: str, path: str, line: int):
        doc_id, part = parse_header(header)
        self.doc = ConllDocument(doc_id=doc_id, part=part)
        self.path = path
        self.begin_line = line
        self.n_columns = 0
        self.sentence_length = 0
        self.cluster_index: Dict[str, int] = {}
        self.open: Dict[str, List[int]] = {}

    def _cluster(self, label: str) -> Cluster:
        if label not in self.cluster_index:
            self.cluster_index[label] = len(self.doc.clusters)
            self.doc.clusters.append([])
        return self.doc.clusters[self.cluster_index[label]]

    def add_token(self, raw: str, line: int) -> None:
        columns = raw.split()
        if self.n_columns == 0:
            self.n_columns = len(columns)
        elif len(columns) == self.n_columns - 1 and raw.rstrip("\r\n").endswith("\t"):
            columns.append("-")  # an empty last cell, written as a trailing tab
        if len(columns) != self.n_columns:
            raise ConllFormatError(
                Errors.E004.format(found=len(columns), expected=self.n_columns),
                self.path, line,
            )
        cell = columns[-1]
        if not _is_coref_cell(cell) or len(columns) < 2:
            raise ConllFormatError(Errors.E007.format(cell=cell), self.path, line)
        position = len(self.doc.rows)
        self.doc.rows.append(columns[:-1])
        self.sentence_length += 1
        if cell not in _EMPTY_CELLS:
            self._read_cell(cell, position, line)

    def _read_cell(self, cell: str, position: int, line: int) -> None:
        rest = cell
        for label in _SINGLE.findall(rest):
            self._cluster(label).append((position, position + 1))
        rest = _SINGLE.sub("", rest)
        for label in _OPEN.findall(rest):
            self._cluster(label)
            self.open.setdefault(label, []).append(position)
        rest = _OPEN.sub("", rest)
        for label in _CLOSE.findall(rest):
            stack = self.open.get(label)
            if not stack:
                raise ConllFormatError(Errors.E005.format(cluster=label), self.path, line)
            self._cluster(label).append((stack.pop(), position + 1))
        rest = _CLOSE.sub("", rest)
        if rest.strip("|"):
            raise ConllFormatError(Errors.E007.format(cell=cell), self.path, line)

    def end_sentence(self) -> None:
        if self.sentence_length:
            self.doc.sentence_lengths.append(self.sentence_length)
            self.sentence_length = 0

    def finish(self, line: int) -> ConllDocument:
        self.end_sentence()
        unclosed = sorted(label for label, stack in self.open.items() if stack)
        if unclosed:
            raise ConllFormatError(
                Errors.E006.format(clusters=", ".join(unclosed), doc=self.doc.name,
                                   example=unclosed[0]),
                self.path, line,
            )
        # Clusters opened but never given a mention cannot exist; drop empties.
        self.doc.clusters = [c for c in self.doc.clusters if c]
        return self.doc


def read_conll_lines(lines: Iterable[str], path: str = "<string>") -> Iterator[ConllDocument]:
    """Parse CoNLL-2012 lines, yielding each document as soon as it ends.

    lines (Iterable[str]): the file's lines.
    path (str): the file name used in error messages.
    YIELDS (ConllDocument): the documents, in file order.
    """
    builder: Optional[_DocumentBuilder] = None
    line_no = 0
    for line_no, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        begin = _BEGIN.match(stripped)
        if begin:
            if builder is not None:
                raise ConllFormatError(Errors.E003.format(doc=builder.doc.name), path, line_no)
            builder = _DocumentBuilder(begin.group(1), path, line_no)
        elif _END.match(stripped):
            if builder is None:
                raise ConllFormatError(Errors.E008, path, line_no)
            yield builder.finish(line_no)
            builder = None
        elif not stripped:
            if builder is not None:
                builder.end_sentence()
        elif stripped.startswith("#"):
            continue  # other comment lines carry nothing we use
        elif builder is None:
            raise ConllFormatError(Errors.E001, path, line_no)
        else:
            builder.add_token(raw, line_no)
    if builder is not None:
        raise ConllFormatError(Errors.E002.format(doc=builder.doc.name), path, line_no)


def read_conll(path: Union[str, Path]) -> Iterator[ConllDocument]:
    """Stream the documents of one CoNLL-2012 file.

    path (str | Path): the file.
    YIELDS (ConllDocument): the documents, read one at a time.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(Errors.E009.format(path=path))
    with path.open(encoding="utf8") as file:
        yield from read_conll_lines(file, str(path))


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


def coref_cells(n_tokens: int, clusters: Sequence[Sequence[Span]]) -> List[str]:
    """The coreference column for ``clusters``, numbered from 0 in the given order.

    On each token openings come first, then one-token mentions, then closings, with
    longer mentions opened first and closed last, so that the reference scorer (which
    matches each closing with the latest opening of its cluster) reads back exactly
    these spans for any properly nested mentions.
    RETURNS (List[str]): one cell per token.
    """
    opens: List[List[Tuple[int, int]]] = [[] for _ in range(n_tokens)]
    singles: List[List[int]] = [[] for _ in range(n_tokens)]
    closes: List[List[Tuple[int, int]]] = [[] for _ in range(n_tokens)]
    for label, cluster in enumerate(clusters):
        for start, end in sorted(set(map(tuple, cluster))):
            if not 0 <= start < end <= n_tokens:
                raise ValueError(f"Span ({start}, {end}) outside a document of {n_tokens} tokens")
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
    docs (Iterable[ConllDocument]): the documents; their rows are written unchanged.
    clusters (Iterable | None): clusters to write instead of each document's own,
        one entry per document (used to write predictions into a copy of a key).
    """
    if isinstance(out, (str, Path)):
        with Path(out).open("w", encoding="utf8") as file:
            write_conll(file, docs, clusters)
        return
    cluster_iter = iter(clusters) if clusters is not None else None
    for doc in docs:
        doc_clusters = next(cluster_iter) if cluster_iter is not None else doc.clusters
        _write_document(out, doc, doc_clusters)


def _write_document(out: IO[str], doc: ConllDocument, clusters: Sequence[Sequence[Span]]) -> None:
    part = f"; part {doc.part}" if doc.part else ""
    out.write(f"#begin document ({doc.doc_id}){part}\n")
    cells = coref_cells(len(doc.rows), clusters)
    position = 0
    for length in doc.sentence_lengths:
        for _ in range(length):
            out.write("\t".join(doc.rows[position] + [cells[position]]) + "\n")
            position += 1
        out.write("\n")
    out.write("#end document\n")
