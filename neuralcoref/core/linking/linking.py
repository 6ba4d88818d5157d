"""Linking coreference clusters to a knowledge base: one decision per cluster.

A *unit* is what gets one decision: a coreference cluster, or a name outside
every cluster (a one-mention unit: a named entity, a run of proper nouns). The
candidates of a unit are the KB entities any of its mentions may name (its
whole text as an alias, else the proper-noun runs inside it); each (unit,
candidate) pair gets the features of :data:`LINK_FEATURES`, computed from the
whole unit; a small scorer (:class:`~neuralcoref.core.linking.link_scorer.LinkScorer`,
trained by ``train/linker.py``) scores each pair, and a softmax over the unit's
candidates and "none" (score 0) decides.

Training calls :func:`link_features` on the same Docs, so features exist once.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np
from spacy import symbols
from spacy.attrs import IDX, IS_ALPHA, IS_STOP, LENGTH, LOWER, POS
from spacy.strings import hash_string
from spacy.tokens import Doc

from ...lang import get_rules
from ...lang.base import LanguageRules
from .doc_candidates import doc_matches, name_index, words_of
from .kb_protocol import LinkingKB
from .name_forms import untitled

if TYPE_CHECKING:
    from ..mentions.mentions import Mentions

Span_ = Tuple[int, int]
_PUNCT = re.compile(r"[\"“”‘’`,;:!?()\[\]{}\-‐‑–—]")
_SPACES = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"\s*['’]s?$")
_APOSTROPHE = re.compile(r"\s*['’]")


@lru_cache(maxsize=1 << 16)
def alias_key(text: str) -> str:
    """The form under which an alias is stored and looked up: lower case, no
    accents ("Ivanović" = "Ivanovic"), no dots ("U.S." = "US"), no apostrophes
    ("King 's College" = "King's College" = "Kings College"), no possessive
    ending, hyphens and dashes as spaces ("L - band" = "L-band" = "L band":
    GUM's tokens split them, titles do not), no other punctuation, no leading
    "the", underscores as spaces (Wikipedia titles), single spaces.

    text (str): a name, a title or a mention's text.
    RETURNS (str): the key ('' for a text of punctuation only).
    """
    text = unicodedata.normalize("NFKD", text.replace("_", " ").lower())
    text = "".join(c for c in text if not unicodedata.combining(c)).strip()
    text = _POSSESSIVE.sub("", text)
    text = _APOSTROPHE.sub("", text.replace(".", ""))
    text = _SPACES.sub(" ", _PUNCT.sub(" ", text)).strip()
    return text[4:] if text.startswith("the ") else text


def key_hash(key: str) -> int:
    """The 64-bit hash of an alias key or an id (spaCy's ``hash_string``)."""
    return int(hash_string(key))


LINK_FEATURES = (
    "frac_full", "frac_partial", "log_n_full", "max_prior", "mean_prior", "top1", "exact_name",
    "upper", "entity_prior", "type_match", "type_mismatch", "kb_type_unknown", "unit_type_unknown",
    "ambiguity", "name_context", "description_context", "log_size", "singleton", "pronoun_frac",
    "max_len", "inner_name", "extracted", "doc_head",
)
N_FEATURES = len(LINK_FEATURES)

#: spaCy (OntoNotes) entity labels -> GUM entity types, the types KBs built from GUM use.
NER_TYPES = {"PERSON": "person", "NORP": "organization", "ORG": "organization", "GPE": "place",
             "LOC": "place", "FAC": "place", "EVENT": "event", "WORK_OF_ART": "object",
             "PRODUCT": "object", "LAW": "abstract", "LANGUAGE": "abstract", "DATE": "time",
             "TIME": "time"}
#: Entity labels whose spans are not linked when they stand alone (numbers, amounts).
UNLINKED_LABELS = {"CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY", "DATE", "TIME"}
_PERSON_PRONOUNS = {"he", "she", "him", "her", "his", "hers", "himself", "herself", "who", "whom"}
_NOT_NAMES = {symbols.PRON, symbols.DET, symbols.PUNCT, symbols.ADP, symbols.CCONJ, symbols.PART}
_PROPN = symbols.PROPN
_PLACES = ("GPE", "LOC")
#: Words that start a phrase GUM keeps apart from the name it ends with ("the psychologist Angela Duckworth").
_NOT_PHRASE_START = {symbols.DET, symbols.PRON, symbols.NUM, symbols.PUNCT, symbols.X, symbols.SYM, symbols.ADP}


class Unit(NamedTuple):
    """What gets one linking decision.

    spans (List[Tuple[int, int]]): its mentions (start, end exclusive), in order.
    cluster (int): its index in ``doc._.coref_clusters``, -1 for a lone entity,
        ``EXTRACTED`` (-2) for a mention of the extractor outside every cluster.
    """

    spans: List[Span_]
    cluster: int


#: The ``cluster`` of a unit made of one extracted mention outside the clusters.
EXTRACTED = -2


def link_units(doc: Doc, clusters: Sequence[Sequence[Span_]], singletons: bool = True,
               kb: Optional[LinkingKB] = None, ctx: Optional["DocContext"] = None,
               mentions: Optional[Sequence[Tuple[int, int, int]]] = None) -> List[Unit]:
    """The clusters, then the names outside every cluster when ``singletons``:
    the named entities (``doc.ents``) and the runs of proper nouns that no
    entity covers, each with a leading "the" that depends on it ("the
    Netherlands"); with a ``kb``, also the names its aliases find around and
    inside those: "Portland , Oregon", and "Amsterdam" in "Vrije Universiteit
    Amsterdam" (a part that names another entity than the whole); and with
    ``mentions`` (the extractor's (start, end, head)), those outside the clusters that are no
    pronoun, whose whole text is an alias of the KB, and whose head word no
    unit holds yet ("iodine", "the Olympics"): the scorer knows them apart
    (feature ``extracted``), trained on the same units."""
    units = [Unit(list(spans), i) for i, spans in enumerate(clusters)]
    if not singletons:
        return units
    taken = {span for spans in clusters for span in spans}
    named = [(ent.start, ent.end) for ent in doc.ents if ent.label_ not in UNLINKED_LABELS]
    in_ents = {i for ent in doc.ents for i in range(ent.start, ent.end)}
    ctx = ctx or DocContext(doc)
    named += [run for run in _propn_runs(ctx.pos) if not in_ents.intersection(range(*run))]
    named.sort()
    if kb is not None:
        named += _kb_names(ctx, named, kb)
    for start, end in sorted(named):
        span = _lone_span(doc, start, end, ctx.rules.link_span_titles)
        if span not in taken and (start, end) not in taken:
            taken.add(span)
            units.append(Unit([span], -1))
    if mentions is not None and kb is not None:
        units += _extracted_units(ctx, mentions, taken, kb)
    return units


def extracted_mentions(doc: Doc, rules: LanguageRules) -> List[Tuple[int, int, int]]:
    """The mention extractor's mentions of a Doc as (start, end exclusive,
    head), for :func:`link_units` (at run time and in training alike)."""
    from ..mentions.mentions import extract_mentions

    return mention_triples(extract_mentions(doc, rules))


def mention_triples(found: "Mentions") -> List[Tuple[int, int, int]]:
    """Mentions as the (start, end exclusive, head) that :func:`link_units` reads."""
    return list(zip(found.starts.tolist(), found.ends.tolist(), found.heads.tolist()))


def _extracted_units(ctx: "DocContext", mentions: Sequence[Tuple[int, int, int]], taken: Set[Span_],
                     kb: LinkingKB) -> List[Unit]:
    """One unit per alias key of the extracted mentions outside the units
    (every "iodine" of a Doc together, as a cluster would hold them)."""
    doc = ctx.doc
    head_of = {(s, e): h for s, e, h in mentions}
    heads = {head_of[span] if span in head_of else doc[span[0]:span[1]].root.i for span in taken}
    by_key: Dict[str, List[Span_]] = {}
    for s, e, head in mentions:
        if (s, e) in taken or head in heads:
            continue
        # The alias first: most mentions are none, and the key is what _name_keys computes.
        key = alias_key(ctx.text(s, e))
        if kb.alias_index(key) < 0 or not _name_keys(ctx, s, e)[2]:
            continue
        heads.add(head)
        by_key.setdefault(key, []).append((s, e))
    return [Unit(spans, EXTRACTED) for spans in by_key.values()]


def _kb_names(ctx: "DocContext", named: Sequence[Span_], kb: LinkingKB) -> List[Span_]:
    """Names the KB knows next to or inside the names found: two names joined
    by a comma ("Bilbao , Spain"), and parts of a name of several words whose
    entities differ from the whole's."""
    doc, pos = ctx.doc, ctx.pos
    found = []
    places = {(ent.start, ent.end) for ent in doc.ents if ent.label_ in ("GPE", "LOC")}
    for (s1, e1), (s2, e2) in zip(named, named[1:]):
        if e1 < len(doc) and doc[e1].text == "," and s2 in (e1 + 1, e1 + 2) \
                and (s2 == e1 + 1 or doc[e1 + 1].lower_ == "the") and not _in_list(ctx, s1, e1, s2, e2):
            both_places = (s1, e1) in places and (s2, e2) in places
            if both_places or kb.alias_index(alias_key(ctx.text(s1, e2))) >= 0:
                found.append((s1, e2))
    for s, e in named:
        if e - s < 2 or e - s > 6:
            continue
        whole = set(kb.candidates(ctx.text(s, e))[0].tolist())
        for i in range(s, e):
            for j in range(i + 1, min(e, i + 4) + 1):
                if (i, j) == (s, e) or pos[i] != _PROPN:
                    continue
                ents = kb.candidates(ctx.text(i, j))[0]
                if len(ents) and int(ents[0]) not in whole:
                    found.append((i, j))
    return found


def _in_list(ctx: "DocContext", s1: int, e1: int, s2: int, e2: int) -> bool:
    """Whether "A , B" is part of an enumeration rather than a name and its
    place ("Rome , Paris , Jakarta", "China , Vietnam , and Cuba", "the
    Netherlands , the Netherlands"): the same name twice, a comma before A, a
    name after B's comma or "and" ("Lahore , Pakistan , and today" is no
    list), or B's head outside A (the parse makes "Athens" of "the Middle Ages
    , Athens experienced" a subject)."""
    doc = ctx.doc
    if alias_key(ctx.text(s1, e1)) == alias_key(ctx.text(s2, e2)):
        return True
    if s1 > 0 and doc[s1 - 1].text == ",":
        return True
    nxt = list(doc[e2:e2 + 3])
    joined = bool(nxt) and nxt[0].lower_ in (",", "and", "or")
    if nxt and nxt[0].text == ",":
        nxt = nxt[1:]
    if nxt and nxt[0].lower_ in ("and", "or"):
        nxt = nxt[1:]
    if joined and nxt and nxt[0].pos in (_PROPN, symbols.DET):
        return True
    root = doc[s2:e2].root
    return not s1 <= root.head.i < e1


def appositive_end(doc: Doc, start: int, end: int) -> int:
    """The end of a name with the place in apposition that GUM's mentions hold
    ("Sydney , Australia", "Trinity College , Cambridge", "Vrije Universiteit
    Amsterdam , the Netherlands"): after a comma, an ``appos`` of a token of
    the name, whose words are proper nouns (a determiner first: "the
    Netherlands") ending in a place entity (not "the Senate , Madam Speaker"),
    nothing else in its phrase ("President of the United States" stays apart,
    as GUM keeps it). ``end`` when there is none.

    doc (Doc): a parsed Doc; start, end (int): the name's tokens (end exclusive).
    RETURNS (int): the (exclusive) end of the name with its apposition.
    """
    if end + 1 >= len(doc) or doc[end].text != "," or doc[end - 1].pos != _PROPN:
        return end
    for j in range(end + 1, min(end + 6, len(doc))):
        tok = doc[j]
        if tok.dep_ == "appos" and start <= tok.head.i < end:
            break
    else:
        return end
    right = tok.right_edge.i + 1
    while right > j + 1 and doc[right - 1].pos == symbols.PUNCT:
        right -= 1
    words = doc[end + 1:right]
    if tok.left_edge.i != end + 1 or len(words) > 4 or words[-1].pos != _PROPN \
            or any(t.pos not in (_PROPN, symbols.DET) for t in words) or words[-1].ent_type_ not in _PLACES:
        return end
    return right


def _propn_runs(pos: np.ndarray) -> List[Span_]:
    """Maximal runs of proper nouns (end exclusive), from the POS symbols (n,)."""
    flags = np.r_[0, (pos == _PROPN).astype(np.int8), 0]
    edges = np.flatnonzero(np.diff(flags))
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist()))


