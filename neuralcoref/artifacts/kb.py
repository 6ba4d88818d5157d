"""Knowledge bases: entities, their aliases and priors, in a compact folder.

A KB folder holds ``kb.json`` (format, version (2: alias keys fold hyphens;
a version 1 folder loads with W416), counts, entity type names,
source and attribution, SHA-256 of the arrays) and ``kb.npz`` (numpy arrays,
read with ``allow_pickle=False``):

- entities: ``ids``, ``names``, ``descriptions`` as UTF-8 string tables
  (``*_bytes`` uint8 and ``*_offsets`` int64), ``types`` (n,) int16 (index into
  the type names, -1 unknown), ``priors`` (n,) float32 (how often the entity is
  mentioned; 0 unknown);
- ids looked up by ``id_hashes`` (n,) uint64, sorted, with ``id_order`` (n,)
  int32, the entity of each hash;
- aliases: ``alias_hashes`` (a,) uint64, sorted, their texts as a string table in
  the same order (to tell a hash collision), and candidates as rows
  ``alias_ptr`` (a + 1,) int64 into ``cand_entities`` (c,) int32 and
  ``cand_priors`` (c,) float32, P(entity | alias), each row summing to 1.

Strings are hashed once (spaCy's 64-bit MurmurHash of the alias key), so
loading is reading arrays: no Python object per entity. A million entities load
in about a second (bench/kb_load.py). :meth:`KnowledgeBase.to_spacy` gives the
same entities as spaCy's ``InMemoryLookupKB`` (for ``EntityLinker``).
"""
from __future__ import annotations

import hashlib
import io
import json
import warnings
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.linking.linking import alias_key, key_hash
from ..errors import Errors, KBLoadError, Warnings
from ..validation import file_sha256 as _sha256

#: Alias keys whose row a KB remembers (then it forgets them all: bounded memory).
_ALIAS_CACHE = 1 << 16

KB_CONFIG, KB_ARRAYS = "kb.json", "kb.npz"
KB_FORMAT, KB_VERSION = "neuralcoref-kb", 2
#: Versions read: 1 (before alias keys folded hyphens) loads with W416.
_READ_VERSIONS = (1, 2)
#: Shipped knowledge bases, by name: folders under ``neuralcoref/kbs/``.
SHIPPED_KBS = ("gum",)
STRING_TABLES = ("ids", "names", "descriptions", "aliases")
#: Every array of kb.npz with its dtype.
ARRAY_DTYPES = {
    **{f"{t}_bytes": np.uint8 for t in STRING_TABLES},
    **{f"{t}_offsets": np.int64 for t in STRING_TABLES},
    "types": np.int16, "priors": np.float32, "id_hashes": np.uint64, "id_order": np.int32,
    "alias_hashes": np.uint64, "alias_ptr": np.int64, "cand_entities": np.int32, "cand_priors": np.float32,
}
class StringTable:
    """Strings stored as one UTF-8 buffer and offsets (no Python str per entry).

    data (ndarray): (total_bytes,) uint8.
    offsets (ndarray): (n + 1,) int64, string i is data[offsets[i]:offsets[i + 1]].
    """

    def __init__(self, data: np.ndarray, offsets: np.ndarray):
        self.data, self.offsets = data, offsets

    @classmethod
    def build(cls, strings: Sequence[str]) -> "StringTable":
        encoded = [s.encode("utf8") for s in strings]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in encoded], out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> str:
        return self.data[self.offsets[i]:self.offsets[i + 1]].tobytes().decode("utf8")


