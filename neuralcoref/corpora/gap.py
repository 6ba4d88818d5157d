"""GAP (Webster et al. 2018): read the TSV files, turn clusters into decisions, score them.

Each GAP example is a Wikipedia paragraph with one gendered pronoun and two
names, A and B, each labelled as coreferent with the pronoun or not. A
coreference system answers by its clusters; :func:`decide` turns the clusters of
one text into the two yes/no answers (the rule is in ``docs/evaluation.md``),
and :func:`score_gap` scores the answers as the official ``gap_scorer.py`` does:
precision, recall and F1 over the A and B decisions together, overall and split
by the pronoun's gender, with the bias factor F1(feminine) / F1(masculine).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from ..errors import Errors, NeuralcorefError
from .conll import ConllDocument

#: The columns of a GAP TSV file, in order.
COLUMNS = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref",
           "B", "B-offset", "B-coref", "URL")
#: The gender of each GAP pronoun: "M" masculine, "F" feminine.
PRONOUN_GENDER = {"he": "M", "him": "M", "his": "M", "himself": "M",
                  "she": "F", "her": "F", "hers": "F", "herself": "F"}
_LABELS = {"TRUE": True, "FALSE": False}

CharSpan = Tuple[int, int]
#: A predicted mention as character offsets: (start, end, head start, head end).
CharMention = Tuple[int, int, int, int]


@dataclass(frozen=True)
class GapExample:
    """One GAP row: the text, the pronoun, the two names and their gold labels."""

    id: str
    text: str
    pronoun: str
    pronoun_offset: int
    a: str
    a_offset: int
    a_coref: bool
    b: str
    b_offset: int
    b_coref: bool

    @property
    def gender(self) -> str:
        """RETURNS (str): "M" or "F", the pronoun's gender."""
        return PRONOUN_GENDER[self.pronoun.lower()]

    @property
    def pronoun_span(self) -> CharSpan:
        return (self.pronoun_offset, self.pronoun_offset + len(self.pronoun))

    @property
    def a_span(self) -> CharSpan:
        return (self.a_offset, self.a_offset + len(self.a))

    @property
    def b_span(self) -> CharSpan:
        return (self.b_offset, self.b_offset + len(self.b))


def read_gap(path: Union[str, Path]) -> List[GapExample]:
    """Read a GAP TSV file (header line, then one example per line).

    path (str | Path): e.g. ``gap-development.tsv``.
    RETURNS (List[GapExample]): the examples, in file order.
    """
    path = Path(path)
    if not path.is_file():
        raise NeuralcorefError(Errors.E032.format(what="GAP file", path=path))
    with path.open(encoding="utf8", newline="") as file:
        rows = csv.reader(file, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, None)
        if header is None or tuple(header[:len(COLUMNS)]) != COLUMNS:
            raise NeuralcorefError(Errors.E034.format(path=path, found=header, expected="\\t".join(COLUMNS)))
        return [_example(row, path, line) for line, row in enumerate(rows, start=2) if row]


def _example(row: List[str], path: Path, line: int) -> GapExample:
    if len(row) != len(COLUMNS):
        raise NeuralcorefError(Errors.E035.format(
            path=path, line=line, problem=f"{len(row)} columns where the header has {len(COLUMNS)}"))
    values = dict(zip(COLUMNS, row))
    try:
        offsets = {name: int(values[f"{name}-offset"]) for name in ("Pronoun", "A", "B")}
        labels = {name: _LABELS[values[f"{name}-coref"].upper()] for name in ("A", "B")}
    except (ValueError, KeyError) as err:
        raise NeuralcorefError(Errors.E035.format(
            path=path, line=line, problem=f"offsets must be integers and labels TRUE or FALSE ({err})"))
    if values["Pronoun"].lower() not in PRONOUN_GENDER:
        raise NeuralcorefError(Errors.E035.format(
            path=path, line=line, problem=f"pronoun {values['Pronoun']!r} is none of {sorted(PRONOUN_GENDER)}"))
    text = values["Text"]
    for name in ("Pronoun", "A", "B"):
        start = offsets[name]
        if text[start:start + len(values[name])] != values[name]:
            raise NeuralcorefError(Errors.E036.format(
                path=path, line=line, column=name, name=values[name], offset=start,
                found=text[start:start + len(values[name])]))
    return GapExample(values["ID"], text, values["Pronoun"], offsets["Pronoun"], values["A"], offsets["A"],
                      labels["A"], values["B"], offsets["B"], labels["B"])


def _overlaps(first: CharSpan, second: CharSpan) -> bool:
    return first[0] < second[1] and second[0] < first[1]


def decide(example: GapExample, clusters: Sequence[Sequence[CharMention]]) -> Tuple[bool, bool]:
    """The predicted A-coref and B-coref of one example, from the text's clusters.

    The pronoun's mentions are the predicted mentions whose head token overlaps
    the pronoun's characters; a name is coreferent when another mention of one of
    their clusters has its head token overlapping the name's characters. A
    pronoun that is no predicted mention (or is a singleton) answers False twice.

    example (GapExample): the example.
    clusters (Sequence[Sequence[CharMention]]): the predicted clusters, each
        mention as (start, end, head start, head end) character offsets.
    RETURNS (Tuple[bool, bool]): (A-coref, B-coref) as predicted.
    """
    a_coref = b_coref = False
    for cluster in clusters:
        at_pronoun = [m for m in cluster if _overlaps((m[2], m[3]), example.pronoun_span)]
        if not at_pronoun:
            continue
        others = [(m[2], m[3]) for m in cluster if m not in at_pronoun]
        a_coref = a_coref or any(_overlaps(head, example.a_span) for head in others)
        b_coref = b_coref or any(_overlaps(head, example.b_span) for head in others)
    return a_coref, b_coref


