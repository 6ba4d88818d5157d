"""The ``neuralcoref_linker`` spaCy component: coreference clusters linked to a
knowledge base, one decision per cluster.

    nlp = spacy.load("en_core_web_sm")
    nlp.add_pipe("neuralcoref")
    nlp.add_pipe("neuralcoref_linker", config={"kb": "gum"})
    doc = nlp("Barack Obama was born in Hawaii. Obama was president.")
    [(c.main.text, c.kb_id) for c in doc._.coref_clusters]   # [('Barack Obama', 'Q76')]

It runs after ``neuralcoref``: each cluster, and each named entity outside the
clusters, gets one decision (an entity of the KB or none) from the features of
all its mentions (:mod:`neuralcoref.core.linking.linking`). A cluster whose names link
to different entities is split first (``split``); clusters confidently linked
to the same entity merge (``merge``). Results: ``cluster.kb_id``, ``kb_id_`` on
every mention in the cluster span groups, the span group ``coref_links`` (every
linked mention, labelled with the entity's type) and ``kb_id_`` on ``doc.ents``.
"""
from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

from spacy import util
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from .artifacts.kb import KnowledgeBase, kb_path, load_kb
from .component import GuardedPipe
from .core.linking.link_scorer import LinkScorer
from .corpora.entities import EntityMention
from .core.linking.linking import (DocContext, Unit, UnitLinks, appositive_end, decide, extracted_mentions,
                                   link_features, link_units, mention_triples, merged_clusters, phrase_spans,
                                   split_units)
from .core.mentions.shared_mentions import kept_mentions
from .errors import Errors, NeuralcorefError, Warnings
from .extensions import CLUSTER_PREFIX, SCORES_KEY, get_clusters, register_extensions, set_clusters
from .lang.base import LanguageRules
from .validation import check_bool, check_float

#: The span group of every linked mention (kb_id_ set, label: the entity's type).
LINKS_KEY = "coref_links"
#: The span group attribute of a linked cluster: the entity id and its probability.
KB_ID_ATTR, KB_SCORE_ATTR = "kb_id", "kb_score"
SETTINGS_FILE, KB_DIR, SCORER_DIR = "cfg.json", "kb", "scorer"

DEFAULT_LINKER_CONFIG = {
    "kb": "gum",
    "scorer": None,
    "threshold": 0.3,
    "merge": True,
    "merge_threshold": 0.8,
    "merge_lone": False,
    "singletons": True,
    "split": True,
    "split_threshold": 0.5,
    "mentions": True,
    "doc_candidates": True,
    "phrase_spans": True,
}


def shipped_scorer_path() -> Path:
    """The folder of the shipped linking scorer (trained on GUM train)."""
    return Path(str(resources.files("neuralcoref") / "kbs" / "linker"))


@Language.factory(
    "neuralcoref_linker",
    default_config=DEFAULT_LINKER_CONFIG,
    requires=["doc.spans"],
    assigns=["doc.spans", "doc.ents"],
)
def make_linker(nlp: Language, name: str, kb: str, scorer: Optional[str], threshold: float, merge: bool,
                merge_threshold: float, merge_lone: bool, singletons: bool, split: bool,
                split_threshold: float, mentions: bool = True, doc_candidates: bool = True,
                phrase_spans: bool = True) -> "CorefLinker":
    """Create the linker (see CorefLinker for the settings).

    RAISES NeuralcorefError: E407 when no coreference component comes before it.
    """
    factories = [nlp.get_pipe_meta(n).factory for n in nlp.pipe_names]
    if "neuralcoref" not in factories:
        raise NeuralcorefError(Errors.E407)
    from .component import _building_from_config

    return CorefLinker(nlp.vocab, name, kb=kb, scorer=scorer, threshold=threshold, merge=merge,
                       merge_threshold=merge_threshold, merge_lone=merge_lone, singletons=singletons,
                       split=split, split_threshold=split_threshold, mentions=mentions,
                       doc_candidates=doc_candidates, phrase_spans=phrase_spans,
                       load_later=_building_from_config())


class DocLinks(NamedTuple):
    """The linking of one Doc: its units, the decisions, and the clusters
    after the joint decisions (lists of unit indices)."""

    units: List[Unit]
    links: UnitLinks
    clusters: List[List[int]]


