"""Checks of settings and input text: one place, one error code per condition.

Settings read from files (a model folder's ``config.json``, a saved pipeline's
component settings ``cfg.json``): each check returns the problems it finds as
short sentences ("defaults.max_dist is 'x', not an integer >= 0"); the caller
raises one coded error listing them, so a bad file fails when it is loaded, with
a message naming the field, never with a bare TypeError or at the first document.

Settings given in code or on the command line (the component's, the server's,
batch processing's) and the texts to resolve are checked by the ``check_*``
functions at the bottom, which raise at once: E170 for any bad setting value,
E173 for a setting name that does not exist, E172 for a text that is not a
string and E171 for a text holding a lone surrogate, whichever entry point
(component, ``Coref``, server, batch runner) was given it.
"""
from __future__ import annotations

import hashlib
import json
import math
import numbers
import re
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, TypeVar, Union

from .core.discourse.decode_signals import check_link_offsets
from .core.features.pairs import check_top_antecedents
from .errors import Errors, NeuralcorefError

#: Fields of config.json (besides "checksums", checked by model_dir).
CONFIG_FIELDS = {"lang", "rules", "rules_hash", "spacy_pipeline", "vector_pipelines", "vector_fingerprints",
                 "schema_hash", "neuralcoref_version", "defaults", "scorer", "document_prior",
                 "checksums"}
SCORER_FIELDS = {"vector_dim", "vocab_size", "embedding_dim", "single_hidden", "pair_hidden",
                 "similarity_rank", "mention_hidden", "refine", "single_blocks", "pair_blocks",
                 "type_classes", "type_hidden", "type_groups"}
WINDOW_SETTINGS = ("max_dist", "max_dist_match", "max_dist_nominal")
DEFAULTS_FIELDS = {"greedyness", *WINDOW_SETTINGS, "link_offsets", "top_antecedents"}
#: The predecessor's blacklist: first- and second-person pronouns left unresolved.
DEFAULT_BLACKLIST = ("i", "me", "my", "you", "your")


