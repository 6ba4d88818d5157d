"""Nouns whose first WordNet class is a person that training gold refers to
as "it": where Open English WordNet's first sense is a proper name folded into
the lowercase lemma ("Town", "Job"), the noun's common sense is a thing.

    python bench/person_it_census.py [--min-it 2] \\
        ../shared/data/ontogum/train.english.v4_gold_conll ../shared/data/litbank/train.english.v4_gold_conll

Prints, per noun with a person first sense and other senses besides, the gold
clusters holding it with "it"/"its"/"itself", with he/she/who, and in all;
the nouns with at least ``--min-it`` "it" clusters and no he/she one are
``bench/build_lexicon.py``'s ``PROPER_FIRST_SENSES``.
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from build_lexicon import senses
from neuralcoref.api import load_spacy
from neuralcoref.corpora.conll import read_conll_path
from neuralcoref.corpora.gold import parse_conll_docs

IT = {"it", "its", "itself"}
PERSONAL = {"he", "him", "his", "himself", "she", "her", "hers", "herself", "who", "whom", "whose"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("conll", nargs="+", type=Path)
    parser.add_argument("--spacy-model", default=None)
    parser.add_argument("--source", type=Path, default=Path("/work/shared/data/lexicons/en_noun_classes.tsv"))
    parser.add_argument("--min-it", type=int, default=2)
    args = parser.parse_args()
    classes = senses(args.source)
    nlp = load_spacy(args.spacy_model, lang="en")
    with_it, with_person, total = Counter(), Counter(), Counter()
    for path in args.conll:
        for gold, doc in parse_conll_docs(nlp, read_conll_path(path)):
            for cluster in gold.clusters:
                words = {doc[s].lower_ for s, e in cluster if e - s == 1}
                for s, e in cluster:
                    head = doc[s:e].root  # a noun is looked up by its lemma
                    lemma = head.lemma_.lower()
                    own = classes.get(lemma, [])
                    if head.pos_ != "NOUN" or own[:1] != ["person"] or len(own) < 2:
                        continue
                    total[lemma] += 1
                    with_it[lemma] += bool(words & IT)
                    with_person[lemma] += bool(words & PERSONAL)
    print(f"{'noun':14} {'it':>4} {'he/she':>6} {'all':>5}  senses")
    for lemma, n in with_it.most_common():
        if n >= args.min_it and not with_person[lemma]:
            print(f"{lemma:14} {n:4} {with_person[lemma]:6} {total[lemma]:5}  {','.join(classes[lemma])}")


if __name__ == "__main__":
    main()
