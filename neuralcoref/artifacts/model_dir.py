"""Model folders: JSON config, ``.npz`` weights, vocabulary, model card.

A folder holds ``config.json`` (feature schema hash, language, scorer sizes,
decoding defaults), ``weights.npz`` (float32 arrays named by
:func:`neuralcoref.core.scoring.scoring.weight_shapes`, loaded with ``allow_pickle=False``),
``vocab.json`` (the embedding vocabulary) and ``model_card.md``. Everything is
checked when the folder is loaded, so a corrupted or mismatched model fails with a
coded error at load time, never at prediction time. The checksums in config.json
catch damage, not tampering (whoever edits the config can edit them): what bounds
a crafted folder is the absolute limits below (MAX_WIDTH... MAX_WEIGHTS, E435),
checked before any weight is read, and the weights' range (MAX_ABS_WEIGHT, E108).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.discourse.decode_signals import check_link_offsets
from ..core.features.contract import SCHEMA_HASH
from ..core.features.pairs import check_top_antecedents
from ..core.scoring.embeddings import WordVocab
from ..core.scoring.model import CorefModel, ModelConfig
from ..core.scoring.scoring import FIRST_WORD_ROW, Scorers, weight_shapes
from ..errors import Errors, ModelLoadError, Warnings
from ..validation import checksum_problems, config_problems, file_sha256, is_int, loads_json

CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE, CARD_FILE = (
    "config.json", "weights.npz", "vocab.json", "model_card.md")
#: Shipped models, by language code: folders under ``neuralcoref/models/``.
SHIPPED_MODELS = {"en": "en", "fr": "fr"}
#: The files whose SHA-256 config.json records ("checksums"): those the scores
#: depend on. Not the model card, which ``neuralcoref tune`` appends to.
CHECKSUM_FILES = (WEIGHTS_FILE, VOCAB_FILE)
#: Room for one .npy header in weights.npz (numpy reads headers up to 10,000 bytes).
NPY_HEADER_BYTES = 10_240
#: Arrays beyond the declared ones that weights.npz may hold (to be named as
#: unexpected) before it is refused unread.
EXTRA_ARRAYS = 16
#: Room for a file's framing (zip directory, JSON brackets) in the size bounds.
ZIP_SLACK_BYTES = 1 << 20
#: Bytes a vocabulary word may take in vocab.json, on average.
WORD_BYTES = 1024
#: Largest config.json read (a document prior of a few thousand numbers is ~100 KB).
CONFIG_BYTES = 16 << 20
#: Other shipped models, by name: picked by default only as below.
SHIPPED_VARIANTS = {"en_fast": "en_fast", "en_portable": "en_portable", "fr_sm": "fr_sm"}
#: The models a language's default falls back to, in order, for pipelines whose
#: token vectors are not the ones its default model reads: the first that reads
#: the pipeline's vectors (a model reading none reads any pipeline's).
FALLBACK_MODELS = {"en": ("en_portable",), "fr": ("fr_sm",)}


def pipeline_id(nlp: Any) -> str:
    """'lang_name version' of a spaCy pipeline (from its meta), as model configs,
    cards and caches record it."""
    return f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', '?')} {nlp.meta.get('version', '?')}"


def tensor_pipes(nlp: Any) -> List[Any]:
    """The components of a spaCy pipeline that write its token vectors
    (``doc.tensor``, e.g. "tok2vec"), by their declared ``assigns``."""
    return [pipe for name, pipe in nlp.pipeline if "doc.tensor" in nlp.get_pipe_meta(name).assigns]


def vectors_fingerprint(pipes: Sequence[Any], vocab: Any) -> str:
    """SHA-256 (hex) of what makes a pipeline's token vectors: the weights of the
    components that write ``doc.tensor`` and the static vectors table (shape and
    values) they may read. The same vectors under another pipeline name (``spacy
    package --name``, a republished copy) have the same fingerprint. About 0.1-0.3 s
    for spaCy's small and medium pipelines: computed only when names differ. The
    weights are hashed as thinc serializes them: a thinc release that serializes
    otherwise gives other fingerprints, and pipeline names decide again.

    pipes (Sequence[Pipe]): see :func:`tensor_pipes`, with their weights loaded.
    vocab (Vocab): the pipeline's vocabulary.
    RETURNS (str): 64 hex digits.
    """
    digest = hashlib.sha256()
    for pipe in pipes:
        digest.update(pipe.model.to_bytes())
    table = vocab.vectors.data
    digest.update(repr(tuple(table.shape)).encode("utf8"))
    digest.update(np.ascontiguousarray(table))  # its buffer, without a copy of the table
    return digest.hexdigest()


def pipeline_vectors_fingerprint(nlp: Any) -> str:
    """:func:`vectors_fingerprint` of a loaded spaCy pipeline."""
    return vectors_fingerprint(tensor_pipes(nlp), nlp.vocab)


def shipped_model_path(name: str) -> Path:
    """Folder of a model shipped inside the package (e.g. 'en')."""
    folder = resources.files("neuralcoref") / "models" / name
    return Path(str(folder))


def resolve_model_path(model: Union[str, Path, None], lang: str, pipeline: Optional[str] = None,
                       fingerprint: Optional[Callable[[], str]] = None) -> Path:
    """Where to load a model from: a path, a shipped model's name, or the language's
    default. ``pipeline`` (a :func:`pipeline_id`): when the default model reads
    other token vectors than this pipeline's, the first of the language's
    fallback models that reads this pipeline's (else the default, which warns).
    ``fingerprint``: computes the pipeline's :func:`vectors_fingerprint`, which
    tells its vectors under another name."""
    if model is None or model == "":
        if lang not in SHIPPED_MODELS:
            raise ModelLoadError(Errors.E106.format(lang=lang, shipped=", ".join(SHIPPED_MODELS)))
        path = shipped_model_path(SHIPPED_MODELS[lang])
        if pipeline is None or read_config(path).reads_vectors_of(pipeline, fingerprint):
            return path
        others = fallback_models(lang, pipeline, fingerprint)
        return shipped_model_path(others[0]) if others else path
    named = {**SHIPPED_MODELS, **SHIPPED_VARIANTS}
    if str(model) in named:
        return shipped_model_path(named[str(model)])
    return Path(model)


def fallback_models(lang: str, pipeline: str, fingerprint: Optional[Callable[[], str]] = None) -> List[str]:
    """The language's fallback models (FALLBACK_MODELS) that read the token vectors
    of ``pipeline`` (a :func:`pipeline_id`; ``fingerprint`` as for
    :func:`resolve_model_path`), in order of preference."""
    return [name for name in FALLBACK_MODELS.get(lang, ())
            if read_config(shipped_model_path(name)).reads_vectors_of(pipeline, fingerprint)]


def read_config(path: Union[str, Path]) -> ModelConfig:
    """A model folder's config, without loading its weights.

    RAISES ModelLoadError: E102 (no folder), E103 (no config.json), E104 (unreadable).
    """
    path = Path(path)
    if not path.is_dir():
        raise ModelLoadError(Errors.E102.format(path=path))
    if not (path / CONFIG_FILE).is_file():
        raise ModelLoadError(Errors.E103.format(path=path, files=CONFIG_FILE))
    return ModelConfig.from_dict(_read_config_data(path))


def check_model_folder(path: Union[str, Path]) -> ModelConfig:
    """Check a model folder as :func:`load_model` does, short of inflating the
    weights: files present and within bounds, config.json valid and of this
    feature schema, the zip directory and array headers of weights.npz, the
    vocabulary, the checksums. About a tenth of a load (15 ms for "en", against
    160), so that a component refuses a damaged model when it is added and
    still loads it only once.

    RAISES ModelLoadError: as load_model (E101-E118).
    RETURNS (ModelConfig): the folder's config.
    """
    source = _Folder(Path(path))
    checked = _checked_files(source)
    _check_sizes(source, {CARD_FILE: CONFIG_BYTES})
    _check_checksums(source.where, checked.data.get("checksums"), checked.contents)
    return checked.config


def _read_config_data(path: Path) -> dict:
    """config.json as JSON, every field checked (E104 unreadable, E110 invalid)."""
    return _source_config(_Folder(path), (CONFIG_FILE,))[0]


def _parse_config_data(content: bytes, where: Union[str, Path]) -> dict:
    """config.json's bytes as JSON, every field checked (E104 unreadable, E110 invalid)."""
    try:
        data = loads_json(content)
    except ValueError as err:
        raise ModelLoadError(Errors.E104.format(path=where, error=err)) from None
    missing = ([n for n in ("lang", "scorer") if n not in data] if isinstance(data, dict)
               else [f"the file holds {type(data).__name__}, not a JSON object"])
    if missing:  # not a model's config at all
        raise ModelLoadError(Errors.E104.format(path=where, error="; ".join(
            f"no '{m}' field" if m in ("lang", "scorer") else m for m in missing)))
    problems = config_problems(data)
    if "checksums" in data:
        problems += checksum_problems(data["checksums"], CHECKSUM_FILES)
    if problems:
        raise ModelLoadError(Errors.E110.format(path=where, problems="; ".join(problems[:5])))
    return data


