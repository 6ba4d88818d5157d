"""Entity files: one line per mention with its entity, in the layout of GUM's
``entities.{train,dev}.tsv``, and the scores of linking.

Columns (tab-separated, after a header line): doc_id, sentence (0-based within
the document), start, end (token positions within the sentence, both
inclusive), cluster, entity_type, wikipedia_title, wikidata_id; ``_`` where
unknown. Every mention of a linked entity carries its id, pronouns included.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set, TextIO, Tuple, Union

from ..errors import Errors, NeuralcorefError, quote

COLUMNS = ("doc_id", "sentence", "start", "end", "cluster", "entity_type", "wikipedia_title", "wikidata_id")
EMPTY = "_"


@dataclass(frozen=True)
class EntityMention:
    """One line of an entities file (None where the file has '_')."""

    doc_id: str
    sentence: int
    start: int
    end: int
    cluster: Optional[str] = None
    entity_type: Optional[str] = None
    wikipedia_title: Optional[str] = None
    wikidata_id: Optional[str] = None

    def cells(self) -> List[str]:
        return [self.doc_id, str(self.sentence), str(self.start), str(self.end)] + [
            EMPTY if v is None or v == "" else str(v)
            for v in (self.cluster, self.entity_type, self.wikipedia_title, self.wikidata_id)]


def _value(cell: str) -> Optional[str]:
    cell = cell.strip()
    return None if cell in ("", EMPTY) else cell


def read_entities(path: Union[str, Path]) -> List[EntityMention]:
    """The mentions of an entities file.

    RAISES NeuralcorefError: E408 (file and line) for a missing header, a line
        without 8 columns, or positions that are not whole numbers 0 or more
        (start <= end).
    """
    mentions = []
    with open(path, encoding="utf8") as file:
        for line_no, line in enumerate(file, 1):
            cells = line.rstrip("\r\n").split("\t")
            if line_no == 1:
                if [c.strip() for c in cells[:len(COLUMNS)]] != list(COLUMNS):
                    raise NeuralcorefError(Errors.E408.format(
                        path=path, line=1, reason=f"the header is {quote(line.strip(), 120)}"))
                continue
            if not line.strip():
                continue
            mentions.append(_mention(cells, path, line_no))
    return mentions


def _mention(cells: List[str], path, line_no: int) -> EntityMention:
    if len(cells) != len(COLUMNS):
        raise NeuralcorefError(Errors.E408.format(path=path, line=line_no,
                                                  reason=f"{len(cells)} columns, not {len(COLUMNS)}"))
    try:
        sentence, start, end = (int(c) for c in cells[1:4])
    except ValueError:
        sentence = start = end = -1
    if min(sentence, start, end) < 0 or start > end:
        raise NeuralcorefError(Errors.E408.format(path=path, line=line_no, reason=(
            f"sentence, start, end are {quote(' '.join(cells[1:4]), 60)}: give whole numbers, start <= end")))
    return EntityMention(cells[0].strip(), sentence, start, end, *(_value(c) for c in cells[4:]))


def write_entities(file: TextIO, mentions: Iterable[EntityMention]) -> int:
    """Write the header and one line per mention; RETURNS (int): lines written."""
    file.write("\t".join(COLUMNS) + "\n")
    n = 0
    for m in mentions:
        file.write("\t".join(m.cells()) + "\n")
        n += 1
    return n


@dataclass
class PRF:
    """Precision, recall and F1 (percent) of matched items."""

    correct: int
    predicted: int
    gold: int

    @property
    def precision(self) -> float:
        return 100.0 * self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return 100.0 * self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> Dict[str, float]:
        return {"p": round(self.precision, 2), "r": round(self.recall, 2), "f1": round(self.f1, 2),
                "correct": self.correct, "predicted": self.predicted, "gold": self.gold}


def _prf(key: Set, response: Set) -> PRF:
    return PRF(len(key & response), len(response), len(key))


def link_scores(key: Iterable[EntityMention], response: Iterable[EntityMention],
                documents: Optional[Set[str]] = None) -> Dict[str, PRF]:
    """Mention-level and document-level linking scores.

    key, response (Iterable[EntityMention]): gold and predicted mentions; only
        those with a Wikidata id count.
    documents (Set[str] | None): score only these documents; None: all of the key's.
    RETURNS (Dict[str, PRF]): "mention": a response mention is right when the
        key has the same document, sentence, start, end and id; "document": the
        sets of (document, id).
    """
    def linked(mentions):
        return [m for m in mentions if m.wikidata_id is not None]

    key, response = linked(key), linked(response)
    if documents is None:
        documents = {m.doc_id for m in key}
    response = [m for m in response if m.doc_id in documents]
    key = [m for m in key if m.doc_id in documents]

    def spans(ms) -> Set[Tuple]:
        return {(m.doc_id, m.sentence, m.start, m.end, m.wikidata_id) for m in ms}

    def docs(ms) -> Set[Tuple]:
        return {(m.doc_id, m.wikidata_id) for m in ms}

    return {"mention": _prf(spans(key), spans(response)), "document": _prf(docs(key), docs(response))}


def evaluate_link_files(key: Union[str, Path], response: Union[str, Path]) -> Dict[str, PRF]:
    """:func:`link_scores` of two entities files, over the documents of both
    (a key document the response lacks counts as missed)."""
    key_mentions, response_mentions = read_entities(key), read_entities(response)
    documents = {m.doc_id for m in key_mentions}
    return link_scores(key_mentions, response_mentions, documents)


def format_link_scores(scores: Dict[str, PRF]) -> str:
    """The scores as a small table."""
    lines = [f"{'level':<10}{'P':>8}{'R':>8}{'F1':>8}{'correct':>9}{'predicted':>11}{'gold':>7}"]
    for level, s in scores.items():
        lines.append(f"{level:<10}{s.precision:8.2f}{s.recall:8.2f}{s.f1:8.2f}{s.correct:9d}"
                     f"{s.predicted:11d}{s.gold:7d}")
    return "\n".join(lines)
