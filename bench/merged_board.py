"""Decoding variants of the merged lexicon + binding code on the dev sets, from
one parse per document (the cache of bench/lexicon_board.py):

    python bench/merged_board.py ontogum,litbank [none,binding,lexicon,merged,...]

Variants (see VARIANTS): lexicon classes, rescue of blocked pronouns, speakers,
binding constraints and the expletive filter, each on or off; "merged" is what
ships, "m-rescue-agr" rescues only pronouns that agreement (not binding) blocks.
Prints CoNLL F1 / MUC F1 per set (LitBank and fr-litbank without singletons).
"""
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import spacy

sys.path.insert(0, str(Path(__file__).parent))
import lexicon_board as lb  # noqa: E402
from neuralcoref.core.decode.antecedents import DocScores, LinkConstraints, best_antecedents
from neuralcoref.core.discourse.decode_signals import (agreement_codes, link_offsets_of, name_words, pronoun_persons,
                                                       with_speaker_genders, with_speaker_names)
from neuralcoref.lang.base import CandidateRules, ExpletiveRules
from neuralcoref.core.discourse.classes import mention_classes


def kwargs(item, base, lex, rescue, spk, bind, rescue_agr=False, resolver=None, s=None, p=None):
    """The decode inputs to swap in for one Doc and one variant."""
    classes = base["classes"] if lex else np.zeros_like(base["classes"])
    names = base["names"]
    if spk:
        classes = with_speaker_genders(classes, item.features.codes, item.speakers)
        names = with_speaker_names(names, item.speakers)
    persons = pronoun_persons(item.features.codes) if rescue else None
    if rescue and rescue_agr and bind:
        f = item.features
        single = np.asarray(s, np.float32)
        off = link_offsets_of(item.mentions.types, resolver.link_offsets)
        if off is not None:
            single = single + off
        agreement = agreement_codes(f.codes, resolver.rules.decoding_agreement)
        nb = best_antecedents(DocScores(single, p, item.ptr, item.ante), resolver.greedyness,
                              LinkConstraints(agreement, names, classes))
        persons = np.where(nb >= 0, -1, persons).astype(np.int32)
    return {"classes": classes, "names": names, "persons": persons,
            "speakers": item.speakers if spk else None, "binding": item.binding if bind else None}


#: name -> (lexicon classes, rescue, speakers, binding, expletive filter, rescue only
#: pronouns that decoding without binding leaves unlinked)
VARIANTS = {
    "none": (0, 0, 0, 0, 0, 0), "binding": (0, 0, 0, 1, 1, 0), "lexicon": (1, 1, 1, 0, 0, 0),
    "lex+filter": (1, 1, 1, 0, 1, 0), "lex+bind-nofilt": (1, 1, 1, 1, 0, 0),
    "merged": (1, 1, 1, 1, 1, 0), "m-norescue": (1, 0, 1, 1, 1, 0), "m-nospk": (1, 1, 0, 1, 1, 0),
    "m-nolex": (0, 1, 1, 1, 1, 0), "m-rescue-agr": (1, 1, 1, 1, 1, 1),
}


def main() -> None:
    """Print the board of the sets and variants named on the command line."""
    sets = sys.argv[1].split(",")
    chosen = sys.argv[2].split(",") if len(sys.argv) > 2 else list(VARIANTS)
    print(f"{'set':14}" + "".join(f"{k:>17}" for k in chosen), flush=True)
    loaded = {}
    for name in sets:
        lang, path, singletons = lb.SETS[name]
        if lang not in loaded:
            nlp = spacy.load(lb.PIPELINES[lang][0])
            nlp.add_pipe("neuralcoref", config={"model": lb.PIPELINES[lang][1]})
            loaded[lang] = nlp
        nlp = loaded[lang]
        resolver = nlp.get_pipe("neuralcoref").resolver
        rules = resolver.rules
        conll, docs = lb.parsed(nlp, name, path)
        per = {}
        for filt in (0, 1):
            if not any(VARIANTS[v][4] == filt for v in chosen):
                continue
            resolver.rules = rules if filt else replace(rules, expletives=ExpletiveRules(), candidates=CandidateRules())
            items = [resolver.featurize_doc(doc) for doc in docs]
            scores = [resolver.score([it]) for it in items]
            bases = [{"names": name_words(doc, it.mentions.starts, it.mentions.ends, it.mentions.types),
                      "classes": mention_classes(doc, it.mentions.starts, it.mentions.ends, it.mentions.heads,
                                                 it.mentions.types, rules)}
                     for doc, it in zip(docs, items)]
            per[filt] = (scores, bases)
        resolver.rules = rules
        row = f"{name:14}"
        for v in chosen:
            lex, rescue, spk, bind, filt, agr = VARIANTS[v]
            scores, bases = per[filt]
            r = lb.score_decoded(resolver, conll, scores, singletons,
                                 lambda item, s, p, k: kwargs(item, bases[k], lex, rescue, spk, bind, agr,
                                                              resolver, s, p))
            row += f"{100 * r.conll_f1:10.2f}/{100 * r.muc.f1:6.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
