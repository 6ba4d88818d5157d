"""Tests of the CoNLL-2012 reader and writer (neuralcoref/corpora/conll.py)."""
import io
from pathlib import Path
from typing import List, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuralcoref.corpora.conll import (
    ConllDocument,
    coref_cells,
    read_conll,
    read_conll_lines,
    read_conll_path,
    write_conll,
)
from neuralcoref.errors import ConllFormatError

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "conll_data" / "sample.english.v4_gold_conll"


def document(cells: Sequence[str], header: str = "(doc); part 000", n_columns: int = 5) -> str:
    """A one-sentence document whose token i has coreference cell cells[i]."""
    lines = [f"#begin document {header}"]
    for i, cell in enumerate(cells):
        extra = ["-"] * (n_columns - 5)
        lines.append("\t".join(["doc", "0", str(i), f"w{i}", *extra, cell]))
    return "\n".join(lines + ["", "#end document", ""])


def read_one(text: str) -> ConllDocument:
    docs = list(read_conll_lines(io.StringIO(text)))
    assert len(docs) == 1
    return docs[0]


def as_sets(clusters) -> set:
    return {frozenset(map(tuple, cluster)) for cluster in clusters}


@pytest.mark.parametrize(
    "cells,expected",
    [
        (["(3)", "-"], [[(0, 1)]]),
        (["(3", "-", "3)"], [[(0, 3)]]),
        (["(3|(4)", "3)"], [[(0, 2)], [(0, 1)]]),
        (["(3(4)", "3)"], [[(0, 2)], [(0, 1)]]),
        (["(2", "(3", "2)3)"], [[(0, 3)], [(1, 3)]]),
        (["(1", "(2", "2)", "1)"], [[(0, 4)], [(1, 3)]]),
        (["(1", "(2", "1)", "2)"], [[(0, 3)], [(1, 4)]]),
        (["(1", "(1", "1)", "1)"], [[(1, 3), (0, 4)]]),
        (["(1|(1)", "1)"], [[(0, 1), (0, 2)]]),
        (["(7)|(8)", "_", "-"], [[(0, 1)], [(0, 1)]]),
    ],
    ids=["single", "multi", "joined", "run-together-open", "run-together-close",
         "nested", "crossing", "same-cluster-nested", "same-cluster-same-start", "two-singles"],
)
def test_conll_bracket_forms(cells: List[str], expected):
    doc = read_one(document(cells))
    assert as_sets(doc.clusters) == as_sets(expected)
    assert len(doc) == len(cells)


def test_conll_clusters_in_order_of_first_appearance():
    doc = read_one(document(["(9", "(4)", "9)", "(9)"]))
    assert doc.clusters == [[(0, 3), (3, 4)], [(1, 2)]]


def test_conll_cells_removed_part_by_part_as_the_reference_does():
    # The reference removes '(2)' first, which joins '(1' and '3)' into '(13)'.
    doc = read_one(document(["(1(2)3)"]))
    assert doc.clusters == [[(0, 1)], [(0, 1)]]
    assert len(doc.clusters) == 2


def test_conll_split_antecedent_parts_are_discarded():
    doc = read_one(document(["(12+3)|(5)"]))
    assert doc.clusters == [[(0, 1)]]


def test_conll_several_parts_per_document_id():
    text = document(["(1)"], "(news/abc); part 000") + document(["-", "(2)"], "(news/abc); part 001")
    docs = list(read_conll_lines(io.StringIO(text)))
    assert [d.key for d in docs] == [("news/abc", "000"), ("news/abc", "001")]
    assert docs[1].clusters == [[(1, 2)]]


def test_conll_header_without_part():
    doc = read_one(document(["-"], "(LuoTestCase); "))
    assert doc.key == ("LuoTestCase", "")
    assert doc.header == "(LuoTestCase); "


def test_conll_speakers_present_with_twelve_columns():
    doc = read_one(document(["(1)", "-"], n_columns=12))
    assert doc.speakers == ["-", "-"]
    assert doc.words == ["w0", "w1"]


def test_conll_speakers_absent_with_five_columns():
    doc = read_one(document(["(1)", "-"]))
    assert doc.speakers is None
    assert doc.words == ["w0", "w1"]


def test_conll_sample_speakers_and_sentences():
    docs = list(read_conll(SAMPLE))
    assert [d.doc_id for d in docs] == ["sample_bakery", "sample_hike", "sample_dialogue"]
    assert set(docs[2].speakers) == {"Lena", "Omar"}
    assert sum(len(d) for d in docs) == 135
    assert docs[0].sentence_starts[0] and len(docs[0].sentence_lengths) == 5