def char_clusters(doc: Doc) -> List[List[CharMention]]:
    """The Doc's coreference clusters as character offsets of mentions and heads.

    RETURNS (List[List[CharMention]]): per cluster, (start, end, head start, head end).
    """
    return [[(m.start_char, m.end_char, m.root.idx, m.root.idx + len(m.root)) for m in cluster]
            for cluster in doc._.coref_clusters]


@dataclass
class Tally:
    """Counts of one group of GAP decisions."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, gold: bool, predicted: bool) -> None:
        if gold and predicted:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif gold:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> Dict[str, float]:
        """RETURNS (Dict[str, float]): the counts, and precision, recall, f1 in percent."""
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn,
                "precision": 100 * self.precision, "recall": 100 * self.recall, "f1": 100 * self.f1}


@dataclass
class GapScores:
    """GAP scores: overall, masculine and feminine tallies of the A and B decisions."""

    overall: Tally = field(default_factory=Tally)
    masculine: Tally = field(default_factory=Tally)
    feminine: Tally = field(default_factory=Tally)
    examples: int = 0

    @property
    def bias(self) -> Optional[float]:
        """F1 feminine / F1 masculine (None when the masculine F1 is 0)."""
        return self.feminine.f1 / self.masculine.f1 if self.masculine.f1 else None

    def to_dict(self) -> Dict[str, object]:
        """RETURNS (Dict): per group the counts and P/R/F1 in percent, the bias and the example count."""
        return {"overall": self.overall.to_dict(), "masculine": self.masculine.to_dict(),
                "feminine": self.feminine.to_dict(), "bias": self.bias, "examples": self.examples}


def score_gap(examples: Sequence[GapExample], decisions: Iterable[Tuple[bool, bool]]) -> GapScores:
    """Score predicted (A-coref, B-coref) decisions against the examples' labels.

    examples (Sequence[GapExample]): the gold examples.
    decisions (Iterable[Tuple[bool, bool]]): one (A, B) pair per example, in order.
    RETURNS (GapScores): the tallies.
    """
    scores = GapScores()
    decisions = list(decisions)
    if len(decisions) != len(examples):
        raise NeuralcorefError(Errors.E037.format(n_decisions=len(decisions), n_examples=len(examples)))
    for example, (a_pred, b_pred) in zip(examples, decisions):
        by_gender = scores.masculine if example.gender == "M" else scores.feminine
        for tally in (scores.overall, by_gender):
            tally.add(example.a_coref, a_pred)
            tally.add(example.b_coref, b_pred)
        scores.examples += 1
    return scores


def predict_gap(nlp: Language, examples: Sequence[GapExample], batch_size: int = 64,
                progress: bool = False) -> List[Tuple[bool, bool]]:
    """Run ``nlp`` (with neuralcoref) on every example's text and decide A and B.

    nlp (Language): a pipeline with the neuralcoref component.
    examples (Sequence[GapExample]): the examples.
    batch_size (int): texts per ``nlp.pipe`` batch.
    progress (bool): show a progress bar (stderr).
    RETURNS (List[Tuple[bool, bool]]): (A-coref, B-coref) per example.
    """
    from tqdm import tqdm

    docs = nlp.pipe((example.text for example in examples), batch_size=batch_size)
    docs = tqdm(docs, total=len(examples), desc="GAP", unit="text", disable=not progress, leave=False)
    return [decide(example, char_clusters(doc)) for example, doc in zip(examples, docs)]


def gap_clusters(example: GapExample) -> List[List[CharSpan]]:
    """The example's labels as character-span clusters: the pronoun with the names
    it refers to, then each other name alone (a known non-antecedent).

    Everything else in the text is unlabelled: a corpus of such documents is
    partial (``TrainConfig.partial_train``), never full gold.
    """
    names = ((example.a_span, example.a_coref), (example.b_span, example.b_coref))
    return [[example.pronoun_span] + [span for span, coref in names if coref]] \
        + [[span] for span, coref in names if not coref]


def gap_conll_documents(nlp: Language, examples: Sequence[GapExample],
                        batch_size: int = 64) -> List[ConllDocument]:
    """GAP examples as CoNLL documents with partial labels, for training.

    Each text is tokenized and split into sentences by ``nlp``; whitespace tokens
    are dropped (a CoNLL cell holds no blank). A labelled span covers the tokens
    its characters overlap.

    nlp (Language): a pipeline that sets sentence boundaries (a parser or senter).
    examples (Sequence[GapExample]): from :func:`read_gap`.
    batch_size (int): texts per ``nlp.pipe`` batch.
    RETURNS (List[ConllDocument]): one document per example, ids as in GAP.
    """
    disabled = [name for name in ("neuralcoref",) if name in nlp.pipe_names]
    with nlp.select_pipes(disable=disabled):
        docs = nlp.pipe((example.text for example in examples), batch_size=batch_size)
        return [_conll_document(example, doc) for example, doc in zip(examples, docs)]


def _conll_document(example: GapExample, doc: Doc) -> ConllDocument:
    tokens = [token for token in doc if not token.is_space]
    rows, lengths = [], []
    for sent in doc.sents:
        words = [token.text for token in sent if not token.is_space]
        if words:
            rows += [[example.id, "0", str(i), word] for i, word in enumerate(words)]
            lengths.append(len(words))
    clusters = [[_token_span(tokens, span) for span in cluster] for cluster in gap_clusters(example)]
    return ConllDocument(example.id, "0", rows, lengths, clusters)


def _token_span(tokens: Sequence, span: CharSpan) -> Tuple[int, int]:
    covered = [i for i, token in enumerate(tokens) if _overlaps((token.idx, token.idx + len(token)), span)]
    return (covered[0], covered[-1] + 1)
