"""How well the mention extractor covers gold mentions: recall, precision, per kind.

A gold mention counts as found when a candidate has exactly its span. Gold mentions
are sorted into kinds by the spaCy parse of their Doc: the span's head is the one
token whose head lies outside the span (several such tokens: "other"), and its part
of speech decides the kind; a head with a conjunct inside the span makes a "list".
Training's featurizing (``train/featurize.py``) counts with :func:`add_document`,
so the recall it reports is this one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from spacy.tokens import Doc

from ..core.mentions.mentions import MENTION_TYPES, Mentions, extract_mentions
from ..lang.base import LanguageRules
from .conll import ConllDocument

#: Kinds of gold mentions, decided from the spaCy parse.
KINDS = ("pronoun", "proper", "nominal", "list", "other")

Extractor = Callable[[Doc, LanguageRules], Mentions]


@dataclass
class MissedMention:
    """A gold mention no candidate matches, kept for study."""

    doc: str
    start: int
    end: int
    kind: str
    text: str
    context: str


@dataclass
class MentionStats:
    """Counts of one evaluation, with the ratios derived from them.

    n_docs, n_tokens (int): documents and tokens seen.
    n_gold (int): distinct gold mention spans.
    n_candidates (int): candidate mentions proposed.
    n_found (int): gold mentions some candidate matches exactly.
    gold_by_kind, found_by_kind (Dict[str, int]): the same per kind of gold mention.
    candidates_by_type, correct_by_type (Dict[str, int]): candidates per mention
        type, and how many of them are gold mentions.
    misses (List[MissedMention]): up to ``max_misses`` missed gold mentions.
    """

    n_docs: int = 0
    n_tokens: int = 0
    n_gold: int = 0
    n_candidates: int = 0
    n_found: int = 0
    gold_by_kind: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    found_by_kind: Dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    candidates_by_type: Dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(MENTION_TYPES, 0))
    correct_by_type: Dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(MENTION_TYPES, 0))
    misses: List[MissedMention] = field(default_factory=list)

    @property
    def recall(self) -> float:
        """Gold mentions found / gold mentions."""
        return _ratio(self.n_found, self.n_gold)

    @property
    def precision(self) -> float:
        """Gold mentions found / candidates."""
        return _ratio(self.n_found, self.n_candidates)

    @property
    def candidates_per_token(self) -> float:
        return _ratio(self.n_candidates, self.n_tokens)

    @property
    def gold_per_token(self) -> float:
        return _ratio(self.n_gold, self.n_tokens)

    def recall_by_kind(self) -> Dict[str, float]:
        """RETURNS (Dict[str, float]): recall of each kind of gold mention."""
        return {k: _ratio(self.found_by_kind[k], n) for k, n in self.gold_by_kind.items()}

    def to_dict(self) -> Dict[str, object]:
        """Counts and ratios as plain JSON-serialisable values (no misses)."""
        return {
            "recall": self.recall,
            "precision": self.precision,
            "candidates_per_token": self.candidates_per_token,
            "gold_per_token": self.gold_per_token,
            "recall_by_kind": self.recall_by_kind(),
            "n_docs": self.n_docs,
            "n_tokens": self.n_tokens,
            "n_gold": self.n_gold,
            "n_candidates": self.n_candidates,
            "n_found": self.n_found,
            "gold_by_kind": dict(self.gold_by_kind),
            "found_by_kind": dict(self.found_by_kind),
            "candidates_by_type": dict(self.candidates_by_type),
            "correct_by_type": dict(self.correct_by_type),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def format(self) -> str:
        """A small text table of the figures."""
        lines = [
            f"documents {self.n_docs}, tokens {self.n_tokens}, gold mentions "
            f"{self.n_gold} ({self.gold_per_token:.3f} per token)",
            f"recall    {self.recall:7.2%}  ({self.n_found} / {self.n_gold})",
            f"precision {self.precision:7.2%}  ({self.n_found} / {self.n_candidates} candidates)",
            f"candidates per token {self.candidates_per_token:.3f}",
            "recall by kind of gold mention:",
        ]
        for kind, value in self.recall_by_kind().items():
            lines.append(f"  {kind:<9} {value:7.2%}  ({self.found_by_kind[kind]} / "
                         f"{self.gold_by_kind[kind]})")
        lines.append("candidates by type (share that are gold mentions):")
        for mtype, count in self.candidates_by_type.items():
            share = _ratio(self.correct_by_type[mtype], count)
            lines.append(f"  {mtype:<10} {count:7d}  ({share:.1%})")
        return "\n".join(lines)


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def gold_kind(doc: Doc, start: int, end: int, rules: LanguageRules) -> str:
    """The kind of the gold mention ``doc[start:end]`` under the Doc's parse.

    RETURNS (str): one of KINDS.
    """
    heads = [t for t in doc[start:end] if t.head.i == t.i or not start <= t.head.i < end]
    if len(heads) != 1:
        return "other"
    head = heads[0]
    nominal = rules.noun_pos | rules.proper_pos | rules.pronoun_pos
    if head.pos_ in nominal and any(
            c.dep_ in rules.conj_deps and c.i < end for c in head.rights):
        return "list"
    if head.pos_ in rules.pronoun_pos or head.tag_ in rules.pronoun_tags:
        return "pronoun"
    if head.pos_ in rules.proper_pos:
        return "proper"
    if head.pos_ in rules.noun_pos:
        return "nominal"
    return "other"


def evaluate_mentions(
    pairs: Iterable[Tuple[ConllDocument, Doc]],
    rules: LanguageRules,
    extract: Extractor = extract_mentions,
    max_misses: int = 0,
) -> MentionStats:
    """Recall and precision of the extractor against gold mentions.

    pairs (Iterable[Tuple[ConllDocument, Doc]]): gold documents with their parsed
        Docs on the same tokens, e.g. from ``neuralcoref.corpora.gold.parse_conll_docs``.
    rules (LanguageRules): the language's rules.
    extract (Callable[[Doc, LanguageRules], Mentions]): the extractor to evaluate.
    max_misses (int): how many missed gold mentions to keep in ``misses``.
    RETURNS (MentionStats): the counts.
    """
    stats = MentionStats()
    for conll_doc, doc in pairs:
        add_document(stats, conll_doc, doc, extract(doc, rules), rules, max_misses)
    return stats


def add_document(stats: MentionStats, conll_doc: ConllDocument, doc: Doc,
                 mentions: Mentions, rules: LanguageRules, max_misses: int = 0) -> None:
    """Add one document's counts to ``stats``."""
    if len(doc) != len(conll_doc):
        raise ValueError(f"Doc of {len(doc)} tokens for CoNLL document "
                         f"'{conll_doc.name}' of {len(conll_doc)}")
    gold = {tuple(span) for cluster in conll_doc.clusters for span in cluster}
    candidates = dict(zip(mentions.spans(), mentions.types.tolist()))
    stats.n_docs += 1
    stats.n_tokens += len(doc)
    stats.n_gold += len(gold)
    stats.n_candidates += len(candidates)
    for span, mtype in candidates.items():
        stats.candidates_by_type[MENTION_TYPES[mtype]] += 1
        stats.correct_by_type[MENTION_TYPES[mtype]] += span in gold
    for start, end in sorted(gold):
        kind = gold_kind(doc, start, end, rules)
        stats.gold_by_kind[kind] += 1
        if (start, end) in candidates:
            stats.n_found += 1
            stats.found_by_kind[kind] += 1
        elif len(stats.misses) < max_misses:
            stats.misses.append(_missed(conll_doc, doc, start, end, kind))