@dataclass(frozen=True)
class CorefSettings:
    """The ``neuralcoref`` component's settings: checked once, when made (E170
    for a bad value), then read-only. The fields are the one list of them: the
    factory's config keys (with ``model``, ``rules`` and ``scorer``), the
    component's ``cfg`` and a saved pipeline's ``cfg.json`` (:meth:`to_dict`)
    follow it. Change a component's settings with ``dataclasses.replace``:
    ``pipe.settings = replace(pipe.settings, greedyness=0.6)``.

    greedyness (float): 0-1; 0.5 links as trained, higher links more.
    max_dist (int | None): preceding mentions considered as antecedents of a
        pronoun; None: the model's setting (50 when it records none).
    max_dist_match (int | None): how far back head-matching mentions are
        considered; None: the model's setting (500 when it records none).
    max_dist_nominal (int | None): preceding mentions considered as antecedents
        of other mentions (names, nominals, lists), besides the head-matching
        ones; None: the model's setting (``max_dist`` when it records none).
    link_offsets (Mapping[str, float] | None): added to the link threshold of
        anaphors of each mention type ("pronominal", "nominal", "proper",
        "list"); negative links more. None: the model's (tuned on dev data by
        ``neuralcoref tune``), {} for none.
    top_antecedents (int | None): for an ensemble model (such as "en"), how many
        candidate antecedents of each mention all its members score, picked by
        its first member's scores (coarse-to-fine); 0 for all of them. None: the
        model's setting.
    blacklist (bool | Sequence[str]): leave these words unresolved; True means
        the predecessor's list (i, me, my, you, your). Kept as a tuple of words.
    store_scores (bool): keep the scores in ``doc._.coref_scores``.
    conv_dict (Mapping[str, Sequence[str]] | None): rare words represented by the
        mean embedding of common ones, e.g. {"Angela": ["woman", "girl"]}.
    """

    greedyness: float = 0.5
    max_dist: Optional[int] = None
    max_dist_match: Optional[int] = None
    max_dist_nominal: Optional[int] = None
    link_offsets: Optional[Mapping[str, float]] = None
    top_antecedents: Optional[int] = None
    blacklist: Union[bool, Sequence[str]] = False
    store_scores: bool = False
    conv_dict: Optional[Mapping[str, Sequence[str]]] = None

    def __post_init__(self) -> None:
        model_s = "the model's setting"  # what null means, which E170 says
        blacklist = self.blacklist
        if not isinstance(blacklist, bool):
            blacklist = check_with("blacklist", blacklist, words, "true, false or a list of words")
        offsets = check_with("link_offsets", self.link_offsets, check_link_offsets,
                             "a mapping of mention types to numbers", none_means=model_s)
        conv = check_with("conv_dict", self.conv_dict, word_lists, "a mapping of words to lists of words",
                          none_means="no conversions") or {}
        checked = {
            "greedyness": check_float("greedyness", self.greedyness, 0.0, 1.0),
            **{name: check_int(name, getattr(self, name), 0, none_means=model_s) for name in WINDOW_SETTINGS},
            "link_offsets": None if offsets is None else MappingProxyType(offsets),
            "top_antecedents": check_int("top_antecedents", self.top_antecedents, 0, hint=" (0: every candidate)",
                                         none_means=model_s),
            "store_scores": check_bool("store_scores", self.store_scores),
            "blacklist": DEFAULT_BLACKLIST if blacklist is True else tuple(blacklist or ()),
            "conv_dict": MappingProxyType({word: tuple(common) for word, common in conv.items()}),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    def to_dict(self) -> Dict[str, Any]:
        """The settings as JSON values (lists and objects): the component's
        ``cfg`` and what ``cfg.json`` holds."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "link_offsets": None if self.link_offsets is None else dict(self.link_offsets),
                "blacklist": list(self.blacklist),
                "conv_dict": {word: list(common) for word, common in self.conv_dict.items()}}


#: The component settings a saved pipeline's cfg.json holds.
COMPONENT_FIELDS = {f.name for f in fields(CorefSettings)}


class ReadOnlySettings(dict):
    """A component's ``cfg``: its settings as JSON values (a dict, so that
    ``json.dumps`` takes it), refusing changes (E479) rather than dropping them."""

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise NeuralcorefError(Errors.E479)

    __setitem__ = __delitem__ = __ior__ = update = setdefault = pop = popitem = clear = _refuse

    def __reduce__(self):  # copies and pickles are made whole, not item by item
        return (ReadOnlySettings, (dict(self),))
_SHA256 = re.compile(r"[0-9a-f]{64}")


def is_int(value: Any, least: int = 0) -> bool:
    """Whether ``value`` is an integer >= ``least`` (a bool is not an integer here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def is_number(value: Any) -> bool:
    """Whether ``value`` is a finite int or float (not a bool)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _unknown(data: Mapping, known: set, where: str) -> List[str]:
    return [f"{where}{key!r} is not a known field" for key in sorted(map(str, data)) if key not in known]


def _window(name: str, value: Any, where: str) -> List[str]:
    if value is None or is_int(value):
        return []
    return [f"{where}{name} is {_short(value)}, not an integer >= 0 or null"]


def _checked(name: str, value: Any, check: Callable[[Any], Any], where: str) -> List[str]:
    if value is None:
        return []
    try:
        check(value)
    except (ValueError, TypeError) as err:
        return [f"{where}{name}: {err}"]
    return []


def _short(value: Any) -> str:
    """repr of a value, cut to 60 characters: a problem list quotes, it does not dump."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def config_problems(data: Any) -> List[str]:
    """Problems of a model folder's config.json, as read by ``json.loads``: every
    field's type and range (the relations between scorer sizes and blocks are
    checked by model_dir once the config is built).

    data (Any): the parsed JSON.
    RETURNS (List[str]): the problems; empty when the config is valid.
    """
    if not isinstance(data, dict):
        return [f"the file holds {type(data).__name__}, not a JSON object"]
    problems = _unknown(data, CONFIG_FIELDS, "")
    for name in ("lang", "scorer"):
        if name not in data:
            problems.append(f"{name} is missing")
    for name in ("lang", "rules", "rules_hash", "spacy_pipeline", "schema_hash", "neuralcoref_version"):
        if name in data and not isinstance(data[name], str):
            problems.append(f"{name} is {_short(data[name])}, not a string")
    for name in ("vector_pipelines", "vector_fingerprints"):
        if name in data and not _is_str_list(data[name]):
            problems.append(f"{name} is {_short(data[name])}, not a list of strings")
    problems += defaults_problems(data.get("defaults", {}))
    scorer = data.get("scorer", {})
    problems += scorer_problems(scorer)
    vector_dim = scorer.get("vector_dim") if isinstance(scorer, dict) else None
    problems += prior_problems(data.get("document_prior", {}), vector_dim)
    return problems


def defaults_problems(defaults: Any) -> List[str]:
    """Problems of config.json's ``defaults`` (decoding settings the model records)."""
    if not isinstance(defaults, dict):
        return [f"defaults is {_short(defaults)}, not an object"]
    where = "defaults."
    problems = _unknown(defaults, DEFAULTS_FIELDS, where)
    if "greedyness" in defaults and not (is_number(defaults["greedyness"])
                                         and 0 <= defaults["greedyness"] <= 1):
        problems.append(f"defaults.greedyness is {_short(defaults['greedyness'])}, not a number within [0, 1]")
    for name in WINDOW_SETTINGS:
        problems += _window(name, defaults.get(name), where)
    problems += _checked("link_offsets", defaults.get("link_offsets"), check_link_offsets, where)
    problems += _checked("top_antecedents", defaults.get("top_antecedents"), check_top_antecedents, where)
    return problems


def scorer_problems(scorer: Any) -> List[str]:
    """Problems of the types of config.json's ``scorer`` fields that model_dir does
    not check itself (sizes, layers and blocks are checked there, with the
    relations between them)."""
    if not isinstance(scorer, dict):
        return [f"scorer is {_short(scorer)}, not an object"]
    problems = _unknown(scorer, SCORER_FIELDS, "scorer.")
    hidden = scorer.get("mention_hidden")
    if hidden is not None and not (isinstance(hidden, list) and all(is_int(n, 1) for n in hidden)):
        problems.append(f"scorer.mention_hidden is {_short(hidden)}, not null or a list of integers >= 1")
    if "refine" in scorer and not isinstance(scorer["refine"], bool):
        problems.append(f"scorer.refine is {_short(scorer['refine'])}, not true or false")
    return problems


def prior_problems(prior: Any, vector_dim: Any) -> List[str]:
    """Problems of config.json's ``document_prior``: {} or {"mean": [vector_dim
    finite numbers], "tokens": a number >= 0}."""
    if prior == {}:
        return []
    if not isinstance(prior, dict):
        return [f"document_prior is {_short(prior)}, not an object"]
    problems = _unknown(prior, {"mean", "tokens"}, "document_prior.")
    mean = prior.get("mean")
    if not (isinstance(mean, list) and all(is_number(v) for v in mean)):
        problems.append(f"document_prior.mean is {_short(mean)}, not a list of numbers")
    elif is_int(vector_dim) and len(mean) != vector_dim:
        problems.append(f"document_prior.mean has {len(mean)} numbers, not scorer.vector_dim ({vector_dim})")
    tokens = prior.get("tokens")
    if not (is_number(tokens) and tokens >= 0):
        problems.append(f"document_prior.tokens is {_short(tokens)}, not a number >= 0")
    return problems


def checksum_problems(checksums: Any, files: Any) -> List[str]:
    """Problems of config.json's ``checksums``: an object mapping some of ``files``
    to SHA-256 hex digests."""
    if not isinstance(checksums, dict):
        return [f"checksums is {_short(checksums)}, not an object"]
    problems = [f"checksums names {_short(name)}, not one of the model's files ({', '.join(files)})"
                for name in checksums if name not in files]
    problems += [f"checksums.{name} is {_short(value)}, not a SHA-256 (64 hex digits)"
                 for name, value in checksums.items()
                 if name in files and not (isinstance(value, str) and _SHA256.fullmatch(value))]
    return problems


def component_problems(cfg: Any, required: Iterable[str] = ()) -> List[str]:
    """Problems of a saved pipeline's neuralcoref settings (its cfg.json): the
    same types and ranges the component's constructor accepts, in the form the
    component saves them (``blacklist`` a list of words, ``conv_dict`` an object
    of word lists).

    cfg (Any): the parsed JSON.
    required (Iterable[str]): settings that must be present (those the component
        has no value of yet).
    RETURNS (List[str]): the problems; empty when the settings are valid.
    """
    if not isinstance(cfg, dict):
        return [f"the file holds {type(cfg).__name__}, not a JSON object"]
    problems = _unknown(cfg, COMPONENT_FIELDS, "")
    problems += [f"{name} is missing" for name in sorted(required) if name not in cfg]
    if "greedyness" in cfg and not (is_number(cfg["greedyness"]) and 0 <= cfg["greedyness"] <= 1):
        problems.append(f"greedyness is {_short(cfg['greedyness'])}, not a number within [0, 1]")
    for name in WINDOW_SETTINGS:
        problems += _window(name, cfg.get(name), "")
    problems += _checked("link_offsets", cfg.get("link_offsets"), check_link_offsets, "")
    problems += _checked("top_antecedents", cfg.get("top_antecedents"), check_top_antecedents, "")
    if "store_scores" in cfg and not isinstance(cfg["store_scores"], bool):
        problems.append(f"store_scores is {_short(cfg['store_scores'])}, not true or false")
    if "blacklist" in cfg and not _is_str_list(cfg["blacklist"]):
        problems.append(f"blacklist is {_short(cfg['blacklist'])}, not a list of words")
    conv = cfg.get("conv_dict") or {}
    if not (isinstance(conv, dict) and all(_is_str_list(v) for v in conv.values())):
        problems.append(f"conv_dict is {_short(conv)}, not an object of word lists")
    return problems


def component_settings(cfg: Dict[str, Any]) -> Dict[str, Any]:
    """The settings of a valid cfg.json as the component keeps them (copies, so
    that the loaded file is not shared)."""
    settings = dict(cfg)
    if "blacklist" in cfg:
        settings["blacklist"] = list(cfg["blacklist"])
    if "conv_dict" in cfg:
        settings["conv_dict"] = {k: list(v) for k, v in (cfg["conv_dict"] or {}).items()}
    return settings


# Settings given in code or on the command line, and the texts to resolve.

T = TypeVar("T")
#: Lone surrogates (U+D800-U+DFFF) are not Unicode characters: they cannot be
#: encoded as UTF-8, and spaCy's tokenizer fails on them with UnicodeEncodeError.
#: Python makes them from undecodable bytes (surrogateescape: command-line
#: arguments) and JSON from an unpaired "\ud800" escape.
_SURROGATE = re.compile("[\ud800-\udfff]")


def setting_error(name: str, value: Any, expected: str, owner: str) -> NeuralcorefError:
    """The coded error (E170) of a bad setting value, whoever owns the setting.

    name (str): the setting, e.g. "batch_size".
    value (Any): the value given (quoted, cut to 60 characters).
    expected (str): what it should be, e.g. "an integer >= 1".
    owner (str): whose setting it is: "neuralcoref" (the component), "the server",
        "batch processing".
    RETURNS (NeuralcorefError): the error, to raise.
    """
    return NeuralcorefError(Errors.E170.format(name=name, owner=owner, value=_short(value),
                                               expected=expected))


def _or_null(expected: str, none_means: Optional[str]) -> str:
    return expected if none_means is None else f"{expected}, or null for {none_means}"


def loads_json(content: bytes) -> Any:
    """``content`` (UTF-8 bytes) as JSON, with the standard library (not srsly:
    ujson reads 0.6 back as 0.6000000000000001).

    RAISES ValueError: the reason, for a coded error of the caller's (a bad
        encoding, bad JSON, or JSON nested too deeply for the parser).
    """
    try:
        return json.loads(content.decode("utf8"))  # UnicodeDecodeError is a ValueError
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def check_int(name: str, value: Any, minimum: int = 0, owner: str = "neuralcoref", *,
              maximum: Optional[int] = None, none_means: Optional[str] = None,
              hint: str = "") -> Optional[int]:
    """``value`` as an integer setting within [minimum, maximum]. A bool is
    refused: True is 1 to Python, but ``workers=True`` is a mistake, not one
    worker. NumPy integers pass (they are ``numbers.Integral``).

    maximum (int | None): the largest value allowed; None: no bound.
    none_means (str | None): what null means for this setting ("the model's
        setting"); None passes only when it is given.
    hint (str): said after the range in the error, e.g. " (0: every candidate)".
    RETURNS (int | None): the value as a Python int (None if null).
    RAISES NeuralcorefError: E170.
    """
    if value is None and none_means is not None:
        return None
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum
            or (maximum is not None and value > maximum)):
        expected = f"an integer >= {minimum}" if maximum is None else f"an integer within [{minimum}, {maximum}]"
        raise setting_error(name, value, _or_null(expected + hint, none_means), owner)
    return int(value)


