"""Measure the shipped models on their dev sets and write the figures into each
model folder's ``metrics.json`` (the source of the README's model table and of
the model cards, which ``python docs/generate.py`` renders).

    python bench/model_metrics.py [MODEL ...] [--data DIR] [--repeats 3]

Per model: every dev set its ``metrics.json`` lists under ``dev`` (gold tokens
and sentence breaks, parsed once per pipeline) is scored, and the coref step is
timed over the first one on one BLAS thread (best of ``--repeats`` passes).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Dict, List, Tuple

from devset import best_coref_pass, parse_dev
from neuralcoref.api import load_spacy
from neuralcoref.apps.board import score_resolved

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "neuralcoref" / "models"
DATA = ROOT.parent / "shared" / "data"
METRICS = ("muc", "bcub", "ceafe", "lea", "mentions")


def measure(nlp, parsed: List[Tuple], model: str, singletons: bool, repeats: int) -> Tuple[Dict, float]:
    """Dev scores (percent, two decimals) and coref tokens/s of ``model`` on ``parsed``."""
    coref = nlp.add_pipe("neuralcoref", name="coref_measured", config={"model": model})
    docs, best = best_coref_pass(coref, parsed, repeats)
    nlp.remove_pipe("coref_measured")
    scores = score_resolved([conll for conll, _ in parsed], docs, singletons).to_dict()
    figures = {name: round(scores[name]["f1"], 2) for name in METRICS}
    figures["conll_f1"] = round(scores["conll_f1"], 2)
    return figures, sum(len(doc) for _, doc in parsed) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", default=sorted(p.name for p in MODELS.iterdir() if p.is_dir()))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    pipelines, parsed_sets = {}, {}
    for model in args.models:
        path = MODELS / model / "metrics.json"
        metrics = json.loads(path.read_text(encoding="utf8"))
        name = metrics["pipeline"]["package"]
        nlp = pipelines.setdefault(name, load_spacy(name))
        for i, dev in enumerate(metrics["dev"]):
            key = (name, dev["file"])
            if key not in parsed_sets:
                parsed_sets[key] = parse_dev(nlp, str(args.data / dev["file"]))
            dev["scores"], speed = measure(nlp, parsed_sets[key], model, dev["singletons"], args.repeats)
            if i == 0:
                metrics["speed"]["coref_tokens_per_s"] = int(round(speed, -2))
            print(f"{model:12} {dev['name']:32} CoNLL F1 {dev['scores']['conll_f1']:6.2f}  {speed:8.0f} tokens/s")
        path.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