def file_checksums(path: Union[str, Path]) -> Dict[str, str]:
    """SHA-256 (hex) of the files of a model folder that config.json records
    (CHECKSUM_FILES), for those present."""
    path = Path(path)
    return {name: file_sha256(path / name) for name in CHECKSUM_FILES if (path / name).is_file()}


def write_checksums(path: Union[str, Path]) -> Dict[str, str]:
    """Record the SHA-256 of a model folder's weights and vocabulary in its
    config.json ("checksums"), which load_model checks: call it after changing
    those files on purpose. The rest of config.json is kept as it is.

    RETURNS (Dict[str, str]): the checksums written.
    """
    path = Path(path)
    config = json.loads((path / CONFIG_FILE).read_text(encoding="utf8"))
    config["checksums"] = file_checksums(path)
    (path / CONFIG_FILE).write_text(json.dumps(config, indent=2), encoding="utf8")
    return config["checksums"]


def save_model(path: Union[str, Path], config: ModelConfig, weights: Mapping[str, np.ndarray],
               vocab_words: List[str], card: str = "") -> Path:
    """Write a model folder, checking the weights against the config's shapes first."""
    _check_weights(config, dict(weights), Path(path))
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    (path / CONFIG_FILE).write_text(json.dumps(config.to_dict(), indent=2), encoding="utf8")
    np.savez_compressed(path / WEIGHTS_FILE,
                        **{k: np.asarray(v, dtype=np.float32) for k, v in weights.items()})
    (path / VOCAB_FILE).write_text(json.dumps(vocab_words, ensure_ascii=False), encoding="utf8")
    (path / CARD_FILE).write_text(card or f"# neuralcoref model ({config.lang})\n", encoding="utf8")
    write_checksums(path)
    return path