def check_float(name: str, value: Any, minimum: Optional[float] = None,
                maximum: Optional[float] = None, owner: str = "neuralcoref", *,
                above: bool = False, what: str = "a number") -> float:
    """``value`` as a finite number setting within [minimum, maximum] (either
    bound may be None); ``above`` makes the minimum exclusive (> 0 for seconds).
    A bool is refused; ints pass.

    what (str): how the error names a good value ("a number of seconds").
    RETURNS (float): the value as a Python float.
    RAISES NeuralcorefError: E170.
    """
    bad = (isinstance(value, bool) or not isinstance(value, numbers.Real)
           or not math.isfinite(value)
           or (minimum is not None and (value <= minimum if above else value < minimum))
           or (maximum is not None and value > maximum))
    if bad:
        raise setting_error(name, value, _range(what, minimum, maximum, above), owner)
    return float(value)


def _range(what: str, minimum: Optional[float], maximum: Optional[float], above: bool) -> str:
    if minimum is not None and maximum is not None and not above:
        return f"{what} within [{minimum:g}, {maximum:g}]"
    parts = [f"{'>' if above else '>='} {minimum:g}" if minimum is not None else "",
             f"<= {maximum:g}" if maximum is not None else ""]
    return " ".join([what, *filter(None, parts)])


