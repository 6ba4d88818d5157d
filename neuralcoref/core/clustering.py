"""From scores to clusters: best-antecedent links, clusters along the links, main mentions."""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import numpy as np
from spacy.symbols import PROPN
from spacy.tokens import Doc

from ..lang.base import LanguageRules
from ..lang.lexicon import GENDER_CLASSES, MENTION_CLASSES
from . import _features
from .binding import Binding, allowed_together
from .cluster_sets import UnionFind, owner_map
from .contract import C, DEP_CLASSES, GENDER, H, NUMBER, PERSON
from .doc_arrays import DocArrays, arrays_of
from .labels import has_label
from .mentions import MENTION_TYPES
from .sets import isin

_PRONOMINAL = MENTION_TYPES.index("pronominal")
_PROPER = MENTION_TYPES.index("proper")
_LIST = MENTION_TYPES.index("list")
_NOMINAL = MENTION_TYPES.index("nominal")
#: Keys of first-person singular pronouns: this bit plus the speaker's id, so
#: they never meet a name's text hash in practice.
_SPEAKER_KEY = np.uint64(1 << 63)


def greedyness_offset(greedyness: float) -> float:
    """Score margin a link must clear: log((1 - g) / g); 0 at g = 0.5 (as trained).

    Higher greedyness links more; 0 never links, 1 always links to the best.
    """
    if not 0.0 <= greedyness <= 1.0:
        raise ValueError(f"greedyness must be within [0, 1], got {greedyness}")
    if greedyness == 0.0:
        return math.inf
    if greedyness == 1.0:
        return -math.inf
    return math.log((1.0 - greedyness) / greedyness)


def link_offsets_of(types: np.ndarray, link_offsets: Mapping[str, float]) -> Optional[np.ndarray]:
    """Per-mention offsets from per-type ones, for :func:`~neuralcoref.core.decode_passes.decode_clusters`.

    types (int (n,)): mention types (indices into MENTION_TYPES).
    link_offsets (Mapping[str, float]): score offset per mention type name (see
        :func:`check_link_offsets`); types not named get 0.
    RETURNS (ndarray | None): (n,) float32, or None when every offset is 0.
    """
    if not any(link_offsets.values()):
        return None
    table = np.array([link_offsets.get(t, 0.0) for t in MENTION_TYPES], dtype=np.float32)
    return table[np.asarray(types, dtype=np.int64)]


def check_link_offsets(link_offsets: Any) -> Dict[str, float]:
    """Validated per-type link offsets: a mapping of MENTION_TYPES to finite numbers.

    An anaphor of type t links only if its best candidate's score beats its
    no-antecedent score by the greedyness offset plus ``link_offsets[t]``:
    negative values link more (-0.4 is about greedyness 0.6 for that type).
    RETURNS (Dict[str, float]): the offsets as floats.
    RAISES ValueError: not a mapping, an unknown type, or a value that is not a
        finite number.
    """
    if not isinstance(link_offsets, Mapping):
        raise ValueError(f"{link_offsets!r} is not an object (a mapping of mention types to numbers)")
    out = {}
    for name, value in link_offsets.items():
        if name not in MENTION_TYPES:
            raise ValueError(f"unknown mention type {name!r} (expected one of {', '.join(MENTION_TYPES)})")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"the offset of {name!r} must be a finite number, got {value!r}")
        out[name] = float(value)
    return out


def agreement_codes(codes: np.ndarray, attributes: Iterable[str] = ("gender", "number")) -> np.ndarray:
    """The gender and number codes of mentions, for :func:`best_antecedents`.

    codes (int (n, len(MENTION_CODES))): mention codes.
    attributes (Iterable[str]): those that constrain decoding (the language
        rules' ``decoding_agreement``); the others are given as unknown (0).
    RETURNS (ndarray): (n, 2) int32 gender and number codes.
    """
    wanted = set(attributes)
    out = np.zeros((len(codes), 2), dtype=np.int32)
    for i, name in enumerate(("gender", "number")):
        if name in wanted:
            out[:, i] = np.asarray(codes)[:, C[name]]
    return out


#: Genders (bits of features.GENDER codes) and numbers each lexicon class allows.
_BIT = {name: 1 << GENDER.index(name) for name in GENDER[1:]}
_CLASS_GENDERS = {"person": _BIT["masc"] | _BIT["fem"], "group": _BIT["neut"],
                  "inanimate": _BIT["neut"], "female": _BIT["fem"], "male": _BIT["masc"]}
_SING, _PLUR = 1 << NUMBER.index("sing"), 1 << NUMBER.index("plur")


def agreement_masks(agreement: np.ndarray, classes: Optional[np.ndarray] = None) -> np.ndarray:
    """What each mention allows, for :func:`best_antecedents`: bit sets of
    gender and number codes, from its own codes and, where its morphology gives
    no gender, its lexicon class (:func:`neuralcoref.core.classes.mention_classes`).

    A person noun or name allows he and she, never "it"; a group ("the
    committee", "the company") and a thing "it", not he or she; a group in the
    singular also "they". Animals and unlisted nouns allow any.

    agreement (int (n, 2)): gender and number codes, from :func:`agreement_codes`
        (0 for unknown, or for an attribute that does not constrain decoding).
    classes (int (n,) | None): MENTION_CLASSES codes; None: the codes alone.
    RETURNS (ndarray): (n, 2) uint32, 0 where a mention allows any value.
    """
    agreement = np.asarray(agreement)
    out = np.where(agreement > 0, np.left_shift(1, agreement), 0).astype(np.uint32)
    if classes is None or not np.any(classes):
        return out
    table = np.array([_CLASS_GENDERS.get(c, 0) for c in MENTION_CLASSES], dtype=np.uint32)
    gender_known = agreement[:, 0] > 0
    out[:, 0] = np.where(gender_known, out[:, 0], table[np.asarray(classes, dtype=np.int64)])
    group_sing = (np.asarray(classes) == MENTION_CLASSES.index("group")) & (out[:, 1] == _SING)
    out[group_sing, 1] = _SING | _PLUR
    return out


