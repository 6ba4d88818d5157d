"""One decode for the component, training's dev evaluation and the tuner.

Decoding needs more than scores: the name words of each mention, its lexicon
class, the speakers of quoted pronouns, binding constraints, agreement codes,
repeat keys. :func:`decode_inputs` computes all of it from a parsed Doc, once,
as plain numpy arrays (:class:`DecodeInputs`): the runtime at featurizing time,
training when it featurizes a corpus (``train/featurize.py`` stores them next
to the features, :func:`pack_inputs` / :func:`unpack_inputs`). :func:`decode`
then turns one Doc's scores into clusters the same way everywhere, so the dev
F1 that picks a checkpoint is the F1 of the shipped model.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence

import numpy as np
from spacy.tokens import Doc

from ...errors import Errors, NeuralcorefError
from ...lang.base import LanguageRules
from ...lang.lexicon import DATA as LEXICON_DATA
from ..discourse.aliases import acronym_aliases, given_name_conflicts, name_parts
from ..discourse.binding import Binding, binding_constraints, with_binders
from ..discourse.cataphora import forward_subjects
from ..discourse.classes import (gender_conflicts, mention_classes, relative_persons, speech_persons,
                                 subject_persons, thing_preference)
from ..discourse.decode_signals import (agreement_codes, check_link_offsets, coordination_preference,
                                        link_offsets_of, name_words, person_conflicts, pronoun_persons,
                                        repeat_keys, speaker_conflicts, subject_salience, with_speaker_genders,
                                        with_speaker_names)
from ..discourse.frames import verb_phrase_trims
from ..discourse.latter import latter_referents
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.quotes import quotations, speaker_pairs, voices
from ..features.contract import C, MentionFeatures
from ..mentions.mentions import Mentions
from .antecedents import DocScores
from .decode_passes import RULES, DecodeState, run_passes


@dataclass
class DecodeInputs:
    """What decoding needs about one Doc's n mentions besides their scores.

    heads (int32 (n,)): head token of each mention.
    types (int8 (n,)): mention types (indices into MENTION_TYPES).
    agreement (int32 (n, 2)): gender and number codes (decode_signals.agreement_codes).
    repeats (uint64 (n,)): repeat keys (decode_signals.repeat_keys).
    names (uint64 (n,)): name words, the speaker's added (decode_signals.name_words).
    classes (int8 (n,)): lexicon classes, speakers' genders added.
    persons (int32 (n,)): a pronoun's PERSON code, -1 for other mentions (rescue).
    speakers (int32 (k, 2)): (pronoun, speaker mention) pairs (quotes.speaker_links).
    binding (Binding): binding constraints (binding.binding_constraints).
    sentences (int32 (n,)): sentence index of each mention's head.
    aliases (int32 (n,)): for an acronym or a person's name in part, the name
        it stands for, else -1 (aliases.acronym_aliases, aliases.name_parts).
    name_of (int32 (n,)): for a one-word name or title inside a person's
        longer name ("Hillary" in "Hillary Clinton", "President" in "President
        Obama"), the head token of that name, else -1 (aliases.name_parts).
    salience (float32 (n,)): what a mention adds, as a subject, to the pair
        scores of the pronouns after it that prefer subjects (decode_signals.subject_salience).
    prefers_subject (bool (n,)): a third-person pronoun of known gender, which
        prefers a near subject (decode_signals.subject_salience).
    thing_salience (float32 (n,)), prefers_thing (bool (n,)): the same for
        concrete things and the neuter pronouns that refer (classes.thing_preference).
    forward (int32 (n,)): for a pronoun in a preposed adverbial clause or phrase, the
        mention of its main clause's subject, else -1 (cataphora.forward_subjects).
    trims (int32 (n,)): for a mention that ends with a phrase its verb governs,
        the candidate without it, else -1 (frames.verb_phrase_trims).
    """

    heads: np.ndarray
    types: np.ndarray
    agreement: np.ndarray
    repeats: np.ndarray
    names: np.ndarray
    classes: np.ndarray
    persons: np.ndarray
    speakers: np.ndarray
    binding: Binding
    sentences: np.ndarray
    aliases: np.ndarray
    name_of: np.ndarray
    salience: np.ndarray
    prefers_subject: np.ndarray
    thing_salience: np.ndarray
    prefers_thing: np.ndarray
    forward: np.ndarray
    trims: np.ndarray

    def __len__(self) -> int:
        return int(self.heads.shape[0])


@dataclass(frozen=True)
class DecodeSettings:
    """The decoding knobs: greedyness (0-1, 0.5 as trained), a link threshold
    offset per mention type (see :func:`~neuralcoref.core.discourse.decode_signals.check_link_offsets`),
    and the decoding rules switched off (names from
    :data:`~neuralcoref.core.decode.decode_passes.RULES`; none by default: every rule runs).
    """

    greedyness: float = 0.5
    link_offsets: Mapping[str, float] = field(default_factory=dict)
    off: FrozenSet[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "link_offsets", check_link_offsets(self.link_offsets))
        object.__setattr__(self, "off", check_rules(self.off))


def check_rules(names: Iterable[str]) -> FrozenSet[str]:
    """The decoding rules named, as a frozenset.

    RAISES NeuralcorefError: E450 for a name that is no rule (a string is one name,
        not its letters).
    """
    names = frozenset([names] if isinstance(names, str) else names)
    unknown = sorted(str(name) for name in names - set(RULES))
    if unknown:
        raise NeuralcorefError(Errors.E450.format(names=", ".join(unknown), rules=", ".join(RULES)))
    return names


def decode_inputs(doc: Doc, mentions: Mentions, features: MentionFeatures,
                  rules: LanguageRules, arrays: Optional[DocArrays] = None) -> DecodeInputs:
    """Everything decoding needs about a Doc's mentions that is not a score.

    doc (Doc): the parsed Doc.
    mentions (Mentions): its candidate mentions.
    features (MentionFeatures): their features (codes and hashes are read).
    rules (LanguageRules): the language's rules.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read from the Doc.
    RETURNS (DecodeInputs): plain arrays, the same for the runtime and training.
    """
    arrays = arrays_of(doc, arrays)
    codes = np.asarray(features.codes)
    persons = pronoun_persons(codes)
    spans = quotations(doc, rules, arrays)  # for the speakers and the voices
    speakers, not_speakers = speaker_pairs(doc, rules, mentions.starts, mentions.ends, mentions.heads,
                                           persons, arrays, spans)
    voice = voices(doc, rules, arrays, spans)[np.asarray(mentions.heads, dtype=np.int64)]
    narrated = voice == 0
    repeats, names, aliases = acronym_aliases(
        arrays, rules, mentions.starts, mentions.ends, mentions.types,
        repeat_keys(codes, features.hashes, narrated),
        name_words(doc, mentions.starts, mentions.ends, mentions.types, arrays,
                   mentions.heads, rules))
    repeats, names, aliases, name_of = name_parts(arrays, rules, mentions, repeats, names, aliases)
    salience, prefers_subject = subject_salience(codes, rules, narrated)
    thing_salience, prefers_thing = thing_preference(doc, mentions.heads, mentions.types, codes, rules, arrays)
    names = with_speaker_names(names, speakers)
    classes = speech_persons(with_speaker_genders(mention_classes(doc, mentions.starts, mentions.ends,
                                                                  mentions.heads, mentions.types, rules, arrays),
                                                  codes, speakers), codes)
    return DecodeInputs(
        heads=np.asarray(mentions.heads, dtype=np.int32),
        types=np.asarray(mentions.types, dtype=np.int8),
        agreement=agreement_codes(codes, rules.decoding_agreement),
        repeats=repeats,
        names=np.asarray(names, dtype=np.uint64),
        classes=np.asarray(classes, dtype=np.int8),
        persons=persons,
        speakers=np.asarray(speakers, dtype=np.int32).reshape(-1, 2),
        # A first and a second person of one voice are two people whatever the
        # parse: held for whole clusters even where binding bars links only.
        binding=with_binders(binding_constraints(doc, mentions, rules, arrays=arrays), latter_referents(
            arrays, rules, mentions.starts, mentions.ends, mentions.types, codes)).with_pairs(
            np.concatenate([
                np.asarray(given_name_conflicts(arrays, rules, mentions.starts, mentions.ends, mentions.heads,
                                                mentions.types), dtype=np.int64).reshape(-1, 2),
                gender_conflicts(arrays, rules, mentions.heads, mentions.types, classes,
                                 genders=codes[:, C["gender"]])]),
            held=speaker_conflicts(np.concatenate([
                not_speakers,
                person_conflicts(relative_persons(doc, rules, mentions.heads, persons, arrays), voice),
                person_conflicts(subject_persons(doc, mentions.heads, mentions.types, codes, persons, arrays), voice)]),
                speakers, len(persons))),
        sentences=np.asarray(arrays.sent[np.asarray(mentions.heads, dtype=np.int64)], dtype=np.int32),
        aliases=aliases,
        name_of=name_of,
        salience=salience,
        prefers_subject=prefers_subject,
        thing_salience=thing_salience,
        prefers_thing=prefers_thing,
        forward=forward_subjects(arrays, rules, mentions.starts, mentions.ends, mentions.heads,
                                 mentions.types),
        trims=verb_phrase_trims(doc, rules, mentions.starts, mentions.ends, mentions.heads, arrays))


#: The code that computes mentions, features and decode inputs (core/ and the rules').
_SOURCES = (Path(__file__).parents[1], Path(__file__).parents[2] / "lang")


def inputs_fingerprint(rules: LanguageRules) -> str:
    """A hash of everything :func:`decode_inputs` reads: every field of the
    rules (their own fingerprint leaves out the decoding fields, which do not
    change a model), the lexicon files' bytes, and the sources of the code that
    computes mentions, features and the inputs (``neuralcoref/core``,
    ``neuralcoref/lang``). Training's featurized cache is keyed by it, so stored
    inputs never lag behind the runtime's, not even between two commits of one
    version.

    RETURNS (str): 16 hex digits.
    """
    digest = hashlib.sha1()
    for folder in _SOURCES:
        for path in sorted(folder.rglob("*.py")) + sorted(folder.rglob("*.pyx")):
            digest.update(path.name.encode("utf8") + path.read_bytes())
    data = {name: sorted(map(str, v)) if isinstance(v, frozenset) else v for name, v in rules.items()}
    digest.update(json.dumps(data, sort_keys=True, default=str).encode("utf8"))
    for name in sorted(rules.lexicons):
        path = LEXICON_DATA / f"{name}.txt.gz"
        digest.update(path.read_bytes() if path.is_file() else b"")  # a missing one: mention_classes' E071
    return digest.hexdigest()[:16]


def decode(scores: DocScores, inputs: DecodeInputs, settings: DecodeSettings) -> List[List[int]]:
    """The clusters one Doc's scores decode to (mention indices per cluster): the
    passes of :mod:`~neuralcoref.core.decode.decode_passes` in order over every input, but the
    rules ``settings.off`` names.

    RAISES NeuralcorefError: E119 when the scores and the inputs are not of the
        same mentions (never a numpy error from deep inside the decoding).
    """
    n = len(inputs)
    if len(scores.single) != n or len(scores.ptr) != n + 1 or len(scores.pair) != len(scores.ante) \
            or (scores.mention is not None and len(scores.mention) != n):
        raise NeuralcorefError(Errors.E119.format(n=n, single=len(scores.single), pairs=len(scores.pair),
                                                  ante=len(scores.ante)))
    state = DecodeState(
        scores.single, scores.pair, scores.ptr, scores.ante, inputs.heads, settings.greedyness,
        inputs.agreement, link_offsets_of(inputs.types, settings.link_offsets), inputs.repeats, inputs.names,
        scores.mention, inputs.classes, inputs.persons, inputs.speakers, inputs.binding, inputs.types,
        inputs.sentences, inputs.aliases, inputs.name_of,
        ((inputs.salience, inputs.prefers_subject), (inputs.thing_salience, inputs.prefers_thing),
         coordination_preference(inputs.salience, inputs.types, inputs.persons, inputs.agreement)),
        inputs.forward, inputs.trims)
    return run_passes(state, settings.off)


#: The per-mention arrays of DecodeInputs, as stored (all documents concatenated).
_PER_MENTION = ("heads", "types", "agreement", "repeats", "names", "classes", "persons", "sentences",
                "aliases", "name_of", "salience", "prefers_subject", "thing_salience", "prefers_thing",
                "forward", "trims")
MENTION_ARRAYS = _PER_MENTION + ("binder", "forbid_counts")
#: Arrays of another length per document, with their document offsets.
RAGGED_ARRAYS = ("speakers", "forbid", "held")
#: Every array :func:`pack_inputs` writes, by name.
PACKED_ARRAYS = MENTION_ARRAYS + RAGGED_ARRAYS + tuple(f"{name}_offsets" for name in RAGGED_ARRAYS) \
    + ("fallback", "binding_clusters")


def pack_inputs(inputs: Sequence[DecodeInputs]) -> Dict[str, np.ndarray]:
    """Many Docs' decode inputs as flat arrays for storage.

    RETURNS (Dict[str, ndarray]): PACKED_ARRAYS by name: per-mention arrays
        concatenated (the documents' mention offsets split them), ragged ones
        concatenated with ``<name>_offsets`` ((n_docs + 1,) int64), and
        ``fallback`` and ``binding_clusters`` ((n_docs,) bool).
    """
    per_doc = [_named_arrays(item) for item in inputs]
    empty = _named_arrays(_empty_inputs())  # gives the dtypes and widths when there is no Doc
    out = {name: np.concatenate([arrays[name] for arrays in per_doc] or [empty[name]])
           for name in MENTION_ARRAYS + RAGGED_ARRAYS}
    for name in RAGGED_ARRAYS:
        out[f"{name}_offsets"] = np.cumsum([0] + [len(arrays[name]) for arrays in per_doc]).astype(np.int64)
    out["fallback"] = np.array([item.binding.fallback for item in inputs], dtype=bool)
    out["binding_clusters"] = np.array([item.binding.clusters for item in inputs], dtype=bool)
    return out


def unpack_inputs(arrays: Mapping[str, np.ndarray], d: int, rows: slice) -> DecodeInputs:
    """Document ``d``'s decode inputs from :func:`pack_inputs`'s arrays (memory-mapped or not).

    rows (slice): the document's mentions in the per-mention arrays.
    RETURNS (DecodeInputs): in-memory copies.
    """
    def ragged(name: str) -> np.ndarray:
        lo, hi = (int(x) for x in arrays[f"{name}_offsets"][d:d + 2])
        return np.array(arrays[name][lo:hi])

    counts = np.asarray(arrays["forbid_counts"][rows], dtype=np.int64)
    binding = Binding(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64), ragged("forbid"),
                      np.array(arrays["binder"][rows]), bool(arrays["fallback"][d]),
                      bool(arrays["binding_clusters"][d]), ragged("held").reshape(-1, 2))
    return DecodeInputs(**{name: np.array(arrays[name][rows]) for name in _PER_MENTION},
                        speakers=ragged("speakers"), binding=binding)


def _empty_inputs() -> DecodeInputs:
    return DecodeInputs(np.zeros(0, np.int32), np.zeros(0, np.int8), np.zeros((0, 2), np.int32),
                        np.zeros(0, np.uint64), np.zeros(0, np.uint64), np.zeros(0, np.int8),
                        np.zeros(0, np.int32), np.zeros((0, 2), np.int32), Binding.none(0),
                        np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32),
                        np.zeros(0, np.float32), np.zeros(0, bool), np.zeros(0, np.float32),
                        np.zeros(0, bool), np.zeros(0, np.int32), np.zeros(0, np.int32))


def _named_arrays(inputs: DecodeInputs) -> Dict[str, np.ndarray]:
    """One Doc's inputs as the arrays that are stored, by name (binding's CSR as counts)."""
    out = {name: getattr(inputs, name) for name in _PER_MENTION + ("speakers",)}
    out["binder"] = inputs.binding.binder
    out["forbid_counts"] = np.diff(inputs.binding.forbid_ptr).astype(np.int32)
    out["forbid"] = inputs.binding.forbid
    out["held"] = np.asarray(inputs.binding.held, dtype=np.int64).reshape(-1, 2)
    return out
