"""Per-token speaker names carried by a Doc (``doc.user_data``).

CoNLL readers set them (:func:`neuralcoref.core.doc.speakers.set_speakers`, the same function);
the featurizer and the quotation rules read them. Kept in the core so that the
runtime does not depend on the corpus readers.
"""
from __future__ import annotations

from typing import List, Optional

from spacy.tokens import Doc

#: ``doc.user_data`` key of the per-token speaker names (a list of str).
SPEAKERS_KEY = "neuralcoref_speakers"


def set_speakers(doc: Doc, speakers: Optional[List[str]]) -> None:
    """Attach one speaker name per token ('-' or None where unknown)."""
    if speakers is None:
        doc.user_data.pop(SPEAKERS_KEY, None)
        return
    if len(speakers) != len(doc):
        raise ValueError(f"{len(speakers)} speakers for a Doc of {len(doc)} tokens")
    doc.user_data[SPEAKERS_KEY] = list(speakers)


def get_speakers(doc: Doc) -> Optional[List[str]]:
    """The per-token speaker names set by :func:`set_speakers`, or None."""
    return doc.user_data.get(SPEAKERS_KEY)
