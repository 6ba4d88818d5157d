"""Speed and memory of the coreference step, measured in one process and one run.

``neuralcoref benchmark`` (and ``bench/bench_speed.py``) times, over the documents
of a CoNLL file: the spaCy pipeline alone, the coreference component alone on
already-parsed Docs, and the whole pipeline; ``nlp.pipe`` at several batch sizes
and process counts; and single long documents (the file's documents concatenated
to about 1k, 10k and 100k tokens), so that the growth rate is visible. Memory is
the process's resident set size, sampled while each stage runs.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from ..corpora.conll import read_conll_path


def rss_mb() -> float:
    """The process's current resident set size in MB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except (OSError, ValueError):
        return 0.0


class _PeakRss:
    """Samples RSS in a thread: the peak over a ``with`` block."""

    def __init__(self, interval: float = 0.005):
        self.interval, self.peak, self._stop = interval, 0.0, threading.Event()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb())
            time.sleep(self.interval)

    def __enter__(self) -> "_PeakRss":
        self.start = self.peak = rss_mb()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())


@dataclass
class Measure:
    """One timed stage: tokens, docs, seconds and memory."""

    name: str
    tokens: int
    docs: int
    seconds: float
    rss_start_mb: float
    rss_peak_mb: float

    @property
    def tokens_per_s(self) -> float:
        return self.tokens / self.seconds if self.seconds else float("inf")

    @property
    def docs_per_s(self) -> float:
        return self.docs / self.seconds if self.seconds else float("inf")

    def row(self) -> str:
        return (f"| {self.name} | {self.tokens:,} | {self.seconds:.2f} | {self.tokens_per_s:,.0f} | "
                f"{self.docs_per_s:,.1f} | {self.rss_peak_mb:,.0f} | "
                f"{self.rss_peak_mb - self.rss_start_mb:+,.0f} |")


@contextmanager
def _measured(results: List[Measure], name: str, tokens: int, docs: int) -> Iterator[None]:
    with _PeakRss() as peak:
        start = time.perf_counter()
        yield
        seconds = time.perf_counter() - start
    results.append(Measure(name, tokens, docs, seconds, peak.start, peak.peak))


@dataclass
class BenchmarkReport:
    """All measures of a run, with the derived figures the targets speak of."""

    measures: List[Measure] = field(default_factory=list)
    component_rss_mb: float = 0.0
    model_size_mb: float = 0.0
    machine: str = ""

    def get(self, name: str) -> Measure:
        return next(m for m in self.measures if m.name == name)

    @property
    def coref_to_spacy(self) -> float:
        return self.get("coref component alone").tokens_per_s / self.get("spaCy pipeline alone").tokens_per_s

    def format(self) -> str:
        lines = [f"machine: {self.machine}", "",
                 "| stage | tokens | seconds | tokens/s | docs/s | peak RSS MB | RSS change MB |",
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        lines += [m.row() for m in self.measures]
        lines += ["", f"coref step / spaCy pipeline speed ratio: {self.coref_to_spacy:.1f}x",
                  f"RSS added by loading the component: {self.component_rss_mb:.0f} MB",
                  f"model folder size: {self.model_size_mb:.1f} MB"]
        return "\n".join(lines)

    def to_dict(self) -> Dict:
        return {"measures": [dict(asdict(m), tokens_per_s=m.tokens_per_s, docs_per_s=m.docs_per_s)
                             for m in self.measures],
                "coref_to_spacy": self.coref_to_spacy, "component_rss_mb": self.component_rss_mb,
                "model_size_mb": self.model_size_mb, "machine": self.machine}


def _machine() -> str:
    import platform

    cpu = ""
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{cpu or platform.processor()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _folder_mb(path: Optional[Path]) -> float:
    if path is None or not Path(path).is_dir():
        return 0.0
    return sum(f.stat().st_size for f in Path(path).iterdir() if f.is_file()) / 2 ** 20


def run_benchmark(nlp: Language, conll_path: str, model: Optional[str] = None,
                  batch_sizes: Sequence[int] = (1, 16, 64), processes: Sequence[int] = (1, 2),
                  long_sizes: Sequence[int] = (1_000, 10_000, 100_000),
                  repeats: int = 1, threads: Optional[int] = 1) -> BenchmarkReport:
    """Measure the spaCy pipeline, the coreference step and the whole pipeline.

    nlp (Language): a spaCy pipeline without the neuralcoref component.
    conll_path (str): a CoNLL file whose documents' words make the texts.
    model (str | None): the coreference model (default: the shipped one).
    batch_sizes, processes: the nlp.pipe settings to time.
    long_sizes: approximate token counts of the long single documents.
    repeats (int): passes over the texts per stage (more gives steadier figures).
    threads (int | None): BLAS threads (1: one core, as the targets are stated;
        None: the library's default).
    RETURNS (BenchmarkReport): the measures.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads):
        report = _run(nlp, conll_path, model, batch_sizes, processes, long_sizes, repeats)
    report.machine += f", BLAS threads: {threads or 'default'}"
    return report


def _run(nlp, conll_path, model, batch_sizes, processes, long_sizes, repeats) -> BenchmarkReport:
    texts = [" ".join(d.words) for d in read_conll_path(conll_path)] * repeats
    report = BenchmarkReport(machine=_machine())
    results = report.measures
    nlp(texts[0])  # warm up the pipeline's lazy initialisation

    parsed = list(nlp.pipe(texts, batch_size=1))
    n_tokens = sum(len(d) for d in parsed)
    with _measured(results, "spaCy pipeline alone", n_tokens, len(texts)):
        for text in texts:
            nlp(text)

    before = rss_mb()
    coref = nlp.add_pipe("neuralcoref", config={"model": model})
    loaded = coref.resolver.model  # the component loads its model on first use: load it now
    report.component_rss_mb = rss_mb() - before
    report.model_size_mb = _folder_mb(loaded.path)
    coref(parsed[0])
    with _measured(results, "coref component alone", n_tokens, len(texts)):
        for doc in parsed:
            coref(doc)
    with _measured(results, "coref component alone, pipe(batch_size=64)", n_tokens, len(texts)):
        list(coref.pipe(iter(parsed), batch_size=64))
    with _measured(results, "whole pipeline", n_tokens, len(texts)):
        for text in texts:
            nlp(text)
    for n_process in processes:
        for batch_size in batch_sizes:
            name = f"whole pipeline, pipe(batch_size={batch_size}, n_process={n_process})"
            with _measured(results, name, n_tokens, len(texts)):
                list(nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
    _long_documents(nlp, coref, parsed, long_sizes, results)
    return report


def _long_documents(nlp: Language, coref, parsed: List[Doc], sizes: Sequence[int],
                    results: List[Measure]) -> None:
    """Coreference on single documents of growing size (parsed Docs joined)."""
    for size in sizes:
        parts, total = [], 0
        while total < size:
            for doc in parsed:
                parts.append(doc)
                total += len(doc)
                if total >= size:
                    break
        with nlp.select_pipes(disable=["neuralcoref"]):
            doc = Doc.from_docs(parts, ensure_whitespace=True)
        with _measured(results, f"coref on one document of {len(doc):,} tokens", len(doc), 1):
            coref(doc)
