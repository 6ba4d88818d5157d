"""Speed and memory of neuralcoref against spaCy, in one process and one run.

    python bench/bench_speed.py [CONLL] [--spacy-model NAME] [--model PATH] [--repeats N]

Prints tokens/s, docs/s and peak RSS for the spaCy pipeline alone, the coref
component alone on parsed Docs, the whole pipeline, nlp.pipe settings and single
documents of about 1k, 10k and 100k tokens (see neuralcoref.apps.benchmark).
"""
import argparse
import json
from pathlib import Path

from devset import DEV
from neuralcoref.api import load_spacy
from neuralcoref.apps.benchmark import run_benchmark



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("conll", nargs="?", default=str(DEV))
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--model", default=None)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (0: default)")
    parser.add_argument("--json", dest="json_out", default=None, help="also write the figures here")
    args = parser.parse_args()
    report = run_benchmark(load_spacy(args.spacy_model), args.conll, model=args.model, repeats=args.repeats,
                           threads=args.threads or None)
    print(report.format())
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report.to_dict(), indent=2))


if __name__ == "__main__":
    main()