def phrase_spans(units: Sequence[Unit], links: "UnitLinks", mentions: Sequence[Tuple[int, int, int]],
                 ctx: "DocContext") -> List[Unit]:
    """The units, each linked lone name as the longest phrase of the
    extractor's mentions with its head word that ends where it ends, the words
    before the name included, as GUM's mentions hold them ("Congresswoman Karen
    Bass", "Facebook co-founder Mark Zuckerberg", "New People Party 's Regina
    Ip"); not when that phrase starts with a determiner, a pronoun, a number, a
    preposition or punctuation ("the psychologist Angela Duckworth", "his
    fellow - Scots Paul Menzies": GUM keeps those apart), nor over a
    coordination ("Browning and War Office"). The decision was taken on the
    name: only the span written changes.

    mentions (Sequence[Tuple[int, int, int]]): the extractor's (start, end, head).
    RETURNS (List[Unit]): the units in the same order.
    """
    lone = {u: (unit.spans[0], ctx.doc[unit.spans[0][0]:unit.spans[0][1]].root.i) for u, unit in enumerate(units)
            if unit.cluster == -1 and links.entities[u] >= 0}
    wanted = {(head, span[1]) for span, head in lone.values()}
    longest: Dict[Tuple[int, int], int] = {}
    for s, e, head in mentions:
        if (head, e) in wanted:
            longest[(head, e)] = min(s, longest.get((head, e), s))
    result = list(units)
    for u, ((s, e), head) in lone.items():
        start = longest.get((head, e), s)
        if start < s and ctx.pos[start] not in _NOT_PHRASE_START and symbols.CCONJ not in ctx.pos[start:s]:
            result[u] = Unit([(start, e)], -1)
    return result


