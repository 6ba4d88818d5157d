"""spaCy Docs built from CoNLL documents: gold tokens, gold sentence breaks, speakers.

Training, ``neuralcoref predict`` and the extractor's recall measurement all parse
CoNLL data through these functions, so they see the same Docs.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..core.doc.speakers import set_speakers
from .conll import ConllDocument


def conll_to_doc(vocab: Vocab, conll_doc: ConllDocument) -> Doc:
    """An unparsed Doc with the CoNLL document's tokens and sentence breaks.

    Speakers, when the file has a speaker column, go to ``doc.user_data``.
    """
    words = conll_doc.words
    doc = Doc(vocab, words=words, sent_starts=conll_doc.sentence_starts or None)
    set_speakers(doc, conll_doc.speakers)
    return doc


def parse_conll_docs(
    nlp: Language,
    conll_docs: Iterable[ConllDocument],
    batch_size: int = 16,
    disable: Iterable[str] = ("neuralcoref",),
) -> Iterator[Tuple[ConllDocument, Doc]]:
    """Run ``nlp`` over CoNLL documents, keeping gold tokens and sentence breaks.

    nlp (Language): the spaCy pipeline (tagger, parser, NER...).
    conll_docs (Iterable[ConllDocument]): the documents, streamed.
    batch_size (int): documents per ``nlp.pipe`` batch.
    disable (Iterable[str]): pipes not to run (coreference by default).
    YIELDS (Tuple[ConllDocument, Doc]): each document with its parsed Doc.
    """
    present = [name for name in disable if name in nlp.pipe_names]
    pairs = ((conll_to_doc(nlp.vocab, c), c) for c in conll_docs)
    with nlp.select_pipes(disable=present):
        for doc, conll_doc in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
            yield conll_doc, doc
