"""Bit-identical clusters: the predicted clusters of the shipped models on fixed
parsed Docs, saved by one checkout and compared with another's.

Speed work must not change a single cluster. The Docs are parsed once (coref
off) and cached, so that both checkouts resolve exactly the same parses:

    python bench/cluster_snapshot.py parse --cache /tmp/snap
    PYTHONPATH=/work/main python bench/cluster_snapshot.py predict --cache /tmp/snap --out before.json
    PYTHONPATH=$PWD python bench/cluster_snapshot.py predict --cache /tmp/snap --out after.json
    python bench/cluster_snapshot.py compare before.json after.json

``--model`` picks a shipped model (default: the language's own, ``en`` or
``fr``); its sets are those of its language, parsed by the spaCy pipeline it
records (a pipeline other than the language default's is cached apart, e.g.
``fr-litbank.fr_core_news_sm.pkl`` for ``fr_sm``). Each Doc's clusters and raw
scores (``store_scores``) are saved, and both must match.

The sets: ``en`` on OntoGUM dev, LitBank dev, the GAP development texts and the
English challenge set; ``fr`` on fr-litbank dev and the French challenge set.
Each Doc is resolved one at a time (``__call__``) and in ``pipe`` batches of 64.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

from spacy.language import Language
from spacy.tokens import Doc

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SETS = {  # name -> (language, kind, path)
    "ontogum": ("en", "conll", DATA / "ontogum" / "dev.english.v4_gold_conll"),
    "litbank": ("en", "conll", DATA / "litbank" / "dev.english.v4_gold_conll"),
    "gap": ("en", "gap", DATA / "gap" / "gap-development.tsv"),
    "challenge-en": ("en", "challenge", "CASES"),
    "fr-litbank": ("fr", "conll", DATA / "fr-litbank" / "dev.french.v4_gold_conll"),
    "challenge-fr": ("fr", "challenge", "FRENCH_CASES"),
}


def _pipeline(lang: str, model: Optional[str] = None) -> Language:
    from neuralcoref.api import build_pipeline

    return build_pipeline(_model(lang, model), lang=lang, store_scores=True)


def _model(lang: str, model: Optional[str]) -> str:
    """The model run on a set of ``lang``: ``model`` if it is of that language, else
    the language's own; None when ``model`` is of another language."""
    if not model:
        return lang
    from neuralcoref.api import model_folder
    from neuralcoref.artifacts.model_dir import read_config

    return model if read_config(model_folder(model)).lang == lang else None


def _cache_file(cache: Path, name: str, lang: str, model: Optional[str]) -> Path:
    """Where the parses of set ``name`` for ``model`` live: ``{name}.pkl`` for the
    pipeline of the language's own model, else ``{name}.{spacy package}.pkl``."""
    from neuralcoref.api import model_folder
    from neuralcoref.artifacts.model_dir import read_config

    package = read_config(model_folder(_model(lang, model))).spacy_package
    own = read_config(model_folder(lang)).spacy_package
    return cache / (f"{name}.pkl" if package == own else f"{name}.{package}.pkl")