def _lone_span(doc: Doc, start: int, end: int, titles: AbstractSet[str]) -> Span_:
    """The span of a lone name as GUM-style mentions have it: with the titles
    before it ("Dr. William Glennie", "President Trump": the rules'
    ``link_span_titles``), a determiner that depends on it ("the Netherlands",
    "these United States") and a possessive ending ("Bangladesh 's")."""
    while start > 0 and doc[start - 1].lower_.strip(".") in titles:
        start -= 1
    if start > 0 and doc[start - 1].pos == symbols.DET and start <= doc[start - 1].head.i < end:
        start -= 1
    if end < len(doc) and doc[end].tag_ == "POS":
        end += 1
    return start, end


@dataclass
class _Votes:
    """What the mentions of one unit say about one candidate."""

    n_full: int = 0
    n_partial: int = 0
    max_prior: float = 0.0
    sum_prior: float = 0.0
    top1: bool = False
    exact: bool = False
    upper: bool = False
    max_len: int = 0
    #: Mentions whose head word is a word of the entity's name as another unit names it.
    n_doc: int = 0
    #: The alias keys of this unit's mentions that name the entity (a full alias, its likeliest entity).
    naming: Optional[List[str]] = None


class DocContext:
    """What the features read of a whole Doc, computed once per Doc.

    doc (Doc): the parsed Doc.
    rules (LanguageRules | None): the language rules whose ``linking`` words
        (titles, general heads) the linker reads; None: those of the Doc's language.
    """

    def __init__(self, doc: Doc, rules: Optional[LanguageRules] = None):
        self.doc = doc
        self.rules = rules if rules is not None else get_rules(doc.lang_)
        # One read of the Doc's arrays: making a Token per word cost a third of the linker's time.
        arrays = doc.to_array([POS, IS_ALPHA, IS_STOP, LOWER, IDX, LENGTH]).reshape(len(doc), 6)
        strings = doc.vocab.strings
        content = (arrays[:, 1] == 1) & (arrays[:, 2] == 0)
        self.words: Set[str] = {strings[int(h)] for h in np.unique(arrays[content, 3])}
        #: (n_tokens,) uint64, the part-of-speech symbol of each token.
        self.pos = arrays[:, 0]
        self._starts = arrays[:, 4].tolist()
        self._ends = (arrays[:, 4] + arrays[:, 5]).tolist()
        self._context: Dict[Tuple[int, str], float] = {}
        #: What :func:`_name_keys` found for each mention (start, end).
        self.names: Dict[Span_, Tuple[Optional[str], List[str], str]] = {}
        self._text = doc.text  # built from the tokens at each call: read once
        self._heads: Dict[Span_, str] = {}
        self.ent_types: Dict[int, str] = {}
        for ent in doc.ents:
            gum = NER_TYPES.get(ent.label_)
            if gum:
                self.ent_types[ent.root.i] = gum


    def head_key(self, start: int, end: int) -> str:
        """The alias key of the head word of tokens start..end (exclusive)."""
        key = self._heads.get((start, end))
        if key is None:
            root = self.doc[start:end].root
            key = self._heads[(start, end)] = alias_key(root.text)
        return key

    def text(self, start: int, end: int) -> str:
        """The text of tokens start..end (exclusive), read from the Doc's text."""
        return self._text[self._starts[start]:self._ends[end - 1]]

    def context(self, row: int, text: str) -> float:
        """The share of the words of ``text`` (a name or description of KB entity
        ``row``) longer than two letters that the Doc holds."""
        key = (row, text)
        if key not in self._context:
            words = [w for w in alias_key(text).split() if len(w) > 2]
            self._context[key] = sum(w in self.words for w in words) / len(words) if words else 0.0
        return self._context[key]


