"""``doc._.coref_resolved``: the text with each mention replaced by its main mention."""
from __future__ import annotations

from typing import List, Optional, Tuple

from spacy.tokens import Doc, Span

_POSSESSIVE_TAGS = {"PRP$", "WP$"}


def _is_pronoun(span: Span) -> bool:
    return span.root.pos_ == "PRON"


def _is_name(span: Span) -> bool:
    return span.root.pos_ == "PROPN"


def _is_possessive(span: Span) -> bool:
    root = span.root
    return len(span) == 1 and (root.tag_ in _POSSESSIVE_TAGS or "Yes" in root.morph.get("Poss"))


def _replacement(mention: Span, main: Span) -> Optional[str]:
    """What replaces ``mention``, or None to keep it."""
    if _is_pronoun(main) or (_is_name(mention) and not _is_name(main)):
        return None  # never replace by a pronoun, nor a name by something vaguer
    text = main.text
    if _is_possessive(mention) and not text.endswith(("'s", "’s")):
        text += "'" if text.endswith("s") else "'s"
    return text


def coref_resolved(doc: Doc) -> str:
    """The Doc's text with every mention replaced by its cluster's main mention.

    Possessives stay possessive ("his car" -> "John's car"); a mention inside a
    replaced (or main) mention is not replaced again; names are never replaced
    by pronouns.
    """
    from .extensions import get_clusters

    edits: List[Tuple[int, int, Optional[str]]] = []
    for cluster in get_clusters(doc):
        edits.append((cluster.main.start, cluster.main.end, None))
        for mention in cluster.mentions:
            if (mention.start, mention.end) != (cluster.main.start, cluster.main.end):
                edits.append((mention.start, mention.end, _replacement(mention, cluster.main)))
    # Outermost first; anything overlapping an accepted edit is dropped.
    edits.sort(key=lambda e: (e[0], -e[1], e[2] is not None))
    accepted: List[Tuple[int, int, Optional[str]]] = []
    for start, end, text in edits:
        if accepted and start < accepted[-1][1]:
            continue
        accepted.append((start, end, text))
    pieces, i = [], 0
    for start, end, text in accepted:
        pieces.append(doc[i:start].text_with_ws)
        if text is None:
            pieces.append(doc[start:end].text_with_ws)
        else:
            pieces.append(text + doc[end - 1].whitespace_)
        i = end
    pieces.append(doc[i:].text_with_ws)
    return "".join(pieces)
