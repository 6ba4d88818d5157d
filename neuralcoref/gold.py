"""``neuralcoref.gold`` (documented public API): spaCy Docs from CoNLL documents,
implemented in :mod:`neuralcoref.corpora.gold` (speakers in :mod:`neuralcoref.core.speakers`)."""
from .core.speakers import SPEAKERS_KEY, get_speakers, set_speakers
from .corpora.gold import conll_to_doc, parse_conll_docs

__all__ = ["SPEAKERS_KEY", "conll_to_doc", "get_speakers", "parse_conll_docs", "set_speakers"]