def _missed(conll_doc: ConllDocument, doc: Doc, start: int, end: int,
            kind: str) -> MissedMention:
    before = doc[max(0, start - 5):start].text
    after = doc[end:end + 5].text
    text = doc[start:end].text
    return MissedMention(conll_doc.name, start, end, kind, text,
                         f"{before} [ {text} ] {after}")


def evaluate_conll_file(path: str, spacy_model: str, max_misses: int = 0,
                        rules: Optional[LanguageRules] = None) -> MentionStats:
    """Parse a CoNLL file with a spaCy pipeline and evaluate the extractor on it.

    path (str): a CoNLL-2012 file or a folder of them.
    spacy_model (str): name or path of the spaCy pipeline to parse with.
    max_misses (int): how many missed gold mentions to keep.
    rules (LanguageRules | None): rules to use; by default those of the
        pipeline's language.
    RETURNS (MentionStats): the counts.
    """
    import spacy

    from ..lang import get_pipeline_rules
    from .conll import conll_files, read_conll_path
    from .gold import parse_conll_docs

    conll_files(path)  # a missing file fails before the slow pipeline load
    nlp = spacy.load(spacy_model)
    rules = rules or get_pipeline_rules(nlp)
    pairs = parse_conll_docs(nlp, read_conll_path(path))
    return evaluate_mentions(pairs, rules, max_misses=max_misses)
