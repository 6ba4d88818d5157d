"""The ``neuralcoref`` spaCy component.

    nlp = spacy.load("en_core_web_sm")
    nlp.add_pipe("neuralcoref")
    doc = nlp("My sister has a dog. She loves him.")
    doc._.coref_clusters   # [My sister: [My sister, She], a dog: [a dog, him]]

``predict`` is pure (Docs -> coreference results); ``set_annotations`` writes the
results to ``doc.spans`` (see :mod:`neuralcoref.extensions`). The model folder is
saved with the pipeline (``nlp.to_disk``) and restored by ``spacy.load``.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import minibatch
from spacy.vocab import Vocab

from .artifacts.model_dir import (CARD_FILE, CONFIG_BYTES, CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE,
                                  fallback_models, load_model, pipeline_id, resolve_model_path)
from .core.clustering import check_link_offsets
from .core.model import CorefModel
from .core.pairs import candidate_window
from .core.resolver import DocCoref, Resolver
from .errors import Errors, ModelLoadError, NeuralcorefError, Warnings, quote
from .extensions import SCORES_KEY, get_clusters, register_extensions, set_clusters
from .lang import get_pipeline_rules, get_rules
from .lang.base import LanguageRules
from .validation import (COMPONENT_FIELDS, check_bool, check_float, check_int, check_with, component_problems,
                         component_settings, word_lists, words)

#: The files a saved component holds: its model folder's, and its settings.
MODEL_FILES = (CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE, CARD_FILE)
SETTINGS_FILE = "cfg.json"

#: The predecessor's blacklist: first- and second-person pronouns left unresolved.
DEFAULT_BLACKLIST = ("i", "me", "my", "you", "your")

DEFAULT_CONFIG = {
    "greedyness": 0.5,
    "max_dist": None,
    "max_dist_match": None,
    "max_dist_nominal": None,
    "link_offsets": None,
    "top_antecedents": None,
    "blacklist": False,
    "store_scores": False,
    "conv_dict": None,
    "model": None,
}


@Language.factory(
    "neuralcoref",
    default_config=DEFAULT_CONFIG,
    requires=["token.pos", "token.dep", "token.head", "token.morph"],
    assigns=["doc.spans", "doc._.coref_clusters", "doc._.coref_resolved"],
    default_score_weights={"coref_f": 1.0, "coref_muc_f": None, "coref_bcub_f": None,
                           "coref_ceafe_f": None},
)
def make_neuralcoref(
    nlp: Language,
    name: str,
    greedyness: float,
    max_dist: Optional[int],
    max_dist_match: Optional[int],
    max_dist_nominal: Optional[int],
    link_offsets: Optional[Dict[str, float]],
    top_antecedents: Optional[int],
    blacklist: Union[bool, List[str]],
    store_scores: bool,
    conv_dict: Optional[Dict[str, List[str]]],
    model: Optional[str],
) -> "NeuralCoref":
    """Create the coreference component (see NeuralCoref for the settings).

    RAISES NeuralcorefError: E159 when the pipeline has components but no parser.
    """
    check_parser(nlp)
    return NeuralCoref(nlp.vocab, name=name, lang=nlp.lang, pipeline=pipeline_id(nlp), greedyness=greedyness,
                       max_dist=max_dist, max_dist_match=max_dist_match,
                       max_dist_nominal=max_dist_nominal, link_offsets=link_offsets,
                       top_antecedents=top_antecedents, blacklist=blacklist,
                       store_scores=store_scores, conv_dict=conv_dict, model=model,
                       rules=get_pipeline_rules(nlp))


class NeuralCoref(Pipe):
    """Resolves coreference: clusters of mentions on ``doc.spans``.

    vocab (Vocab): the pipeline's vocabulary.
    name (str): the component's name in the pipeline.
    lang (str): the pipeline's language, which picks the shipped model and rules.
    pipeline (str | None): the pipeline's :func:`~neuralcoref.artifacts.model_dir.pipeline_id`;
        the default model is the language's portable one (it reads no token
        vectors) when the default model reads other vectors than this
        pipeline's, and a chosen model that does warns (W103). None: not checked.
    greedyness (float): 0-1; 0.5 links as trained, higher links more.
    max_dist (int | None): preceding mentions considered as antecedents of a
        pronoun; None: the model's setting (50 when it records none).
    max_dist_match (int | None): how far back head-matching mentions are
        considered; None: the model's setting (500 when it records none).
    max_dist_nominal (int | None): preceding mentions considered as antecedents
        of other mentions (names, nominals, lists), besides the head-matching
        ones; None: the model's setting (``max_dist`` when it records none).
    link_offsets (Dict[str, float] | None): added to the link threshold of
        anaphors of each mention type ("pronominal", "nominal", "proper",
        "list"); negative links more. None: the model's (tuned on dev data by
        ``neuralcoref tune``), {} for none.
    top_antecedents (int | None): for an ensemble model (such as "en"), how many
        candidate antecedents of each mention all its members score, picked by
        its first member's scores (coarse-to-fine); 0 for all of them. None: the
        model's setting.
    blacklist (bool | List[str]): leave these words unresolved; True means the
        predecessor's list (i, me, my, you, your).
    store_scores (bool): keep the scores in ``doc._.coref_scores``.
    conv_dict (Dict[str, List[str]] | None): rare words represented by the mean
        embedding of common ones, e.g. {"Angela": ["woman", "girl"]}.
    model (str | None): a shipped model's name ("en"; "en_portable" and
        "en_fast", smaller English models; "fr", trained on fr_core_news_md;
        "fr_sm", trained on fr_core_news_sm) or a model folder; None picks the
        shipped model of the pipeline's language that reads its token vectors.
    rules (LanguageRules | None): the mention rules; by default those of ``lang``
        (the factory picks them for the pipeline, see ``get_pipeline_rules``).
    """

    def __init__(self, vocab: Vocab, name: str = "neuralcoref", *, lang: str = "en",
                 pipeline: Optional[str] = None,
                 greedyness: float = 0.5, max_dist: Optional[int] = None,
                 max_dist_match: Optional[int] = None, max_dist_nominal: Optional[int] = None,
                 link_offsets: Optional[Dict[str, float]] = None,
                 top_antecedents: Optional[int] = None,
                 blacklist: Union[bool, Sequence[str]] = False, store_scores: bool = False,
                 conv_dict: Optional[Dict[str, List[str]]] = None, model: Optional[str] = None,
                 rules: Optional[LanguageRules] = None):
        model_s = "the model's setting"  # what null means, which E170 says
        greedyness = check_float("greedyness", greedyness, 0.0, 1.0)
        max_dist = check_int("max_dist", max_dist, 0, none_means=model_s)
        max_dist_match = check_int("max_dist_match", max_dist_match, 0, none_means=model_s)
        max_dist_nominal = check_int("max_dist_nominal", max_dist_nominal, 0, none_means=model_s)
        link_offsets = check_with("link_offsets", link_offsets, check_link_offsets,
                                  "a mapping of mention types to numbers", none_means=model_s)
        top_antecedents = check_int("top_antecedents", top_antecedents, 0, hint=" (0: every candidate)",
                                    none_means=model_s)
        store_scores = check_bool("store_scores", store_scores)
        if not isinstance(blacklist, bool):
            blacklist = check_with("blacklist", blacklist, words, "true, false or a list of words")
        conv_dict = check_with("conv_dict", conv_dict, word_lists, "a mapping of words to lists of words",
                               none_means="no conversions")
        # Mentions follow the pipeline's labels, so the rules are its language's.
        self.rules = rules if rules is not None else get_rules(lang)
        register_extensions()
        self.vocab = vocab
        self.name = name
        self.lang = lang
        self.cfg = {"greedyness": greedyness, "max_dist": max_dist,
                    "max_dist_match": max_dist_match, "max_dist_nominal": max_dist_nominal,
                    "link_offsets": link_offsets, "top_antecedents": top_antecedents,
                    "store_scores": store_scores,
                    "blacklist": list(DEFAULT_BLACKLIST) if blacklist is True
                    else list(blacklist or []),
                    "conv_dict": dict(conv_dict or {})}
        self.model_ref = model
        self.pipeline = pipeline
        self._resolver: Optional[Resolver] = None
        self._load_error: Optional[ModelLoadError] = None
        self._model_files: Dict[str, bytes] = {}
        self._load(resolve_model_path(model, lang, pipeline), eager=True)

    def _load(self, path: Path, eager: bool = False) -> None:
        """Load a model folder. A missing folder is only remembered when ``eager``:
        ``spacy.load`` creates the component before ``from_disk`` brings its own copy."""
        if eager and not path.exists():
            self._load_error = ModelLoadError(Errors.E102.format(path=path))
            warnings.warn(str(self._load_error) + " (expecting it from nlp.from_disk)")
            return
        self._set_model(load_model(path))

    def _set_model(self, model: CorefModel) -> None:
        # The files are kept in memory for to_disk / to_bytes / pickling: the folder
        # may be gone by then (from_bytes loads from a temporary one).
        self._model_files = _read_model_files(model.path) if model.path is not None else {}
        if self.pipeline is not None and not model.config.reads_vectors_of(self.pipeline):
            expected = " or ".join(model.config.vector_sources)
            others = fallback_models(self.lang, self.pipeline)
            fallback = f", or model '{others[0]}', which runs on this pipeline as trained" if others else ""
            warnings.warn(Warnings.W103.format(expected=expected, pipeline=self.pipeline, fallback=fallback))
        cfg = self.cfg
        # An unset candidate window is the one the model records.
        max_dist, max_dist_match, max_dist_nominal = candidate_window(
            model.config.defaults, cfg["max_dist"], cfg["max_dist_match"], cfg["max_dist_nominal"])
        self._resolver = Resolver(model, rules=self.rules,
                                  greedyness=cfg["greedyness"], max_dist=max_dist,
                                  max_dist_match=max_dist_match, max_dist_nominal=max_dist_nominal,
                                  link_offsets=cfg.get("link_offsets"),
                                  top_antecedents=cfg.get("top_antecedents"), blacklist=cfg["blacklist"],
                                  conv_dict=cfg["conv_dict"])
        self._load_error = None

    @property
    def resolver(self) -> Resolver:
        """The loaded resolver (coded error if no model could be loaded)."""
        if self._resolver is None:
            raise self._load_error or ModelLoadError(Errors.E102.format(path=self.model_ref))
        return self._resolver

    @property
    def model(self) -> Optional[CorefModel]:
        """The loaded model, or None before one is loaded. Never raises: spaCy
        inspects ``pipe.model`` of every component while building a pipeline
        (e.g. ``spacy.load``), before ``from_disk`` brings the model."""
        return self._resolver.model if self._resolver is not None else None

    def __call__(self, doc: Doc) -> Doc:
        self.set_annotations([doc], self.predict([doc]))
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 64) -> Iterator[Doc]:
        """Resolve Docs in batches whose mentions are scored together."""
        for docs in minibatch(stream, size=batch_size):
            self.set_annotations(docs, self.predict(docs))
            yield from docs

    def predict(self, docs: Iterable[Doc]) -> List[DocCoref]:
        """Coreference of parsed Docs, without changing them."""
        return self.resolver.predict(list(docs), store_scores=self.cfg["store_scores"])

    def set_annotations(self, docs: Iterable[Doc], results: List[DocCoref]) -> None:
        """Write clusters (and scores) to the Docs."""
        for doc, result in zip(docs, results):
            spans = result.cluster_spans()
            s, e = result.mentions.starts, result.mentions.ends
            set_clusters(doc, spans, [(int(s[m]), int(e[m])) for m in result.mains])
            if result.single is not None:
                doc.user_data[SCORES_KEY] = _raw_scores(result)

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, float]:
        """CoNLL scores of predicted against reference clusters (both on doc.spans)."""
        from .corpora.coref_scorer import score_documents

        pairs = [([[(m.start, m.end) for m in c] for c in get_clusters(eg.reference)],
                  [[(m.start, m.end) for m in c] for c in get_clusters(eg.predicted)])
                 for eg in examples]
        scores = score_documents(pairs)
        return {"coref_f": scores.conll_f1, "coref_muc_f": scores.muc.f1,
                "coref_bcub_f": scores.bcub.f1, "coref_ceafe_f": scores.ceafe.f1}

    # Serialization: the model folder's files, inside the pipeline's folder.
    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for name, data in self._files().items():
            (path / name).write_bytes(data)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> "NeuralCoref":
        """Load the settings (cfg.json, checked: E117) and the model folder's files
        saved by ``to_disk``; only those known names are read."""
        cfg_file = Path(path) / SETTINGS_FILE
        if cfg_file.exists():
            self.cfg.update(_read_settings(cfg_file, required=[k for k in COMPONENT_FIELDS
                                                                if k not in self.cfg]))
        self._set_model(load_model(Path(path)))
        return self

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        return srsly.msgpack_dumps(self._files())

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = ()) -> "NeuralCoref":
        """Load what ``to_bytes`` wrote: a mapping of the known file names to bytes,
        checked before anything is written (E115), then loaded as by ``from_disk``."""
        import tempfile

        files = _checked_files(bytes_data)
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in files.items():
                (Path(tmp) / name).write_bytes(data)
            self.from_disk(tmp)
        return self

    def _files(self) -> Dict[str, bytes]:
        if self._resolver is None or not self._model_files:
            raise self._load_error or ModelLoadError(Errors.E151)
        files = {name: data for name, data in self._model_files.items() if name in MODEL_FILES}
        files[SETTINGS_FILE] = json.dumps(self.cfg).encode("utf8")
        return files

    def __reduce__(self):
        # Pickled (e.g. for nlp.pipe(n_process=2)) as its bytes, never as pickle of arrays.
        return (_from_bytes, (self.vocab, self.name, self.lang, self.rules, self.pipeline, self.to_bytes()))

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp=None) -> None:
        """Check the pipeline (E159 without a parser); the model itself is trained
        with ``neuralcoref train``."""
        if nlp is not None:
            check_parser(nlp)


def check_parser(nlp: Language) -> None:
    """Refuse (E159) a pipeline that has components but none that parses, so that
    the error comes when the component is added, not at the first Doc. A blank
    pipeline passes: it serves Docs parsed elsewhere (``pipe(doc)`` on built Docs)."""
    if not nlp.pipe_names:
        return
    for name in nlp.pipe_names:
        if "token.dep" in nlp.get_pipe_meta(name).assigns:
            return
    example = "en_core_web_sm" if nlp.lang == "en" else f"{nlp.lang}_core_news_sm"
    raise NeuralcorefError(Errors.E159.format(
        pipeline=f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '?')}",
        components=", ".join(nlp.pipe_names), example=example))


def _from_bytes(vocab: Vocab, name: str, lang: str, rules: LanguageRules,
                pipeline: Optional[str], data: bytes) -> NeuralCoref:
    pipe = NeuralCoref.__new__(NeuralCoref)
    pipe.vocab, pipe.name, pipe.lang, pipe.rules, pipe.pipeline = vocab, name, lang, rules, pipeline
    pipe.cfg, pipe.model_ref, pipe._resolver, pipe._load_error = {}, None, None, None
    pipe._model_files = {}
    register_extensions()
    return pipe.from_bytes(data)


def _checked_files(bytes_data: bytes) -> Dict[str, bytes]:
    """The files of a ``to_bytes`` blob: E115 unless it maps known file names (never
    a path: "../x" or "/etc/x" would be written outside the folder) to bytes."""
    known = ", ".join((*MODEL_FILES, SETTINGS_FILE))
    try:
        files = srsly.msgpack_loads(bytes_data)
    except Exception as err:  # msgpack raises many kinds (ExtraData, ValueError...)
        raise ModelLoadError(Errors.E115.format(name=f"nothing readable ({type(err).__name__})",
                                                known=known)) from None
    if not isinstance(files, dict):
        raise ModelLoadError(Errors.E115.format(name=f"no mapping but {type(files).__name__}",
                                                known=known))
    for name, data in files.items():
        if name not in (*MODEL_FILES, SETTINGS_FILE) or not isinstance(data, bytes):
            shown = quote(repr(name), 100) if isinstance(data, bytes) else f"{quote(repr(name), 100)} (not bytes)"
            raise ModelLoadError(Errors.E115.format(name=shown, known=known))
    return files


def _read_settings(file: Path, required: Iterable[str] = ()) -> Dict[str, Any]:
    """A saved pipeline's cfg.json, checked like the factory's settings (E117)."""
    if file.stat().st_size > CONFIG_BYTES:
        raise ModelLoadError(Errors.E117.format(path=file, problems=(
            f"{file.stat().st_size} bytes, more than {CONFIG_BYTES}")))
    try:
        # The standard library, not srsly: ujson reads 0.6 back as 0.6000000000000001.
        data = json.loads(file.read_text(encoding="utf8"))
    except (ValueError, RecursionError) as err:
        error = err if isinstance(err, ValueError) else "JSON nested too deeply"
        raise ModelLoadError(Errors.E117.format(path=file, problems=f"not JSON: {error}")) from None
    problems = component_problems(data, required)
    if problems:
        raise ModelLoadError(Errors.E117.format(path=file, problems="; ".join(problems[:5])))
    return component_settings(data)


def _read_model_files(folder: Path) -> Dict[str, bytes]:
    """The bytes of a model folder's files (those present): a loaded model's, whose
    files load_model has bounded, but for the model card, bounded here."""
    card = folder / CARD_FILE
    if card.exists() and card.stat().st_size > CONFIG_BYTES:
        raise ModelLoadError(Errors.E118.format(file=CARD_FILE, path=folder, size=card.stat().st_size,
                                                limit=CONFIG_BYTES))
    return {name: (folder / name).read_bytes()
            for name in MODEL_FILES if (folder / name).exists()}


def _raw_scores(result: DocCoref) -> Dict[str, list]:
    """Scores as plain lists (msgpack-safe, so they survive DocBin): mention spans,
    single scores, and (anaphor, antecedent, score) triples."""
    from .core.pairs import anaphor_index

    ana = anaphor_index(result.ptr).tolist()
    return {"mentions": [[int(s), int(e)] for s, e in zip(result.mentions.starts, result.mentions.ends)],
            "single": result.single.tolist(),
            "pairs": [[m, int(a), float(p)] for m, a, p in zip(ana, result.ante, result.pair)]}