class CorefLinker(GuardedPipe):
    """Links coreference clusters (and lone named entities) to a knowledge base.

    vocab (Vocab): the pipeline's vocabulary.
    name (str): the component's name.
    kb (str | Path | KnowledgeBase): a shipped KB's name ("gum"), a KB folder
        (``neuralcoref kb build``), or a loaded KB.
    scorer (str | Path | None): a linking scorer folder; None: the shipped one.
    threshold (float): 0-1, the probability a cluster's best entity needs to be linked.
    merge (bool): merge clusters linked to the same entity (and add lone named
        entities to their entity's cluster) when both are linked with at least
        ``merge_threshold``.
    merge_threshold (float): 0-1, see ``merge``.
    merge_lone (bool): also merge lone named entities (outside every cluster)
        into the cluster of their entity, or into a new cluster of two of them
        (off: OntoGUM dev CoNLL F1 -0.01 with it, +0.00 without).
    singletons (bool): also link named entities outside every cluster.
    split (bool): split a cluster whose names link, each on its own, to
        different entities with at least ``split_threshold``.
    split_threshold (float): 0-1, see ``split``.
    mentions (bool): also link the mention extractor's mentions outside every
        cluster whose whole text is an alias of the KB ("iodine"); needs
        ``singletons``.
    doc_candidates (bool): a unit that no mention names in full (no whole
        text is an alias) also gets, as candidates, the entities other units of
        the Doc name whose names hold its mentions' head words ("Harrow" ...
        "Harrow School", "the lake" ... "Crater Lake").
    phrase_spans (bool): a linked name outside the clusters is written as
        the extractor's phrase that ends with it, the words before it included
        ("Congresswoman Karen Bass", not "Karen Bass"; not after a determiner
        or a pronoun), as GUM's mentions are; needs ``mentions``. The decision
        is the same.
    **settings: the decision settings above (``DECISION_SETTINGS``), each
        defaulting to ``DEFAULT_LINKER_CONFIG``'s value; another name: E173.
    load_later (bool): the KB and the scorer come later (``spacy.load``: from
        ``from_disk``, which reads the copies saved with the pipeline, or at the
        first use): each is loaded once, and the folders the config names may
        be gone (another machine). False: loaded and checked now.
    RAISES KBLoadError: E400-E402 for a missing or damaged KB, E405-E406 for the scorer.
    """

    def __init__(self, vocab: Vocab, name: str = "neuralcoref_linker", *,
                 kb: Union[str, Path, KnowledgeBase] = "gum", scorer: Optional[Union[str, Path]] = None,
                 load_later: bool = False, **settings: Any):
        self.vocab, self.name = vocab, name
        self.cfg = {"kb": kb if isinstance(kb, str) else str(kb_path(kb)) if not isinstance(kb, KnowledgeBase)
                    else kb.meta.get("name", "?"),
                    "scorer": None if scorer is None else str(scorer),
                    **_checked({**{k: DEFAULT_LINKER_CONFIG[k] for k in DECISION_SETTINGS}, **settings})}
        self._kb: Optional[KnowledgeBase] = kb if isinstance(kb, KnowledgeBase) else None
        self._scorer: Optional[LinkScorer] = None
        self._kb_source: Optional[Path] = None if isinstance(kb, KnowledgeBase) else kb_path(kb)
        self._scorer_source = Path(scorer) if scorer is not None else shipped_scorer_path()
        self._rules: Optional[LanguageRules] = None
        if not load_later:
            self._set_kb(load_kb(kb))
            self._scorer = LinkScorer.from_disk(self._scorer_source)
        register_extensions()

    @property
    def kb(self) -> KnowledgeBase:
        """The knowledge base (loaded at its first use when it came later)."""
        if self._kb is None:
            self._set_kb(load_kb(self._kb_source))
        return self._kb

    @property
    def scorer(self) -> LinkScorer:
        """The linking scorer (loaded at its first use when it came later)."""
        if self._scorer is None:
            self._scorer = LinkScorer.from_disk(self._scorer_source)
        return self._scorer

    def _set_kb(self, kb: KnowledgeBase) -> None:
        if len(kb) == 0:
            import warnings

            warnings.warn(Warnings.W400.format(kb=self.cfg["kb"]))
        self._kb = kb

    def predict(self, docs: Iterable[Doc]) -> List[DocLinks]:
        """The linking decisions of Docs with clusters, without changing them."""
        results = []
        for doc in docs:
            clusters = [[(m.start, m.end) for m in c] for c in get_clusters(doc)]
            ctx = DocContext(doc, self._doc_rules(doc))
            extracted = self._mentions(doc) if self.cfg["mentions"] else None
            units = link_units(doc, clusters, singletons=self.cfg["singletons"], kb=self.kb, ctx=ctx,
                               mentions=extracted)
            if self.cfg["split"]:
                units = split_units(units, self.kb, ctx, self.scorer, self.cfg["split_threshold"])
            pairs = link_features(doc, units, self.kb, ctx, self.cfg["doc_candidates"])
            links = decide(self.scorer(pairs.features), pairs, len(units), self.cfg["threshold"])
            if self.cfg["phrase_spans"] and extracted is not None:
                units = phrase_spans(units, links, extracted, ctx)
            if self.cfg["merge"]:
                groups = merged_clusters(units, links, self.cfg["merge_threshold"], self.cfg["merge_lone"])
            else:
                groups = [[u] for u, unit in enumerate(units) if unit.cluster >= 0]
            results.append(DocLinks(units, links, groups))
        return results

    def _doc_rules(self, doc: Doc) -> LanguageRules:
        """The rules of the Doc's language (the linker was trained on the same),
        for its mentions and the words linking reads (titles, general heads)."""
        if self._rules is None:
            from .lang import get_rules

            self._rules = get_rules(doc.lang_)
        return self._rules

    def _mentions(self, doc: Doc) -> List[Tuple[int, int, int]]:
        """The mention extractor's (start, end, head) (see :meth:`_doc_rules`):
        those the coreference component extracted with the same rules, else
        extracted now."""
        rules = self._doc_rules(doc)
        kept = kept_mentions(doc, rules)
        return mention_triples(kept) if kept is not None else extracted_mentions(doc, rules)

    def set_annotations(self, docs: Iterable[Doc], results: List[DocLinks]) -> None:
        """Write the clusters (merged), their entities and the linked mentions."""
        for doc, result in zip(docs, results):
            write_links(doc, result, self.kb)

    # Serialization: the settings, and copies of the KB and the scorer, so that a
    # saved pipeline loads anywhere.
    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> None:
        """Save cfg.json, the KB (kb/) and the scorer (scorer/) into ``path``."""
        util.to_disk(path, {SETTINGS_FILE: lambda p: p.write_text(json.dumps(self.cfg), encoding="utf8"),
                            KB_DIR: lambda p: self.kb.to_disk(p),
                            SCORER_DIR: lambda p: _copy_folder(self._scorer_source, p)}, exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = ()) -> "CorefLinker":
        """Load what ``to_disk`` saved (the KB and scorer checked: E400-E406)."""
        util.from_disk(path, {SETTINGS_FILE: self._read_settings, KB_DIR: self._read_kb,
                              SCORER_DIR: self._read_scorer}, exclude)
        return self

    def _read_settings(self, file: Path) -> None:
        if file.exists():
            saved = json.loads(file.read_text(encoding="utf8"))
            self.cfg.update(_checked({k: saved[k] for k in DECISION_SETTINGS if k in saved}))
            self.cfg.update({k: saved[k] for k in ("kb", "scorer") if k in saved})

    def _read_kb(self, folder: Path) -> None:
        if folder.exists():
            self._kb_source = folder
            self._set_kb(load_kb(folder))

    def _read_scorer(self, folder: Path) -> None:
        if folder.exists():
            self._scorer, self._scorer_source = LinkScorer.from_disk(folder), folder

    def __reduce__(self):
        # Rebuilt from its sources (KB folder, scorer folder), never pickled arrays.
        settings = {k: v for k, v in self.cfg.items() if k not in ("kb", "scorer")}
        kb = str(self._kb_source) if self._kb_source is not None else self.kb
        return (_rebuild, (self.vocab, self.name, kb, str(self._scorer_source), settings))