class KnowledgeBase:
    """Entities with ids, names, types, priors and descriptions, and aliases
    with candidate entities and P(entity | alias). Build one with
    :func:`neuralcoref.artifacts.kb_build.build_kb`; load one with :func:`load_kb`.
    It satisfies :class:`neuralcoref.core.linking.kb_protocol.LinkingKB`, what
    the linking code reads of it.

    arrays (Dict[str, ndarray]): the arrays of kb.npz (see the module's docstring).
    type_names (List[str]): entity type names, indexed by ``arrays["types"]``.
    meta (Dict[str, Any]): kb.json's other fields (name, source, attribution...).
    """

    def __init__(self, arrays: Dict[str, np.ndarray], type_names: Sequence[str],
                 meta: Optional[Dict[str, Any]] = None):
        self.arrays = arrays
        self.type_names = list(type_names)
        self.meta = dict(meta or {})
        self.ids, self.names, self.descriptions, self.aliases = (
            StringTable(arrays[f"{t}_bytes"], arrays[f"{t}_offsets"]) for t in STRING_TABLES)
        self.types, self.priors = arrays["types"], arrays["priors"]
        self._type_index = {name: i for i, name in enumerate(self.type_names)}
        self._alias_rows: Dict[str, int] = {}  # alias key -> row: the linker asks the same keys again

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def n_aliases(self) -> int:
        return len(self.aliases)

    def entity_index(self, entity_id: str) -> int:
        """The row of an entity id, or -1 when the KB lacks it."""
        hashes = self.arrays["id_hashes"]
        h = np.uint64(key_hash(entity_id))
        i = int(np.searchsorted(hashes, h))
        if i < len(hashes) and hashes[i] == h:
            row = int(self.arrays["id_order"][i])
            if self.ids[row] == entity_id:
                return row
        return -1

    def __contains__(self, entity_id: object) -> bool:
        return isinstance(entity_id, str) and self.entity_index(entity_id) >= 0

    def alias_index(self, key: str) -> int:
        """The row of an alias key (see :func:`alias_key`), or -1."""
        found = self._alias_rows.get(key)
        if found is None:
            if len(self._alias_rows) >= _ALIAS_CACHE:  # a long-running server: bounded
                self._alias_rows.clear()
            found = self._alias_rows[key] = self._find_alias(key)
        return found

    def _find_alias(self, key: str) -> int:
        hashes = self.arrays["alias_hashes"]
        if not key or len(hashes) == 0:
            return -1
        h = np.uint64(key_hash(key))
        i = int(np.searchsorted(hashes, h))
        if i < len(hashes) and hashes[i] == h and self.aliases[i] == key:
            return i
        return -1

    def candidates(self, text: str) -> Tuple[np.ndarray, np.ndarray]:
        """The entities a text may name, and P(entity | alias).

        text (str): a mention's text (keyed with :func:`alias_key`).
        RETURNS (Tuple[ndarray, ndarray]): entity rows (k,) int32 and priors (k,)
            float32; empty when the text is no alias.
        """
        return self.candidates_of_key(alias_key(text))

    def candidates_of_key(self, key: str) -> Tuple[np.ndarray, np.ndarray]:
        """:meth:`candidates` of an already computed alias key."""
        a = self.alias_index(key)
        if a < 0:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        lo, hi = self.arrays["alias_ptr"][a], self.arrays["alias_ptr"][a + 1]
        return self.arrays["cand_entities"][lo:hi], self.arrays["cand_priors"][lo:hi]

    def type_index(self, name: Optional[str]) -> int:
        """The index of an entity type name, -1 when unknown."""
        return self._type_index.get(name, -1) if name else -1

    def entity_type(self, row: int) -> Optional[str]:
        """The type name of entity ``row``, None when unknown."""
        t = int(self.types[row])
        return self.type_names[t] if t >= 0 else None

    def entity(self, row: int) -> Dict[str, Any]:
        """Entity ``row`` as a dict: id, name, type, prior, description."""
        return {"id": self.ids[row], "name": self.names[row], "type": self.entity_type(row),
                "prior": float(self.priors[row]), "description": self.descriptions[row]}

    def to_disk(self, path: Union[str, Path]) -> Path:
        """Write the KB folder (kb.json, kb.npz); RETURNS (Path): the folder."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez(buffer, **self.arrays)  # uncompressed: loading is a read
        content = buffer.getvalue()
        (path / KB_ARRAYS).write_bytes(content)
        config = {**self.meta, "format": KB_FORMAT, "version": KB_VERSION, "entities": len(self),
                  "aliases": self.n_aliases, "candidates": int(len(self.arrays["cand_entities"])),
                  "types": self.type_names, "sha256": hashlib.sha256(content).hexdigest()}
        (path / KB_CONFIG).write_text(json.dumps(config, indent=2, ensure_ascii=False), encoding="utf8")
        return path

    def to_spacy(self, vocab, vector_length: int = 1):
        """The entities and aliases as spaCy's ``InMemoryLookupKB`` (for spaCy's
        ``EntityLinker``; entity vectors are zeros of ``vector_length``).

        vocab (Vocab): the pipeline's vocabulary.
        RETURNS (InMemoryLookupKB): the same entities, frequencies and aliases.
        """
        from spacy.kb import InMemoryLookupKB

        kb = InMemoryLookupKB(vocab, entity_vector_length=vector_length)
        ids = [self.ids[i] for i in range(len(self))]
        kb.set_entities(ids, [float(p) for p in self.priors], [[0.0] * vector_length] * len(ids))
        ptr, ents, probs = (self.arrays[k] for k in ("alias_ptr", "cand_entities", "cand_priors"))
        for a in range(self.n_aliases):
            lo, hi = int(ptr[a]), int(ptr[a + 1])
            kb.add_alias(self.aliases[a], [ids[e] for e in ents[lo:hi]],
                         [float(p) * 0.999 for p in probs[lo:hi]])  # spaCy wants sum <= 1
        return kb


def kb_path(kb: Union[str, Path]) -> Path:
    """The folder of a shipped KB's name or of a KB folder."""
    if isinstance(kb, str) and kb in SHIPPED_KBS:
        return Path(str(resources.files("neuralcoref") / "kbs" / kb))
    return Path(kb)


