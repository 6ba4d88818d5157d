"""The dev documents the bench scripts share: parsed once with gold tokens and
sentence breaks, and scored against their gold clusters."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, List, Sequence, Tuple

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