def unit_type(ctx: DocContext, unit: Unit) -> Optional[str]:
    """The unit's type from the entity labels of its mentions' heads (majority),
    else "person" when a mention is he/she/who; None when nothing tells."""
    counts: Dict[str, int] = {}
    person_pronoun = False
    for s, e in unit.spans:
        span = ctx.doc[s:e]
        t = ctx.ent_types.get(span.root.i)
        if t:
            counts[t] = counts.get(t, 0) + 1
        elif e - s == 1 and span[0].lower_ in _PERSON_PRONOUNS:
            person_pronoun = True
    if counts:
        return max(counts, key=lambda k: (counts[k], k))
    return "person" if person_pronoun else None


def _name_keys(ctx: DocContext, s: int, e: int) -> Tuple[Optional[str], List[str], str]:
    """The alias key of a mention, the keys of its proper-noun runs, and its
    text ('' when it is no name: a pronoun or determiner alone); once per
    mention and Doc (splitting and linking both ask)."""
    found = ctx.names.get((s, e))
    if found is None:
        found = ctx.names[(s, e)] = _read_name_keys(ctx, s, e)
    return found


def _read_name_keys(ctx: DocContext, s: int, e: int) -> Tuple[Optional[str], List[str], str]:
    pos = ctx.pos[s:e].tolist()
    if all(p in _NOT_NAMES for p in pos):
        return None, [], ""
    runs, run = [], []
    for i, p in enumerate(pos):
        if p == _PROPN:
            run.append(s + i)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    # A run, and its last and first words: "Justice Scalia" -> "Scalia", "Mary Smith" -> "Mary".
    parts = [ctx.text(r[0], r[-1] + 1) for r in runs]
    parts += [ctx.text(i, i + 1) for r in runs if len(r) > 1 for i in (r[-1], r[0])]
    text = ctx.text(s, e)
    return alias_key(text), list(dict.fromkeys(alias_key(p) for p in parts)), text


