"""Long documents, English and French: tokens/s of spaCy and of the coref step,
for one or more checkouts, back to back in one run.

    python bench/long_docs.py --checkout /work/main --checkout .

Per checkout (its own process, ``PYTHONPATH``) and model (``en``, or any other
English model by name or folder, on OntoGUM dev, ``fr`` on fr-litbank dev: gold words joined by spaces, parsed by the pipeline the
model records): CPU seconds of the process on one BLAS thread, best of
``--rounds`` passes, of spaCy parsing the texts one at a time and of the coref
step on the parsed Docs one at a time (as ``neuralcoref benchmark`` and
``bench/short_texts.py --long`` time them). The checkouts run in turn,
``--repeats`` times; the best of all is kept.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SETS = {"en": DATA / "ontogum" / "dev.english.v4_gold_conll",
        "fr": DATA / "fr-litbank" / "dev.french.v4_gold_conll"}


def measure(model: str, rounds: int) -> Dict[str, float]:
    """spaCy and coref CPU seconds on the model's dev set, in this process."""
    from devset import cpu_speeds

    from neuralcoref.api import model_pipeline
    from neuralcoref.corpora.conll import read_conll_path

    texts = [" ".join(d.words) for d in read_conll_path(str(SETS.get(model, SETS["en"])))]
    nlp = model_pipeline(model)
    coref = nlp.add_pipe("neuralcoref", config={"model": model})
    return cpu_speeds(nlp, coref, texts, rounds)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", action="append", type=Path, help="a checkout (repeatable; default: this one)")
    parser.add_argument("--models", nargs="*", default=["en", "fr"],
                        help="en, fr, or another English model (name or folder), measured on OntoGUM dev")
    parser.add_argument("--rounds", type=int, default=2, help="passes per process, the best kept")
    parser.add_argument("--repeats", type=int, default=1, help="processes per checkout and model")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(measure(args.worker, args.rounds)))
        return
    checkouts: List[Path] = [c.resolve() for c in (args.checkout or [HERE.parent])]
    best: Dict[str, Dict[str, Dict[str, float]]] = {}
    for _ in range(args.repeats):
        for model in args.models:
            for checkout in checkouts:
                env = {**os.environ, "PYTHONPATH": str(checkout)}
                run = subprocess.run([sys.executable, str(HERE / "long_docs.py"), "--worker", model,
                                      "--rounds", str(args.rounds)], env=env, check=True,
                                     capture_output=True, text=True)
                got = json.loads(run.stdout.strip().splitlines()[-1])
                row = best.setdefault(model, {}).setdefault(str(checkout), got)
                for key in ("spacy_cpu_s", "coref_cpu_s"):
                    row[key] = min(row[key], got[key])
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print("| model | checkout | tokens | spaCy tokens/s | coref tokens/s | coref / spaCy speed |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for model, rows in best.items():
        for checkout, r in rows.items():
            spacy_speed, coref_speed = r["tokens"] / r["spacy_cpu_s"], r["tokens"] / r["coref_cpu_s"]
            r.update(spacy_tokens_per_s=spacy_speed, coref_tokens_per_s=coref_speed)
            print(f"| {model} | {checkout} | {r['tokens']:,} | {spacy_speed:,.0f} | {coref_speed:,.0f} | "
                  f"{coref_speed / spacy_speed:.1f}x |")
    if args.json:
        args.json.write_text(json.dumps(best, indent=2))


if __name__ == "__main__":
    main()
