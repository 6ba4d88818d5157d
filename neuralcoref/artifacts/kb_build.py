"""Building knowledge bases: from a TSV of entities, or from GUM's wiki_map.tab.

Aliases come from three places, each with a weight that becomes P(entity | alias)
once the weights of an alias are normalised over its entities:

- the entity's name (and the aliases a TSV lists), weight 2;
- forms derived from the name (:func:`derived_aliases`): the title without its
  disambiguator ("Paris (Texas)" -> "Paris"), the part before a comma
  ("Portland, Oregon" -> "Portland"), the surname of a person, the acronym of a
  name of several capitalised words ("International Business Machines" -> "IBM");
- mentions of linked entities in an entities TSV (``gum/entities.train.tsv``)
  with their words from the CoNLL file: one per mention.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union
from urllib.parse import unquote

import numpy as np
from tqdm import tqdm

from ..errors import Errors, KBLoadError, quote
from ..lang.en_gender import FEMININE_NAMES, MASCULINE_NAMES
from ..lang.lexicon import load as load_lexicon
from .kb import KnowledgeBase, StringTable, alias_key, key_hash

NAME_WEIGHT, DERIVED_WEIGHT, MENTION_WEIGHT, WEAK_WEIGHT = 2.0, 0.5, 1.0, 0.2
TSV_COLUMNS = ("id", "name", "aliases", "prior", "type", "description")
#: Words left out of acronyms ("Bank of America" -> "BA"... "BoA" is rarer).
_SMALL_WORDS = {"of", "the", "and", "for", "in", "on", "at", "de", "du", "la", "le", "&", "a", "an"}
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
#: Titles before a name that texts leave out ("Lord Byron" -> "Byron").
_HONORIFICS = {"lord", "lady", "sir", "dame", "king", "queen", "emperor", "empress", "prince", "princess",
               "duke", "saint", "st", "pope", "president", "general", "captain", "dr", "mr", "mrs", "ms",
               "cyclone", "hurricane", "typhoon", "mount", "lake", "fort"}
#: Penn tags of words that make a mention a name worth keeping as an alias.
_NAME_TAGS = ("NNP", "NNPS")
#: Longest mention (in tokens) kept as an alias: longer ones are descriptions.
MAX_ALIAS_TOKENS = 6
#: Marks the counts of the titles mentions carry among their texts.
TITLE_PREFIX = "\x00title:"


@dataclass
class EntityRecord:
    """One entity to put in a KB.

    id (str): its identifier (a Wikidata id, or any string).
    name (str): its name or title ("Paris_(Texas)" and "Paris (Texas)" alike).
    aliases (Dict[str, float]): alias text -> weight (more: likelier).
    prior (float | None): how often it is mentioned (None: unknown).
    type (str): its type (e.g. person, place, organization), '' unknown.
    description (str): a short description.
    """

    id: str
    name: str
    aliases: Dict[str, float] = field(default_factory=dict)
    prior: Optional[float] = None
    type: str = ""
    description: str = ""


def display_name(title: str) -> str:
    """A Wikipedia title as text: underscores as spaces."""
    return title.replace("_", " ").strip()


@lru_cache(maxsize=1)
def _lexicon() -> Tuple[frozenset, frozenset]:
    """First names and common nouns of the English lexicon (lower case)."""
    lexicon = load_lexicon("en_lexicon")
    names = frozenset(FEMININE_NAMES + MASCULINE_NAMES) | frozenset(lexicon["names"])
    return names, frozenset(lexicon["nouns"]) | frozenset(lexicon["things"])


def looks_like_person(name: str) -> bool:
    """Whether a name reads as a person's: two to four capitalised words, the first
    a usual first name ("Barack Obama", not "New York")."""
    words = name.split()
    return 2 <= len(words) <= 4 and words[0].lower() in _lexicon()[0] and all(w[:1].isupper() for w in words)


def derived_aliases(name: str, entity_type: str = "") -> List[str]:
    """Forms of a name that texts use for the entity.

    name (str): the entity's name or Wikipedia title.
    entity_type (str): its type; "person" (or a name that looks like a person's)
        adds the surname.
    RETURNS (List[str]): the derived aliases (not the name itself), without repeats.
    """
    name = display_name(name)
    bare = re.sub(r"\s*\([^)]*\)\s*$", "", name).strip()
    forms = [bare]
    if "," in bare:
        forms.append(bare.split(",")[0].strip())
    words = [w for w in bare.split() if w.lower().strip(".,") not in _SUFFIXES]
    person = entity_type == "person" or (not entity_type and looks_like_person(bare))
    if person and len(words) >= 2:
        forms += [words[-1], words[0]]
    elif len(words) >= 2 and words[0].lower().strip(".") in _HONORIFICS:
        forms.append(" ".join(words[1:]))
        forms.append(words[-1])
    university = re.match(r"^University of (\w+)$", bare)
    if university:
        forms.append(f"{university.group(1)} University")
    capitals = [w for w in bare.replace("-", " ").split() if w.lower() not in _SMALL_WORDS]
    # Two-word acronyms are rare but for places ("US", "UK", "NY"); "RT" for a person is noise.
    enough = len(capitals) >= 3 or (len(capitals) == 2 and entity_type == "place")
    if not person and "," not in bare and enough and all(w[:1].isupper() for w in capitals):
        forms.append("".join(w[0] for w in capitals))
    return [f for f in dict.fromkeys(forms) if f and f != name]


def last_word_alias(name: str, entity_type: str = "") -> Optional[str]:
    """The last word of a name of two or three capitalised words whose type is
    unknown, when it is no common noun ("Rabindranath Tagore" -> "Tagore", not
    "Crater Lake" -> "Lake"): a weak alias, since it may be a place's ("New
    York" -> "York")."""
    words = re.sub(r"\s*\([^)]*\)\s*$", "", display_name(name)).split()
    if entity_type or not 2 <= len(words) <= 3 or not all(w[:1].isupper() for w in words):
        return None
    last = words[-1]
    if len(last) <= 3 or not last.isalpha() or last.lower() in _lexicon()[1] or last.lower() in _SMALL_WORDS:
        return None
    return last


def build_kb(records: Iterable[EntityRecord], derive: bool = True, meta: Optional[Dict] = None,
             progress: bool = False) -> KnowledgeBase:
    """A KB of the given entities.

    records (Iterable[EntityRecord]): the entities (ids unique).
    derive (bool): add :func:`derived_aliases` of each name.
    meta (Dict | None): what kb.json records besides the arrays (name, source, attribution).
    RETURNS (KnowledgeBase): the KB (may be empty).
    """
    records = list(records)
    types = sorted({r.type for r in records if r.type})
    type_of = {t: i for i, t in enumerate(types)}
    weights: Dict[str, Dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for row, r in enumerate(tqdm(records, desc="aliases", unit="entity", disable=not progress)):
        _add_alias(weights, r.name, row, NAME_WEIGHT)
        for alias, weight in r.aliases.items():
            _add_alias(weights, alias, row, weight)
        if derive:
            for alias in derived_aliases(r.name, r.type):
                _add_alias(weights, alias, row, DERIVED_WEIGHT)
            weak = last_word_alias(r.name, r.type)
            if weak:
                _add_alias(weights, weak, row, WEAK_WEIGHT)
    arrays = _entity_arrays(records, type_of)
    arrays.update(_alias_arrays(weights))
    return KnowledgeBase(arrays, types, meta)


def _add_alias(weights: Dict[str, Dict[int, float]], text: str, row: int, weight: float) -> None:
    key = alias_key(text)
    if key and weight > 0:
        weights[key][row] += weight


def _entity_arrays(records: Sequence[EntityRecord], type_of: Mapping[str, int]) -> Dict[str, np.ndarray]:
    arrays: Dict[str, np.ndarray] = {}
    for table, values in (("ids", [r.id for r in records]), ("names", [display_name(r.name) for r in records]),
                          ("descriptions", [r.description for r in records])):
        strings = StringTable.build(values)
        arrays[f"{table}_bytes"], arrays[f"{table}_offsets"] = strings.data, strings.offsets
    arrays["types"] = np.array([type_of.get(r.type, -1) for r in records], dtype=np.int16)
    arrays["priors"] = np.array([r.prior or 0.0 for r in records], dtype=np.float32)
    hashes = np.array([key_hash(r.id) for r in records], dtype=np.uint64)
    order = np.argsort(hashes, kind="stable")
    arrays["id_hashes"], arrays["id_order"] = hashes[order], order.astype(np.int32)
    return arrays


def _alias_arrays(weights: Mapping[str, Mapping[int, float]]) -> Dict[str, np.ndarray]:
    keys = list(weights)
    hashes = np.array([key_hash(k) for k in keys], dtype=np.uint64)
    order = np.argsort(hashes, kind="stable")
    ptr = np.zeros(len(keys) + 1, dtype=np.int64)
    entities: List[int] = []
    priors: List[float] = []
    for j, i in enumerate(order):
        cands = sorted(weights[keys[i]].items(), key=lambda kv: -kv[1])
        total = sum(w for _, w in cands)
        entities += [e for e, _ in cands]
        priors += [w / total for _, w in cands]
        ptr[j + 1] = len(entities)
    aliases = StringTable.build([keys[i] for i in order])
    return {"alias_hashes": hashes[order], "alias_ptr": ptr, "aliases_bytes": aliases.data,
            "aliases_offsets": aliases.offsets, "cand_entities": np.array(entities, dtype=np.int32),
            "cand_priors": np.array(priors, dtype=np.float32)}


def read_kb_tsv(path: Union[str, Path]) -> List[EntityRecord]:
    """The entities of a KB TSV: id, name, aliases ('|'-separated), prior (a
    number or empty), type, description; the last three columns may be left out;
    a first line naming the columns is skipped.

    RAISES KBLoadError: E403 (line and reason) for a line without id or name, a
        prior that is no number, a repeated id; E404 when there is no entity.
    """
    records: List[EntityRecord] = []
    seen: Dict[str, int] = {}
    with open(path, encoding="utf8", newline="") as file:
        for line_no, line in enumerate(file, 1):
            cells = line.rstrip("\r\n").split("\t")
            if (line_no == 1 and cells[0].strip().lower() == "id") or not line.strip():
                continue
            record = _tsv_record(cells, path, line_no)
            if record.id in seen:
                raise KBLoadError(Errors.E403.format(path=path, line=line_no, reason=(
                    f"id {quote(record.id, 80)} is also on line {seen[record.id]}")))
            seen[record.id] = line_no
            records.append(record)
    if not records:
        raise KBLoadError(Errors.E404.format(path=path))
    return records


def _tsv_record(cells: List[str], path, line_no: int) -> EntityRecord:
    if len(cells) < 2 or not cells[0].strip() or not cells[1].strip():
        raise KBLoadError(Errors.E403.format(path=path, line=line_no, reason="no id or no name"))
    cells = [c.strip() for c in cells] + [""] * (len(TSV_COLUMNS) - len(cells))
    prior: Optional[float] = None
    if cells[3]:
        try:
            prior = float(cells[3])
        except ValueError:
            prior = math.nan
        if not math.isfinite(prior) or prior < 0:
            raise KBLoadError(Errors.E403.format(path=path, line=line_no, reason=(
                f"prior {quote(cells[3], 40)} is not a number, 0 or more")))
    aliases = {a.strip(): NAME_WEIGHT for a in cells[2].split("|") if a.strip()}
    return EntityRecord(cells[0], cells[1], aliases, prior, cells[4], cells[5])


def read_wiki_map(path: Union[str, Path]) -> Dict[str, List[str]]:
    """Wikidata id -> its titles, from GUM's wiki_map.tab (after its '#' header:
    formatted title, URL title, Wikidata id, date; titles percent-decoded).
    RAISES KBLoadError: E403 for a line without an id."""
    entries: Dict[str, List[str]] = {}
    with open(path, encoding="utf8") as file:
        for line_no, line in enumerate(file, 1):
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) < 3 or not cells[2].strip():
                raise KBLoadError(Errors.E403.format(path=path, line=line_no, reason="no Wikidata id in column 3"))
            titles = entries.setdefault(cells[2].strip(), [])
            for title in (unquote(cells[1].strip()), unquote(cells[0].strip())):
                if title and title not in titles:
                    titles.append(title)
    return entries


def mention_aliases(entities_tsv: Union[str, Path], conll: Union[str, Path],
                    documents: Optional[Set[str]] = None) -> Tuple[Dict[str, Counter], Dict[str, Counter]]:
    """What the linked mentions of an entities TSV say about their entities.

    entities_tsv (str | Path): ``gum/entities.train.tsv`` or the like.
    conll (str | Path): the CoNLL file of the same documents (for the words).
    documents (Set[str] | None): read only these documents (None: all).
    RETURNS (Tuple[Dict[str, Counter], Dict[str, Counter]]): per Wikidata id,
        the texts of its name-like mentions (with a proper-noun tag, at most
        MAX_ALIAS_TOKENS) counted, and its mentions' entity types counted; the
        titles the mentions carry are counted among the texts, prefixed by
        TITLE_PREFIX.
    """
    from ..corpora.conll import read_conll_path
    from ..corpora.entities import read_entities

    sentences = {}
    for doc in read_conll_path(conll):
        start = 0
        for i, length in enumerate(doc.sentence_lengths):
            sentences[(doc.doc_id, i)] = [(row[3], row[4]) for row in doc.rows[start:start + length]]
            start += length
    texts: Dict[str, Counter] = defaultdict(Counter)
    types: Dict[str, Counter] = defaultdict(Counter)
    for m in read_entities(entities_tsv):
        if m.wikidata_id is None or (documents is not None and m.doc_id not in documents):
            continue
        types[m.wikidata_id][m.entity_type] += 1
        texts[m.wikidata_id][TITLE_PREFIX + (m.wikipedia_title or "")] += 1
        tokens = sentences.get((m.doc_id, m.sentence), [])[m.start:m.end + 1]
        if tokens and len(tokens) <= MAX_ALIAS_TOKENS and any(tag in _NAME_TAGS for _, tag in tokens):
            texts[m.wikidata_id][" ".join(word for word, _ in tokens)] += 1
    return texts, types


def gum_records(wiki_map: Union[str, Path], entities_tsv: Optional[Union[str, Path]] = None,
                conll: Optional[Union[str, Path]] = None, documents: Optional[Set[str]] = None) -> List[EntityRecord]:
    """The entities of GUM's wiki_map.tab, with the aliases, types and priors
    that the linked mentions of ``entities_tsv`` (with ``conll``) add; the type
    of an entity no mention shows is "person" for a name that looks like one.
    ``documents``: only the mentions of these documents count (None: all)."""
    texts, types = mention_aliases(entities_tsv, conll, documents) if entities_tsv and conll else ({}, {})
    records = []
    for qid, titles in read_wiki_map(wiki_map).items():
        counts = texts.get(qid, Counter())
        # The title most mentions carry names the entity; the others are aliases.
        title = max(titles, key=lambda t: (counts.get(TITLE_PREFIX + t, 0), -titles.index(t)))
        seen = types.get(qid)
        entity_type = seen.most_common(1)[0][0] if seen else ("person" if looks_like_person(display_name(
            re.sub(r"_\([^)]*\)$", "", title))) else "")
        aliases = {text: MENTION_WEIGHT * n for text, n in counts.items() if not text.startswith(TITLE_PREFIX)}
        aliases.update({display_name(t): NAME_WEIGHT for t in titles if t != title})
        prior = float(sum(seen.values())) if seen else None
        disambiguator = re.search(r"\(([^)]*)\)\s*$", display_name(title))
        records.append(EntityRecord(qid, title, aliases, prior, entity_type,
                                    disambiguator.group(1) if disambiguator else ""))
    return records


#: What kb.json of a KB built from GUM records (the shipped "gum" KB is one).
GUM_META = {
    "source": ("GUM coref/wiki_map.tab (github.com/amir-zeldes/gum at 72ce5ac14978a324c2fd18d49484e65292cbe316); "
               "aliases, types and priors from the linked mentions of its train split (gum/entities.train.tsv)"),
    "attribution": ("GUM corpus annotations, CC BY 4.0: Amir Zeldes (2017), The GUM Corpus: Creating Multilayer "
                    "Resources in the Classroom, Language Resources and Evaluation 51(3), 581-612. "
                    "Wikidata ids: Wikidata, CC0."),
    "licence": "CC BY 4.0",
}


def build_kb_files(out: Union[str, Path], tsv: Optional[Union[str, Path]] = None,
                   wiki_map: Optional[Union[str, Path]] = None, mentions: Optional[Union[str, Path]] = None,
                   conll: Optional[Union[str, Path]] = None, name: Optional[str] = None,
                   derive: bool = True) -> KnowledgeBase:
    """Build a KB folder (``neuralcoref kb build``) from a KB TSV and/or GUM's
    wiki_map.tab (with the aliases of ``mentions``, an entities TSV, whose words
    come from ``conll``); the entities of both when both are given (the TSV's
    win for an id in both).

    RETURNS (KnowledgeBase): the KB written to ``out``.
    RAISES KBLoadError: E403 (a bad line), E404 (no entities).
    """
    records: Dict[str, EntityRecord] = {}
    meta: Dict[str, str] = {"name": name or Path(out).name}
    if wiki_map is not None:
        records.update((r.id, r) for r in gum_records(wiki_map, mentions, conll))
        meta.update(GUM_META)
        if mentions is None:
            meta["source"] = meta["source"].split(";")[0]
    if tsv is not None:
        records.update((r.id, r) for r in read_kb_tsv(tsv))
        meta["source"] = str(tsv) if wiki_map is None else f"{meta['source']}; {tsv}"
    if not records:
        raise KBLoadError(Errors.E404.format(path=tsv or wiki_map))
    kb = build_kb(records.values(), derive=derive, meta=meta, progress=True)
    kb.to_disk(out)
    return kb
