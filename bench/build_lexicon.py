"""Build the compiled English lexicon ``neuralcoref/lang/data/en_lexicon.txt.gz``
from the raw lexicons in ``../shared/data/lexicons/`` (see its README and
``neuralcoref/lang/data/NOTICE`` for sources and licences).

    python bench/build_lexicon.py [--source /work/shared/data/lexicons] [--out neuralcoref/lang/data]

What is kept, and why (the classes are those of :mod:`neuralcoref.lexicon`):

- person: one-word nouns whose first WordNet sense is a person ("accountant",
  "sister"): they agree with he/she, never with "it".
- group: one-word nouns whose first sense is a group ("committee", "company"):
  "it" or "they", never he/she.
- inanimate: one-word nouns with no person, animal or group sense among their
  first and other senses except a group sense that is not the first ("laptop",
  "book", "city"): only "it". A noun with a person or animal sense anywhere
  ("star", "head", "cat", "dog") is left out: it agrees with anything.
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
WORD = re.compile(r"^[a-z][a-z'-]*$")


def noun_classes(path: Path) -> Dict[str, List[str]]:
    """person / group / inanimate word lists from ``en_noun_classes.tsv``."""
    out: Dict[str, List[str]] = {"person": [], "group": [], "inanimate": []}
    with open(path, encoding="utf8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            lemma, first, every = line.rstrip("\n").split("\t")
            if not WORD.match(lemma):
                continue
            senses = set(every.split(","))
            if first == "person":
                out["person"].append(lemma)
            elif first == "group":
                out["group"].append(lemma)
            elif first != "animal" and not senses & ANIMATE:
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
    sections = {**noun_classes(args.source / "en_noun_classes.tsv"), **first_names(args.source / "names")}
    args.out.mkdir(parents=True, exist_ok=True)
    write(sections, args.out / "en_lexicon.txt.gz")
    for name, words in sections.items():
        print(f"{name:10} {len(words):6}")
    print(f"wrote {args.out / 'en_lexicon.txt.gz'} ({(args.out / 'en_lexicon.txt.gz').stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