class _Folder:
    """The files of a model folder, read from disk."""

    def __init__(self, path: Path):
        self.path, self.where = path, path

    def size(self, name: str) -> Optional[int]:
        """The file's size in bytes, None when it is absent."""
        file = self.path / name
        try:
            return file.stat().st_size if file.is_file() else None
        except OSError as err:  # e.g. a link into a folder one may not read
            raise ModelLoadError(Errors.E104.format(path=self.path, error=f"{name}: {err}")) from err

    def read(self, name: str, limit: int) -> bytes:
        """At most ``limit`` bytes of the file (E118 past them: a file in /proc
        tells size 0 and may hold more), E104 when it cannot be read (a link to
        /proc/self/pagemap: EINVAL)."""
        try:
            with open(self.path / name, "rb") as f:
                data = _read_bounded(f, limit)
        except OSError as err:
            raise ModelLoadError(Errors.E104.format(path=self.path, error=f"{name}: {err}")) from err
        if len(data) > limit:
            raise ModelLoadError(Errors.E118.format(file=name, path=self.where, size=f"more than {limit}",
                                                    limit=limit))
        return data

    def missing(self) -> None:
        if not self.path.is_dir():
            raise ModelLoadError(Errors.E102.format(path=self.path))


def _read_bounded(f: Any, limit: int) -> bytes:
    """Up to ``limit`` + 1 bytes of an open file: the size it tells at once (no larger
    buffer is allocated), a file that tells none (/proc) in blocks."""
    size = os.fstat(f.fileno()).st_size
    if size:
        return f.read(min(limit, size) + 1)
    blocks: List[bytes] = []
    left = limit + 1
    while left > 0:
        block = f.read(min(left, 1 << 16))
        if not block:
            break
        blocks.append(block)
        left -= len(block)
    return b"".join(blocks)


class _Files:
    """The files of a model, held in memory (what ``from_bytes`` receives)."""

    def __init__(self, files: Mapping[str, bytes], where: str):
        self.files, self.where, self.path = files, where, None

    def size(self, name: str) -> Optional[int]:
        data = self.files.get(name)
        return len(data) if isinstance(data, bytes) else None

    def read(self, name: str, limit: int) -> bytes:
        return self.files[name]  # its size was checked against the limit

    def missing(self) -> None:
        return None


