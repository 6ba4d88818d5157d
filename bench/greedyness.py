"""Dev scores and mention detection after linking, across greedyness values.

    python bench/greedyness.py [--model DIR] [--dev CONLL] [--spacy-model NAME]

The model decides which candidates become mentions at all through its
no-antecedent (single) scores; greedyness shifts that decision (0.5: as tuned
in training). Prints, per value: CoNLL F1, LEA F1 and mention recall/precision.
"""
from __future__ import annotations

import argparse

from devset import DEV, parse_dev, score_against_gold
from neuralcoref.api import load_spacy

VALUES = (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=None)
    parser.add_argument("--dev", default=str(DEV))
    parser.add_argument("--spacy-model", default=None)
    args = parser.parse_args()
    nlp = load_spacy(args.spacy_model)
    parsed = parse_dev(nlp, args.dev)
    print(f"| greedyness | CoNLL F1 | LEA F1 | mention recall | mention precision |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for g in VALUES:
        config = {"greedyness": g, **({"model": args.model} if args.model else {})}
        coref = nlp.add_pipe("neuralcoref", name="coref_g", config=config)
        docs = [coref(doc.copy()) for _, doc in parsed]
        s = score_against_gold(parsed, docs)
        print(f"| {g} | {100 * s.conll_f1:.2f} | {100 * s.lea.f1:.2f} | "
              f"{100 * s.mentions.recall:.1f} | {100 * s.mentions.precision:.1f} |")
        nlp.remove_pipe("coref_g")


if __name__ == "__main__":
    main()
