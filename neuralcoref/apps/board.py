"""The dev board: every dev measure of the project in one run and one table.

``neuralcoref evaluate-board`` runs the English and French models over the dev
sets of the shared data folder and reports, in one table: CoNLL F1 on OntoGUM
dev, LitBank dev and fr-litbank dev (the last two without singletons); DEMOCRAT
dev (French, every referring expression: without singletons, and with the key's
singletons against the model's clusters, which hold none); GAP
development and validation (:mod:`neuralcoref.corpora.gap`); WinoBias dev, types 1 and 2,
pro- and anti-stereotypical (MUC and CoNLL F1, and the pro-anti gaps); the
challenge set of ``tests/challenge.py`` by category, English and French; the
coref step's speed on OntoGUM dev; and the fold board (``neuralcoref folds``'s
results: a recipe's CoNLL F1 over 5 folds of OntoGUM, mean and sd, each variant
against the baseline). ``docs/evaluation.md`` defines each figure.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from ..corpora.conll import ConllDocument, read_conll_path
from ..corpora.coref_scorer import CorefScores, remove_singletons, score_documents
from ..errors import Errors, NeuralcorefError, Warnings

#: Environment variable naming the data folder when none is found next to the checkout.
DATA_ENV = "NEURALCOREF_DATA"
#: The board's rows, in the order they are printed (the names --only takes).
ROWS = ("ontogum", "litbank", "fr-litbank", "democrat", "gap", "winobias", "challenge", "speed", "folds")
#: CoNLL dev sets: row name -> (label, file under the data folder, language, keep singletons).
CONLL_SETS: Dict[str, Tuple[str, str, str, bool]] = {
    "ontogum": ("OntoGUM dev", "ontogum/dev.english.v4_gold_conll", "en", True),
    "litbank": ("LitBank dev (no singletons)", "litbank/dev.english.v4_gold_conll", "en", False),
    "fr-litbank": ("fr-litbank dev (no singletons)", "fr-litbank/dev.french.v4_gold_conll", "fr", False),
    "democrat": ("DEMOCRAT dev (no singletons)", "democrat/dev.french.v4_gold_conll", "fr", False),
}
#: CoNLL rows also scored against their gold singletons: row name -> label.
WITH_SINGLETONS = {"democrat": "DEMOCRAT dev (gold singletons kept; the model predicts none)"}
GAP_SPLITS = {"development": "gap/gap-development.tsv", "validation": "gap/gap-validation.tsv"}
WINOBIAS_FILES = {f"type{kind}_{stance}": f"winobias/dev_type{kind}_{stance}_stereotype.english.v4_gold_conll"
                  for kind in (1, 2) for stance in ("pro", "anti")}
#: The checkout the package runs from (site-packages when installed).
CHECKOUT = Path(__file__).resolve().parents[2]
#: Where the challenge set lives in a checkout (it is test code, not package data).
CHALLENGE_PATH = CHECKOUT / "tests" / "challenge.py"
#: Where ``neuralcoref folds`` writes its variants by default (a folder each, with folds.json).
FOLDS_DIR = CHECKOUT / "runs" / "folds"
#: The variant the fold board compares the others to.
FOLDS_BASELINE = "baseline"

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def find_data_dir(data: Optional[Path] = None, root: Path = CHECKOUT) -> Path:
    """The data folder: ``data`` if given, else ``shared/data`` beside (or inside)
    the checkout, else the folder named by $NEURALCOREF_DATA.

    data (Path | None): the folder given by the user (--data).
    root (Path): the checkout (the package's parent folder).
    RETURNS (Path): an existing folder.
    """
    candidates = [Path(data)] if data is not None else [root.parent / "shared" / "data", root / "shared" / "data"]
    if data is None and os.environ.get(DATA_ENV):
        candidates.append(Path(os.environ[DATA_ENV]))
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates) + ("" if data is not None or os.environ.get(DATA_ENV)
                                                      else f", ${DATA_ENV} (unset)")
    raise NeuralcorefError(Errors.E031.format(tried=tried, env=DATA_ENV))


def parse_only(only: Optional[str]) -> List[str]:
    """The rows named in a comma-separated ``--only`` value (None: every row), in board order."""
    if not only:
        return list(ROWS)
    names = [name.strip() for name in only.split(",") if name.strip()]
    unknown = [name for name in names if name not in ROWS]
    if unknown or not names:
        raise NeuralcorefError(Errors.E033.format(names=unknown or [only], known=", ".join(ROWS)))
    return [row for row in ROWS if row in names]


def required_files(rows: Sequence[str]) -> List[Tuple[str, str]]:
    """(what, path under the data folder) of every file the rows read."""
    files = [(f"{CONLL_SETS[r][0]} file", CONLL_SETS[r][1]) for r in CONLL_SETS if r in rows]
    if "speed" in rows and "ontogum" not in rows:
        files.append(("OntoGUM dev file (the speed row times it)", CONLL_SETS["ontogum"][1]))
    if "gap" in rows:
        files += [(f"GAP {split} file", path) for split, path in GAP_SPLITS.items()]
    if "winobias" in rows:
        files += [(f"WinoBias dev {name} file", path) for name, path in WINOBIAS_FILES.items()]
    return files


def languages(rows: Sequence[str]) -> List[str]:
    """The languages ("en", "fr") whose pipelines the rows run."""
    english = {"ontogum", "litbank", "gap", "winobias", "challenge", "speed"}
    return [lang for lang, needs in (("en", english), ("fr", {"fr-litbank", "democrat", "challenge"}))
            if needs.intersection(rows)]


def check_files(data_dir: Path, rows: Sequence[str]) -> None:
    """Raise E032 for the first file the rows need that the data folder lacks."""
    for what, relative in required_files(rows):
        if not (data_dir / relative).is_file():
            raise NeuralcorefError(Errors.E032.format(what=what, path=data_dir / relative))


@dataclass
class BoardRow:
    """One printed line: the data set, what is measured, the figures as text."""

    board: str
    measure: str
    value: str


@dataclass
class Board:
    """The rows to print and every figure (for --json)."""

    rows: List[BoardRow] = field(default_factory=list)
    figures: Dict[str, Any] = field(default_factory=dict)

    def add(self, board: str, measure: str, value: str) -> None:
        self.rows.append(BoardRow(board, measure, value))

    def format(self) -> str:
        """RETURNS (str): the rows as one Markdown table."""
        lines = ["| dev set | measure | value |", "| --- | --- | ---: |"]
        lines += [f"| {r.board} | {r.measure} | {r.value} |" for r in self.rows]
        return "\n".join(lines)


def _f(value: Optional[float], digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


@dataclass
class ConllPass:
    """Scores of one CoNLL dev set and the time its two stages took."""

    scores: CorefScores
    tokens: int
    docs: int
    spacy_s: float
    coref_s: float
    #: The scores with predicted possessor spans ending before their "'s", where the
    #: gold spans them so (:func:`ends_before_possessives`); None elsewhere.
    gold_possessors: Optional[CorefScores] = None
    #: The scores against the gold clusters with their singletons (the response
    #: as predicted); only when asked (``also_singletons``).
    with_singletons: Optional[CorefScores] = None


def conll_pass(nlp: Language, path: Path, keep_singletons: bool = True, progress: bool = False,
               also_singletons: bool = False) -> ConllPass:
    """Parse ``path`` with gold tokens (coref off), then run the coref step on each Doc, timing both.

    nlp (Language): a pipeline with the neuralcoref component.
    path (Path): a gold CoNLL file or folder.
    keep_singletons (bool): False drops one-mention clusters from key and response.
    progress (bool): show a progress bar of the parsed documents (stderr).
    also_singletons (bool): score against the gold clusters with singletons too.
    RETURNS (ConllPass): the scores and timings.
    """
    from threadpoolctl import threadpool_limits
    from tqdm import tqdm

    from ..corpora.gold import parse_conll_docs

    coref = nlp.get_pipe("neuralcoref")
    # One BLAS thread, as `neuralcoref benchmark` times the coref step.
    with threadpool_limits(limits=1):
        start = time.perf_counter()
        parsed = list(tqdm(parse_conll_docs(nlp, read_conll_path(path)), desc=Path(path).name,
                           unit="doc", disable=not progress, leave=False))
        spacy_s = time.perf_counter() - start
        start = time.perf_counter()
        docs = [coref(doc) for _, doc in parsed]
        coref_s = time.perf_counter() - start
    gold = [conll_doc for conll_doc, _ in parsed]
    scores = score_resolved(gold, docs, keep_singletons)
    trimmed = score_resolved(gold, docs, keep_singletons, trim_possessives=True) \
        if ends_before_possessives(gold, docs) else None
    with_singletons = score_resolved(gold, docs, True) if also_singletons else None
    return ConllPass(scores, sum(len(d) for d in docs), len(docs), spacy_s, coref_s, trimmed, with_singletons)


def ends_before_possessives(gold: Sequence[ConllDocument], docs: Sequence[Doc]) -> bool:
    """Whether the gold spans of possessors mostly end before their possessive marker
    ("[the nurse] 's": WinoBias, LitBank) rather than with it ("[the nurse 's]":
    OntoNotes, OntoGUM, and the extractor). The marker is a token tagged POS (Penn
    Treebank tags: English)."""
    before = including = 0
    for conll_doc, doc in zip(gold, docs):
        marker = [token.tag_ == "POS" for token in doc]
        for start, end in (span for cluster in conll_doc.clusters for span in cluster):
            if end - start > 1 and marker[end - 1]:
                including += 1
            elif end < len(doc) and marker[end]:
                before += 1
    return before > including


def score_resolved(gold: Sequence[ConllDocument], docs: Sequence[Doc], keep_singletons: bool = True,
                   trim_possessives: bool = False) -> CorefScores:
    """Scores of the clusters the coref step put on ``docs`` against the gold ones.

    gold (Sequence[ConllDocument]): the gold documents, in the order of ``docs``.
    docs (Sequence[Doc]): the same documents, resolved.
    keep_singletons (bool): False drops one-mention clusters from key and response.
    trim_possessives (bool): end each predicted possessor span before its marker
        ("the nurse 's" -> "the nurse"), as a gold of that convention spans it.
    RETURNS (CorefScores): the corpus-level scores.
    """
    from ..extensions import get_clusters

    pairs = []
    for conll_doc, doc in zip(gold, docs):
        key = conll_doc.clusters
        response = [[trim_possessive(m) if trim_possessives else (m.start, m.end) for m in c] for c in get_clusters(doc)]
        if not keep_singletons:
            key, response = remove_singletons(key), remove_singletons(response)
        pairs.append((key, response))
    return score_documents(pairs)


def trim_possessive(span) -> Tuple[int, int]:
    """(start, end) of a Span, ending before a final possessive marker ("the nurse 's")."""
    end = span.end - 1 if len(span) > 1 and span[-1].tag_ == "POS" else span.end
    return (span.start, end)


def load_challenge() -> Optional[ModuleType]:
    """The challenge set module (``tests/challenge.py`` of the checkout), or None
    with W120 when the package runs outside a checkout."""
    if not CHALLENGE_PATH.is_file():
        warnings.warn(Warnings.W120.format(path=CHALLENGE_PATH))
        return None
    spec = importlib.util.spec_from_file_location("neuralcoref_board_challenge", CHALLENGE_PATH)
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up in sys.modules while they are built.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def challenge_outcomes(nlp: Language, cases: Sequence[Any], module: ModuleType) -> Iterator[Tuple[Any, List[str]]]:
    """Each challenge case with its problems through ``nlp`` (none: it passes)."""
    for case in cases:
        parsed = module.parse_case(case)
        yield case, module.check(module.make_doc(nlp, parsed), parsed)


def run_challenge(nlp: Language, cases: Sequence[Any], module: ModuleType) -> Tuple[Dict[str, List[int]], List[str]]:
    """Run challenge cases through ``nlp``.

    RETURNS (Tuple[Dict[str, List[int]], List[str]]): [passed, total] per
        category (in first-seen order) and the names of the failed cases.
    """
    passed, total, failed = Counter(), Counter(), []
    for case, problems in challenge_outcomes(nlp, cases, module):
        total[case.category] += 1
        passed[case.category] += not problems
        if problems:
            failed.append(case.name)
    return {category: [passed[category], total[category]] for category in total}, failed


class _Pipelines:
    """The English and French pipelines with neuralcoref, loaded when first asked for."""

    def __init__(self, settings: Dict[str, Tuple[str, Optional[str]]], log: Log):
        self.settings, self.log, self.loaded = settings, log, {}

    def __getitem__(self, lang: str) -> Language:
        if lang not in self.loaded:
            from ..api import build_pipeline
            from ..artifacts.model_dir import pipeline_id

            model, spacy_model = self.settings[lang]
            nlp = build_pipeline(model, spacy_model)
            self.log(f"[board] {lang}: model {model} on {pipeline_id(nlp)}")
            self.loaded[lang] = nlp
        return self.loaded[lang]

    def describe(self) -> Dict[str, Dict[str, str]]:
        from ..artifacts.model_dir import pipeline_id

        return {lang: {"model": self.settings[lang][0], "pipeline": pipeline_id(nlp)}
                for lang, nlp in self.loaded.items()}


def run_board(data_dir: Path, rows: Sequence[str] = ROWS, model: str = "en", fr_model: str = "fr",
              spacy_model: Optional[str] = None, fr_spacy_model: Optional[str] = None,
              log: Log = _stderr, folds_dir: Path = FOLDS_DIR) -> Board:
    """Measure the selected rows of the board.

    data_dir (Path): the shared data folder (see :func:`find_data_dir`).
    rows (Sequence[str]): names from :data:`ROWS`.
    model, fr_model (str): the English and French coreference models.
    spacy_model, fr_spacy_model (str | None): their spaCy pipelines (default:
        the one each model records, else the language's default).
    log (Callable[[str], None]): where progress goes (stderr by default).
    folds_dir (Path): the fold board's results (``neuralcoref folds --out`` folders).
    RETURNS (Board): the table rows and every figure.
    """
    check_files(data_dir, rows)
    start = time.perf_counter()
    nlps = _Pipelines({"en": (model, spacy_model), "fr": (fr_model, fr_spacy_model)}, log)
    for lang in languages(rows):
        nlps[lang]  # load every pipeline first: a missing one stops the run before it starts
    board = Board()
    passes: Dict[str, ConllPass] = {}
    for row in rows:
        row_start = time.perf_counter()
        log(f"[board] {row} ...")
        if row == "folds":  # reads results: the training ran in `neuralcoref folds`
            fold_rows(board, folds_dir)
        else:
            _ROW_RUNNERS[row](board, data_dir, nlps, passes)
        log(f"[board] {row} done in {time.perf_counter() - row_start:.0f} s")
    board.figures["meta"] = {"data": str(data_dir), "rows": list(rows), "models": nlps.describe(),
                             "wall_s": time.perf_counter() - start}
    return board


def _conll_rows(board: Board, data_dir: Path, nlps: _Pipelines, passes: Dict[str, ConllPass],
                names: Sequence[str]) -> None:
    for name in names:
        label, relative, lang, singletons = CONLL_SETS[name]
        result = passes[name] = conll_pass(nlps[lang], data_dir / relative, singletons, progress=True,
                                           also_singletons=name in WITH_SINGLETONS)
        board.figures.setdefault("conll", {})[name] = result.scores.to_dict()
        board.add(label, "CoNLL F1 (MUC / B3 / CEAF-e F1)", _conll_value(result.scores))
        if result.with_singletons is not None:
            board.figures["conll"][f"{name}_singletons"] = result.with_singletons.to_dict()
            board.add(WITH_SINGLETONS[name], "CoNLL F1 (MUC / B3 / CEAF-e F1)", _conll_value(result.with_singletons))
        if result.gold_possessors is not None:
            board.figures["conll"].setdefault("gold_possessors", {})[name] = result.gold_possessors.to_dict()
            board.add(f"{label}, possessors spanned as in its gold", "CoNLL F1 (MUC / B3 / CEAF-e F1)",
                      _conll_value(result.gold_possessors))


def _conll_value(scores: CorefScores) -> str:
    return (f"{100 * scores.conll_f1:.2f} ({100 * scores.muc.f1:.2f} / "
            f"{100 * scores.bcub.f1:.2f} / {100 * scores.ceafe.f1:.2f})")


def _gap_rows(board: Board, data_dir: Path, nlps: _Pipelines, passes: Dict[str, ConllPass]) -> None:
    from threadpoolctl import threadpool_limits

    from ..corpora.gap import predict_gap, read_gap, score_gap

    for split, relative in GAP_SPLITS.items():
        examples = read_gap(data_dir / relative)
        with threadpool_limits(limits=1):
            scores = score_gap(examples, predict_gap(nlps["en"], examples, progress=True))
        board.figures.setdefault("gap", {})[split] = scores.to_dict()
        board.add(f"GAP {split} ({scores.examples} pronouns)", "F1 masculine / feminine / bias F/M / overall",
                  f"{100 * scores.masculine.f1:.1f} / {100 * scores.feminine.f1:.1f} / "
                  f"{_f(scores.bias)} / {100 * scores.overall.f1:.1f}")


def _winobias_rows(board: Board, data_dir: Path, nlps: _Pipelines, passes: Dict[str, ConllPass]) -> None:
    figures: Dict[str, Any] = {}
    trimmed: Dict[str, Dict[str, float]] = {}
    for name, relative in WINOBIAS_FILES.items():
        result = conll_pass(nlps["en"], data_dir / relative, progress=True)
        figures[name] = _muc_conll(result.scores)
        board.add(f"WinoBias dev {name.replace('_', ' ')}", "MUC F1 / CoNLL F1", _muc_conll_value(figures[name]))
        if result.gold_possessors is not None:
            trimmed[name] = _muc_conll(result.gold_possessors)
    for name, values in trimmed.items():  # after the main rows: not the figures the targets name
        board.add(f"WinoBias dev {name.replace('_', ' ')}, possessors spanned as in its gold",
                  "MUC F1 / CoNLL F1", _muc_conll_value(values))
    if trimmed:
        figures["gold_possessors"] = trimmed
    figures["gaps"] = winobias_gaps(figures)
    for kind, gap in figures["gaps"].items():
        board.add(f"WinoBias dev {kind}", "|pro - anti| MUC F1 / CoNLL F1", _muc_conll_value(gap))
    board.figures["winobias"] = figures


def _muc_conll(scores: CorefScores) -> Dict[str, float]:
    return {"muc_f1": 100 * scores.muc.f1, "conll_f1": 100 * scores.conll_f1}


def _muc_conll_value(figures: Dict[str, float]) -> str:
    return f"{figures['muc_f1']:.2f} / {figures['conll_f1']:.2f}"


def winobias_gaps(figures: Dict[str, Dict[str, float]]) -> Dict[str, Dict[str, float]]:
    """|pro - anti| of each figure, per WinoBias type.

    figures (Dict): "type1_pro", "type1_anti"... -> {"muc_f1": ..., "conll_f1": ...}.
    RETURNS (Dict): "type1", "type2" -> the absolute differences.
    """
    return {kind: {metric: abs(figures[f"{kind}_pro"][metric] - figures[f"{kind}_anti"][metric])
                   for metric in figures[f"{kind}_pro"]}
            for kind in ("type1", "type2") if f"{kind}_pro" in figures and f"{kind}_anti" in figures}


def _challenge_rows(board: Board, data_dir: Path, nlps: _Pipelines, passes: Dict[str, ConllPass]) -> None:
    module = load_challenge()
    if module is None:
        board.add("challenge set", "passed / total", "n/a (tests/challenge.py not found)")
        board.figures["challenge"] = None
        return
    figures: Dict[str, Any] = {}
    for lang, cases in (("en", module.CASES), ("fr", module.FRENCH_CASES)):
        by_category, failed = run_challenge(nlps[lang], cases, module)
        figures[lang] = {"categories": by_category, "failed": failed}
        for category, (passed, total) in by_category.items():
            board.add(f"challenge {lang.upper()}: {category}", "passed / total", f"{passed}/{total}")
        passed = sum(p for p, _ in by_category.values())
        board.add(f"challenge {lang.upper()}: all", "passed / total",
                  f"{passed}/{sum(t for _, t in by_category.values())}")
    board.figures["challenge"] = figures


def _speed_rows(board: Board, data_dir: Path, nlps: _Pipelines, passes: Dict[str, ConllPass]) -> None:
    if "ontogum" not in passes:
        label, relative, lang, singletons = CONLL_SETS["ontogum"]
        passes["ontogum"] = conll_pass(nlps[lang], data_dir / relative, singletons, progress=True)
    result = passes["ontogum"]
    coref_speed, spacy_speed = result.tokens / result.coref_s, result.tokens / result.spacy_s
    board.figures["speed"] = {"tokens": result.tokens, "docs": result.docs, "coref_s": result.coref_s,
                              "spacy_s": result.spacy_s, "coref_tokens_per_s": coref_speed,
                              "spacy_tokens_per_s": spacy_speed, "coref_to_spacy": coref_speed / spacy_speed}
    board.add(f"coref step on OntoGUM dev ({result.tokens:,} tokens)", "tokens/s (x the spaCy pipeline)",
              f"{coref_speed:,.0f} ({coref_speed / spacy_speed:.1f}x)")


_ROW_RUNNERS: Dict[str, Callable[[Board, Path, _Pipelines, Dict[str, ConllPass]], None]] = {
    "ontogum": lambda *args: _conll_rows(*args, ["ontogum"]),
    "litbank": lambda *args: _conll_rows(*args, ["litbank"]),
    "fr-litbank": lambda *args: _conll_rows(*args, ["fr-litbank"]),
    "democrat": lambda *args: _conll_rows(*args, ["democrat"]),
    "gap": _gap_rows,
    "winobias": _winobias_rows,
    "challenge": _challenge_rows,
    "speed": _speed_rows,
}


def read_fold_results(folds_dir: Path) -> Dict[str, Dict[str, Any]]:
    """Every variant's ``folds.json`` under ``folds_dir`` (itself, or one folder
    down), by variant name, the baseline first."""
    import json

    folds_dir = Path(folds_dir)
    files = [folds_dir / "folds.json"] if (folds_dir / "folds.json").is_file() \
        else sorted(folds_dir.glob("*/folds.json"))
    results = {}
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf8"))
            results[data.get("name") or file.parent.name] = data
        except (ValueError, OSError) as err:
            warnings.warn(Warnings.W121.format(path=file, error=err))
    return dict(sorted(results.items(), key=lambda item: (item[0] != FOLDS_BASELINE, item[0])))


def fold_rows(board: Board, folds_dir: Path) -> None:
    """The fold board: per variant, the mean +- sd of its folds' CoNLL F1 and each
    fold's; for the others, the shipping rule against the baseline (the mean rises
    and no fold falls by more than the baseline folds' sd)."""
    results = read_fold_results(folds_dir)
    if not results:
        board.add("OntoGUM 5 folds", "CoNLL F1 mean +- sd", f"n/a (no folds.json in {folds_dir}: run neuralcoref folds)")
        board.figures["folds"] = None
        return
    figures: Dict[str, Any] = {}
    baseline = results.get(FOLDS_BASELINE)
    for name, data in results.items():
        f1 = [fold["conll_f1"] for fold in data["folds"]]
        summary = data["conll_f1"]
        entry = {"conll_f1": summary, "per_fold": f1}
        value = f"{summary['mean']:.2f} +- {summary['sd']:.2f} ({' / '.join(f'{v:.2f}' for v in f1)})"
        if baseline is not None and name != FOLDS_BASELINE:
            entry["against_baseline"] = verdict = fold_verdict([f["conll_f1"] for f in baseline["folds"]], f1)
            if verdict is not None:
                value += (f"; {verdict['mean_gain']:+.2f} vs baseline, worst fold {verdict['worst_fold_change']:+.2f}"
                          f": {'ships' if verdict['ships'] else 'does not ship'}")
        board.add(f"OntoGUM {data.get('k', len(f1))} folds: {name}", "CoNLL F1 mean +- sd (per fold)", value)
        figures[name] = entry
    board.figures["folds"] = figures


def fold_verdict(baseline: Sequence[float], variant: Sequence[float]) -> Optional[Dict[str, Any]]:
    """The shipping rule of a variant's folds against the baseline's (None when
    they ran different numbers of folds): ``ships`` when the mean rises and no
    fold falls by more than the baseline folds' sample sd."""
    import statistics

    if len(baseline) != len(variant) or len(baseline) < 2:
        return None
    changes = [v - b for b, v in zip(baseline, variant)]
    sd = statistics.stdev(baseline)
    gain = statistics.fmean(changes)
    return {"ships": bool(gain > 0 and min(changes) >= -sd), "mean_gain": gain, "sd": sd,
            "worst_fold_change": min(changes)}