def _unit_votes(ctx: DocContext, unit: Unit, kb: LinkingKB) -> Tuple[Dict[int, _Votes], int, int]:
    """Candidates of a unit with what its mentions say about each; the number
    of name mentions and of pronoun mentions."""
    votes: Dict[int, _Votes] = {}
    n_names = n_pronouns = 0
    for s, e in unit.spans:
        key, runs, text = _name_keys(ctx, s, e)
        if not text:
            n_pronouns += 1
            continue
        n_names += 1
        ents, priors = kb.candidates_of_key(key)
        if not len(ents) and "," in text:
            # "Bilbao , Spain", "Amsterdam , the Netherlands": the name before the comma.
            ents, priors = kb.candidates(text.split(",")[0])
        bare = untitled(key, ctx.rules.link_leading_titles)
        if not len(ents) and bare:  # "Senator Hatfield": the name after its title
            ents, priors = kb.candidates_of_key(bare)
        full = len(ents) > 0
        if not full:
            found = [kb.candidates_of_key(r) for r in runs if r != key]
            found = [f for f in found if len(f[0])]
            if found:
                ents, priors = np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
        upper = text != text.lower()
        best = int(ents[np.argmax(priors)]) if len(ents) else -1
        for row, prior in zip(ents.tolist(), priors.tolist()):
            v = votes.setdefault(row, _Votes())
            if full:
                v.n_full += 1
                v.exact = v.exact or key == alias_key(kb.names[row])
                if row == best:
                    v.naming = (v.naming or []) + [key]
            else:
                v.n_partial += 1
            v.max_prior = max(v.max_prior, prior)
            v.sum_prior += prior
            v.top1 = v.top1 or row == best
            v.upper = v.upper or upper
            v.max_len = max(v.max_len, e - s)
    return votes, n_names, n_pronouns