def load_model(path: Union[str, Path]) -> CorefModel:
    """Load and check a model folder.

    path (str | Path): the folder.
    RETURNS (CorefModel): the model, ready to score.
    """
    return _load(_Folder(Path(path)))[0]


def read_model(path: Union[str, Path]) -> Tuple[CorefModel, Dict[str, bytes]]:
    """Load and check a model folder, keeping the bytes it was loaded from.

    path (str | Path): the folder.
    RETURNS (Tuple[CorefModel, Dict[str, bytes]]): the model, and the bytes of its
        MODEL_FILES (each file read once), to save it again even once the folder is gone.
    """
    return _load(_Folder(Path(path)))


def load_model_bytes(files: Mapping[str, bytes], where: str) -> CorefModel:
    """Load and check a model from the bytes of its files, with the same checks
    as a folder's (no temporary folder is written).

    files (Mapping[str, bytes]): MODEL_FILES' names to their bytes.
    where (str): what holds them, for error messages.
    RETURNS (CorefModel): the model (its ``path`` is None).
    """
    return _load(_Files(files, where))[0]


class _Checked(NamedTuple):
    config: ModelConfig
    data: dict  # config.json, parsed
    contents: Dict[str, bytes]  # MODEL_FILES' bytes, config.json's included
    words: list  # the vocabulary


def _checked_files(source: Union[_Folder, _Files]) -> _Checked:
    """Read a model's files (each once, bounded) and check all but the inflated
    weights and the checksums."""
    where = source.where
    data, raw_config = _source_config(source)
    config = _checked_config(data, where)
    limits = _file_limits(config)
    _check_sizes(source, limits)
    contents = {name: source.read(name, limit) for name, limit in limits.items()}
    _check_npz(_file_label(where, WEIGHTS_FILE), where, contents[WEIGHTS_FILE], weight_shapes(config.scorer))
    try:
        words = loads_json(contents[VOCAB_FILE])
    except ValueError as err:
        raise ModelLoadError(Errors.E104.format(path=where, error=err)) from None
    if not isinstance(words, list) or len(words) + FIRST_WORD_ROW != config.scorer.vocab_size:
        found = len(words) if isinstance(words, list) else "no list of"
        raise ModelLoadError(Errors.E105.format(path=where, found=found,
                                                expected=config.scorer.vocab_size - FIRST_WORD_ROW))
    if not all(isinstance(w, str) for w in words):
        raise ModelLoadError(Errors.E104.format(path=where, error="the vocabulary holds values that are not strings"))
    return _Checked(config, data, {**contents, CONFIG_FILE: raw_config}, words)


def _load(source: Union[_Folder, _Files]) -> Tuple[CorefModel, Dict[str, bytes]]:
    """The model of a folder or of files in memory, and the bytes of its files."""
    where = source.where
    config, data, contents, words = _checked_files(source)
    weights = _read_weights(_file_label(where, WEIGHTS_FILE), contents[WEIGHTS_FILE])
    _check_weights(config, weights, where)
    try:
        vocab = WordVocab(words)
    except (TypeError, UnicodeError) as err:  # UnicodeError: JSON can hold lone surrogates
        raise ModelLoadError(Errors.E104.format(path=where, error=err)) from err
    try:
        scorers = Scorers(config.scorer, weights)
    except ValueError as err:  # blocks declared in config.json that the weights break
        raise ModelLoadError(Errors.E108.format(path=where, problems=err)) from err
    # Checked last, so that a damaged file gets the more telling structural error first.
    _check_checksums(where, data.get("checksums"), contents)
    return CorefModel(config, scorers, vocab, source.path), contents


def _source_config(source: Union[_Folder, _Files],
                   required: Tuple[str, ...] = (CONFIG_FILE, WEIGHTS_FILE, VOCAB_FILE)) -> Tuple[dict, bytes]:
    """config.json of a folder or of files, parsed and as read (E102, E103 for
    missing files, E118 for a too large config.json, then as _parse_config_data)."""
    source.missing()
    absent = [f for f in required if source.size(f) is None]
    if absent:
        raise ModelLoadError(Errors.E103.format(path=source.where, files=", ".join(absent)))
    _check_sizes(source, {CONFIG_FILE: CONFIG_BYTES})
    content = source.read(CONFIG_FILE, CONFIG_BYTES)
    return _parse_config_data(content, source.where), content