def check_bool(name: str, value: Any, owner: str = "neuralcoref") -> bool:
    """``value`` as an on/off setting: True or False only (not 1, not "yes").

    RAISES NeuralcorefError: E170.
    """
    if not isinstance(value, bool):
        raise setting_error(name, value, "true or false", owner)
    return value


def check_choice(name: str, value: Any, choices: Sequence[T], owner: str = "neuralcoref") -> T:
    """``value`` as a setting that is one of ``choices``.

    RAISES NeuralcorefError: E170, listing the choices.
    """
    # A bool is not the choice 1, though True == 1.
    if not any(value == c and isinstance(value, bool) == isinstance(c, bool) for c in choices):
        raise setting_error(name, value, f"one of {', '.join(map(repr, choices))}", owner)
    return value


def check_with(name: str, value: Any, check: Callable[[Any], T], expected: str,
               owner: str = "neuralcoref", *, none_means: Optional[str] = None) -> Optional[T]:
    """``check(value)`` for a setting with a structure of its own (e.g. the
    per-type link offsets), its ValueError or TypeError turned into E170.

    check (Callable): returns the value as kept, raises ValueError (or TypeError)
        saying what is wrong.
    expected (str): what a good value is, in words; the check's reason follows.
    none_means (str | None): as for :func:`check_int`.
    RAISES NeuralcorefError: E170.
    """
    if value is None and none_means is not None:
        return None
    try:
        return check(value)
    except (ValueError, TypeError) as err:
        raise setting_error(name, value, f"{_or_null(expected, none_means)} ({err})", owner) from None


