"""The entity pass's cost at run time: coref tokens/s and dev CoNLL F1 of one model
with its entity pass (``scorer.refine``) off and on, back to back in one process.

    python bench/refine_cost.py --model PATH [--dev CONLL] [--repeats 3] [--spacy-model NAME]

OntoGUM dev is parsed once; the coref step is timed on one BLAS thread, best of
``--repeats`` passes per setting, the settings alternating pass by pass so that a
change of the machine's load reaches both. The switch is the loaded model's
``scorer.refine``: the same weights, with and without the second pass
(``Scorers.all_pair_scores``, neuralcoref/core/scoring/entities.py).
"""
from __future__ import annotations

import argparse
import time

from threadpoolctl import threadpool_limits

from devset import DEV, parse_dev, score_against_gold
from neuralcoref.api import load_spacy
from neuralcoref.artifacts.model_dir import load_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True)
    parser.add_argument("--dev", default=str(DEV))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--spacy-model", default=None, help="default: the model's own pipeline")
    args = parser.parse_args()
    trained = load_model(args.model).config.scorer.refine
    nlp = load_spacy(args.spacy_model or load_model(args.model).config.spacy_pipeline.split()[0])
    parsed = parse_dev(nlp, args.dev)
    coref = nlp.add_pipe("neuralcoref", config={"model": args.model})
    coref(parsed[0][1].copy())  # loads the model, warms up
    scorers = coref._loaded().scorers
    n_tokens = sum(len(doc) for _, doc in parsed)
    best, f1 = {False: float("inf"), True: float("inf")}, {}
    with threadpool_limits(1):
        for _ in range(args.repeats):
            for refine in (False, True):
                scorers.config.refine = refine
                docs = [doc.copy() for _, doc in parsed]
                start = time.perf_counter()
                for doc in docs:
                    coref(doc)
                best[refine] = min(best[refine], time.perf_counter() - start)
                f1[refine] = 100 * score_against_gold(parsed, docs).conll_f1
    scorers.config.refine = trained
    print(f"model {args.model} (trained with the entity pass: {trained}); {len(parsed)} docs, {n_tokens} tokens")
    for refine in (False, True):
        print(f"entity pass {'on ' if refine else 'off'}: CoNLL F1 {f1[refine]:.2f}  "
              f"{n_tokens / best[refine]:8.0f} coref tokens/s  ({best[refine]:.2f} s)")


if __name__ == "__main__":
    main()