def _challenge_docs(nlp: Language, attr: str) -> List[Doc]:
    spec = importlib.util.spec_from_file_location("snapshot_challenge", ROOT / "tests" / "challenge.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    docs = []
    with nlp.select_pipes(disable=["neuralcoref"]):
        for case in getattr(module, attr):
            parsed = module.parse_case(case)
            doc = nlp.make_doc(parsed.text)
            if parsed.speakers:
                module.set_speakers(doc, [next((s for a, b, s in parsed.speakers if a <= t.idx < b), "-")
                                          for t in doc])
            for _, proc in nlp.pipeline:
                doc = proc(doc)
            docs.append(doc)
    return docs


def parse(cache: Path, model: Optional[str] = None) -> None:
    """Parse every set (coref off) and save the Docs' bytes under ``cache`` (sets
    already there are kept)."""
    from neuralcoref.corpora.conll import read_conll_path
    from neuralcoref.corpora.gap import read_gap
    from neuralcoref.corpora.gold import parse_conll_docs

    cache.mkdir(parents=True, exist_ok=True)
    nlps: Dict[str, Language] = {}
    for name, (lang, kind, path) in SETS.items():
        if _model(lang, model) is None or _cache_file(cache, name, lang, model).exists():
            continue
        nlp = nlps[lang] if lang in nlps else nlps.setdefault(lang, _pipeline(lang, model))
        start = time.perf_counter()
        if kind == "conll":
            docs = [doc for _, doc in parse_conll_docs(nlp, read_conll_path(str(path)))]
        elif kind == "gap":
            with nlp.select_pipes(disable=["neuralcoref"]):
                docs = list(nlp.pipe((ex.text for ex in read_gap(path)), batch_size=64))
        else:
            docs = _challenge_docs(nlp, path)
        _cache_file(cache, name, lang, model).write_bytes(pickle.dumps([doc.to_bytes() for doc in docs]))
        print(f"{name}: {len(docs)} docs, {sum(map(len, docs))} tokens, {time.perf_counter() - start:.0f} s",
              file=sys.stderr)


def _clusters(doc: Doc) -> List[List[List[int]]]:
    from neuralcoref.extensions import get_clusters

    return [[[m.start, m.end] for m in cluster] for cluster in get_clusters(doc)]


def _result(doc: Doc) -> Dict[str, object]:
    """The clusters and the raw scores of a resolved Doc (floats as their repr)."""
    from neuralcoref.extensions import SCORES_KEY

    return {"clusters": _clusters(doc), "scores": repr(doc.user_data.get(SCORES_KEY))}


def predict(cache: Path, out: Path, only: List[str], threads: Optional[int] = None, limit: int = 0,
            model: Optional[str] = None) -> None:
    """Resolve the cached Docs with the imported checkout's code; write the clusters.

    threads (int | None): BLAS threads (None: the library's default). The last bits
        of the scores can depend on it, so a comparison holds it the same.
    """
    import neuralcoref
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads):
        _predict(cache, out, only, limit, model)


def _predict(cache: Path, out: Path, only: List[str], limit: int = 0, model: Optional[str] = None) -> None:
    import neuralcoref

    print(f"neuralcoref from {Path(neuralcoref.__file__).parent}", file=sys.stderr)
    nlps: Dict[str, Language] = {}
    result = {}
    for name, (lang, _, _) in SETS.items():
        if (only and name not in only) or _model(lang, model) is None:
            continue
        nlp = nlps[lang] if lang in nlps else nlps.setdefault(lang, _pipeline(lang, model))
        coref = nlp.get_pipe("neuralcoref")
        data = pickle.loads(_cache_file(cache, name, lang, model).read_bytes())[:limit or None]
        fresh = lambda: [Doc(nlp.vocab).from_bytes(b) for b in data]  # noqa: E731
        start = time.perf_counter()
        one = [_result(coref(doc)) for doc in fresh()]
        piped = [_result(doc) for doc in coref.pipe(fresh(), batch_size=64)]
        result[name] = {"call": one, "pipe": piped}
        n_links = sum(len(c) for doc in one for c in doc["clusters"])
        print(f"{name}: {len(one)} docs, {n_links} clustered mentions, {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
    out.write_text(json.dumps(result))


def compare(before: Path, after: Path) -> int:
    """Print the Docs whose clusters differ; RETURNS 1 if any does, else 0."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    bad = 0
    for name in a:
        if name not in b:
            print(f"{name}: missing from {after}")
            continue
        for mode in ("call", "pipe"):
            # A run with --limit holds the first Docs only: the Docs both hold are compared.
            diff = [i for i, (x, y) in enumerate(zip(a[name][mode], b[name][mode])) if x != y]
            bad += len(diff)
            n = min(len(a[name][mode]), len(b[name][mode]))
            print(f"{name} {mode}: {n} docs compared, {len(diff)} differ"
                  + (f" (first: {diff[:5]})" if diff else ""))
    print("IDENTICAL" if not bad else f"DIFFERENT: {bad} docs")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("parse")
    p.add_argument("--cache", type=Path, required=True)
    p.add_argument("--model", default=None, help="a shipped model (default: each language's own)")
    p = sub.add_parser("predict")
    p.add_argument("--cache", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--only", nargs="*", default=[])
    p.add_argument("--threads", type=int, default=None, help="BLAS threads (default: the library's)")
    p.add_argument("--limit", type=int, default=0, help="only the first N Docs of each set (0: all)")
    p.add_argument("--model", default=None, help="a shipped model (default: each language's own)")
    p = sub.add_parser("compare")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.cmd == "parse":
        parse(args.cache, args.model)
    elif args.cmd == "predict":
        predict(args.cache, args.out, args.only, args.threads, args.limit, args.model)
    else:
        return compare(args.before, args.after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
