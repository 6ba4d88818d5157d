"""Training the linking scorer (``neuralcoref.core.linking.linking``) on GUM train.

    python -m neuralcoref.train.linker --conll gum/train.english.v4_gold_conll \\
        --entities gum/entities.train.tsv --wiki-map gum/wiki_map.tab --out neuralcoref/kbs/linker

The train documents are parsed and resolved by the shipped pipeline (the
clusters the linker will see at run time); each unit (cluster or lone named
entity) is labelled with the Wikidata id most of its gold-matching mentions
carry (none when they carry none, or when it is no candidate). Aliases learnt
from mentions must not give away the answer: the documents are split in
``folds`` and each fold's features are computed with a KB whose mention aliases
come from the other folds only. The scorer is a small feed-forward net trained
with a softmax over each unit's candidates and "none" (score 0), each unit
weighted by its number of mentions (linking is scored per mention), and
exported to the runtime's numpy format (:class:`LinkScorer`).
"""
from __future__ import annotations

import argparse
import logging
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np
import torch
from spacy.tokens import Doc, DocBin
from torch import nn

from neuralcoref.artifacts.kb import KnowledgeBase
from neuralcoref.artifacts.kb_build import build_kb, gum_records
from neuralcoref.core.linking.link_scorer import LinkScorer
from neuralcoref.core.linking.linking import (N_FEATURES, DocContext, Unit, extracted_mentions, link_features,
                                              link_units)
from neuralcoref.corpora.entities import EntityMention, read_entities
from neuralcoref.extensions import get_clusters

logger = logging.getLogger(__name__)


class UnitExample(NamedTuple):
    """One unit's candidates: features (k, N_FEATURES) float32, the gold
    candidate's index (k for none) and the unit's weight."""

    features: np.ndarray
    label: int
    weight: float


def sentence_starts(doc: Doc) -> List[int]:
    """The first token of each sentence of a Doc."""
    return [s.start for s in doc.sents]


def gold_spans(doc: Doc, gold: Sequence[EntityMention]) -> Dict[Tuple[int, int], Optional[str]]:
    """Gold mentions as Doc token spans (end exclusive) -> their Wikidata id."""
    starts = sentence_starts(doc)
    return {(starts[m.sentence] + m.start, starts[m.sentence] + m.end + 1): m.wikidata_id
            for m in gold if m.sentence < len(starts)}


def unit_labels(units: Sequence[Unit], gold: Dict[Tuple[int, int], Optional[str]]) -> List[Optional[str]]:
    """Per unit, the id most of its gold-matching mentions carry (None for none)."""
    labels = []
    for unit in units:
        votes = Counter(gold[span] for span in unit.spans if span in gold)
        labels.append(votes.most_common(1)[0][0] if votes else None)
    return labels


def doc_examples(doc: Doc, gold: Sequence[EntityMention], kb: KnowledgeBase,
                 mentions: bool = True, doc_candidates: bool = True) -> List[UnitExample]:
    """The training examples of one resolved Doc (units with candidates);
    ``mentions``: with the extractor's mentions outside the clusters as units;
    ``doc_candidates``: with the candidates from the Doc (the linker's setting)."""
    clusters = [[(m.start, m.end) for m in c] for c in get_clusters(doc)]
    ctx = DocContext(doc)  # read the Doc once for the units and the features
    units = link_units(doc, clusters, kb=kb, ctx=ctx, mentions=extracted_mentions(doc, ctx.rules) if mentions else None)
    labels = unit_labels(units, gold_spans(doc, gold))
    pairs = link_features(doc, units, kb, ctx, doc_candidates)
    examples = []
    for u in np.unique(pairs.units):
        rows = np.flatnonzero(pairs.units == u)
        ids = [kb.ids[int(e)] for e in pairs.entities[rows]]
        label = ids.index(labels[u]) if labels[u] in ids else len(ids)
        examples.append(UnitExample(pairs.features[rows], label, float(len(units[u].spans))))
    return examples


class TorchLinkScorer(nn.Module):
    """The training twin of LinkScorer: Linear layers with ReLU between."""

    def __init__(self, hidden: Sequence[int] = (32,)):
        super().__init__()
        sizes = [N_FEATURES, *hidden, 1]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x[..., 0]

    def export(self) -> LinkScorer:
        """The runtime scorer with the same weights (float32)."""
        return LinkScorer([(layer.weight.detach().cpu().numpy().astype(np.float32),
                            layer.bias.detach().cpu().numpy().astype(np.float32)) for layer in self.layers])


