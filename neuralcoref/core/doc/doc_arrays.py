"""A parsed Doc read once: the token arrays every stage of the core reads.

Mentions, expletives, features, quotations, names, lexicon classes and binding
all read token attributes. :func:`read_doc` gets them with one
``doc.to_array`` call, derives the absolute heads, sentence ids and subtree
bounds once, and hands the same read-only arrays to every stage (the resolver
and the training featurizer build one per Doc and pass it down). The stages'
public functions still take a Doc alone; given no arrays, they read it
themselves.

What depends on a language's rules (label classes, quotation marks, the tree
tables of the syntactic features) is computed by the stage that owns it, from
these arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from ..util.cached import cached
from typing import Any, Dict, Hashable, List, Optional, Tuple

import numpy as np
from spacy.attrs import (DEP, ENT_IOB, ENT_TYPE, HEAD, IS_ALPHA, IS_PUNCT, IS_SPACE, LEMMA, LENGTH,
                         LOWER, MORPH, ORTH, POS, SENT_START, TAG)
from spacy.tokens import Doc

from ...errors import Errors, NeuralcorefError
from .. import _mentions
from .speakers import get_speakers

#: The columns of the one ``doc.to_array`` call. The first seven are the
#: mention extractor's (``mentions.ATTRS``, same order), so its kernel reads
#: this table as it is.
ATTRS = (POS, TAG, DEP, HEAD, LOWER, ENT_IOB, ENT_TYPE,
         MORPH, LEMMA, ORTH, IS_PUNCT, IS_SPACE, IS_ALPHA, LENGTH, SENT_START)
COLUMN = {attr: i for i, attr in enumerate(ATTRS)}


@dataclass(frozen=True)
class DocArrays:
    """The token arrays of one Doc, all (n_tokens,) and read-only.

    doc (Doc): the Doc they were read from (for its vocab and token texts).
    columns (ndarray): (len(ATTRS), n_tokens) uint64, ``doc.to_array(ATTRS)``
        transposed; every uint64 field below is a row of it.
    pos, tag, dep, lower, lemma, orth, ent_type, morph (uint64): string ids of
        the coarse and fine tags, dependency label, lowercase form, lemma, form,
        entity type and morphological analysis (0 where unset).
    ent_iob (uint64): ENT_IOB code (3 begin, 1 inside, 2 outside, 0 unset).
    head (int32): absolute index of each token's head, a root being its own head.
    left, right (int32): first and last token (inclusive) of each token's subtree.
    sent_start (int64): SENT_START (1 first of a sentence, -1 not, 0 unknown).
    sent (int32): sentence index of each token (0 for the first).
    is_punct, is_space, is_alpha (bool): the lexical flags.
    length (int64): length of each token's text, in characters.
    tensor (ndarray | None): ``doc.tensor`` as it is (not copied), (n_tokens,
        width) float32 for a pipeline with token vectors.
    speakers (List[str] | None): the per-token speaker names of
        :func:`~neuralcoref.core.doc.speakers.set_speakers`, or None.
    """

    doc: Doc
    columns: np.ndarray
    pos: np.ndarray
    tag: np.ndarray
    dep: np.ndarray
    lower: np.ndarray
    lemma: np.ndarray
    orth: np.ndarray
    ent_type: np.ndarray
    morph: np.ndarray
    ent_iob: np.ndarray
    head: np.ndarray
    left: np.ndarray
    right: np.ndarray
    sent_start: np.ndarray
    sent: np.ndarray
    is_punct: np.ndarray
    is_space: np.ndarray
    is_alpha: np.ndarray
    length: np.ndarray
    tensor: Optional[np.ndarray]
    speakers: Optional[List[str]]

    def __len__(self) -> int:
        return int(self.head.shape[0])

    @cached
    def children(self) -> Tuple[np.ndarray, np.ndarray]:
        """Each token's children as CSR arrays (:func:`children_index` of
        ``head``), built on first use and shared by the stages that walk the parse."""
        return children_index(self.head)

    @cached
    def paragraph_breaks(self) -> np.ndarray:
        """(k,) int64: the whitespace tokens that end a paragraph: those with a
        blank line where the Doc has one (a text wrapped within paragraphs),
        else those with a line break; empty for a Doc without line breaks.
        Built on first use, for the quotation turns and the voices."""
        spaces = [t for t in np.flatnonzero(self.is_space).tolist() if "\n" in self.doc[t].text]
        blank = [t for t in spaces if self.doc[t].text.count("\n") > 1]
        return np.array(blank or spaces, dtype=np.int64)

    @cached
    def memo(self) -> Dict[Hashable, Any]:
        """Per-Doc results that more than one stage reads (``frames.frame_verbs``,
        ``featurize.clause_persons``, ``classes.in_entity_kinds``), keyed by name (and rules), filled on first
        use: each is computed once per Doc. The arrays kept here are read-only."""
        return {}

    @property
    def table(self) -> np.ndarray:
        """(n_tokens, len(ATTRS)) uint64 view of ``columns``: the layout of
        ``doc.to_array(ATTRS)``, which the mention kernel reads."""
        return self.columns.T


def children_index(heads: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Each token's children as CSR arrays, roots (their own head) left out.

    heads (ndarray): (n,) int absolute head indices.
    RETURNS (Tuple[ndarray, ndarray]): kids (n_kids,) int64 token indices, and
        ptr (n + 1,) int64: the children of i, in order, are ``kids[ptr[i]:ptr[i + 1]]``.
    """
    heads = np.asarray(heads, dtype=np.int64)
    order = heads.argsort(kind="stable")
    kids = order[heads[order] != order]
    return kids, heads[kids].searchsorted(np.arange(len(heads) + 1)).astype(np.int64)


