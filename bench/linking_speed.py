"""Speed of the coreference step with and without entity linking.

    python bench/linking_speed.py [CONLL] [--kb gum] [--repeats 3]

Parses the documents of CONLL (default: OntoGUM dev) once with the shipped
model's spaCy pipeline, then times, on copies of the same parsed Docs and one
BLAS thread, in CPU time of this process (``time.process_time``: the
machine is shared, and wall time measures the other jobs too): the ``neuralcoref`` component alone, the ``neuralcoref_linker``
alone (on the coref output), and both; best of ``--repeats`` passes each.
Prints tokens per second; the figures go in
docs/experiments/2026-12-07-entity-linking.md.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from threadpoolctl import threadpool_limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conll", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/data/ontogum/dev.english.v4_gold_conll")
    parser.add_argument("--kb", default="gum")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import neuralcoref.linker  # noqa: F401  (registers the factory)
    from neuralcoref.api import build_pipeline
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gold import parse_conll_docs

    nlp = build_pipeline("en")
    linker = nlp.add_pipe("neuralcoref_linker", config={"kb": args.kb})
    coref = nlp.get_pipe("neuralcoref")
    parsed = [doc for _, doc in parse_conll_docs(nlp, read_conll_path(args.conll),
                                                 disable=("neuralcoref", "neuralcoref_linker"))]
    n_tokens = sum(len(d) for d in parsed)

    def best(step) -> float:
        times = []
        for _ in range(args.repeats):
            docs = [d.copy() for d in parsed]
            start = time.process_time()
            for doc in docs:
                step(doc)
            times.append(time.process_time() - start)
        return n_tokens / min(times)

    with threadpool_limits(1):
        coref(parsed[0].copy())
        linker(coref(parsed[0].copy()))
        coref_only = best(coref)
        resolved = [coref(d.copy()) for d in parsed]
        start = time.process_time()
        for doc in resolved:
            linker(doc)
        linker_only = n_tokens / (time.process_time() - start)
        both = best(lambda doc: linker(coref(doc)))
    print(json.dumps({"tokens": n_tokens, "coref_tokens_per_s": round(coref_only),
                      "linker_tokens_per_s": round(linker_only),
                      "coref_and_linker_tokens_per_s": round(both)}))


if __name__ == "__main__":
    main()