def _checked_config(data: dict, where: Union[str, Path]) -> ModelConfig:
    """The ModelConfig of config.json's data: E101 for another feature schema,
    E110 for values of the wrong type."""
    config = ModelConfig.from_dict(data)
    if config.schema_hash != SCHEMA_HASH:
        raise ModelLoadError(Errors.E101.format(where=f"The model in {where}",
                                                found=config.schema_hash, expected=SCHEMA_HASH))
    _check_config(config, where)
    return config


def _file_limits(config: ModelConfig) -> Dict[str, int]:
    """The most bytes weights.npz and vocab.json may take, for this config."""
    return {WEIGHTS_FILE: _npz_limit(weight_shapes(config.scorer)) + ZIP_SLACK_BYTES,
            VOCAB_FILE: ZIP_SLACK_BYTES + WORD_BYTES * config.scorer.vocab_size}


def _check_sizes(source: Union[_Folder, _Files], limits: Mapping[str, int]) -> None:
    """E118 for a file larger than its limit (checked before reading: a model
    folder's file can be any size, or a link to a huge one)."""
    for name, limit in limits.items():
        size = source.size(name)
        if size is not None and size > limit:
            raise ModelLoadError(Errors.E118.format(file=name, path=source.where, size=size, limit=limit))


def _file_label(where: Union[str, Path], name: str) -> Union[str, Path]:
    return where / name if isinstance(where, Path) else f"{name} in {where}"


def _npz_limit(shapes: Mapping[str, tuple]) -> int:
    """Most bytes the arrays of ``shapes`` take in weights.npz, inflated (the
    deflated file is smaller but for a few bytes per block)."""
    return sum(NPY_HEADER_BYTES + 8 * int(np.prod(s)) for s in shapes.values()) \
        + EXTRA_ARRAYS * NPY_HEADER_BYTES


def _check_checksums(path: Union[str, Path], recorded: Optional[Dict[str, str]], contents: Dict[str, bytes]) -> None:
    """E114 naming the first file whose SHA-256 differs from config.json's; W128
    when config.json records none (a folder written before checksums)."""
    if not recorded:
        warnings.warn(Warnings.W128.format(path=path))
        return
    for name in CHECKSUM_FILES:
        found = hashlib.sha256(contents[name]).hexdigest()
        if name in recorded and found != recorded[name]:
            raise ModelLoadError(Errors.E114.format(file=name, path=path, found=found[:12],
                                                    expected=recorded[name][:12]))


#: Absolute bounds on a model's sizes, whatever its config.json declares (checked
#: before any weight is read or allocated). Far above any model trained here (the
#: largest shipped: 4 members of 512-256 units, 3.9 M weights), far below what
#: would exhaust a machine's memory (MAX_WEIGHTS float32: 256 MB).
MAX_WIDTH = 8192  # an input width, an embedding width, a layer's units, a rank
MAX_LAYERS = 8  # hidden layers of one net
MAX_VOCAB = 2_000_000  # embedding rows
MAX_CLASSES = 256  # mention-type classes
MAX_MEMBERS = 32  # models merged into an ensemble
MAX_WEIGHTS = 64_000_000  # numbers in all the weights together
MAX_ARRAY = 32_000_000  # numbers in one weight array


def _check_bounds(config: ModelConfig, path: Union[str, Path]) -> None:
    """E435 for a size beyond the absolute bounds above (the config's own types
    already checked): a crafted config.json cannot make the loader allocate more."""
    scorer = config.scorer
    limits = {"vector_dim": MAX_WIDTH, "embedding_dim": MAX_WIDTH, "similarity_rank": MAX_WIDTH,
              "vocab_size": MAX_VOCAB, "type_classes": MAX_CLASSES}
    for name, limit in limits.items():
        if getattr(scorer, name) > limit:
            _beyond(path, f"scorer.{name} = {getattr(scorer, name)}", f"at most {limit}")
    for name in ("single_hidden", "pair_hidden", "mention_hidden", "type_hidden"):
        layers = getattr(scorer, name) or []
        if len(layers) > MAX_LAYERS:
            _beyond(path, f"{len(layers)} layers in scorer.{name}", f"at most {MAX_LAYERS}")
        if any(n > MAX_WIDTH for n in layers):
            _beyond(path, f"scorer.{name} = {layers}", f"at most {MAX_WIDTH} units a layer")
    if scorer.n_members > MAX_MEMBERS:
        _beyond(path, f"{scorer.n_members} ensemble members", f"at most {MAX_MEMBERS}")
    sizes = {name: int(np.prod(shape, dtype=object)) for name, shape in weight_shapes(scorer).items()}
    largest = max(sizes, key=sizes.get)
    if sizes[largest] > MAX_ARRAY:
        _beyond(path, f"{sizes[largest]:,} numbers in the array {largest}", f"at most {MAX_ARRAY:,} in one array")
    if sum(sizes.values()) > MAX_WEIGHTS:
        _beyond(path, f"{sum(sizes.values()):,} weights", f"at most {MAX_WEIGHTS:,} in all")