#: The settings of the decisions (checked wherever they come from: E170).
DECISION_SETTINGS = ("threshold", "merge", "merge_threshold", "merge_lone", "singletons", "split",
                     "split_threshold", "mentions", "doc_candidates", "phrase_spans")


def _checked(settings: Dict[str, Any]) -> Dict[str, Any]:
    owner = "neuralcoref_linker"
    for name in settings:
        if name not in DECISION_SETTINGS:
            raise NeuralcorefError(Errors.E173.format(name=repr(name), owner=owner,
                                                      known=", ".join(DECISION_SETTINGS)))
    return {name: check_float(name, value, 0.0, 1.0, owner=owner) if "threshold" in name
            else check_bool(name, value, owner=owner) for name, value in settings.items()}


def _rebuild(vocab: Vocab, name: str, kb: Any, scorer: str, settings: Dict[str, Any]) -> CorefLinker:
    return CorefLinker(vocab, name, kb=kb, scorer=scorer, **settings)


def _copy_folder(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for file in (LinkScorer.CONFIG, LinkScorer.WEIGHTS):
        shutil.copyfile(source / file, target / file)


def write_links(doc: Doc, result: DocLinks, kb: KnowledgeBase) -> None:
    """Write one Doc's linking: the clusters (merged when the result merged
    them) with their mains, ``kb_id`` / ``kb_score`` on the span group of each
    linked cluster and ``kb_id_`` on its spans, the ``coref_links`` span group,
    and ``kb_id_`` on the named entities whose head a linked mention shares."""
    units, links = result.units, result.links
    old_mains = [(c.main.start, c.main.end) for c in get_clusters(doc)]
    clusters: List[Tuple[List[Tuple[int, int]], Tuple[int, int], int]] = []
    for members in result.clusters:
        spans = sorted({span for u in members for span in units[u].spans})
        main_unit = next((u for u in members if units[u].cluster >= 0), members[0])
        main = old_mains[units[main_unit].cluster] if units[main_unit].cluster >= 0 else spans[0]
        if main not in spans:  # a part of a split cluster: its first name, else its first mention
            main = next((s for s in spans if any(t.pos_ == "PROPN" for t in doc[s[0]:s[1]])), spans[0])
        best = max(members, key=lambda u: links.probs[u])
        clusters.append((spans, main, best))
    # Clusters keep the coreference component's order (merged ones: their first's
    # place) and its raw scores, which set_clusters would drop.
    scores = doc.user_data.get(SCORES_KEY)
    set_clusters(doc, [c[0] for c in clusters], [c[1] for c in clusters])
    if scores is not None:
        doc.user_data[SCORES_KEY] = scores
    linked: List[Tuple[List[Tuple[int, int]], int, float]] = []
    for i, (spans, _, best) in enumerate(clusters):
        e = int(links.entities[best])
        if e < 0:
            continue
        key = f"{CLUSTER_PREFIX}_{i + 1}"
        doc.spans[key] = [Span(doc, s, t, kb_id=kb.ids[e]) for s, t in spans]
        doc.spans[key].attrs.update({KB_ID_ATTR: kb.ids[e], KB_SCORE_ATTR: float(links.probs[best])})
        linked.append((spans, e, float(links.probs[best])))
    clustered = {span for spans, _, _ in clusters for span in spans}
    for u, unit in enumerate(units):
        e = int(links.entities[u])
        if unit.cluster < 0 and e >= 0 and unit.spans[0] not in clustered:
            linked.append((unit.spans, e, float(links.probs[u])))
    _write_link_group(doc, linked, kb)


def _write_link_group(doc: Doc, linked: List[Tuple[List[Tuple[int, int]], int, float]], kb: KnowledgeBase) -> None:
    spans, by_root = [], {}
    for mentions, e, _ in linked:
        label = kb.entity_type(e) or "ENTITY"
        for s, t in mentions:
            span = Span(doc, s, t, label=label, kb_id=kb.ids[e])
            spans.append(span)
            by_root.setdefault(span.root.i, kb.ids[e])
    spans.sort(key=lambda sp: (sp.start, sp.end))
    doc.spans[LINKS_KEY] = spans
    if by_root and doc.ents:
        doc.ents = [Span(doc, ent.start, ent.end, label=ent.label, kb_id=by_root.get(ent.root.i, ent.kb_id_))
                    for ent in doc.ents]


def entity_mentions(doc: Doc, doc_id: str, kb: KnowledgeBase,
                    sentence_starts: Optional[List[int]] = None) -> List[EntityMention]:
    """One line of an entities file per predicted mention of a Doc: every
    cluster mention (the cluster's number, its entity's id, title and type when
    linked, '_' otherwise) and every linked mention outside the clusters.

    doc (Doc): a Doc the linker ran on.
    doc_id (str): the document's id in the file.
    kb (KnowledgeBase): the linker's KB (titles and types of the ids).
    sentence_starts (List[int] | None): the first token of each sentence (the
        CoNLL file's sentences); None: ``doc.sents``.
    RETURNS (List[EntityMention]): by sentence, start, end.
    """
    from bisect import bisect_right

    starts = sentence_starts if sentence_starts is not None else [s.start for s in doc.sents]
    rows = []

    def row(start: int, end: int, cluster: Optional[str], entity_id: Optional[str]) -> EntityMention:
        sent = bisect_right(starts, start) - 1
        e = kb.entity_index(entity_id) if entity_id else -1
        title = kb.names[e].replace(" ", "_") if e >= 0 else None
        return EntityMention(doc_id, sent, start - starts[sent], end - 1 - starts[sent], cluster,
                             kb.entity_type(e) if e >= 0 else None, title, entity_id if e >= 0 else None)

    seen = set()
    for cluster in get_clusters(doc):
        for m in cluster:
            # GUM's mentions hold a name's proper-noun apposition ("Portland , Oregon").
            span = (m.start, appositive_end(doc, m.start, m.end))
            if span not in seen:
                seen.add(span)
                rows.append(row(*span, str(cluster.i + 1), cluster.kb_id))
    for link in doc.spans.get(LINKS_KEY, []):
        span = (link.start, appositive_end(doc, link.start, link.end))
        if span not in seen and (link.start, link.end) not in seen:
            seen.add(span)
            rows.append(row(*span, None, link.kb_id_))
    return sorted(rows, key=lambda m: (m.sentence, m.start, m.end))
