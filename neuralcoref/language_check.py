"""A cheap check that a text is in the pipeline's language.

Parsing French with an English pipeline scores near zero without a word; the
stop-word rate of the first few hundred words tells the two apart long before:
about half of a text's words are stop words of its own language, and at most an
eighth are stop words of another (see docs/experiments/2026-11-26-first-hour.md).
A text too short for that rate to say much ("Marie est arrivée hier. Elle était
fatiguée.") is compared with the stop words of the other languages that have
rules: one of them must hold clearly more of its words.
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import AbstractSet, FrozenSet, Iterable, Iterator, List, Optional

from spacy.language import Language
from spacy.util import get_lang_class

from .errors import Warnings
from .lang import available_languages

#: Words sampled from the start of the text.
SAMPLE_WORDS = 300
#: Fewer words than this say too little for the rate alone.
MIN_WORDS = 30
#: Below this share of the pipeline's stop words, the text is not in its language.
MIN_STOP_WORD_RATE = 0.2
#: A shorter text is compared with other languages when it has this many words.
MIN_SHORT_WORDS = 5
#: ... and is in another one whose stop words are at least this share of its
#: words and twice the pipeline language's share.
MIN_OTHER_RATE = 0.3


_WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str) -> Iterator[str]:
    """The alphabetic runs of a raw text ("J'ai" gives "J", "ai"), lazily."""
    return (match.group() for match in _WORD.finditer(text))


def _sample(words: Iterable[str]) -> List[str]:
    # The first SAMPLE_WORDS alphabetic words, lowercased.
    sample = []
    for word in words:
        if any(c.isalpha() for c in word):
            sample.append(word.lower())
            if len(sample) == SAMPLE_WORDS:
                break
    return sample


def _rate(sample: List[str], stop_words: AbstractSet[str]) -> float:
    return sum(word in stop_words for word in sample) / len(sample)


@lru_cache(maxsize=None)
def _stop_words(lang: str) -> FrozenSet[str]:
    return frozenset(get_lang_class(lang).Defaults.stop_words)


def stop_word_rate(nlp: Language, words: Iterable[str]) -> Optional[float]:
    """The share of the first SAMPLE_WORDS alphabetic words that are stop words of
    ``nlp``'s language, or None when there are too few words or the language has
    no stop-word list."""
    return _stop_word_rate(nlp.Defaults.stop_words, _sample(words))


def _stop_word_rate(stop_words: AbstractSet[str], sample: List[str]) -> Optional[float]:
    if not stop_words or len(sample) < MIN_WORDS:
        return None
    return _rate(sample, stop_words)


def likelier_language(nlp: Language, words: Iterable[str]) -> Optional[str]:
    """For a text of MIN_SHORT_WORDS words or more: another language with rules
    whose stop words are at least MIN_OTHER_RATE of its words and twice the
    share of ``nlp``'s, the likeliest such; else None."""
    return _likelier_language(nlp.lang, nlp.Defaults.stop_words, _sample(words))


def _likelier_language(lang: str, stop_words: AbstractSet[str], sample: List[str]) -> Optional[str]:
    if len(sample) < MIN_SHORT_WORDS or not stop_words:
        return None
    own = _rate(sample, stop_words)
    rates = {other: _rate(sample, _stop_words(other)) for other in available_languages() if other != lang}
    found = [(rate, other) for other, rate in rates.items() if rate >= MIN_OTHER_RATE and rate >= 2 * own]
    return max(found)[1] if found else None


def warn_if_other_language(nlp: Language, words: Iterable[str], where: str) -> bool:
    """Warn (W104, W105) when ``words`` are clearly not in the pipeline's
    language: too few of its stop words in a long text, or clearly more of
    another language's in a short one. ``where`` names the text ("The text of
    dev.conll"). RETURNS (bool): whether it warned."""
    pipeline = f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '?')}"
    return bool(judge_language(nlp.lang, words, where, pipeline, nlp.Defaults.stop_words))


def judge_language(lang: str, words: Iterable[str], where: str, pipeline: str,
                   stop_words: Optional[AbstractSet[str]] = None) -> Optional[bool]:
    """Warn (W104, W105) when ``words`` are clearly not in language ``lang``, as
    :func:`warn_if_other_language` does, for callers that hold no pipeline (the
    component).

    lang (str): the pipeline's language code.
    words (Iterable[str]): the text's words (e.g. ``words_of(text)``); the first
        SAMPLE_WORDS alphabetic ones are read.
    where (str): names the text in the warning.
    pipeline (str): names the pipeline in the warning.
    stop_words (AbstractSet[str] | None): the language's; None: spaCy's list for ``lang``.
    RETURNS (bool | None): True when it warned, False when the text is in the
        language, None when it has too few words to tell.
    """
    stop_words = _stop_words(lang) if stop_words is None else stop_words
    words = _sample(words)
    rate = _stop_word_rate(stop_words, words)
    if rate is not None:
        if rate >= MIN_STOP_WORD_RATE:
            return False
        warnings.warn(Warnings.W104.format(where=where, lang=lang, rate=f"{rate:.0%}", pipeline=pipeline))
        return True
    if len(words) < MIN_SHORT_WORDS or not stop_words:
        return None
    other = _likelier_language(lang, stop_words, words)
    if other is None:
        return False
    warnings.warn(Warnings.W105.format(where=where, lang=lang, other=other, pipeline=pipeline))
    return True
