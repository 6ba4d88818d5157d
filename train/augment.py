"""Counterfactual gender augmentation: a copy of each training document with its genders swapped.

A model trained on text where "he" outnumbers "she" links feminine pronouns
worse (GAP: bias F/M below 1). Training on each document and on its copy with
gendered pronouns, gendered nouns and first names swapped (Zhao et al. 2018,
Lu et al. 2020) balances what the scorers see, without changing a cluster: the
copy keeps every token boundary and every coreference bracket. The copy replaces
its original every other epoch (:func:`alternate`): the same training time.

Swaps work on CoNLL-2012 lines (word in column 4, part of speech in column 5):
"her" becomes "his" as a possessive determiner (PRP$) and "him" otherwise; a
first name found in one gender's list only becomes a name of the other gender,
the same one for every occurrence in the document (picked by a stable hash, so
the copy is reproducible). Names lists: one name per line, e.g.
``../shared/data/lexicons/names/{female,male}.txt`` (Names Corpus, Mark
Kantrowitz and Bill Ross: see that folder's README for its terms).
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from neuralcoref.errors import Errors, NeuralcorefError

#: Gendered words and their counterpart, lowercase, both directions added below.
_PAIRS = """
he she|himself herself|man woman|men women|boy girl|boys girls|father mother|fathers mothers
dad mom|dads moms|daddy mommy|papa mama|son daughter|sons daughters|brother sister
brothers sisters|husband wife|husbands wives|uncle aunt|uncles aunts|nephew niece|nephews nieces
grandfather grandmother|grandfathers grandmothers|grandpa grandma|grandson granddaughter
grandsons granddaughters|king queen|kings queens|prince princess|princes princesses|duke duchess
emperor empress|groom bride|grooms brides|boyfriend girlfriend|boyfriends girlfriends
widower widow|actor actress|actors actresses|waiter waitress|waiters waitresses|hero heroine
monk nun|monks nuns|sir madam|mr. mrs.|mr mrs|lad lass|gentleman lady|gentlemen ladies
fiance fiancee|stepfather stepmother|stepson stepdaughter|stepbrother stepsister
businessman businesswoman|businessmen businesswomen|policeman policewoman|policemen policewomen
chairman chairwoman|spokesman spokeswoman|congressman congresswoman|baron baroness|god goddess
priest priestess|heir heiress|landlord landlady|masculine feminine|male female|males females
boyhood girlhood|brotherhood sisterhood|fraternity sorority|manhood womanhood
"""
#: Pronouns whose counterpart depends on the part of speech: (word, tag) -> counterpart.
_BY_TAG = {("her", "PRP$"): "his", ("her", "PRP"): "him", ("his", "PRP$"): "her", ("his", "PRP"): "hers",
           ("him", "PRP"): "her", ("hers", "PRP"): "his"}
#: Titles, tagged as proper nouns, that are swapped like nouns.
_TITLES = ("mr", "mr.", "mrs", "mrs.")


def swap_table() -> Dict[str, str]:
    """Lowercase gendered word -> its counterpart (both directions)."""
    table: Dict[str, str] = {}
    for pair in _PAIRS.replace("\n", "|").split("|"):
        words = pair.split()
        if len(words) == 2:
            a, b = words
            table.setdefault(a, b)
            table.setdefault(b, a)
    return table


def read_names(folder: Union[str, Path]) -> Tuple[List[str], List[str]]:
    """First names of one gender only: (female, male), from ``female.txt`` and
    ``male.txt`` in ``folder``; a name in both lists, or of two words, is in neither result."""
    female, male = (_one_word_names(Path(folder) / name) for name in ("female.txt", "male.txt"))
    return sorted(female - male), sorted(male - female)


def _one_word_names(path: Path) -> set:
    # A name of two words ("Dee Dee") would split a CoNLL token in two.
    return {n.strip() for n in path.read_text(encoding="utf8").splitlines() if n.strip() and " " not in n.strip()}


def _case_like(word: str, model: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


class GenderSwapper:
    """Swaps the genders of CoNLL documents' words.

    names (Tuple[List[str], List[str]] | None): (female, male) first names of
        one gender each (:func:`read_names`); None: names stay.
    """

    def __init__(self, names: Optional[Tuple[Sequence[str], Sequence[str]]] = None):
        self.table = swap_table()
        female, male = names or ([], [])
        self.female, self.male = list(female), list(male)
        self.gender = {**{n.lower(): "f" for n in self.female}, **{n.lower(): "m" for n in self.male}}

    def swap_word(self, word: str, tag: str, names: Dict[str, str]) -> str:
        """The counterpart of one token (itself when it has no gender).

        names (Dict[str, str]): the document's name choices so far (updated).
        """
        lower = word.lower()
        if (lower, tag) in _BY_TAG:
            return _case_like(_BY_TAG[(lower, tag)], word)
        if lower in self.table and (not tag.startswith("NNP") or lower in _TITLES):
            return _case_like(self.table[lower], word)
        if tag.startswith("NNP") and lower in self.gender:
            if lower not in names:
                others = self.male if self.gender[lower] == "f" else self.female
                names[lower] = others[zlib.crc32(lower.encode("utf8")) % len(others)] if others else word
            return _case_like(names[lower], word)
        return word

    def swap_document(self, text: str) -> str:
        """One CoNLL document (``#begin`` to ``#end`` lines) with genders swapped
        and ``_swapped`` added to its id; other columns unchanged."""
        names: Dict[str, str] = {}
        lines = []
        for line in text.splitlines(keepends=True):
            if line.startswith("#begin document ("):
                head, rest = line.split(")", 1)
                lines.append(f"{head}_swapped){rest}")
                continue
            sep = "\t" if "\t" in line else " "
            cols = line.rstrip("\n").split("\t") if sep == "\t" else line.split()
            if line.startswith("#") or len(cols) < 5:
                lines.append(line)
                continue
            swapped = self.swap_word(cols[3], cols[4], names)
            if swapped != cols[3]:
                cols[3] = swapped
                line = sep.join(cols) + "\n"
            lines.append(line)
        return "".join(lines)


_BEGIN = re.compile(r"^#begin document \((?P<id>.*?)\);?(?: part (?P<part>\d+))?")


def document_blocks(path: Union[str, Path]) -> List[Tuple[str, str]]:
    """Split a CoNLL-2012 file into its documents' text, as written.

    RETURNS (List[Tuple[str, str]]): ("id part", text from ``#begin document``
        to ``#end document`` inclusive, with a final newline), in file order.
    RAISES (NeuralcorefError): E236 for a file without documents or with an
        unterminated one.
    """
    blocks: List[Tuple[str, str]] = []
    key, lines = None, []
    with Path(path).open(encoding="utf8") as handle:
        for line in handle:
            match = _BEGIN.match(line)
            if match:
                if key is not None:
                    raise NeuralcorefError(Errors.E236.format(path=path, reason=f"document '{key}' has no end"))
                key, lines = f"{match['id']} {int(match['part'] or 0):03d}", [line]
            elif key is not None:
                lines.append(line)
                if line.startswith("#end document"):
                    blocks.append((key, "".join(lines).rstrip("\n") + "\n"))
                    key = None
    if key is not None or not blocks:
        reason = f"document '{key}' has no end" if key is not None else "no '#begin document' line"
        raise NeuralcorefError(Errors.E236.format(path=path, reason=reason))
    return blocks


def write_swapped(path: Union[str, Path], out: Union[str, Path], swapper: GenderSwapper) -> Path:
    """Write the gender-swapped copy of every document of the CoNLL file ``path``
    to ``out`` (left untouched when it already holds the same text)."""
    text = "".join(swapper.swap_document(block) for _, block in document_blocks(path))
    out = Path(out)
    if not out.is_file() or out.read_text(encoding="utf8") != text:
        out.write_text(text, encoding="utf8")
    return out


def swapped_copies(paths: Sequence[Union[str, Path]], folder: Union[str, Path],
                   names_dir: Optional[Union[str, Path]]) -> List[Path]:
    """The gender-swapped copy of every CoNLL file of ``paths`` (files or
    folders), written in ``folder`` (``NAME.swapped.conll``).

    names_dir (str | Path | None): the first-name lists (:func:`read_names`);
        None: names stay as they are.
    RETURNS (List[Path]): the copies, in the order of the files.
    """
    from neuralcoref.corpora.conll import conll_files

    swapper = GenderSwapper(read_names(names_dir) if names_dir else None)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [write_swapped(file, folder / f"{Path(file).stem}.swapped.conll", swapper)
            for path in paths for file in conll_files(path)]


def alternate(datasets: Sequence, epoch: int) -> List:
    """The datasets an epoch trains on: every odd epoch (0-based) a dataset's
    gender-swapped copy (its ``swapped``, when it has one) instead of itself, so
    that the swap costs no extra training time and each document is seen in
    both genders."""
    return [data.swapped if epoch % 2 and getattr(data, "swapped", None) is not None else data
            for data in datasets]
