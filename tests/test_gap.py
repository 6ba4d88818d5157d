"""Tests of the GAP reader, the clusters-to-decisions rule and the GAP scores."""
from pathlib import Path
from typing import List, Tuple

import pytest

from neuralcoref.corpora.gap import COLUMNS, GapExample, decide, read_gap, score_gap
from neuralcoref.errors import NeuralcorefError

#: (id, text, pronoun, A, A-coref, B, B-coref): offsets are the first occurrences
#: (the pronoun's: the last word-bounded one, so "He" is not found in "Helen").
ROWS = [
    ("dev-1", "John met Bill at the bar. He bought him a drink.", "He", "John", True, "Bill", False),
    ("dev-2", "Mary called Anna's sister because she needed help.", "she", "Mary", True, "Anna", False),
    ("dev-3", "Zoe thanked Kate, and her mother smiled.", "her", "Zoe", False, "Kate", True),
]


def _line(row: Tuple) -> str:
    id_, text, pronoun, a, a_coref, b, b_coref = row
    p = text.index(f" {pronoun} ") + 1
    cells = [id_, text, pronoun, p, a, text.index(a), str(a_coref).upper(), b, text.index(b),
             str(b_coref).upper(), f"http://en.wikipedia.org/wiki/{id_}"]
    return "\t".join(map(str, cells))


def write_gap(path: Path, rows: List[Tuple] = ROWS, header: str = "\t".join(COLUMNS)) -> Path:
    path.write_text("\n".join([header, *map(_line, rows)]) + "\n", encoding="utf8")
    return path


def mention(text: str, words: str, head: str = None, start: int = 0) -> Tuple[int, int, int, int]:
    """(start, end, head start, head end) of the first ``words`` from ``start``, head
    ``head`` (default: the whole mention)."""
    begin = text.index(words, start)
    head_begin = text.index(head, begin) if head else begin
    return (begin, begin + len(words), head_begin, head_begin + len(head or words))


@pytest.fixture
def examples(tmp_path) -> List[GapExample]:
    return read_gap(write_gap(tmp_path / "gap.tsv"))


def test_gap_read_gives_offsets_labels_and_gender(examples):
    assert [e.id for e in examples] == ["dev-1", "dev-2", "dev-3"]
    first = examples[0]
    assert first.text[slice(*first.pronoun_span)] == "He" and first.pronoun_offset == 26
    assert first.text[slice(*first.a_span)] == "John" and first.text[slice(*first.b_span)] == "Bill"
    assert (first.a_coref, first.b_coref) == (True, False)
    assert [e.gender for e in examples] == ["M", "F", "F"]


def test_gap_reads_the_shared_files_with_every_offset_checked(shared_data):
    dev = read_gap(shared_data / "gap" / "gap-development.tsv")
    assert len(dev) == 2000 and sum(e.gender == "F" for e in dev) == 1000


@pytest.mark.parametrize("edit,code", [
    (lambda line: line.replace("\tTRUE\t", "\tyes\t", 1), "E035"),
    (lambda line: line.replace("\t26\t", "\t27\t", 1), "E036"),
    (lambda line: "\t".join(line.split("\t")[:5]), "E035"),
    (lambda line: line.replace("\tHe\t", "\tThey\t", 1).replace("He bought", "They bought"), "E035"),
], ids=["bad-label", "offset-off-the-name", "missing-columns", "not-a-gendered-pronoun"])
def test_gap_read_rejects_bad_rows_with_the_line(tmp_path, edit, code):
    path = write_gap(tmp_path / "gap.tsv")
    lines = path.read_text(encoding="utf8").splitlines()
    lines[1] = edit(lines[1])
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    with pytest.raises(NeuralcorefError, match=rf"\[{code}\] Line 2 of the GAP file"):
        read_gap(path)


def test_gap_read_rejects_another_header_and_a_missing_file(tmp_path):
    with pytest.raises(NeuralcorefError, match=r"\[E034\].*not a GAP file"):
        read_gap(write_gap(tmp_path / "gap.tsv", header="id\ttext"))
    with pytest.raises(NeuralcorefError, match=r"\[E032\] No GAP file"):
        read_gap(tmp_path / "missing.tsv")


def test_gap_decide_links_a_name_in_the_pronouns_cluster(examples):
    first = examples[0]
    text = first.text
    john, bill, he = mention(text, "John"), mention(text, "Bill"), mention(text, "He")
    assert decide(first, [[john, he], [bill, mention(text, "him")]]) == (True, False)
    assert decide(first, [[john, bill, he]]) == (True, True)


def test_gap_decide_says_no_twice_when_the_pronoun_is_no_mention(examples):
    first = examples[0]
    text = first.text
    assert decide(first, [[mention(text, "John"), mention(text, "Bill")]]) == (False, False)
    assert decide(first, []) == (False, False)


def test_gap_decide_matches_a_name_by_the_mentions_head(examples):
    # "Anna's sister" overlaps "Anna" but its head, "sister", does not: not Anna.
    second = examples[1]
    text = second.text
    sister = mention(text, "Anna's sister", head="sister")
    assert decide(second, [[sister, mention(text, "she")]]) == (False, False)
    assert decide(second, [[mention(text, "Anna's", head="Anna"), mention(text, "she")]]) == (False, True)
    # "her mother" is not the pronoun "her": its head is "mother".
    third = examples[2]
    text = third.text
    assert decide(third, [[mention(text, "Zoe"), mention(text, "her mother", head="mother")]]) == (False, False)


def test_gap_scores_by_gender_and_bias(examples):
    texts = [e.text for e in examples]
    clusters = [
        [[mention(texts[0], "John"), mention(texts[0], "He")]],  # A right, B right
        [[mention(texts[1], "Mary"), mention(texts[1], "Anna's sister", head="sister"),
          mention(texts[1], "she")]],  # A right, B right (by the head rule)
        [[mention(texts[2], "Zoe"), mention(texts[2], "her", start=20)]],  # A wrong, B missed
    ]
    decisions = [decide(e, c) for e, c in zip(examples, clusters)]
    assert decisions == [(True, False), (True, False), (True, False)]
    scores = score_gap(examples, decisions)
    assert (scores.masculine.tp, scores.masculine.tn, scores.masculine.fp, scores.masculine.fn) == (1, 1, 0, 0)
    assert (scores.feminine.tp, scores.feminine.tn, scores.feminine.fp, scores.feminine.fn) == (1, 1, 1, 1)
    assert scores.masculine.f1 == 1.0
    assert scores.feminine.f1 == pytest.approx(0.5)
    assert scores.overall.f1 == pytest.approx(2 / 3)
    assert scores.bias == pytest.approx(0.5)
    figures = scores.to_dict()
    assert figures["overall"]["f1"] == pytest.approx(200 / 3) and figures["examples"] == 3


def test_gap_scores_need_one_decision_per_example(examples):
    with pytest.raises(NeuralcorefError, match=r"\[E037\] Got 2 GAP decisions for 3 examples"):
        score_gap(examples, [(True, False)] * 2)
    assert score_gap(examples, [(False, False)] * 3).bias is None  # masculine F1 is 0
