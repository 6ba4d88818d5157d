"""Build the compiled lexicons ``neuralcoref/lang/data/en_lexicon.txt.gz`` and
``fr_lexicon.txt.gz`` from the raw lexicons in ``../shared/data/lexicons/`` (see
its README and ``neuralcoref/lang/data/NOTICE`` for sources and licences).

    python bench/build_lexicon.py [--source /work/shared/data/lexicons] [--out neuralcoref/lang/data]

French (``fr_noun_classes.tsv``: WOLF's senses of each lemma as WordNet class
scores that sum to 1) has no sense order, only scores; the same four sections
are read from them (:func:`fr_noun_classes`), and no first names (the French
rules' ``gender_words`` hold them).

What is kept, and why (the classes are those of :mod:`neuralcoref.lexicon`):

- person: one-word nouns whose first WordNet sense is a person ("accountant",
  "sister"): they agree with he/she, never with "it"; but not nouns whose
  second class is an artifact ("printer", "scanner", "speaker"), which may be
  either. ``PROPER_FIRST_SENSES`` ("town", "job"), whose first sense is a
  proper name, are classed by their other senses.
- group: one-word nouns whose first sense is a group ("committee", "company"):
  "it" or "they", never he/she.
- inanimate: one-word nouns whose first sense is no person, animal or group,
  and with no person or animal class among their first ``FREQUENT_CLASSES``
  classes ("laptop", "book", "city"; "hair": body, quantity, plant, artifact,
  animal): only "it". WordNet lists a noun's senses most frequent first, so a
  person or animal class further down is a rare sense ("hair" of an animal's
  coat, "dish" for an attractive person) that need not make the noun agree
  with "he" or "she". A noun with a person or animal class among its first
  ones ("star", "head", "cat", "dog") is left out: it agrees with anything.
- thing: one-word nouns whose first sense is a concrete thing (an artifact,
  animal, food, natural object, plant or substance: "shop", "dog", "road"),
  or with an animal sense among their first two and no person or body part
  first ("cat", not "head"),
  the antecedents a referring "it" prefers (``LanguageRules.thing_salience``).
  Abstract nouns ("plan", "fact") and events are left out: an "it" near them
  is often an event or extraposed "it" that corpora do not annotate.
- none of them: nouns whose first sense is one of WordNet's unique beginners
  (``TOPS``: "person", "someone", "creature", "entity", "object"), which name
  a category, not a class.
- female, male: first names of one gender only (a name in both lists is left out).

The output is one section per class: a ``[class]`` line, then its words
space-separated on one line, sorted: gzip-compressed text that loads in a few
milliseconds with no parsing beyond ``str.split``.
"""
from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path
from typing import Dict, Iterable, List

ANIMATE = {"person", "animal"}
#: Classes, in sense order, in which a person or animal class keeps a noun out of
#: "inanimate". All of them (the rule until 2026-11-26): 99 inanimate nouns fewer;
#: only the first: LitBank dev -0.22 (docs/experiments/2026-11-26-acronyms.md).
FREQUENT_CLASSES = 3
#: WordNet's file of unique beginners ("entity", "person", "someone", "animal",
#: "creature", "object"): not a class of what the noun denotes, so a noun whose
#: first sense is there is left unclassed (agrees with anything) rather than
#: classed "inanimate" by its rarer senses ("person": body, communication).
TOPS = "Tops"
#: First-sense classes of the "thing" section; with "body" too ("his head ... it")
#: LitBank dev lost 0.06 (docs/experiments/2026-11-27-it-things.md).
THING_CLASSES = {"artifact", "animal", "food", "object", "plant", "substance"}
#: A noun with "animal" among its first classes is a thing too, unless it first
#: names a person or a body part: Open English WordNet lists "cat" as act,
#: animal, ... (same figures with the first three).
ANIMAL_CLASSES = 2
WORD = re.compile(r"^[a-z][a-z'-]*$")
#: Nouns whose first OEWN sense is a proper name folded into the lowercase lemma
#: ("Town", the architect; "Job"): classed by their other senses.
#: The nouns with a person first sense and others besides that OntoGUM and
#: LitBank train gold refer to as "it" twice or more and never as he, she or who
#: (``python bench/person_it_census.py``).
PROPER_FIRST_SENSES = frozenset({"balance", "browser", "job", "spirit", "town"})


def senses(path: Path) -> Dict[str, List[str]]:
    """Each lemma of ``en_noun_classes.tsv`` and its WordNet classes, in sense
    order (the first is the most frequent)."""
    out: Dict[str, List[str]] = {}
    with open(path, encoding="utf8") as f:
        for line in f:
            if not line.startswith("#"):
                lemma, _, classes = line.rstrip("\n").split("\t")
                out[lemma] = classes.split(",")
    return out


