"""``neuralcoref predict``: coreference for every document of a CoNLL file.

Each Doc is built from the gold tokens and sentence breaks, parsed and resolved
by the pipeline, and written back with only the coreference column replaced —
the way coreference systems are evaluated.
"""
from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import IO, Dict, Iterable, Iterator, Optional, Union

from spacy.language import Language
from tqdm import tqdm

from ..corpora.conll import ConllDocument, conll_files, read_conll_path, write_conll
from ..corpora.entities import write_entities
from ..corpora.gold import parse_conll_docs
from ..errors import Errors, NeuralcorefError
from ..extensions import get_clusters
from .output_guard import check_output

#: The output path that means standard output.
STDOUT = "-"
#: Write errors that mean no room: disk full, file too large, quota exceeded.
FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}


def count_documents(path: Union[str, Path]) -> int:
    """The number of ``#begin document`` lines of a CoNLL file or folder: the
    progress bar's total, counted without parsing the documents."""
    count = 0
    for file in conll_files(path):
        with open(file, "rb") as handle:
            count += sum(line.startswith(b"#begin document") for line in handle)
    return count


def _within_limit(docs: Iterable[ConllDocument], max_length: int, path: Union[str, Path]) -> Iterator[ConllDocument]:
    """The documents, refusing one longer than ``max_length`` characters (E019):
    the parser would need memory in proportion (about 0.6 GB per 100,000 characters)."""
    for doc in docs:
        length = sum(len(word) + 1 for word in doc.words)
        if length > max_length:
            raise NeuralcorefError(Errors.E019.format(doc=doc.name, path=path, length=length,
                                                      limit=max_length))
        yield doc


def predict_conll(nlp: Language, input_path: Union[str, Path], output_path: Union[str, Path],
                  batch_size: int = 16, progress: bool = True,
                  entities_path: Optional[Union[str, Path]] = None) -> Dict[str, int]:
    """Write ``input_path`` to ``output_path`` with predicted coreference.

    nlp (Language): a pipeline with the neuralcoref component.
    input_path (str | Path): a CoNLL file or folder.
    output_path (str | Path): the CoNLL file to write (documents in input order);
        written to a temporary file first, so a failed run leaves no partial
        output (an earlier file at that path stays as it was). "-" writes to
        standard output, a document at a time.
    progress (bool): show a progress bar (on stderr) over the documents.
    entities_path (str | Path | None): also write the predicted mentions with
        their entities there (the layout of gum/entities.*.tsv); the pipeline
        needs the ``neuralcoref_linker`` component.
    RETURNS (Dict[str, int]): documents, tokens and predicted clusters.
    RAISES (NeuralcorefError): before any work, E340 if the output is the input,
        E342 if it cannot be written (a folder, no such folder); E019 for a
        document longer than ``nlp.max_length`` characters; E437 for an input
        without documents (nothing is written); E440 when the disk is full or
        the file too large (nothing is written).
    """
    total = count_documents(input_path) if progress else None
    conll_docs = _within_limit(read_conll_path(input_path), nlp.max_length, input_path)
    docs = tqdm(parse_conll_docs(nlp, conll_docs, batch_size=batch_size, disable=()),
                desc="predict", unit="doc", total=total, disable=not progress)
    entities = _EntitiesWriter(nlp, entities_path) if entities_path is not None else None
    if str(output_path) == STDOUT:
        stats = _write_predictions(sys.stdout, docs, entities)
        _check_some(stats, input_path)
        if entities is not None:
            entities.write()
        return stats
    check_output(output_path, input_path)
    output_path = Path(output_path)
    partial = output_path.with_name(output_path.name + ".partial")
    try:
        with partial.open("w", encoding="utf8") as out:
            stats = _write_predictions(out, docs, entities)
        _check_some(stats, input_path)  # before the output replaces an earlier one
        if entities is not None:
            entities.write()
        os.replace(partial, output_path)
    except OSError as err:
        if err.errno not in FULL_ERRNOS:
            raise
        reason = f"{err.strerror or err} (errno {err.errno})"
        raise NeuralcorefError(Errors.E440.format(output=output_path, reason=reason)) from err
    finally:
        partial.unlink(missing_ok=True)
    return stats


def _check_some(stats: Dict[str, int], input_path: Union[str, Path]) -> None:
    """E437 when the input held no document: an empty prediction is no success."""
    if not stats["docs"]:
        raise NeuralcorefError(Errors.E437.format(path=input_path))


def _write_predictions(out: IO[str], docs: Iterable, entities: Optional["_EntitiesWriter"] = None
                       ) -> Dict[str, int]:
    stats = {"docs": 0, "tokens": 0, "clusters": 0}
    for conll_doc, doc in docs:
        clusters = [[(m.start, m.end) for m in c] for c in get_clusters(doc)]
        write_conll(out, [conll_doc], [clusters])
        out.flush()
        if entities is not None:
            entities.add(conll_doc, doc)
        stats["docs"] += 1
        stats["tokens"] += len(doc)
        stats["clusters"] += len(clusters)
    return stats


class _EntitiesWriter:
    """Collects the entity lines of each document (predict --entities) and
    writes them once every document is done (no partial file on failure)."""

    def __init__(self, nlp: Language, path: Union[str, Path]):
        from ..linker import CorefLinker

        linkers = [pipe for _, pipe in nlp.pipeline if isinstance(pipe, CorefLinker)]
        if not linkers:
            raise NeuralcorefError(Errors.E409)
        self.kb, self.path, self.rows = linkers[0].kb, Path(path), []

    def add(self, conll_doc, doc) -> None:
        from ..linker import entity_mentions

        starts = [0]
        for length in conll_doc.sentence_lengths[:-1]:
            starts.append(starts[-1] + length)
        self.rows += entity_mentions(doc, conll_doc.doc_id, self.kb, starts)

    def write(self) -> None:
        with self.path.open("w", encoding="utf8") as file:
            write_entities(file, self.rows)
