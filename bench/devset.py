"""The dev documents the bench scripts share: parsed once with gold tokens and
sentence breaks, and scored against their gold clusters."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from threadpoolctl import threadpool_limits

from neuralcoref.apps.board import score_resolved
from neuralcoref.corpora.conll import ConllDocument, read_conll_path
from neuralcoref.corpora.coref_scorer import CorefScores
from neuralcoref.corpora.gold import parse_conll_docs

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "ontogum" / "dev.english.v4_gold_conll"


def parse_dev(nlp: Language, path: str = str(DEV)) -> List[Tuple[ConllDocument, Doc]]:
    """Every document of ``path`` with its Doc parsed by ``nlp`` (no coreference)."""
    return list(parse_conll_docs(nlp, read_conll_path(path)))


def score_against_gold(parsed: Sequence[Tuple[ConllDocument, Doc]], docs: Sequence[Doc]) -> CorefScores:
    """Scores of the clusters on ``docs`` (resolved copies of the parsed Docs)."""
    return score_resolved([conll for conll, _ in parsed], docs)


def best_coref_pass(coref: Callable[[Doc], Doc], parsed: Sequence[Tuple[ConllDocument, Doc]],
                    repeats: int) -> Tuple[List[Doc], float]:
    """Run the coref step over copies of the parsed Docs ``repeats`` times on one
    BLAS thread, after one warm-up Doc.

    RETURNS (Tuple[List[Doc], float]): the Docs of the last pass and the seconds of the fastest.
    """
    best = float("inf")
    with threadpool_limits(1):
        coref(parsed[0][1].copy())  # warm up
        for _ in range(repeats):
            docs = [doc.copy() for _, doc in parsed]
            start = time.perf_counter()
            for doc in docs:
                coref(doc)
            best = min(best, time.perf_counter() - start)
    return docs, best


def cpu_speeds(nlp: Language, coref: Callable[[Doc], Doc], texts: Sequence[str],
               rounds: int) -> Tuple[List[Doc], Dict[str, float]]:
    """CPU seconds of this process, best of ``rounds``, on one BLAS thread, of spaCy
    parsing ``texts`` one at a time (``coref``'s pipe disabled) and of the coref step
    on copies of the parsed Docs one at a time, after one warm-up text (it loads the
    model). CPU time is steadier than wall time on a shared machine.

    RETURNS (Tuple[List[Doc], Dict[str, float]]): the parsed Docs (no coreference),
        and ``spacy_cpu_s``, ``coref_cpu_s`` and ``tokens``.
    """
    out = {"spacy_cpu_s": float("inf"), "coref_cpu_s": float("inf")}
    parsed: List[Doc] = []
    with threadpool_limits(limits=1), nlp.select_pipes(disable=["neuralcoref"]):
        coref(nlp(texts[0]))
        for _ in range(rounds):
            start = time.process_time()
            parsed = [nlp(text) for text in texts]
            out["spacy_cpu_s"] = min(out["spacy_cpu_s"], time.process_time() - start)
            docs = [doc.copy() for doc in parsed]
            start = time.process_time()
            for doc in docs:
                coref(doc)
            out["coref_cpu_s"] = min(out["coref_cpu_s"], time.process_time() - start)
    out["tokens"] = sum(len(doc) for doc in parsed)
    return parsed, out
