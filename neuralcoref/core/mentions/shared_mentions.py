"""The mentions the coreference component extracted from a Doc, kept for the
components after it (the entity linker), so that they are not extracted twice.

They are held beside the Doc (a weak mapping: gone with the Doc), never in
``doc.user_data``: they neither travel with ``to_bytes`` / ``DocBin`` / pickles
nor bloat them. A reader gets them only when the rules that extracted them are
its own and the Doc's tokens, parse and entities are still those they were
extracted from; otherwise (a Doc deserialized or copied, a component between
that changed the entities, other rules) it gets None and extracts them itself.
"""
from __future__ import annotations

import weakref
from typing import NamedTuple, Optional

from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, LEMMA, MORPH, POS, SENT_START, TAG
from spacy.tokens import Doc

from ...lang.base import LanguageRules
from .mentions import Mentions

#: What the extractor reads of a Doc that a component may change without
#: retokenizing (which changes the length or the heads): the words' own
#: attributes (ORTH, LOWER, IS_ALPHA...) are left out, a third of the cost.
_READ = [POS, TAG, DEP, HEAD, ENT_IOB, ENT_TYPE, MORPH, LEMMA, SENT_START]


class KeptMentions(NamedTuple):
    """Mentions extracted from a Doc, the rules that extracted them, and a hash
    of what the extractor read of the Doc then."""

    mentions: Mentions
    rules: LanguageRules
    state: int


_KEPT: "weakref.WeakKeyDictionary[Doc, KeptMentions]" = weakref.WeakKeyDictionary()


def _doc_state(doc: Doc) -> int:
    # One read of the Doc's arrays (about 0.15 ms per 1,000 tokens), so a Doc changed since is seen.
    return hash((len(doc), doc.to_array(_READ).tobytes()))


def keep_mentions(doc: Doc, mentions: Mentions, rules: LanguageRules) -> None:
    """Keep the mentions ``rules`` extracted from ``doc`` (all of them: none left out)."""
    _KEPT[doc] = KeptMentions(mentions, rules, _doc_state(doc))


def kept_mentions(doc: Doc, rules: LanguageRules) -> Optional[Mentions]:
    """The mentions kept for ``doc`` if the same rules (the same object, or equal
    rules) extracted them from the Doc as it is now; None otherwise."""
    kept = _KEPT.get(doc)
    if kept is None or not (kept.rules is rules or kept.rules == rules):
        return None
    return kept.mentions if kept.state == _doc_state(doc) else None
