"""The dev documents the bench scripts share: parsed once with gold tokens and
sentence breaks, and scored against their gold clusters."""
from __future__ import annotations

from pathlib import Path
from typing import List, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc

from neuralcoref.conll import ConllDocument, read_conll_path
from neuralcoref.coref_scorer import CorefScores, score_documents
from neuralcoref.extensions import get_clusters
from neuralcoref.gold import parse_conll_docs

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "ontogum" / "dev.english.v4_gold_conll"


def parse_dev(nlp: Language, path: str = str(DEV)) -> List[Tuple[ConllDocument, Doc]]:
    """Every document of ``path`` with its Doc parsed by ``nlp`` (no coreference)."""
    return list(parse_conll_docs(nlp, read_conll_path(path)))


def score_against_gold(parsed: Sequence[Tuple[ConllDocument, Doc]], docs: Sequence[Doc]) -> CorefScores:
    """Scores of the clusters on ``docs`` (resolved copies of the parsed Docs)."""
    return score_documents((conll.clusters, [[(m.start, m.end) for m in c] for c in get_clusters(doc)])
                           for (conll, _), doc in zip(parsed, docs))
