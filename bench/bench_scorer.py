"""Time reading a CoNLL-2012 file and scoring it against itself.

    python bench/bench_scorer.py [FILE] [--repeat N]

FILE defaults to the shared OntoGUM dev file. Prints the best of N runs of:
reading the file, scoring the documents already in memory, and the whole
``score_files`` call (both files read, then scored), which ``neuralcoref
evaluate`` runs.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Callable, List

from devset import DEV as DEFAULT
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.corpora.coref_scorer import score_documents, score_files


def best_time(function: Callable[[], object], repeat: int) -> float:
    """RETURNS (float): the fastest of ``repeat`` runs of ``function``, in seconds."""
    times: List[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    docs = list(read_conll_path(args.path))
    n_tokens = sum(len(doc) for doc in docs)
    n_mentions = sum(len(cluster) for doc in docs for cluster in doc.clusters)
    pairs = [(doc.clusters, doc.clusters) for doc in docs]

    read = best_time(lambda: list(read_conll_path(args.path)), args.repeat)
    score = best_time(lambda: score_documents(pairs), args.repeat)
    whole = best_time(lambda: score_files(args.path, args.path), args.repeat)
    conll_f1 = 100 * score_files(args.path, args.path).conll_f1

    print(f"file: {args.path}")
    print(f"documents: {len(docs)}  tokens: {n_tokens}  mentions: {n_mentions}")
    print(f"read:                 {read:.3f} s  ({n_tokens / read:,.0f} tokens/s)")
    print(f"score (in memory):    {score:.3f} s  ({n_mentions / score:,.0f} mentions/s)")
    print(f"score_files (read x2 + score): {whole:.3f} s")
    print(f"CoNLL F1 against itself: {conll_f1:.2f}")
    print(f"best of {args.repeat} runs")


if __name__ == "__main__":
    main()