class LinkFeatures(NamedTuple):
    """The (unit, candidate) pairs of a Doc and their features.

    features (ndarray): (n_pairs, N_FEATURES) float32.
    units (ndarray): (n_pairs,) int32, the unit of each pair.
    entities (ndarray): (n_pairs,) int32, the KB row of each pair's candidate.
    """

    features: np.ndarray
    units: np.ndarray
    entities: np.ndarray


def link_features(doc: Doc, units: Sequence[Unit], kb: LinkingKB,
                  ctx: Optional[DocContext] = None, doc_candidates: bool = True) -> LinkFeatures:
    """Features of every candidate of every unit (see LINK_FEATURES).

    doc (Doc): the parsed Doc the units belong to.
    units (Sequence[Unit]): from :func:`link_units`.
    kb (LinkingKB): the knowledge base (:class:`~neuralcoref.artifacts.kb.KnowledgeBase`).
    doc_candidates (bool): add the entities other units name whose names hold
        a unit's head words (:mod:`.doc_candidates`: "Harrow" ... "Harrow School").
    RETURNS (LinkFeatures): the pairs, grouped by unit, in unit order.
    """
    ctx = ctx or DocContext(doc)
    rows: List[List[float]] = []
    unit_ids: List[int] = []
    entity_ids: List[int] = []
    read = [_unit_votes(ctx, unit, kb) for unit in units]
    if doc_candidates:
        _add_doc_votes(ctx, units, read, kb)
    for u, unit in enumerate(units):
        votes, n_names, n_pronouns = read[u]
        if not votes:
            continue
        u_type = unit_type(ctx, unit)
        names = max(n_names, 1)
        inner = float(unit.cluster < 0 and _inner_name(ctx, *unit.spans[0]))
        for row, v in votes.items():
            k_type = kb.entity_type(row)
            rows.append([
                v.n_full / names, v.n_partial / names, math.log1p(v.n_full), v.max_prior, v.sum_prior / names,
                float(v.top1), float(v.exact), float(v.upper), math.log1p(float(kb.priors[row])) / 5.0,
                float(k_type is not None and k_type == u_type),
                float(k_type is not None and u_type is not None and k_type != u_type),
                float(k_type is None), float(u_type is None), 1.0 / len(votes),
                ctx.context(row, kb.names[row]), ctx.context(-1 - row, kb.descriptions[row]),
                math.log1p(len(unit.spans)) / 3.0, float(unit.cluster < 0),
                n_pronouns / len(unit.spans), min(v.max_len, 10) / 5.0, inner,
                float(unit.cluster == EXTRACTED), v.n_doc / names])
            unit_ids.append(u)
            entity_ids.append(row)
    features = np.array(rows, dtype=np.float32).reshape(len(rows), N_FEATURES)
    return LinkFeatures(features, np.array(unit_ids, dtype=np.int32), np.array(entity_ids, dtype=np.int32))