def read_doc(doc: Doc) -> DocArrays:
    """Read a Doc's token arrays with one ``doc.to_array`` call.

    doc (Doc): a Doc, parsed or not (unset attributes read 0, heads their own token).
    RETURNS (DocArrays): the read-only arrays.
    """
    n = len(doc)
    columns = np.ascontiguousarray(doc.to_array(list(ATTRS)).astype(np.uint64, copy=False)
                                   .reshape(n, len(ATTRS)).T)
    row = {attr: columns[i] for i, attr in enumerate(ATTRS)}
    # HEAD is a relative offset, SENT_START a signed flag: uint64 holds them wrapped.
    head = (np.arange(n, dtype=np.int64) + row[HEAD].view(np.int64)).astype(np.int32)
    left, right = _mentions.subtree_bounds(head)
    sent_start = row[SENT_START].view(np.int64)
    arrays = DocArrays(
        doc=doc, columns=columns, pos=row[POS], tag=row[TAG], dep=row[DEP], lower=row[LOWER],
        lemma=row[LEMMA], orth=row[ORTH], ent_type=row[ENT_TYPE], morph=row[MORPH],
        ent_iob=row[ENT_IOB], head=head, left=np.asarray(left), right=np.asarray(right),
        sent_start=sent_start, sent=sentence_ids(sent_start),
        is_punct=row[IS_PUNCT] != 0, is_space=row[IS_SPACE] != 0, is_alpha=row[IS_ALPHA] != 0,
        length=row[LENGTH].view(np.int64), tensor=doc.tensor, speakers=get_speakers(doc))
    for value in vars(arrays).values():
        if isinstance(value, np.ndarray) and value is not arrays.tensor:
            value.flags.writeable = False
    return arrays


def arrays_of(doc: Doc, arrays: Optional[DocArrays]) -> DocArrays:
    """``arrays`` when given, else the Doc read now: what each stage's public
    function calls, so that it works on a Doc alone.

    RAISES NeuralcorefError: E125 when ``arrays`` were read from another Doc.
    """
    if arrays is None:
        return read_doc(doc)
    if arrays.doc is not doc:
        raise NeuralcorefError(Errors.E125.format(found=len(arrays), expected=len(doc)))
    return arrays


def sentence_ids(sent_start: np.ndarray) -> np.ndarray:
    """Sentence index of each token, a new sentence at each SENT_START of 1 (the
    first token always starts one).

    sent_start (ndarray): (n_tokens,) int64 SENT_START values.
    RETURNS (ndarray): (n_tokens,) int32.
    """
    starts = (sent_start == 1).astype(np.int32)
    if starts.size:
        starts[0] = 1
    return starts.cumsum(dtype=np.int32) - 1