def _beyond(path: Union[str, Path], problem: str, limit: str) -> None:
    raise ModelLoadError(Errors.E435.format(path=path, problem=problem, limit=limit))


def _check_config(config: ModelConfig, path: Union[str, Path]) -> None:
    # Values of the wrong type would fail later with a bare TypeError (or, worse,
    # when the first Doc is scored): check them all at load time.
    scorer = config.scorer
    problems = [f"scorer.{name} is {getattr(scorer, name)!r}, not an integer >= 0"
                for name in ("vector_dim", "vocab_size", "embedding_dim", "similarity_rank", "type_classes")
                if not is_int(getattr(scorer, name))]
    for name, least_layers in (("single_hidden", 0), ("pair_hidden", 1)):
        layers = getattr(scorer, name)
        if not (isinstance(layers, list) and len(layers) >= least_layers
                and all(is_int(n, 1) for n in layers)):
            problems.append(f"scorer.{name} is {layers!r}, not a list of "
                            f"{'at least one ' if least_layers else ''}integer(s) >= 1")
        elif not _valid_blocks(getattr(scorer, name.replace("hidden", "blocks")), layers):
            problems.append(f"scorer.{name.replace('hidden', 'blocks')} does not split {name} "
                            "into the same number of blocks per layer")
    hidden = scorer.type_hidden
    if hidden is not None and not (isinstance(hidden, list) and all(is_int(n, 1) for n in hidden)):
        problems.append(f"scorer.type_hidden is {hidden!r:.80}, not null or a list of integers >= 1")
    if not is_int(scorer.type_groups, 1) or (is_int(scorer.type_classes) and scorer.type_classes % scorer.type_groups):
        problems.append(f"scorer.type_groups is {scorer.type_groups!r}, not an integer >= 1 dividing "
                        "scorer.type_classes")
    if not problems and len((scorer.single_blocks or [[0]])[0]) != scorer.n_members:
        problems.append("scorer.single_blocks and scorer.pair_blocks split the two nets among "
                        "different numbers of members")
    problems += [f"{name} is {getattr(config, name)!r}, not a string"
                 for name in ("lang", "rules", "spacy_pipeline")
                 if not isinstance(getattr(config, name), str)]
    if not isinstance(config.defaults, dict):
        problems.append(f"defaults is {config.defaults!r}, not an object")
    else:
        for name, check in (("link_offsets", check_link_offsets), ("top_antecedents", check_top_antecedents)):
            try:
                if name in config.defaults:
                    check(config.defaults[name])
            except ValueError as err:
                problems.append(f"defaults.{name}: {err}")
    if problems:
        raise ModelLoadError(Errors.E110.format(path=path, problems="; ".join(problems[:5])))
    _check_bounds(config, path)


def _valid_blocks(blocks: Any, layers: List[int]) -> bool:
    if blocks is None:
        return True
    return (isinstance(blocks, list) and len(blocks) == len(layers)
            and all(isinstance(b, list) and len(b) == len(blocks[0]) and all(is_int(n, 1) for n in b)
                    and sum(b) == n for b, n in zip(blocks, layers)))


def _check_npz(file: Union[str, Path], where: Union[str, Path], content: bytes,
               shapes: Mapping[str, tuple]) -> None:
    """weights.npz's zip directory and .npy headers against the ``shapes``
    config.json declares, before any array is inflated (E107, E108, E116)."""
    # A damaged zip or .npy header raises errors of many kinds (BadZipFile,
    # zlib.error, SyntaxError from the header parser...): all mean a bad file.
    try:
        _check_npz_sizes(file, where, content, shapes)
    except ModelLoadError:
        raise
    except Exception as err:
        raise ModelLoadError(Errors.E107.format(path=file, error=err)) from err