def noun_classes(path: Path) -> Dict[str, List[str]]:
    """person / group / inanimate / thing word lists from ``en_noun_classes.tsv``."""
    out: Dict[str, List[str]] = {"person": [], "group": [], "inanimate": [], "thing": []}
    for lemma, classes in senses(path).items():
        if not WORD.match(lemma):
            continue
        if lemma in PROPER_FIRST_SENSES:  # classed by its common senses
            classes = classes[1:]
        first, frequent = classes[0], set(classes[:FREQUENT_CLASSES])
        if first == TOPS:  # a top category ("person", "someone", "creature"): no class
            continue
        if first in THING_CLASSES or (first not in ("person", "body") and "animal" in classes[:ANIMAL_CLASSES]):
            out["thing"].append(lemma)
        # A person first agrees with he/she only, unless an artifact comes
        # second ("printer": either).
        if first == "person" and classes[1:2] != ["artifact"]:
            out["person"].append(lemma)
        elif first == "group":
            out["group"].append(lemma)
        elif first != "animal" and not frequent & ANIMATE:
            out["inanimate"].append(lemma)
    return out


#: French: the least score of a lemma's best class for "person" and "group", and
#: the most that person and animal senses may score in an "inanimate" noun
#: ("main": body 0.41, person 0.32 stays out) or artifact senses in a person
#: noun ("cuisinière" the cook or the stove).
FR_CLASS_SHARE, FR_ANIMATE_SHARE, FR_ARTIFACT_SHARE = 0.5, 0.1, 0.25
FR_WORD = re.compile(r"^[a-zàâäçéèêëîïôöùûüÿœæ][a-zàâäçéèêëîïôöùûüÿœæ'-]*$")


def fr_scores(path: Path) -> Dict[str, Dict[str, float]]:
    """Each one-word lemma of ``fr_noun_classes.tsv`` and its class scores."""
    out: Dict[str, Dict[str, float]] = {}
    with open(path, encoding="utf8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            lemma, _, scores, _ = line.rstrip("\n").split("\t")
            if FR_WORD.match(lemma):
                out[lemma] = {c: float(v) for c, v in (s.split(":") for s in scores.split(","))}
    return out


def fr_noun_classes(path: Path) -> Dict[str, List[str]]:
    """person / group / inanimate / thing word lists from ``fr_noun_classes.tsv``,
    by the same meaning as the English ones: a person noun mostly names a
    person and hardly an artifact; a group mostly a group; an inanimate noun has
    little person or animal sense; a thing is first a concrete thing, or an
    animal before a person or body part."""
    out: Dict[str, List[str]] = {"person": [], "group": [], "inanimate": [], "thing": []}
    for lemma, scores in fr_scores(path).items():
        best = max(scores, key=scores.get)
        animate = scores.get("person", 0.0) + scores.get("animal", 0.0)
        if best in THING_CLASSES or (best not in ("person", "body") and scores.get("animal", 0.0) >= 0.3):
            out["thing"].append(lemma)
        if best == "person" and scores[best] >= FR_CLASS_SHARE and scores.get("artifact", 0.0) < FR_ARTIFACT_SHARE:
            out["person"].append(lemma)
        elif best == "group" and scores[best] >= FR_CLASS_SHARE:
            out["group"].append(lemma)
        elif best not in ("person", "animal", "group") and animate < FR_ANIMATE_SHARE:
            out["inanimate"].append(lemma)
    return out


def first_names(folder: Path) -> Dict[str, List[str]]:
    """female / male first names, lowercase, without those of both genders."""
    female = _names(folder / "female.txt")
    male = _names(folder / "male.txt")
    return {"female": sorted(female - male), "male": sorted(male - female)}


def _names(path: Path) -> set:
    with open(path, encoding="utf8") as f:
        return {w.strip().lower() for w in f if w.strip() and not w.startswith("#")}


def write(sections: Dict[str, Iterable[str]], path: Path) -> None:
    """Write the sections as gzip text; mtime 0 keeps the file byte-identical across builds."""
    text = "".join(f"[{name}]\n{' '.join(sorted(set(words)))}\n" for name, words in sections.items())
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(text.encode("utf8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=Path("/work/shared/data/lexicons"))
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "neuralcoref/lang/data")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, sections in (
            ("en_lexicon", {**noun_classes(args.source / "en_noun_classes.tsv"), **first_names(args.source / "names")}),
            ("fr_lexicon", fr_noun_classes(args.source / "fr_noun_classes.tsv"))):
        path = args.out / f"{name}.txt.gz"
        write(sections, path)
        for section, words in sections.items():
            print(f"{name} {section:10} {len(words):6}")
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