def load_kb(kb: Union[str, Path, "KnowledgeBase"]) -> KnowledgeBase:
    """Load a KB folder (or a shipped KB by name), checked before use.

    kb (str | Path | KnowledgeBase): "gum", a folder, or a loaded KB (returned as is).
    RETURNS (KnowledgeBase): the KB.
    RAISES KBLoadError: E400 (no such folder), E401 (kb.json unreadable or of
        another format or version), E402 (kb.npz damaged: checksum, arrays,
        shapes or dtypes).
    """
    if isinstance(kb, KnowledgeBase):
        return kb
    path = kb_path(kb)
    config = check_kb_folder(path)
    arrays_file = path / KB_ARRAYS
    if not arrays_file.is_file() or _sha256(arrays_file) != config.get("sha256"):
        reason = f"{KB_ARRAYS} is missing" if not arrays_file.is_file() else f"{KB_ARRAYS} does not match its checksum"
        raise KBLoadError(Errors.E402.format(path=path, reason=reason))
    arrays = _read_arrays(path, arrays_file)
    meta = {k: v for k, v in config.items() if k not in ("format", "version", "types", "sha256")}
    kb_ = KnowledgeBase(arrays, config["types"], meta)
    _check_counts(kb_, config, path)
    return kb_


def check_kb_folder(kb: Union[str, Path]) -> Dict[str, Any]:
    """The checks of :func:`load_kb` that read only kb.json (cheap: a command
    line checks its options with them before loading a pipeline; the arrays
    are read, and checked, once, by the linker).

    RETURNS (Dict[str, Any]): the folder's kb.json.
    RAISES KBLoadError: E400 (no such folder), E401 (kb.json unreadable or of
        another format or version).
    """
    path = kb_path(kb)
    if not (path / KB_CONFIG).is_file():
        raise KBLoadError(Errors.E400.format(path=path, shipped=", ".join(SHIPPED_KBS)))
    return _read_config(path)