def _add_doc_votes(ctx: DocContext, units: Sequence[Unit],
                   read: List[Tuple[Dict[int, _Votes], int, int]], kb: LinkingKB) -> None:
    """The candidates from the document (:mod:`.doc_candidates`), added to the
    votes of each unit in ``read`` that no mention names in full (a unit of
    nominals gets its first votes)."""
    named = [{row: words_of([alias_key(kb.names[row]), *v.naming]) for row, v in votes.items() if v.naming}
             for votes, _, _ in read]
    index = name_index(named, ctx.rules.link_general_heads)
    if not index:
        return
    for u, unit in enumerate(units):
        votes = read[u][0]
        if any(v.n_full for v in votes.values()):
            continue  # a unit the KB knows by a whole name keeps its candidates
        spans = [span for span in unit.spans if _name_keys(ctx, *span)[2]]
        matches = doc_matches(index, u, [ctx.head_key(s, e) for s, e in spans])
        for row, n in matches.items():
            v = votes.get(row)
            if v is None:  # a candidate from the document only ("the lake" of a unit of nominals)
                texts = [_name_keys(ctx, *span)[2] for span in spans]
                v = votes[row] = _Votes(upper=any(t != t.lower() for t in texts),
                                        max_len=max(e - s for s, e in spans))
            v.n_doc = n


def _inner_name(ctx: DocContext, start: int, end: int) -> bool:
    """Whether a lone name is part of a longer run of proper nouns ("Australia"
    of "South Australia", "Amsterdam" of "Vrije Universiteit Amsterdam"): GUM
    marks some such parts as mentions, most not; the scorer learns how often."""
    pos = ctx.pos
    return (start > 0 and pos[start - 1] == _PROPN) or (end < len(pos) and pos[end] == _PROPN)


class UnitLinks(NamedTuple):
    """The decision for each unit.

    entities (ndarray): (n_units,) int32, the KB row linked, -1 for none.
    probs (ndarray): (n_units,) float32, the probability of the decision's entity
        (0 for none).
    """

    entities: np.ndarray
    probs: np.ndarray


