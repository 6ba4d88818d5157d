"""Every decoding rule off, one at a time, against every rule on: decode only.

The fold board (issue 52, item 5): each fold's held-out documents as its model
scored them (``runs/folds/<variant>/fold_<k>.scored.pkl``, kept by
``neuralcoref folds``) are decoded again with one rule off
(``DecodeSettings.off``), and scored as the fold board scores them (offset 0,
singletons kept)::

    python bench/rule_ablation.py folds --folds runs/folds/baseline --out /tmp/rules-folds.json

The shipped model's board rows that decoding decides (GAP development, WinoBias
dev, LitBank dev, OntoGUM dev, the English challenge set): every text parsed once (coref
off), then the coref step run again per variant with the resolver's
``decode_off`` set::

    python bench/rule_ablation.py board --model en --out /tmp/rules-board.json

``--rules`` limits the variants (comma-separated ``decode_passes.RULES`` names;
default: every rule). Results: docs/experiments/2026-12-07-rules-on-folds.md.
"""
from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence

from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def variants(rules: str) -> List[str]:
    """The rules to switch off, one per variant (after the baseline, '')."""
    from neuralcoref.core.decode.decode_passes import RULES
    from neuralcoref.core.decode.decoding import check_rules

    names = list(RULES) if not rules else [r for r in rules.split(",") if r]
    check_rules(names)
    return names


def run_folds(folds_dir: Path, names: Sequence[str]) -> Dict:
    """Per-fold CoNLL F1 with every rule on and with each rule off."""
    paths = sorted(folds_dir.glob("fold_*.scored.pkl"))
    if not paths:
        sys.exit(f"no fold_*.scored.pkl in {folds_dir}: run `neuralcoref folds --out {folds_dir}` first")
    devs = []
    for path in paths:
        with open(path, "rb") as f:
            devs.append(pickle.load(f))
    out: Dict = {"folds": [p.name for p in paths], "f1": {}}
    for name in tqdm([""] + list(names), desc="variants"):
        f1 = []
        for dev in devs:
            dev.off = frozenset([name]) if name else frozenset()
            f1.append(100 * dev.scores({}).conll_f1)
        out["f1"][name or "all on"] = f1
    base = out["f1"]["all on"]
    out["deltas"] = {}
    for name in names:
        deltas = [v - b for v, b in zip(out["f1"][name], base)]
        out["deltas"][name] = {"per_fold": deltas, "mean": statistics.fmean(deltas),
                               "sd": statistics.stdev(deltas) if len(deltas) > 1 else 0.0}
    return out


def _scored(coref, pairs, keep_singletons: bool):
    """The Docs featurized and scored once by the component's resolver; decoded per variant."""
    from neuralcoref.artifacts.tuning import ScoredDev, scored_docs

    resolver = coref.resolver
    return ScoredDev(scored_docs(resolver, pairs), keep_singletons, resolver.greedyness)


def _gap(nlp, coref, module_gap):
    examples = module_gap.read_gap(DATA / "gap" / "gap-development.tsv")
    with nlp.select_pipes(disable=["neuralcoref"]):
        docs = list(tqdm(nlp.pipe((e.text for e in examples), batch_size=64), total=len(examples),
                         desc="parse GAP", leave=False))
    scored = _scored(coref, [([], d) for d in docs], True)

    def measure() -> Dict[str, float]:
        scored.off = coref.resolver.decode_off
        predicted = scored.clusters(coref.resolver.link_offsets)
        decisions = []
        for example, doc, clusters in zip(examples, docs, predicted):
            chars = [[(doc[s:e].start_char, doc[s:e].end_char, doc[s:e].root.idx,
                       doc[s:e].root.idx + len(doc[s:e].root)) for s, e in c] for c in clusters]
            decisions.append(module_gap.decide(example, chars))
        scores = module_gap.score_gap(examples, decisions)
        return {"gap_m": 100 * scores.masculine.f1, "gap_f": 100 * scores.feminine.f1,
                "gap_bias": scores.bias or 0.0, "gap_all": 100 * scores.overall.f1}
    return measure


def _conll(nlp, coref, relative: str, keep_singletons: bool, key: str, muc: bool):
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gold import parse_conll_docs

    parsed = list(parse_conll_docs(nlp, read_conll_path(DATA / relative)))
    scored = _scored(coref, [(g.clusters, d) for g, d in parsed], keep_singletons)

    def measure() -> Dict[str, float]:
        scored.off = coref.resolver.decode_off
        scores = scored.scores(coref.resolver.link_offsets)
        return {key: 100 * (scores.muc.f1 if muc else scores.conll_f1)}
    return measure


def _challenge(nlp, coref):
    from neuralcoref.apps.board import load_challenge

    module = load_challenge()
    cases = [(case, module.parse_case(case)) for case in module.CASES]
    docs = [module.make_doc(nlp, parsed) for _, parsed in cases]

    def measure() -> Dict[str, float]:
        failed = [case.name for (case, parsed), doc in zip(cases, docs) if module.check(coref(doc), parsed)]
        return {"challenge": len(cases) - len(failed), "challenge_failed": failed}
    return measure


def run_board(model: str, names: Sequence[str]) -> Dict:
    """The board's decoding rows per variant with the shipped model."""
    from threadpoolctl import threadpool_limits

    from neuralcoref.api import build_pipeline
    from neuralcoref.apps.board import WINOBIAS_FILES
    from neuralcoref.corpora import gap as module_gap

    nlp = build_pipeline(model, None)
    coref = nlp.get_pipe("neuralcoref")
    with threadpool_limits(limits=1):
        measures = [_gap(nlp, coref, module_gap),
                    *[_conll(nlp, coref, rel, True, f"wb_{n}", True) for n, rel in WINOBIAS_FILES.items()],
                    _conll(nlp, coref, "litbank/dev.english.v4_gold_conll", False, "litbank", False),
                    _conll(nlp, coref, "ontogum/dev.english.v4_gold_conll", True, "ontogum", False),
                    _challenge(nlp, coref)]
        out: Dict = {"model": model, "rows": {}}
        for name in tqdm([""] + list(names), desc="variants"):
            coref.resolver.decode_off = frozenset([name]) if name else frozenset()
            row: Dict = {}
            for measure in measures:
                row.update(measure())
            out["rows"][name or "all on"] = row
        coref.resolver.decode_off = frozenset()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    folds = sub.add_parser("folds", help="re-decode the kept fold models' held-out folds")
    folds.add_argument("--folds", type=Path, default=ROOT / "runs" / "folds" / "baseline")
    board = sub.add_parser("board", help="GAP dev, WinoBias dev, LitBank dev, challenge with a shipped model")
    board.add_argument("--model", default="en")
    for p in (folds, board):
        p.add_argument("--rules", default="", help="comma-separated rules (default: every rule)")
        p.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.time()
    names = variants(args.rules)
    result = run_folds(args.folds, names) if args.command == "folds" else run_board(args.model, names)
    result["seconds"] = round(time.time() - start, 1)
    args.out.write_text(json.dumps(result, indent=2), encoding="utf8")
    print(json.dumps(result.get("deltas", result.get("rows")), indent=1)[:4000])


if __name__ == "__main__":
    main()
