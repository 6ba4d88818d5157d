"""Dev CoNLL F1 against coref-step speed for several model folders, in one process.

    python bench/model_sizes.py MODEL_DIR [MODEL_DIR ...] [--dev CONLL] [--spacy-model NAME]

The dev documents are parsed once (gold tokens and sentence breaks); then each
model's component runs over the same parsed Docs on one BLAS thread, best of
``--repeats`` timed passes, and its clusters are scored against the gold ones.
Prints, per model: hidden sizes, weights MB, dev CoNLL F1, LEA F1, mention F1
and coref tokens/s.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from devset import DEV, best_coref_pass, parse_dev, score_against_gold
from neuralcoref.api import load_spacy



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+")
    parser.add_argument("--dev", default=str(DEV))
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    nlp = load_spacy(args.spacy_model)
    parsed = parse_dev(nlp, args.dev)
    n_tokens = sum(len(doc) for _, doc in parsed)
    print(f"{len(parsed)} dev documents, {n_tokens} tokens")
    print(f"{'model':32} {'single':>10} {'pair':>10} {'MB':>5} {'CoNLL':>6} {'LEA':>6} {'ment':>6} {'tok/s':>8}")
    for i, path in enumerate(args.models):
        coref = nlp.add_pipe("neuralcoref", name=f"coref_{i}", config={"model": str(path)})
        config = coref.resolver.model.config.scorer
        docs, best = best_coref_pass(coref, parsed, args.repeats)
        scores = score_against_gold(parsed, docs)
        size = sum(f.stat().st_size for f in Path(path).iterdir() if f.is_file()) / 2 ** 20
        print(f"{str(path)[-32:]:32} {str(config.single_hidden):>10} {str(config.pair_hidden):>10} "
              f"{size:5.1f} {100 * scores.conll_f1:6.2f} {100 * scores.lea.f1:6.2f} "
              f"{100 * scores.mentions.f1:6.2f} {n_tokens / best:8.0f}")
        nlp.remove_pipe(f"coref_{i}")


if __name__ == "__main__":
    main()