def best_antecedents(single: np.ndarray, pair: np.ndarray, ptr: np.ndarray,
                     ante: np.ndarray, greedyness: float = 0.5,
                     agreement: Optional[np.ndarray] = None,
                     names: Optional[np.ndarray] = None,
                     classes: Optional[np.ndarray] = None,
                     binding: Optional[Binding] = None,
                     masks: Optional[np.ndarray] = None) -> np.ndarray:
    """Each mention's chosen antecedent, or -1 for none, decided left to right.

    single (float32 (n,)): no-antecedent scores.
    pair (float32 (n_pairs,)): pair scores, in the order of ``ante``.
    ptr (int64 (n + 1,)), ante (int32 (n_pairs,)): candidate antecedents (CSR).
    greedyness (float): 0-1, see :func:`greedyness_offset`.
    agreement (int (n, 2) | None): from :func:`agreement_codes`; when given, a
        mention never joins a cluster that holds a mention of another known
        gender or number ("my sister ... him", "the students ... she"). Gold
        coreference seldom mixes them, while a model trained on a few hundred
        documents does not always learn to avoid it.
    names (uint64 (n,) | None): from :func:`name_words`; when given, a mention
        with a name never joins a cluster whose names share no word with it
        ("Pauline" and "Laurence"; "Samuel" and "Samuel de Constant" may meet).
    classes (int (n,) | None): lexicon classes, see :func:`agreement_masks`
        ("the laptop" never joins "he"); they need ``agreement``.
    binding (Binding | None): from :func:`~neuralcoref.core.binding.binding_constraints`;
        when given, a mention never joins a cluster holding a mention it is
        forbidden to corefer with ("He saw him"), and a reflexive links to its
        binder ("Peter saw himself") when agreement allows, whatever the scores.
    masks (uint32 (n, 2) | None): ``agreement_masks(agreement, classes)`` when the
        caller has them already (decode_clusters' steps share one).
    RETURNS (ndarray): (n,) int32; a mention links to its best allowed candidate
        (the first of equal ones) when that score beats its single score by the
        greedyness offset.
    """
    n = len(single)
    if agreement is None:
        agreement = np.zeros((n, 2), dtype=np.int32)
    if names is None:
        names = np.zeros(n, dtype=np.uint64)
    if binding is None:
        binding = Binding.none(n)
    if masks is None:
        masks = agreement_masks(agreement, classes)
    return _features.consistent_antecedents(
        np.ascontiguousarray(single, dtype=np.float32), np.ascontiguousarray(pair, dtype=np.float32),
        np.ascontiguousarray(ptr, dtype=np.int64), np.ascontiguousarray(ante, dtype=np.int32),
        greedyness_offset(greedyness), np.ascontiguousarray(masks[:, 0]),
        np.ascontiguousarray(masks[:, 1]), np.ascontiguousarray(names, dtype=np.uint64),
        np.ascontiguousarray(binding.forbid_ptr, dtype=np.int64),
        np.ascontiguousarray(binding.forbid, dtype=np.int32),
        np.ascontiguousarray(binding.binder, dtype=np.int32), binding.fallback)


#: How far below its threshold a blocked pronoun's best allowed candidate may score
#: and still be linked by :func:`rescue_pronouns` (measured: docs/experiments/
#: 2026-11-26-lexicon-speakers.md).
RESCUE_MARGIN = 0.3


def rescue_pronouns(links: np.ndarray, single: np.ndarray, pair: np.ndarray, ptr: np.ndarray,
                    ante: np.ndarray, persons: np.ndarray, greedyness: float = 0.5,
                    agreement: Optional[np.ndarray] = None, names: Optional[np.ndarray] = None,
                    classes: Optional[np.ndarray] = None, margin: Optional[float] = None,
                    binding: Optional[Binding] = None, masks: Optional[np.ndarray] = None,
                    top: Optional[np.ndarray] = None, name_of: Optional[np.ndarray] = None) -> np.ndarray:
    """Links again, letting a third-person pronoun that the scores called anaphoric
    but agreement left unlinked take its best allowed candidate.

    In "My sister has a dog. She loves him." the scorers rank "My sister" first
    for "him" and clear its threshold: "him" refers to something, just not to a
    woman. Agreement forbids her, and "a dog" scores under the threshold, so
    "him" was left alone. Here such a pronoun's threshold drops by ``margin``
    and first- and second-person candidates are left out ("My"), then the
    mentions are linked again with every constraint, binding included (so a
    pronoun whose best candidate binding forbids may take its best allowed one
    under the lowered threshold, never a forbidden one).

    links (int (n,)): from :func:`best_antecedents` with the same arguments.
    persons (int (n,)): a pronoun's PERSON code, -1 for other mentions.
    margin (float | None): None: RESCUE_MARGIN.
    top (float32 (n,) | None): ``top_scores(pair, ptr)`` when the caller has them.
    The other arguments: as for :func:`best_antecedents` (``single`` with its offsets).
    RETURNS (ndarray): (n,) int32 links, ``links`` itself when no pronoun was blocked.
    """
    single, pair, ptr = np.asarray(single, np.float32), np.asarray(pair, np.float32), np.asarray(ptr)
    counts = np.diff(ptr)
    top = top_scores(pair, ptr) if top is None else top
    third = np.asarray(persons) == PERSON.index("3")
    blocked = (np.asarray(links) < 0) & third & (top - single > greedyness_offset(greedyness))
    if not blocked.any():
        return links
    anaphor = np.repeat(np.arange(len(single)), counts)
    barred = isin(np.asarray(persons)[np.asarray(ante)], (PERSON.index("1"), PERSON.index("2")))
    if name_of is not None:  # nor a word of a person's name ("Dr." of "Dr. Brown")
        barred |= np.asarray(name_of)[np.asarray(ante)] >= 0
    pair = np.where(blocked[anaphor] & barred, np.float32(-np.inf), pair)
    margin = RESCUE_MARGIN if margin is None else margin
    single = np.where(blocked, single - np.float32(margin), single)
    return best_antecedents(single, pair, ptr, ante, greedyness, agreement, names, classes, binding, masks)


def top_scores(pair: np.ndarray, ptr: np.ndarray) -> np.ndarray:
    """Each mention's best candidate score, -inf for a mention without candidates.

    pair (float32 (n_pairs,)), ptr (int64 (n + 1,)): the scores (CSR).
    RETURNS (ndarray): (n,) float32.
    """
    pair, ptr = np.asarray(pair, np.float32), np.asarray(ptr)
    has = np.diff(ptr) > 0
    top = np.full(len(ptr) - 1, -np.inf, dtype=np.float32)
    if has.any():
        top[has] = np.maximum.reduceat(pair, ptr[:-1][has])
    return top


def without_verb_phrases(clusters: List[List[int]], trims: np.ndarray) -> List[List[int]]:
    """Each clustered mention that ends with a phrase its verb governs
    ("protected [the designer from harm]") replaced by the candidate without it
    ("the designer"), unless a cluster holds that one already.

    trims (int (n,)): from :func:`~neuralcoref.core.frames.verb_phrase_trims`.
    RETURNS (List[List[int]]): the clusters, each sorted.
    """
    trims = np.asarray(trims)
    if not (trims >= 0).any():
        return clusters
    held = {m for members in clusters for m in members}
    out = []
    for members in clusters:
        kept = [int(trims[m]) if trims[m] >= 0 and int(trims[m]) not in held else m for m in members]
        out.append(sorted(kept))
    return out