def test_conll_columns_split_on_any_blanks():
    text = "#begin document (d); part 0\nd 0 0  John    (1)\nd\t0 1 \t runs -\n#end document\n"
    doc = read_one(text)
    assert doc.rows == [["d", "0", "0", "John"], ["d", "0", "1", "runs"]]
    assert doc.clusters == [[(0, 1)]]


def test_conll_no_break_space_stays_in_its_word():
    text = "#begin document (d); part 0\nd\t0\t0\t10\u00a0000\t-\n#end document\n"
    assert read_one(text).words == ["10\u00a0000"]


@pytest.mark.parametrize("first_empty", [False, True], ids=["later-line", "first-line"])
def test_conll_empty_last_cell(first_empty: bool):
    lines = ["d\t0\t0\tJohn\t(1)", "d\t0\t1\truns\t", "d\t0\t2\the\t(1)"]
    if first_empty:
        lines[0] = "d\t0\t0\tJohn\t"
    doc = read_one("#begin document (d); part 0\n" + "\n".join(lines) + "\n#end document\n")
    assert doc.rows[1] == ["d", "0", "1", "runs"]
    assert doc.clusters == ([[(2, 3)]] if first_empty else [[(0, 1), (2, 3)]])


def test_conll_trailing_tab_after_a_cell_is_ignored():
    doc = read_one("#begin document (d); \nd\t0\t0\ta\t(0)\t\nd\t0\t1\tb\t-\n#end document\n")
    assert doc.clusters == [[(0, 1)]]
    assert len(doc.rows[0]) == 4


def test_conll_hash_line_inside_a_document_is_a_token():
    doc = read_one("#begin document (d); \n#\t(0)\nwe\t(0)\n#end document\n")
    assert doc.words == ["#", "we"]
    assert doc.clusters == [[(0, 1), (1, 2)]]


def test_conll_comments_outside_documents_are_skipped():
    docs = list(read_conll_lines(io.StringIO("# a comment\n\n" + document(["-"]))))
    assert len(docs) == 1


def write_file(tmp_path: Path, text: str, name: str = "bad.v4_gold_conll") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf8") if isinstance(text, str) else text)
    return path


@pytest.mark.parametrize(
    "text,code,line",
    [
        ("#begin document (d); \nd 0 0 a (1\nd 0 1 b 2)\n#end document\n", "E005", 3),
        ("#begin document (d); \nd 0 0 a -\nd 0 1 b (4\nd 0 2 c -\n#end document\n", "E006", 3),
        ("#begin document (d); \nd 0 0 a -\n\nd 0 1 b -\n", "E002", 4),
        ("#begin document (d); \nd 0 0 a -\n#begin document (e); \n", "E003", 3),
        ("#begin document (d); \nd 0 0 a -\n#end document\nd 0 1 b -\n", "E001", 4),
        ("d 0 0 a -\n", "E001", 1),
        ("#begin document (d); \nd 0 0 a -\nd 0 1 b x -\n#end document\n", "E004", 3),
        ("#begin document (d); \nd 0 0 a -\nd 0 1 b *\n#end document\n", "E007", 3),
        ("#begin document (d); \nd 0 0 a ((1))\n#end document\n", "E007", 2),
        ("\n#end document\n", "E008", 2),
        ("#begin document (d); \n(1)\n#end document\n", "E014", 2),
        (b"#begin document (d); \nd 0 0 \xff -\n#end document\n", "E013", 2),
    ],
    ids=["close-without-open", "open-never-closed", "missing-end", "begin-inside-document",
         "token-after-end", "token-before-begin", "column-count", "bad-cell",
         "bad-brackets", "end-without-begin", "one-column", "not-utf8"],
)
def test_conll_malformed_file_names_file_and_line(tmp_path: Path, text, code: str, line: int):
    path = write_file(tmp_path, text)
    with pytest.raises(ConllFormatError) as info:
        list(read_conll(path))
    err = info.value
    assert str(err).startswith(f"[{code}]")
    assert err.path == str(path) and err.line == line
    assert f"{path}, line {line})" in str(err)


def test_conll_missing_file_is_a_coded_error(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match=r"\[E009\]"):
        list(read_conll(tmp_path / "missing.conll"))
    with pytest.raises(FileNotFoundError, match=r"\[E010\]"):
        list(read_conll_path(tmp_path))


def test_conll_folder_reads_files_in_name_order(tmp_path: Path):
    write_file(tmp_path, document(["-"], "(b); part 000"), "b.v4_gold_conll")
    write_file(tmp_path, document(["-"], "(a); part 000"), "a.v4_gold_conll")
    write_file(tmp_path, "not conll", "notes.txt")
    assert [d.doc_id for d in read_conll_path(tmp_path)] == ["a", "b"]