def check_known(settings: Mapping[str, Any], known: Iterable[str], owner: str) -> None:
    """Refuse a setting name that ``owner`` does not have (a typo: "max_txts"),
    rather than ignoring it or failing with a bare TypeError.

    RAISES NeuralcorefError: E173, listing the known names.
    """
    known = list(known)
    for name in settings:
        if name not in known:
            raise NeuralcorefError(Errors.E173.format(name=_short(name), owner=owner,
                                                      known=", ".join(known)))


def words(value: Any) -> List[str]:
    """``value`` as a list of words (a list or tuple of strings, not one string)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise ValueError(f"{type(value).__name__} is not a list")
    bad = [w for w in value if not isinstance(w, str)]
    if bad:
        raise ValueError(f"{_short(bad[0])} is not a string")
    return list(value)


def word_lists(value: Any) -> Dict[str, List[str]]:
    """``value`` as a mapping of words to lists of words (``conv_dict``)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{type(value).__name__} is not a mapping")
    out = {}
    for key, items in value.items():
        if not isinstance(key, str):
            raise ValueError(f"the key {_short(key)} is not a string")
        try:
            out[key] = words(items)
        except ValueError as err:
            raise ValueError(f"the words of {_short(key)}: {err}") from None
    return out


def check_text(text: Any, where: str = "") -> str:
    """``text`` as a text to resolve: a string without lone surrogates (spaCy
    cannot tokenize those; the message says how to decode input without them).

    where (str): which text, as the message puts it after "The text": "",
        " 2", " of line 3 of in.jsonl".
    RETURNS (str): the text.
    RAISES NeuralcorefError: E172 (not a string), E171 (a lone surrogate).
    """
    if not isinstance(text, str):
        raise NeuralcorefError(Errors.E172.format(where=where, found=type(text).__name__))
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        raise NeuralcorefError(Errors.E171.format(
            where=where, char=f"U+{ord(surrogate.group()):04X}", offset=surrogate.start()))
    return text