def decide(scores: np.ndarray, pairs: LinkFeatures, n_units: int, threshold: float = 0.5) -> UnitLinks:
    """One decision per unit: a softmax over its candidates' scores and "none"
    (score 0); the best candidate is linked when its probability reaches
    ``threshold``.

    scores (ndarray): (n_pairs,) float32 from the scorer.
    RETURNS (UnitLinks): per unit, the entity (or -1) and its probability.
    """
    entities = np.full(n_units, -1, dtype=np.int32)
    probs = np.zeros(n_units, dtype=np.float32)
    if len(scores) == 0:
        return UnitLinks(entities, probs)
    bounds = np.flatnonzero(np.diff(pairs.units)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(scores)]):
        s = scores[lo:hi]
        top = float(s.max())
        z = math.exp(-max(top, 0.0)) + float(np.exp(s - max(top, 0.0)).sum())
        best = int(np.argmax(s))
        p = math.exp(float(s[best]) - max(top, 0.0)) / z
        if p >= threshold:
            u = int(pairs.units[lo])
            entities[u], probs[u] = int(pairs.entities[lo + best]), p
    return UnitLinks(entities, probs)


def split_units(units: Sequence[Unit], kb: LinkingKB, ctx: DocContext,
                score: Callable[[np.ndarray], np.ndarray], threshold: float) -> List[Unit]:
    """Joint decisions, the other half: a cluster whose names link, each on its
    own, to different entities with at least ``threshold`` is split, one part
    per entity ("Australia" ... "South Australia" ... "Western Australia").
    A mention that names no entity (a pronoun, a name linked to none) goes with
    the last linked name before it (the first one when none comes before).

    units (Sequence[Unit]): from :func:`link_units`.
    score (Callable): the scorer, features (n, N_FEATURES) float32 -> (n,) float32.
    RETURNS (List[Unit]): the units, a split cluster's parts in its place
        (each with the cluster's index, a part of one mention as a lone name).
    """
    result: List[Unit] = []
    for unit in units:
        result.extend(_split_unit(unit, kb, ctx, score, threshold) if unit.cluster >= 0 else [unit])
    return result


def _split_unit(unit: Unit, kb: LinkingKB, ctx: DocContext, score: Callable[[np.ndarray], np.ndarray],
                threshold: float) -> List[Unit]:
    names = [(span, key) for span in unit.spans for key, _, text in [_name_keys(ctx, *span)] if text]
    if len({key for _, key in names}) < 2:  # one name, however often: nothing to split (and cheap)
        return [unit]
    singles = [Unit([span], -1) for span, _ in names]
    pairs = link_features(ctx.doc, singles, kb, ctx, doc_candidates=False)
    links = decide(score(pairs.features), pairs, len(singles), threshold)
    entity_of = {span: int(e) for (span, _), e in zip(names, links.entities.tolist()) if e >= 0}
    if len(set(entity_of.values())) < 2:
        return [unit]
    current = entity_of[min(entity_of)]
    parts: Dict[int, List[Span_]] = {}
    for span in sorted(unit.spans):
        current = entity_of.get(span, current)
        parts.setdefault(current, []).append(span)
    # A part of one mention is a lone name (no cluster of one).
    return [Unit(spans, unit.cluster if len(spans) > 1 else -1) for spans in parts.values()]


def merged_clusters(units: Sequence[Unit], links: UnitLinks, threshold: float,
                    lone: bool = True) -> List[List[int]]:
    """Joint decisions: units linked to the same entity with probability at
    least ``threshold`` become one cluster (a lone entity joins its entity's
    cluster; two lone mentions of one entity make a cluster). Units linked to
    different entities are never merged; a lone entity stays out of clusters
    unless it merges; ``lone``: False keeps lone entities out of the merges.

    RETURNS (List[List[int]]): the units of each cluster, clusters in order of
        their first unit.
    """
    groups: Dict[int, List[int]] = {}
    order: List[List[int]] = []
    for u, unit in enumerate(units):
        e = int(links.entities[u])
        if e >= 0 and links.probs[u] >= threshold and (lone or unit.cluster >= 0):
            if e in groups:
                groups[e].append(u)
                continue
            groups[e] = [u]
            order.append(groups[e])
        elif unit.cluster >= 0:
            order.append([u])
    return [members for members in order if sum(len(units[u].spans) for u in members) >= 2]