#: Sentences back within which a subject is salient for a pronoun: its own and
#: the one before (the previous utterance of centering theory).
SALIENT_SENTENCES = 1


def subject_salience(codes: np.ndarray, rules: LanguageRules,
                     narrated: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Each mention's salience as an antecedent (the rules' ``subject_salience``
    for a subject of its clause, else 0), and whether, as a pronoun, it prefers
    a near subject: a third-person pronoun of known gender (he, his, she, her;
    il, elle), whatever decoding's agreement checks. A first- or second-person
    subject of the narration is no center a he/she prefers ("I met Sarah. She
    ...": Sarah); a quoted one may be ('"I am tired," she said').

    codes (int (n, k)): mention codes (:class:`~neuralcoref.core.contract.MentionFeatures`).
    narrated (bool (n,) | None): which mentions the narrator speaks
        (quotes.voices 0); None: none.
    RETURNS (Tuple[ndarray, ndarray]): (n,) float32 and (n,) bool, for :func:`prefer_near`.
    """
    codes = np.asarray(codes)
    narrated = np.zeros(len(codes), dtype=bool) if narrated is None else np.asarray(narrated, dtype=bool)
    persons = pronoun_persons(codes)
    narrator = narrated & ((persons == PERSON.index("1")) | (persons == PERSON.index("2")))
    subject = (codes[:, C["dep"]] == DEP_CLASSES.index("subject")) & ~narrator
    salience = np.where(subject, np.float32(rules.subject_salience), np.float32(0)).astype(np.float32)
    return salience, third_person_pronouns(codes, ("masc", "fem"))


def coordination_preference(salience: np.ndarray, types: np.ndarray, persons: np.ndarray,
                            agreement: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """A plural third-person pronoun prefers a coordinated subject ("John and
    Mary went home. They were tired."): the subject's salience, from
    :func:`subject_salience`, for list mentions only, and which pronouns are
    plural third persons (they, them, their). Rules without subject salience
    (French) get none. A plural subject that is no coordination gets none:
    every plural noun phrase as salient cost both English dev sets, group
    nouns ("the police") LitBank
    (docs/experiments/2026-11-28-coordination-voices.md).

    salience (float32 (n,)): each mention's subject salience; types (int (n,)):
        mention types; persons (int (n,)): pronoun persons (:func:`pronoun_persons`);
        agreement (int (n, 2)): gender and number codes (:func:`agreement_codes`).
    RETURNS (Tuple[ndarray, ndarray]): (n,) float32 and (n,) bool, for :func:`prefer_near`.
    """
    lists = np.asarray(types) == _LIST
    plural = (np.asarray(persons) == PERSON.index("3")) & (np.asarray(agreement)[:, 1] == NUMBER.index("plur"))
    return np.where(lists, np.asarray(salience, dtype=np.float32), np.float32(0)).astype(np.float32), plural


def third_person_pronouns(codes: np.ndarray, genders: Iterable[str]) -> np.ndarray:
    """Which mentions are third-person pronouns of one of ``genders`` (GENDER
    values), by their codes: the pronouns a salience preference is for.

    codes (int (n, k)): mention codes.
    RETURNS (ndarray): (n,) bool.
    """
    codes = np.asarray(codes)
    return ((pronoun_persons(codes) == PERSON.index("3"))
            & isin(codes[:, C["gender"]], [GENDER.index(g) for g in genders]))


def prefer_near(pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray, sentences: np.ndarray,
                preferences: Sequence[Tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Pair scores where a pronoun that prefers a kind of antecedent scores each
    such antecedent in its own or the previous sentence higher by its salience.

    Three preferences use it. He and she prefer a near subject
    (:func:`subject_salience`): between two people of one gender the scorers
    often choose by distance or leave the pronoun alone, while the subject of
    the last sentence is a pronoun's preferred antecedent (centering theory's
    preferred center, and the parallelism that GAP's syntactic baselines use).
    A referring "it" prefers a near concrete thing
    (:func:`~neuralcoref.core.classes.thing_preference`): trained on corpora
    where many an "it" is an event or nothing, the scorers leave "He closed it"
    unlinked. They prefer a near coordinated subject
    (:func:`coordination_preference`). Measurements:
    docs/experiments/2026-11-27-name-parts.md, 2026-11-27-it-things.md,
    2026-11-28-coordination-voices.md.

    pair (float (n_pairs,)), ptr (int (n + 1,)), ante (int (n_pairs,)): the scores, as
        for :func:`best_antecedents`.
    sentences (int (n,)): the mentions' sentence indices.
    preferences: (salience float (n,), prefers bool (n,)) pairs: what each
        mention adds as an antecedent, and which pronouns it adds it for.
    RETURNS (ndarray): the pair scores, ``pair`` itself where nothing changes.
    """
    preferences = [(np.asarray(s, dtype=np.float32), np.asarray(p, dtype=bool)) for s, p in preferences
                   if np.any(s) and np.any(p)]
    if not preferences:
        return pair
    anaphor = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    ante, sentences = np.asarray(ante), np.asarray(sentences)
    near = sentences[anaphor] - sentences[ante] <= SALIENT_SENTENCES
    out = np.asarray(pair, dtype=np.float32).copy()
    for salience, prefers in preferences:
        out += np.where(near & prefers[anaphor], salience[ante], np.float32(0))
    return out


def drop_name_words(clusters: List[List[int]], name_of: np.ndarray, heads: np.ndarray) -> List[List[int]]:
    """Take out of each cluster the one-word names that lie inside a longer name
    of the same cluster ("Hillary" of "Hillary Clinton"): a word of a person's
    name is not a second mention of the person. A repeated given name links to
    the word as readily as to the name ("Hillary Clinton ... Hillary").

    name_of (int (n,)): for such a word, the head token of the name it lies in, else -1.
    RETURNS (List[List[int]]): the clusters, each sorted, of two mentions or more.
    """
    name_of = np.asarray(name_of)
    if not (name_of >= 0).any():
        return clusters
    out = []
    for members in clusters:
        held = {int(heads[m]) for m in members}
        kept = [m for m in members if int(name_of[m]) not in held]
        if len(kept) > 1:
            out.append(kept)
    return out


def name_words(doc: Doc, starts: np.ndarray, ends: np.ndarray, types: np.ndarray,
               arrays: Optional[DocArrays] = None, heads: Optional[np.ndarray] = None,
               rules: Optional[LanguageRules] = None) -> np.ndarray:
    """The words of each proper-name mention, as a 64-bit set (0 for other mentions).

    Name words are the mention's proper-noun tokens of two letters or more
    ("Samuel de Constant": samuel, constant; "M. Tronchin": tronchin), each one
    bit of its lowercase hash: two names that share a bit may still be different
    words, which only lets :func:`best_antecedents` join them as it would without
    names. Decoding with them never puts "Pauline" and "Laurence" in one cluster
    (measurements: docs/experiments/2026-11-25-shipped-models.md).

    A capitalised word after a title is a name word whatever its tag, and a
    mention headed by the title or such a word has a name ("Mme Des Franches",
    which the tagger reads as a noun and a preposition, is not "Mme Denis").

    doc (Doc): the parsed Doc; starts, ends, types (int (n,)): the mentions.
    arrays (DocArrays | None): the Doc's arrays (``doc_arrays.read_doc``); None:
        read them now.
    heads (int (n,) | None), rules (LanguageRules | None): the mentions' heads
        and the rules' ``title_words`` and ``name_particles``; None: no title names.
    RETURNS (ndarray): (n,) uint64.
    """
    out = np.zeros(len(starts), dtype=np.uint64)
    arrays = arrays_of(doc, arrays)
    named = (arrays.pos == PROPN) & arrays.is_alpha & (arrays.length > 1)
    with_name = np.asarray(types) == _PROPER
    if rules is not None and heads is not None:
        titled, titles = _after_titles(doc, arrays, rules)
        named |= titled
        with_name |= (titled | titles)[np.asarray(heads, dtype=np.int64)]
    spans = np.flatnonzero(with_name).tolist()
    if not spans:
        return out
    # Python ints: a short name's few bits are or-ed without a ufunc call per mention.
    bits = np.where(named, np.left_shift(np.uint64(1), arrays.lower & np.uint64(63)), np.uint64(0)).tolist()
    for i in spans:
        word = 0
        for b in bits[int(starts[i]):int(ends[i])]:
            word |= b
        out[i] = word
    return out


def _after_titles(doc: Doc, arrays: DocArrays, rules: LanguageRules) -> Tuple[np.ndarray, np.ndarray]:
    """(n_tokens,) bool twice: capitalised words of two letters or more that
    follow a title word, name particles allowed between ("Mme [Des] [Franches]",
    "Mme du [Baril]"), and the titles they follow."""
    out = np.zeros(len(doc), dtype=bool)
    titles = np.zeros(len(doc), dtype=bool)
    if not rules.title_words:
        return out, titles
    particles = has_label(arrays.lower, rules.name_particles)
    for t in np.flatnonzero(has_label(arrays.lower, rules.title_words)).tolist():
        k = t + 1
        if k < len(doc) and doc[k].text == ".":  # "M. Pictet"
            k += 1
        while k < len(doc):
            text = doc[k].text
            if arrays.is_alpha[k] and len(text) > 1 and text[0].isupper():
                out[k] = titles[t] = True
            elif not (particles[k] and text[0].islower()):
                break
            k += 1
    return out, titles


def pronoun_persons(codes: np.ndarray) -> np.ndarray:
    """Each pronoun's PERSON code, -1 for other mentions, for :func:`rescue_pronouns`.

    codes (int (n, len(MENTION_CODES))): mention codes.
    RETURNS (ndarray): (n,) int32.
    """
    codes = np.asarray(codes)
    return np.where(codes[:, C["type"]] == _PRONOMINAL, codes[:, C["person"]], -1).astype(np.int32)


#: How many earlier pronouns :func:`person_conflicts` pairs each pronoun with.
PERSON_WINDOW = 10


def person_conflicts(persons: np.ndarray, voices: np.ndarray, window: int = PERSON_WINDOW) -> np.ndarray:
    """Pairs of pronouns one voice says that are never one entity: a first and
    a second person ("I will call you"), and, in the narration, a first and a
    third person ("I met Sarah. She ..."). A pronoun is paired with the
    ``window`` pronouns of known voice before it.

    persons (int (n,)): pronouns' PERSON codes, -1 for other mentions.
    voices (int (n,)): who says each mention (quotes.voices: 0 the narrator,
        K the K-th quotation, -1 unknown).
    RETURNS (ndarray): (k, 2) int64 (later, earlier) mention pairs, for
        :meth:`~neuralcoref.core.binding.Binding.with_pairs`.
    """
    persons, voices = np.asarray(persons), np.asarray(voices)
    known = np.flatnonzero((persons >= 0) & (voices >= 0))
    first, second, third = (PERSON.index(p) for p in ("1", "2", "3"))
    kind, voice = persons[known], voices[known]
    if len(known) < 2 or not (kind == first).any():  # each conflict holds a first person
        return np.zeros((0, 2), dtype=np.int64)
    # Bits: 1 first person, 2 second, 4 third; a conflict is a pair's union.
    bits = np.where(kind == first, 1, np.where(kind == second, 2, np.where(kind == third, 4, 0)))
    out = [np.zeros((0, 2), dtype=np.int64)]
    for k in range(1, min(window, len(known) - 1) + 1):
        both = bits[k:] | bits[:-k]
        same = voice[k:] == voice[:-k]
        hit = same & ((both == 3) | ((both == 5) & (voice[k:] == 0)))
        out.append(np.stack([known[k:][hit], known[:-k][hit]], axis=1).astype(np.int64))
    return np.concatenate(out)


def speaker_conflicts(conflicts: np.ndarray, speakers: np.ndarray, n: int) -> np.ndarray:
    """Conflicts shared through the speaker links: a quoted "I" is its speaker,
    and the "you" of a reply the speaker it answers, so whatever one may never
    join, the other may not either ('"I am tired," said Anna. "I will help you,"
    replied Tom': what Tom's "I" conflicts with, Tom does too, and "you", Anna,
    conflicts with Tom's "I", so Anna with Tom).

    conflicts (int (k, 2)): mention pairs, from :func:`person_conflicts`.
    speakers (int (m, 2)): (pronoun, speaker mention) pairs (quotes.speaker_links).
    n (int): the number of mentions.
    RETURNS (ndarray): (k', 2) int64, ``conflicts`` and the pairs between the
        groups of mentions the speaker links join.
    """
    conflicts = np.asarray(conflicts, dtype=np.int64).reshape(-1, 2)
    speakers = np.asarray(speakers, dtype=np.int64).reshape(-1, 2)
    if not len(conflicts) or not len(speakers):
        return conflicts
    sets = UnionFind(n)
    root = sets.find
    for a, b in speakers.tolist():
        sets.join(a, b)
    groups: Dict[int, List[int]] = {}
    for m in np.unique(speakers).tolist():
        groups.setdefault(root(m), []).append(m)
    out = {tuple(pair) for pair in conflicts.tolist()}
    for a, b in conflicts.tolist():
        out.update((x, y) for x in groups.get(root(a), [a]) for y in groups.get(root(b), [b]) if x != y)
    return np.array(sorted(out), dtype=np.int64).reshape(-1, 2)


def repeat_keys(codes: np.ndarray, hashes: np.ndarray,
                narrated: Optional[np.ndarray] = None) -> np.ndarray:
    """Keys of the mentions that are one entity wherever they repeat: the lowercase
    text of a proper name; the speaker of a first-person singular pronoun ("I",
    "my", "je", "mon"), where the speaker is known (a CoNLL speaker, narration, or
    one quotation). 0 for the other mentions.

    codes, hashes: mention codes and hashes (:class:`~neuralcoref.core.contract.MentionFeatures`).
    narrated (bool (n,) | None): which mentions the narrator speaks
        (quotes.voices 0): speaker 0, the narration, where the codes know none
        (languages whose rules give no speaker features).
    RETURNS (ndarray): (n,) uint64, for :func:`attach_repeats` and :func:`merge_repeats`.
    """
    codes, hashes = np.asarray(codes), np.asarray(hashes)
    types, speakers = codes[:, C["type"]], codes[:, C["speaker"]]
    if narrated is not None:
        speakers = np.where(np.asarray(narrated, dtype=bool) & (speakers < 0), 0, speakers)
    keys = np.where(types == _PROPER, hashes[:, H["exact"]], 0).astype(np.uint64)
    first = ((types == _PRONOMINAL) & (codes[:, C["person"]] == PERSON.index("1"))
             & (codes[:, C["number"]] == NUMBER.index("sing")) & (speakers >= 0))
    keys[first] = _SPEAKER_KEY | speakers[first].astype(np.uint64)
    return keys


def attach_repeats(clusters: List[List[int]], keys: np.ndarray, heads: np.ndarray,
                   partners: Optional[Dict[int, Set[int]]] = None) -> List[List[int]]:
    """Add each mention left out of every cluster to the cluster of the latest
    earlier mention with the same :func:`repeat_keys` key.

    A repeated name ("Pauline" ... "Pauline") is seldom another entity, yet the
    scorers often leave it unlinked: the same word is also a non-mention inside
    longer names ("mademoiselle Pauline D..."), so its mention score is low. The
    same holds for "I" said twice by one speaker. Only mentions outside every
    cluster move, and never into a cluster that already holds their head, so no
    link the scorers made is undone. New clusters of two unlinked repeats are not
    made: many repeated names are not annotated mentions.

    clusters (List[List[int]]): sorted mention indices, as from :func:`one_span_per_head`.
    keys (uint64 (n,)): from :func:`repeat_keys` (0: none).
    heads (int (n,)): head token of each mention.
    partners (Dict[int, Set[int]] | None): from :meth:`~neuralcoref.core.binding.Binding.partners`:
        a mention never joins a cluster holding one of its partners.
    RETURNS (List[List[int]]): the clusters, each still sorted.
    """
    partners = partners or {}
    keyed = np.flatnonzero(keys)
    if not len(keyed) or not clusters:
        return clusters
    cluster_of = owner_map(clusters)
    out = [list(members) for members in clusters]
    held = [{int(heads[m]) for m in members} for members in clusters]
    latest: Dict[int, int] = {}
    for m in keyed.tolist():
        key = int(keys[m])
        if m in cluster_of:
            latest[key] = cluster_of[m]
        elif (key in latest and int(heads[m]) not in held[latest[key]]
              and not partners.get(m, set()) & set(out[latest[key]])):
            c = cluster_of[m] = latest[key]
            out[c].append(m)
            held[c].add(int(heads[m]))
    return [sorted(members) for members in out]


def merge_repeats(clusters: List[List[int]], keys: np.ndarray, heads: np.ndarray,
                  span_scores: Optional[np.ndarray] = None,
                  names: Optional[np.ndarray] = None,
                  partners: Optional[Dict[int, Set[int]]] = None,
                  masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Merge the clusters that hold mentions of one :func:`repeat_keys` key,
    unless both have names and their names share no word, or the merge would
    put a pair that binding forbids in one cluster.

    Linking is local: a chain of hundreds of mentions (a novel's narrator, a
    letter writer, a name repeated over chapters) breaks into several clusters
    when some pronoun in between links elsewhere, and nothing joins the pieces
    back. The key says they are one entity: the same proper name, or "I" / "je"
    of the same speaker. The names guard what a wrong link put in a piece: a
    narrator's "je" linked into another character's cluster would otherwise
    merge the two characters (two heroines of one novel; the narrators of an
    anthology's tales). Measurements: docs/experiments/2026-11-25-shipped-models.md.

    clusters (List[List[int]]): sorted mention indices, as from :func:`attach_repeats`.
    keys (uint64 (n,)): from :func:`repeat_keys` (0: none).
    heads (int (n,)), span_scores (float (n,) | None): for :func:`one_span_per_head`,
        which a merged cluster goes through again (its pieces may share a head).
    names (uint64 (n,) | None): from :func:`name_words`; None merges without the
        names' check.
    partners (Dict[int, Set[int]] | None): forbidden partners per mention
        (:meth:`~neuralcoref.core.binding.Binding.partners`); None: none.
    masks (uint32 (n, 2) | None): from :func:`agreement_masks`; when given, two
        clusters merge only where some gender and number allow both.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    partners = partners or {}
    sets = UnionFind(len(clusters))
    root = sets.find
    held = [list(members) for members in clusters]  # members per root, for the binding check
    words = [int(np.bitwise_or.reduce(names[members])) if names is not None and members else 0
             for members in clusters]

    owner: Dict[int, int] = {}
    for c, members in enumerate(clusters):
        for key in sorted({int(keys[m]) for m in members} - {0}):
            if key not in owner:
                owner[key] = c
                continue
            a, b = root(owner[key]), root(c)
            if a != b and (not words[a] or not words[b] or words[a] & words[b]) \
                    and allowed_together(partners, held[a], held[b]) \
                    and (masks is None or _compatible(held[a], held[b], masks, None)):
                sets.parent[b] = a  # both roots: b's set under a
                words[a] |= words[b]
                held[a] += held[b]
    if all(root(c) == c for c in range(len(clusters))):
        return clusters
    groups: Dict[int, List[int]] = {}
    for c, members in enumerate(clusters):
        groups.setdefault(root(c), []).extend(members)
    return settled(groups.values(), heads, span_scores)


def with_speaker_names(names: np.ndarray, speakers: np.ndarray) -> np.ndarray:
    """Name words with those of each pronoun's speaker added (from
    :func:`~neuralcoref.core.quotes.speaker_links`): Anna's "I" then never joins a
    cluster named Tom, nor Tom's "I", whatever the scores.

    names (uint64 (n,)): from :func:`name_words`; speakers (int (k, 2)): pairs
        (pronoun, speaker mention). RETURNS (ndarray): a copy of ``names``.
    """
    out = np.array(names, dtype=np.uint64)
    if len(speakers):
        np.bitwise_or.at(out, speakers[:, 0], np.asarray(names, dtype=np.uint64)[speakers[:, 1]])
    return out


#: GENDER code -> the MENTION_CLASSES code it gives a speaker (0: none).
_GENDER_CODE_CLASSES = np.array([GENDER_CLASSES.get(g, 0) for g in GENDER], dtype=np.int8)


def with_speaker_genders(classes: np.ndarray, codes: np.ndarray, speakers: np.ndarray) -> np.ndarray:
    """Lexicon classes with each pronoun of an attributed quotation given its
    speaker's gender ("female" for the "I" of "said Anna" or "dit-elle"), so
    that the "I" of a man and that of a woman never share a cluster even when
    neither speaker has a name ('dit-il' ... 'répondit-elle').

    classes (int (n,)): MENTION_CLASSES codes; codes (int (n, len(MENTION_CODES))):
        mention codes (a speaker's gender code, else its class, gives the gender);
    speakers (int (k, 2)): pairs (pronoun, speaker mention).
    RETURNS (ndarray): (n,) int8, a copy of ``classes`` (``classes`` itself without speakers).
    """
    if not len(speakers):
        return classes
    out = np.array(classes, dtype=np.int8)
    pronoun, speaker = speakers[:, 0], speakers[:, 1]
    by_code = _GENDER_CODE_CLASSES[np.asarray(codes)[speaker, C["gender"]]]
    by_class = np.where(isin(out[speaker], list(GENDER_CLASSES.values())), out[speaker], 0)
    found = np.where(by_code > 0, by_code, by_class)
    out[pronoun[found > 0]] = found[found > 0]
    return out


def join_speakers(clusters: List[List[int]], speakers: np.ndarray, heads: np.ndarray,
                  masks: Optional[np.ndarray] = None, names: Optional[np.ndarray] = None,
                  span_scores: Optional[np.ndarray] = None,
                  partners: Optional[Dict[int, Set[int]]] = None) -> List[List[int]]:
    """Put each pronoun of an attributed quotation in its speaker's cluster
    ('"I am tired," said Anna': "I" joins Anna), as one more decoding step.

    Scorers trained without such pairs seldom link a quoted "I" to the name of
    the verb's subject. A pronoun's cluster and its speaker's merge unless they
    have names that share no word, genders or numbers that no value satisfies,
    or a pair of mentions that binding keeps apart.

    clusters (List[List[int]]): sorted mention indices, as from :func:`merge_repeats`.
    speakers (int (k, 2)): pairs (pronoun, speaker mention), from
        :func:`~neuralcoref.core.quotes.speaker_links`.
    heads (int (n,)), span_scores: for :func:`one_span_per_head`.
    masks (uint32 (n, 2) | None): from :func:`agreement_masks`; names (uint64 (n,) | None).
    partners (Dict[int, Set[int]] | None): forbidden partners per mention
        (:meth:`~neuralcoref.core.binding.Binding.partners`); None: none.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    if not len(speakers):
        return clusters
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for pronoun, speaker in np.asarray(speakers).tolist():
        a, b = owner.get(pronoun), owner.get(speaker)
        if a is not None and a == b:
            continue
        left, right = groups[a] if a is not None else [pronoun], groups[b] if b is not None else [speaker]
        if not _compatible(left, right, masks, names) or \
                not allowed_together(partners or {}, left, right):
            continue
        target = b if b is not None else a
        if target is None:
            target = len(groups)
            groups.append([])
        for m in left + right:
            if owner.get(m) != target:
                if m in owner:
                    groups[owner[m]] = [x for x in groups[owner[m]] if x != m]
                owner[m] = target
                groups[target].append(m)
    return settled(groups, heads, span_scores)


#: MENTION_CLASSES codes of mentions known to name a person (he/she may refer to them).
_ANIMATE = tuple(MENTION_CLASSES.index(c) for c in ("person", "female", "male"))
_MASC_FEM = (GENDER.index("masc"), GENDER.index("fem"))


def anchor_pronoun_chains(clusters: List[List[int]], pair: np.ndarray, ptr: np.ndarray,
                          ante: np.ndarray, types: np.ndarray, persons: np.ndarray,
                          agreement: np.ndarray, classes: Optional[np.ndarray], heads: np.ndarray,
                          names: Optional[np.ndarray] = None, span_scores: Optional[np.ndarray] = None,
                          partners: Optional[Dict[int, Set[int]]] = None,
                          sentences: Optional[np.ndarray] = None,
                          lone: Optional[np.ndarray] = None,
                          masks: Optional[np.ndarray] = None,
                          name_of: Optional[np.ndarray] = None) -> List[List[int]]:
    """Give each chain of he/she pronouns that names nobody the person it refers to.

    "he" and "she" refer to a person that a name or a noun introduces, yet a
    chain made only of pronouns ("He ... his ... he") is common: links from
    pronoun to pronoun outscore the link to the name. Such a chain (of pronouns
    with a grammatical person: "someone" names somebody), or a lone
    he/she pronoun, joins the cluster of its best-scored candidate antecedent
    that may be a person: a person noun of the lexicon, a gendered name or
    noun, or a name or noun of no known class (an animal; "the president",
    whose first WordNet sense is the office). Without one, it refers forward
    within its sentence (cataphora: "Before he could answer, the lawyer ...")
    to the first such mention. A join needs genders, numbers, names and
    binding to allow the two groups together (principle C keeps "He said that
    John left" apart). A lone pronoun whose best-scored candidate binding forbids
    ("John has a dog. He walks him": principle B keeps "him" from "He") refers
    all the same, to another mention: it takes its best-scored allowed earlier
    candidate of any kind ("a dog", which the lexicon does not call a person).

    A lone pronoun is anchored only where ``lone`` allows (decode_clusters:
    every one at the shipped settings; where greedyness or link offsets raise
    its threshold by more than RESCUE_MARGIN, only one its scores nearly called
    anaphoric, as for :func:`rescue_pronouns`), so that those settings keep
    their meaning. Only pronouns with a masculine or feminine
    agreement code are anchored: those of languages where decoding checks
    gender, i.e. where he/she means a person ("gender" in
    ``LanguageRules.decoding_agreement``; not French, whose "il" also stands
    for "le livre").

    clusters (List[List[int]]): sorted mention indices, as from :func:`merge_repeats`.
    pair, ptr, ante: the candidates and their scores (CSR), as for :func:`best_antecedents`.
    types (int (n,)): mention types; persons (int (n,)): PERSON codes, -1 for non-pronouns.
    agreement (int (n, 2)): from :func:`agreement_codes`; classes (int (n,) | None): lexicon classes.
    heads, names, span_scores, partners: as for :func:`join_speakers`.
    sentences (int (n,) | None): each mention's sentence; None: no forward reference.
    lone (bool (n,) | None): which pronouns outside every cluster may be anchored; None: all.
    masks (uint32 (n, 2) | None): ``agreement_masks(agreement, classes)`` when the caller has them.
    name_of (int (n,) | None): as for :func:`drop_name_words`; a word inside a
        person's name ("President" of "President Obama") anchors nothing.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    types, persons, agreement = np.asarray(types), np.asarray(persons), np.asarray(agreement)
    gendered = (persons == PERSON.index("3")) & isin(agreement[:, 0], _MASC_FEM)
    if not gendered.any():
        return clusters
    if sentences is not None:  # non-decreasing, for _anchor_candidates' search
        sentences = np.maximum.accumulate(np.asarray(sentences))
    classes = np.zeros(len(types), np.int8) if classes is None else np.asarray(classes)
    person_like = _person_like(types, classes, agreement)
    if name_of is not None:
        person_like &= np.asarray(name_of) < 0
    if masks is None:
        masks = agreement_masks(agreement, classes)
    partners = partners or {}
    # A name, a noun or a pronoun of no grammatical person ("Someone asked the
    # lawyer to check his contract": someone, everyone, nobody) introduces a
    # referent: a chain holding one names somebody already.
    names_somebody = (types != _PRONOMINAL) | (persons == PERSON.index("unknown"))
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for m in np.flatnonzero(gendered if lone is None else gendered & np.asarray(lone, dtype=bool)).tolist():
        if m not in owner:
            owner[m] = len(groups)
            groups.append([m])
    for g in sorted(range(len(groups)), key=lambda g: groups[g][0]):
        members = groups[g]
        if not gendered[members].any() or any(names_somebody[m] for m in members):
            continue
        if len(members) == 1 and _barred_from_best(members[0], pair, ptr, ante, owner, partners):
            candidates = _anchor_candidates(members, pair, ptr, ante, types != _PRONOMINAL, None)
        else:
            candidates = _anchor_candidates(members, pair, ptr, ante, person_like, sentences)
        for a in candidates:
            target = groups[owner[a]] if a in owner else [a]
            if _compatible(members, target, masks, names) and allowed_together(partners, members, target):
                _move_into(groups, owner, g, a)
                break
    return settled(groups, heads, span_scores)


def refer_forward(clusters: List[List[int]], forward: np.ndarray, types: np.ndarray,
                  persons: np.ndarray, agreement: np.ndarray, classes: Optional[np.ndarray],
                  heads: np.ndarray, names: Optional[np.ndarray] = None,
                  span_scores: Optional[np.ndarray] = None,
                  partners: Optional[Dict[int, Set[int]]] = None,
                  masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Move each he/she pronoun of a preposed adverbial clause or phrase to the cluster of
    its main clause's subject ("When he was minister, Kallergis ...": he is
    Kallergis, whatever name came before), when that subject may be a person
    (as for :func:`anchor_pronoun_chains`) and genders, numbers, names and
    binding allow. The pronoun alone moves; the mentions linked to it stay.

    forward (int (n,)): from :func:`neuralcoref.core.cataphora.forward_subjects`.
    The other arguments: as for :func:`anchor_pronoun_chains`.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    forward, types, persons, agreement = (np.asarray(a) for a in (forward, types, persons, agreement))
    gendered = (persons == PERSON.index("3")) & isin(agreement[:, 0], _MASC_FEM) & (forward >= 0)
    if not gendered.any():
        return clusters
    classes = np.zeros(len(types), np.int8) if classes is None else np.asarray(classes)
    person_like = _person_like(types, classes, agreement)
    if masks is None:
        masks = agreement_masks(agreement, classes)
    partners = partners or {}
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for m in np.flatnonzero(gendered).tolist():
        s = int(forward[m])
        if owner.get(m, -1) == owner.get(s, -2) or not person_like[s]:
            continue
        target = groups[owner[s]] if s in owner else [s]
        if not (_compatible([m], target, masks, names) and allowed_together(partners, [m], target)):
            continue
        if m in owner:
            groups[owner[m]].remove(m)
        owner[m] = len(groups)
        groups.append([m])
        _move_into(groups, owner, owner[m], s)
    return settled(groups, heads, span_scores)


def _person_like(types: np.ndarray, classes: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    """(n,) bool: the mentions he or she may refer to: no pronoun, and a person
    of the lexicon, a gendered name or noun, or a name or noun of no known class
    (an animal; "the president", whose first WordNet sense is the office)."""
    return (types != _PRONOMINAL) & (isin(classes, _ANIMATE) | isin(agreement[:, 0], _MASC_FEM)
                                     | (isin(types, (_PROPER, _NOMINAL)) & (classes == 0)))


def _move_into(groups: List[List[int]], owner: Dict[int, int], g: int, a: int) -> None:
    """Move group ``g``'s members into the group of mention ``a`` (a new group
    when ``a`` has none), updating ``owner``."""
    if a not in owner:
        owner[a] = len(groups)
        groups.append([a])
    for m in groups[g]:
        owner[m] = owner[a]
    groups[owner[a]] = groups[owner[a]] + groups[g]
    groups[g] = []


def _barred_from_best(m: int, pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray, owner: Dict[int, int],
                      partners: Dict[int, Set[int]]) -> bool:
    """Whether binding forbids mention ``m`` its best-scored candidate, directly
    or through that candidate's group ("He walks him": "him" and "He")."""
    lo, hi = int(ptr[m]), int(ptr[m + 1])
    if m not in partners or lo == hi:
        return False
    best = int(ante[lo + int(np.argmax(pair[lo:hi]))])
    home = owner.get(best)
    return any(p == best or (home is not None and owner.get(p) == home) for p in partners[m])


def _anchor_candidates(members: List[int], pair: np.ndarray, ptr: np.ndarray, ante: np.ndarray,
                       person_like: np.ndarray, sentences: Optional[np.ndarray]) -> List[int]:
    """A pronoun chain's possible anchors, best first: its members' person-like
    candidate antecedents by pair score, then the person-like mentions after its
    first member in that sentence, nearest first."""
    k = np.concatenate([np.arange(ptr[m], ptr[m + 1]) for m in members])
    k = k[person_like[ante[k]]]
    out = ante[k[np.argsort(-pair[k], kind="stable")]].tolist()
    if sentences is not None:
        first = members[0]
        end = int(np.searchsorted(sentences, sentences[first], side="right"))
        out += (np.flatnonzero(person_like[first + 1:end]) + first + 1).tolist()
    return out


def _compatible(left: List[int], right: List[int], masks: Optional[np.ndarray],
                names: Optional[np.ndarray]) -> bool:
    """Whether two groups of mentions may form one cluster: names that share a
    word (or none on one side), and some gender and number both allow."""
    if names is not None:
        wl, wr = (int(np.bitwise_or.reduce(names[g])) for g in (left, right))
        if wl and wr and not wl & wr:
            return False
    if masks is not None:
        for col in range(masks.shape[1]):
            allowed = [m for m in masks[left + right, col].tolist() if m]
            if allowed and not np.bitwise_and.reduce(allowed):
                return False
    return True


def merge_shared_heads(clusters: List[List[int]], heads: np.ndarray,
                       types: Optional[np.ndarray] = None,
                       span_scores: Optional[np.ndarray] = None,
                       names: Optional[np.ndarray] = None,
                       partners: Optional[Dict[int, Set[int]]] = None,
                       masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Merge the clusters that hold mentions of one head token, with the checks
    of :func:`merge_repeats`, keeping one span per head.

    Nested candidates share a head ("Sahara Smith" and "Sahara Smith (born
    1988)"), and linking may put each in its own cluster: two chains of one
    entity, one of which then holds the pronouns and the other the later
    "Smith". One token heads one referent.

    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    keys = np.asarray(heads, dtype=np.uint64) + np.uint64(1)
    if types is not None:  # a list shares its head with its first item ("[John] and Mary")
        keys[np.asarray(types) == _LIST] = 0
    return merge_repeats(clusters, keys, heads, span_scores, names, partners, masks)


def join_aliases(clusters: List[List[int]], aliases: np.ndarray, heads: np.ndarray,
                 span_scores: Optional[np.ndarray] = None, names: Optional[np.ndarray] = None,
                 partners: Optional[Dict[int, Set[int]]] = None,
                 masks: Optional[np.ndarray] = None) -> List[List[int]]:
    """Put each acronym or name in part in one cluster with the name it stands
    for: their clusters merge, or the two make a new one, unless names, binding
    or agreement keep the two groups apart.

    Unlike a repeated name, which is often no annotated mention ("Paris" in
    "the Paris Agreement"), an acronym and its name are both names of the
    entity, so two lone mentions make a cluster too.

    clusters (List[List[int]]): sorted mention indices, as from :func:`merge_shared_heads`.
    aliases (int (n,)): for an acronym or a person's name in part, the mention
        it stands for, else -1 (:func:`~neuralcoref.core.aliases.acronym_aliases`,
        :func:`~neuralcoref.core.aliases.name_parts`).
    heads, span_scores, names, partners, masks: as for :func:`merge_shared_heads`.
    RETURNS (List[List[int]]): the clusters, each sorted, in order of their first mention.
    """
    aliases = np.asarray(aliases)
    found = np.flatnonzero(aliases >= 0)
    if not len(found):
        return clusters
    partners = partners or {}
    groups: List[List[int]] = [list(c) for c in clusters]
    owner = owner_map(groups)
    for m in found.tolist():
        a = int(aliases[m])
        if m in owner and owner[m] == owner.get(a):
            continue
        left = groups[owner[m]] if m in owner else [m]
        right = groups[owner[a]] if a in owner else [a]
        # The acronym's own number says nothing ("IDD" for "Iodine Deficiency Disorders").
        rest = [x for x in left if x != m]
        if _compatible(rest, right, masks, names) and allowed_together(partners, left, right):
            if m not in owner:
                owner[m] = len(groups)
                groups.append([m])
            _move_into(groups, owner, owner[m], a)
    return settled(groups, heads, span_scores)


def clusters_from_links(links: np.ndarray) -> List[List[int]]:
    """Group mentions along links into clusters of two or more mentions.

    Every link points back (candidates precede their anaphor), so links form a
    forest whose roots are first mentions: one pass in document order gives each
    mention its antecedent's cluster, with no union-find.

    links (int (n,)): antecedent of each mention (an earlier index) or -1.
    RETURNS (List[List[int]]): mention indices per cluster, sorted, clusters in
        order of their first mention.
    """
    links = np.asarray(links)
    if np.any(links >= np.arange(len(links))):
        raise ValueError("clusters_from_links: every link must point to an earlier mention")
    cluster = list(range(len(links)))
    groups: Dict[int, List[int]] = {}
    for m, a in enumerate(links.tolist()):
        if a >= 0:
            cluster[m] = cluster[a]
        groups.setdefault(cluster[m], []).append(m)
    return [g for _, g in sorted(groups.items()) if len(g) > 1]


def one_span_per_head(clusters: List[List[int]], heads: np.ndarray,
                      span_scores: Optional[np.ndarray] = None) -> List[List[int]]:
    """Keep one mention of each head token in every cluster: the one with the
    highest span score, the first of equal ones (the shortest of those that
    start first; all of them without scores).

    Candidate spans often share a head ("Mary Chaworth" and "Mary Chaworth, whom
    he met"); gold clusters hold one of them (none of OntoGUM train's 21,510
    extracted gold mentions shares a head with another of its cluster, 1 of
    fr-litbank's 20,846), so the others are redundant. Which one the gold holds
    differs ("la mère" / "la mère aveugle", "Samuel" / "Samuel de Constant"): a
    mention scorer trained on data that annotates every mention (LitBank) tells
    them apart, and its scores pick the span. Links through a dropped mention still join the
    rest; clusters left with one mention are dropped.

    clusters (List[List[int]]): sorted mention indices, as from
        :func:`clusters_from_links`.
    heads (int (n,)): head token of each mention.
    span_scores (float (n,) | None): how likely each span is a mention; None: the first.
    RETURNS (List[List[int]]): the clusters without repeated heads, each sorted.
    """
    out = []
    for cluster in clusters:
        kept: Dict[int, int] = {}
        for i in cluster:
            head = int(heads[i])
            if head not in kept or (span_scores is not None and span_scores[i] > span_scores[kept[head]]):
                kept[head] = i
        if len(kept) > 1:
            out.append(sorted(kept.values()))
    return out


def settled(groups: Iterable[List[int]], heads: np.ndarray,
            span_scores: Optional[np.ndarray] = None) -> List[List[int]]:
    """The clusters a pass's groups of mentions make: each sorted, one span per
    head (:func:`one_span_per_head`, which drops those left with one mention),
    in order of their first mention."""
    clusters = one_span_per_head([sorted(g) for g in groups], heads, span_scores)
    return sorted(clusters, key=lambda members: members[0])


def main_mention(cluster: List[int], types: np.ndarray) -> int:
    """The cluster's representative: its first non-pronominal mention, else its first."""
    for i in cluster:
        if types[i] != _PRONOMINAL:
            return i
    return cluster[0]


def spans_of(clusters: List[List[int]], starts: np.ndarray, ends: np.ndarray) -> List[List[Tuple[int, int]]]:
    """Token spans (start, end exclusive) of each cluster's mentions."""
    return [[(int(starts[i]), int(ends[i])) for i in c] for c in clusters]