def file_sha256(file: Path) -> str:
    """SHA-256 of a file, read in blocks (a large file is never held whole)."""
    digest = hashlib.sha256()
    with Path(file).open("rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


# The pipeline's tokenizer behind the text check: spaCy's tokenizer fails on a lone
# surrogate with a bare UnicodeEncodeError, before any component sees a Doc. When
# the neuralcoref component is added, the pipeline's tokenizer is wrapped so that
# nlp(text) and nlp.pipe(texts) refuse such a text with E171 too; everything else
# (settings, special cases, serialization, pickling) goes to the tokenizer itself.

class CheckedTokenizer:
    """A tokenizer that checks each text (E171, E172) before tokenizing it.

    tokenizer (Callable[[str], Doc]): the pipeline's tokenizer.
    """

    def __init__(self, tokenizer: Callable[[str], Any]):
        object.__setattr__(self, "tokenizer", tokenizer)

    def __call__(self, text: str) -> Any:
        return self.tokenizer(check_text(text))

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Any]:
        """Docs of ``texts``, each checked first."""
        checked = (check_text(text) for text in texts)
        inner = getattr(self.tokenizer, "pipe", None)  # a custom tokenizer may have none
        return inner(checked, batch_size=batch_size) if inner else map(self.tokenizer, checked)

    def __getattr__(self, name: str) -> Any:
        if name == "tokenizer":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.tokenizer, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.tokenizer, name, value)  # nlp.tokenizer.infix_finditer = ... changes the tokenizer

    def __reduce__(self) -> Any:
        return (CheckedTokenizer, (self.tokenizer,))

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        # isinstance(nlp.tokenizer, Tokenizer) stays true for code that checks
        # the pipeline's tokenizer type (isinstance also sees the wrapper's own type).
        return type(self.tokenizer)


def check_tokenizer(nlp: Any) -> None:
    """Wrap ``nlp.tokenizer`` in a CheckedTokenizer, once."""
    if not isinstance(nlp.tokenizer, CheckedTokenizer):
        nlp.tokenizer = CheckedTokenizer(nlp.tokenizer)
