"""A cheap check that a text is in the pipeline's language.

Parsing French with an English pipeline scores near zero without a word; the
stop-word rate of the first few hundred words tells the two apart long before:
about half of a text's words are stop words of its own language, and at most an
eighth are stop words of another (see docs/experiments/2026-11-26-first-hour.md).
"""
from __future__ import annotations

import warnings
from typing import Iterable, Optional

from spacy.language import Language

from .errors import Warnings

#: Words sampled from the start of the text.
SAMPLE_WORDS = 300
#: Fewer words than this say too little to warn about.
MIN_WORDS = 30
#: Below this share of the pipeline's stop words, the text is not in its language.
MIN_STOP_WORD_RATE = 0.2


def stop_word_rate(nlp: Language, words: Iterable[str]) -> Optional[float]:
    """The share of the first SAMPLE_WORDS alphabetic words that are stop words of
    ``nlp``'s language, or None when there are too few words or the language has
    no stop-word list."""
    stop_words = nlp.Defaults.stop_words
    sample = []
    for word in words:
        if any(c.isalpha() for c in word):
            sample.append(word.lower())
            if len(sample) == SAMPLE_WORDS:
                break
    if not stop_words or len(sample) < MIN_WORDS:
        return None
    return sum(word in stop_words for word in sample) / len(sample)


def warn_if_other_language(nlp: Language, words: Iterable[str], where: str) -> bool:
    """Warn (W104) when ``words`` (the start of ``where``) are clearly not in the
    pipeline's language. RETURNS (bool): whether it warned."""
    rate = stop_word_rate(nlp, words)
    if rate is None or rate >= MIN_STOP_WORD_RATE:
        return False
    warnings.warn(Warnings.W104.format(where=where, lang=nlp.lang, rate=f"{rate:.0%}",
                                       pipeline=f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '?')}"))
    return True