def test_conll_utf8_bom_is_skipped(tmp_path: Path):
    path = write_file(tmp_path, b"\xef\xbb\xbf" + document(["(1)"]).encode("utf8"))
    assert [d.clusters for d in read_conll(path)] == [[[(0, 1)]]]


def test_conll_round_trip_keeps_rows_header_and_clusters(tmp_path: Path):
    original = (ROOT / "tests" / "fixtures" / "scorer_tests" / "TC-A.key").read_text()
    docs = list(read_conll_lines(io.StringIO(original)))
    out = io.StringIO()
    write_conll(out, docs)
    assert out.getvalue().startswith("#begin document (LuoTestCase); \n")
    again = list(read_conll_lines(io.StringIO(out.getvalue())))
    assert [(d.key, d.rows, d.sentence_lengths, d.clusters) for d in again] == \
        [(d.key, d.rows, d.sentence_lengths, d.clusters) for d in docs]


def test_conll_round_trip_of_shared_dev(shared_data: Path, tmp_path: Path):
    docs = list(read_conll(shared_data / "ontogum" / "dev.english.v4_gold_conll"))
    write_conll(tmp_path / "dev.conll", docs)
    again = list(read_conll(tmp_path / "dev.conll"))
    assert [as_sets(d.clusters) for d in again] == [as_sets(d.clusters) for d in docs]
    assert [d.rows for d in again] == [d.rows for d in docs]


def test_conll_write_predicted_clusters_into_a_copy_of_the_key():
    doc = read_one(document(["(1)", "-", "(1)"]))
    out = io.StringIO()
    write_conll(out, [doc], [[[(1, 3)]]])
    assert read_one(out.getvalue()).clusters == [[(1, 3)]]


def test_conll_writer_keeps_columns_readable():
    doc = ConllDocument("d", "0", rows=[["d", "0", "0", "New York"], ["d", "0", "1", ""]],
                        sentence_lengths=[2], clusters=[[(0, 1)]])
    out = io.StringIO()
    write_conll(out, [doc])
    again = read_one(out.getvalue())
    assert again.words == ["New_York", "-"]
    assert again.clusters == [[(0, 1)]]


@pytest.mark.parametrize(
    "doc,clusters,code",
    [
        (ConllDocument("d", rows=[["a"]], sentence_lengths=[]), None, "E015"),
        (ConllDocument("d", rows=[["a"]], sentence_lengths=[1]), [[[(0, 2)]]], "E017"),
        (ConllDocument("d", rows=[["a"]], sentence_lengths=[1]), [[], []], "E016"),
    ],
    ids=["sentence-lengths", "span-outside", "cluster-count"],
)
def test_conll_writer_rejects_inconsistent_input(doc, clusters, code: str):
    with pytest.raises(ValueError, match=rf"\[{code}\]"):
        write_conll(io.StringIO(), [doc], clusters)


def test_conll_coref_cells_order():
    cells = coref_cells(3, [[(0, 3), (0, 1)], [(0, 2)]])
    assert cells == ["(0|(1|(0)", "1)", "0)"]


@st.composite
def clusterings(draw):
    """Clusters over a short document: nested and crossing mentions of different
    clusters, nested mentions of one cluster; never two crossing mentions of one
    cluster, which the format cannot hold."""
    n_tokens = draw(st.integers(1, 12))
    span = st.integers(0, n_tokens - 1).flatmap(
        lambda start: st.tuples(st.just(start), st.integers(start + 1, n_tokens)))
    clusters = []
    for candidate in draw(st.lists(st.lists(span, min_size=1, max_size=5), max_size=6)):
        cluster: List = []
        for s in candidate:
            if s not in cluster and all(_nested_or_apart(s, t) for t in cluster):
                cluster.append(s)
        clusters.append(cluster)
    return n_tokens, clusters


def _nested_or_apart(a, b) -> bool:
    (s1, e1), (s2, e2) = a, b
    return e1 <= s2 or e2 <= s1 or (s1 <= s2 and e2 <= e1) or (s2 <= s1 and e1 <= e2)


@settings(deadline=None)
@given(clusterings())
def test_conll_write_then_read_gives_the_same_clusters(clustering):
    n_tokens, clusters = clustering
    doc = ConllDocument("d", "000", rows=[["d", "0", str(i), f"w{i}"] for i in range(n_tokens)],
                        sentence_lengths=[n_tokens], clusters=clusters)
    out = io.StringIO()
    write_conll(out, [doc])
    again = read_one(out.getvalue())
    assert sorted(map(sorted, again.clusters)) == sorted(sorted(c) for c in clusters if c)
