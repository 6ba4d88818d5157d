"""The decode inputs as signals per mention: agreement codes and what they
allow, name words, pronoun persons and the conflicts between them, repeat
keys, subject salience, speakers' names and genders, and the per-type link
offsets and greedyness of the settings. :mod:`.decoding` builds them once per
Doc; the passes (:mod:`.antecedents`, :mod:`.cluster_passes`,
:mod:`.pronoun_chains`) read them."""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

import numpy as np
from spacy.symbols import PROPN
from spacy.tokens import Doc

from ...lang.base import LanguageRules
from ...lang.lexicon import GENDER_CLASSES, MENTION_CLASSES
from ..doc.doc_arrays import DocArrays, arrays_of
from ..doc.labels import has_label
from ..features.contract import C, DEP_CLASSES, GENDER, H, NUMBER, PERSON
from ..mentions.mentions import MENTION_TYPES
from ..util.cluster_sets import UnionFind
from ..util.sets import isin

_PRONOMINAL = MENTION_TYPES.index("pronominal")
_PROPER = MENTION_TYPES.index("proper")
_LIST = MENTION_TYPES.index("list")
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
    """Per-mention offsets from per-type ones, for the decode passes (:mod:`.decode_passes`).

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
    """The gender and number codes of mentions, for :func:`~.antecedents.best_antecedents`.

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
    """What each mention allows, for :func:`~.antecedents.best_antecedents`: bit sets of
    gender and number codes, from its own codes and, where its morphology gives
    no gender, its lexicon class (:func:`neuralcoref.core.discourse.classes.mention_classes`).

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
    if classes is None or not np.count_nonzero(classes):
        return out
    table = np.array([_CLASS_GENDERS.get(c, 0) for c in MENTION_CLASSES], dtype=np.uint32)
    gender_known = agreement[:, 0] > 0
    out[:, 0] = np.where(gender_known, out[:, 0], table[np.asarray(classes, dtype=np.int64)])
    group_sing = (np.asarray(classes) == MENTION_CLASSES.index("group")) & (out[:, 1] == _SING)
    out[group_sing, 1] = _SING | _PLUR
    return out


def subject_salience(codes: np.ndarray, rules: LanguageRules,
                     narrated: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Each mention's salience as an antecedent (the rules' ``subject_salience``
    for a subject of its clause, else 0), and whether, as a pronoun, it prefers
    a near subject: a third-person pronoun of known gender (he, his, she, her;
    il, elle), whatever decoding's agreement checks. A first- or second-person
    subject of the narration is no center a he/she prefers ("I met Sarah. She
    ...": Sarah); a quoted one may be ('"I am tired," she said').

    codes (int (n, k)): mention codes (:class:`~neuralcoref.core.features.contract.MentionFeatures`).
    narrated (bool (n,) | None): which mentions the narrator speaks
        (quotes.voices 0); None: none.
    RETURNS (Tuple[ndarray, ndarray]): (n,) float32 and (n,) bool, for :func:`~.antecedents.prefer_near`.
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
    RETURNS (Tuple[ndarray, ndarray]): (n,) float32 and (n,) bool, for :func:`~.antecedents.prefer_near`.
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


def name_words(doc: Doc, starts: np.ndarray, ends: np.ndarray, types: np.ndarray,
               arrays: Optional[DocArrays] = None, heads: Optional[np.ndarray] = None,
               rules: Optional[LanguageRules] = None) -> np.ndarray:
    """The words of each proper-name mention, as a 64-bit set (0 for other mentions).

    Name words are the mention's proper-noun tokens of two letters or more
    ("Samuel de Constant": samuel, constant; "M. Tronchin": tronchin), each one
    bit of its lowercase hash: two names that share a bit may still be different
    words, which only lets :func:`~.antecedents.best_antecedents` join them as it would without
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
    spans = with_name.nonzero()[0].tolist()
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
    for t in has_label(arrays.lower, rules.title_words).nonzero()[0].tolist():
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
    """Each pronoun's PERSON code, -1 for other mentions, for :func:`~.antecedents.rescue_pronouns`.

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
        :meth:`~neuralcoref.core.discourse.binding.Binding.with_pairs`.
    """
    persons, voices = np.asarray(persons), np.asarray(voices)
    known = ((persons >= 0) & (voices >= 0)).nonzero()[0]
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

    codes, hashes: mention codes and hashes (:class:`~neuralcoref.core.features.contract.MentionFeatures`).
    narrated (bool (n,) | None): which mentions the narrator speaks
        (quotes.voices 0): speaker 0, the narration, where the codes know none
        (languages whose rules give no speaker features).
    RETURNS (ndarray): (n,) uint64, for :func:`~.cluster_passes.attach_repeats` and :func:`~.cluster_passes.merge_repeats`.
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


def with_speaker_names(names: np.ndarray, speakers: np.ndarray) -> np.ndarray:
    """Name words with those of each pronoun's speaker added (from
    :func:`~neuralcoref.core.doc.quotes.speaker_links`): Anna's "I" then never joins a
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