def _read_config(path: Path) -> Dict[str, Any]:
    try:
        config = json.loads((path / KB_CONFIG).read_text(encoding="utf8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise KBLoadError(Errors.E401.format(path=path, reason=f"not JSON ({err})")) from None
    if not isinstance(config, dict) or config.get("format") != KB_FORMAT:
        raise KBLoadError(Errors.E401.format(path=path, reason=f"not a '{KB_FORMAT}' folder"))
    if config.get("version") not in _READ_VERSIONS:
        raise KBLoadError(Errors.E401.format(
            path=path, reason=f"version {config.get('version')!r}, this release reads versions 1-{KB_VERSION}"))
    if config["version"] < KB_VERSION:
        warnings.warn(Warnings.W416.format(path=path))
    if not isinstance(config.get("types"), list) or not all(isinstance(t, str) for t in config["types"]):
        raise KBLoadError(Errors.E401.format(path=path, reason="'types' is not a list of names"))
    return config


def _read_arrays(path: Path, file: Path) -> Dict[str, np.ndarray]:
    try:
        with np.load(file, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as err:
        raise KBLoadError(Errors.E402.format(path=path, reason=f"unreadable ({err})")) from None
    missing = [name for name in ARRAY_DTYPES if name not in arrays]
    wrong = [f"{name} is {arrays[name].dtype}{arrays[name].shape}" for name, dtype in ARRAY_DTYPES.items()
             if name in arrays and (arrays[name].dtype != dtype or arrays[name].ndim != 1)]
    if missing or wrong:
        raise KBLoadError(Errors.E402.format(
            path=path, reason="; ".join(filter(None, [missing and f"no {', '.join(missing)}", *wrong]))))
    return arrays


def _check_counts(kb: KnowledgeBase, config: Dict[str, Any], path: Path) -> None:
    """E402 unless the arrays agree with each other and with kb.json's counts,
    so that a lookup can never index out of bounds."""
    a, n = kb.arrays, len(kb)
    problems = []
    if config.get("entities") != n or config.get("aliases") != kb.n_aliases:
        problems.append(f"kb.json counts {config.get('entities')} entities and {config.get('aliases')} "
                        f"aliases, the arrays {n} and {kb.n_aliases}")
    for table in STRING_TABLES:
        offsets = a[f"{table}_offsets"]
        if len(offsets) == 0 or offsets[0] != 0 or offsets[-1] != len(a[f"{table}_bytes"]) \
                or np.any(np.diff(offsets) < 0):
            problems.append(f"{table}_offsets do not cut {table}_bytes")
    sizes = {"names": n, "descriptions": n, "types": n, "priors": n, "id_hashes": n, "id_order": n,
             "alias_hashes": kb.n_aliases, "alias_ptr": kb.n_aliases + 1, "cand_priors": len(a["cand_entities"])}
    for name, size in sizes.items():
        length = len(a[name]) if name not in ("names", "descriptions") else len(getattr(kb, name))
        if length != size:
            problems.append(f"{name} has {length} rows, not {size}")
    if not problems:
        problems += _index_problems(kb)
    if problems:
        raise KBLoadError(Errors.E402.format(path=path, reason="; ".join(problems[:3])))


def _index_problems(kb: KnowledgeBase) -> List[str]:
    a, n = kb.arrays, len(kb)
    ptr, ents = a["alias_ptr"], a["cand_entities"]
    problems = []
    if n and (a["id_order"].min() < 0 or a["id_order"].max() >= n):
        problems.append("id_order points outside the entities")
    if len(ptr) and (ptr[0] != 0 or ptr[-1] != len(ents) or np.any(np.diff(ptr) < 0)):
        problems.append("alias_ptr does not cut the candidates")
    if len(ents) and (ents.min() < 0 or ents.max() >= n):
        problems.append("cand_entities point outside the entities")
    if len(kb.types) and (kb.types.min() < -1 or kb.types.max() >= len(kb.type_names)):
        problems.append("types point outside the type names")
    return problems