def padded(examples: Sequence[UnitExample]) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Examples as tensors: features (U, K, F), mask (U, K), labels (U,), weights (U,)."""
    k = max(len(e.features) for e in examples)
    x = np.zeros((len(examples), k, N_FEATURES), dtype=np.float32)
    mask = np.zeros((len(examples), k), dtype=bool)
    for i, e in enumerate(examples):
        x[i, :len(e.features)] = e.features
        mask[i, :len(e.features)] = True
    labels = [e.label if e.label < len(e.features) else k for e in examples]  # k: none
    return (torch.from_numpy(x), torch.from_numpy(mask), torch.tensor(labels),
            torch.tensor([e.weight for e in examples], dtype=torch.float32))


def unit_loss(model: TorchLinkScorer, x, mask, labels, weights) -> torch.Tensor:
    """Weighted cross-entropy of a softmax over each unit's candidates and none (score 0)."""
    scores = model(x).masked_fill(~mask, -1e4)
    logits = torch.cat([scores, torch.zeros(len(scores), 1)], dim=1)
    losses = nn.functional.cross_entropy(logits, labels, reduction="none")
    return (losses * weights).sum() / weights.sum()


def train_scorer(examples: Sequence[UnitExample], hidden: Sequence[int] = (32,), epochs: int = 200,
                 lr: float = 0.01, seed: int = 0) -> TorchLinkScorer:
    """Fit the scorer on all examples at once (they are few: full-batch Adam)."""
    torch.manual_seed(seed)
    model = TorchLinkScorer(hidden)
    tensors = padded(examples)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)
    for epoch in range(epochs):
        optimizer.zero_grad()
        loss = unit_loss(model, *tensors)
        loss.backward()
        optimizer.step()
        if epoch % 50 == 0 or epoch == epochs - 1:
            logger.info("epoch %d loss %.4f", epoch, loss.item())
    return model


def parsed_docs(conll: Path, cache: Optional[Path], model: str = "en") -> Tuple[List[str], List[Doc]]:
    """The documents of ``conll`` parsed and resolved by the shipped pipeline,
    kept in ``cache`` (a DocBin, with the names beside it) when given."""
    from neuralcoref.api import build_pipeline
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gold import parse_conll_docs

    names_file = cache.with_suffix(".names") if cache else None
    nlp = build_pipeline(model)
    if cache and cache.exists() and names_file.exists():
        docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
        return names_file.read_text(encoding="utf8").split("\n"), docs
    names, docs = [], []
    for conll_doc, doc in parse_conll_docs(nlp, read_conll_path(conll), disable=()):
        names.append(conll_doc.doc_id)
        docs.append(doc)
    if cache:
        db = DocBin(store_user_data=True, docs=docs)
        db.to_disk(cache)
        names_file.write_text("\n".join(names), encoding="utf8")
    return names, docs


def fold_examples(names: Sequence[str], docs: Sequence[Doc], entities: Path, conll: Path, wiki_map: Path,
                  folds: int = 2, mentions: bool = True, doc_candidates: bool = True) -> List[UnitExample]:
    """Examples of every document, each fold's with a KB built from the other folds' mentions."""
    gold: Dict[str, List[EntityMention]] = defaultdict(list)
    for m in read_entities(entities):
        gold[m.doc_id].append(m)
    examples: List[UnitExample] = []
    for fold in range(folds):
        held = {n for i, n in enumerate(names) if i % folds == fold}
        others = set(names) - held
        kb = build_kb(gum_records(wiki_map, entities, conll, documents=others))
        for name, doc in zip(names, docs):
            if name in held:
                examples += doc_examples(doc, gold[name], kb, mentions, doc_candidates)
        logger.info("fold %d: %d examples", fold, len(examples))
    return examples


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="Train the linking scorer on GUM train.")
    parser.add_argument("--conll", type=Path, required=True, help="gum/train.english.v4_gold_conll")
    parser.add_argument("--entities", type=Path, required=True, help="gum/entities.train.tsv")
    parser.add_argument("--wiki-map", type=Path, required=True, help="gum/wiki_map.tab")
    parser.add_argument("--out", type=Path, required=True, help="scorer folder to write")
    parser.add_argument("--cache", type=Path, default=None, help="DocBin of the parsed documents (kept)")
    parser.add_argument("--model", default="en", help="coreference model that makes the clusters")
    parser.add_argument("--folds", type=int, default=2)
    parser.add_argument("--hidden", type=int, nargs="*", default=[32])
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-mentions", action="store_true",
                        help="no units of the extractor's mentions outside the clusters (linker mentions=false)")
    parser.add_argument("--no-doc-candidates", action="store_true",
                        help="no candidates from the Doc's other units (linker doc_candidates=false)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    names, docs = parsed_docs(args.conll, args.cache, args.model)
    examples = fold_examples(names, docs, args.entities, args.conll, args.wiki_map, args.folds,
                             not args.no_mentions, not args.no_doc_candidates)
    linked = sum(e.label < len(e.features) for e in examples)
    logger.info("%d units with candidates, %d with the gold entity among them", len(examples), linked)
    model = train_scorer(examples, args.hidden, args.epochs, seed=args.seed)
    model.export().to_disk(args.out, meta={
        "trained_on": f"{args.conll.parent.name}/{args.conll.name}", "model": args.model, "folds": args.folds,
        "hidden": args.hidden, "epochs": args.epochs, "seed": args.seed, "mentions": not args.no_mentions,
        "doc_candidates": not args.no_doc_candidates, "units": len(examples),
        "units_linkable": linked})
    print(f"Linking scorer written to {args.out}")


if __name__ == "__main__":
    main()