def _read_weights(file: Union[str, Path], content: bytes) -> Dict[str, np.ndarray]:
    """The arrays of weights.npz (``content``), once :func:`_check_npz` passed."""
    try:
        with np.load(io.BytesIO(content), allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except Exception as err:  # a damaged member: zlib.error, ValueError...
        raise ModelLoadError(Errors.E107.format(path=file, error=err)) from err


def _check_npz_sizes(file: Union[str, Path], where: Union[str, Path], content: bytes,
                     shapes: Mapping[str, tuple]) -> None:
    """E116 when the zip directory declares more bytes than the shapes hold (a zip
    bomb), E108 when a .npy header declares another shape: read before inflating
    any array. Python's zipfile never inflates a member past its declared size, so
    the declared sizes bound the memory."""
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        members = archive.infolist()
        # Unexpected arrays are named by _check_weights; a few small ones may be read.
        limit = _npz_limit(shapes)
        if len(members) > len(shapes) + EXTRA_ARRAYS:
            raise ModelLoadError(Errors.E116.format(path=file, limit=limit, problem=(
                f"{len(members)} arrays where the config declares {len(shapes)}")))
        for info in members:
            name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            bound = NPY_HEADER_BYTES + 8 * int(np.prod(shapes.get(name, (0,))))
            if info.file_size > bound:
                raise ModelLoadError(Errors.E116.format(path=file, limit=bound, problem=(
                    f"{info.file_size} bytes for the array {name[:60]!r}")))
        total = sum(info.file_size for info in members)
        if total > limit:
            raise ModelLoadError(Errors.E116.format(path=file, limit=limit, problem=f"{total} bytes in all"))
        problems = [_npy_header_problem(archive, info, shapes) for info in members]
    problems = [p for p in problems if p]
    if problems:
        raise ModelLoadError(Errors.E108.format(path=where, problems="; ".join(problems[:5])))


def _npy_header_problem(archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                        shapes: Mapping[str, tuple]) -> str:
    """A .npy member's shape (from its header alone) against the declared one."""
    name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
    if name not in shapes:
        return ""  # named among the unexpected arrays by _check_weights
    with archive.open(info) as member:
        version = np.lib.format.read_magic(member)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(member)
    if tuple(shape) != tuple(shapes[name]):
        return f"{name}: shape {tuple(shape)} != {tuple(shapes[name])}"
    if dtype.itemsize > 8:
        return f"{name}: dtype {dtype} is not numeric"
    return ""


#: The largest weight magnitude a model may hold. Trained weights stay near 1 (the
#: shipped models' largest is about 1.5); finite but huge ones would overflow to
#: inf or NaN scores at prediction.
MAX_ABS_WEIGHT = 1e4


def _max_abs(array: np.ndarray) -> float:
    return float(np.abs(array).max()) if np.asarray(array).size else 0.0


def _check_weights(config: ModelConfig, weights: Dict[str, np.ndarray], path: Union[str, Path]) -> None:
    expected = weight_shapes(config.scorer)
    problems = [f"{name}: missing" for name in expected if name not in weights]
    problems += [f"{name}: unexpected" for name in weights if name not in expected]
    problems += [f"{name}: shape {tuple(weights[name].shape)} != {shape}"
                 for name, shape in expected.items()
                 if name in weights and tuple(weights[name].shape) != shape]
    numeric = {name for name, w in weights.items() if name in expected
               and np.asarray(w).dtype.kind in "fiu"}
    problems += [f"{name}: dtype {np.asarray(weights[name]).dtype} is not numeric"
                 for name in expected if name in weights and name not in numeric]
    problems += [f"{name}: not finite" for name in sorted(numeric)
                 if not np.all(np.isfinite(weights[name]))]
    problems += [f"{name}: values up to {_max_abs(weights[name]):.3g}, beyond the +-{MAX_ABS_WEIGHT:g} "
                 "a trained model holds" for name in sorted(numeric)
                 if np.all(np.isfinite(weights[name])) and _max_abs(weights[name]) > MAX_ABS_WEIGHT]
    if problems:
        raise ModelLoadError(Errors.E108.format(path=path, problems="; ".join(problems[:5])))
