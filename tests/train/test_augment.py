"""Counterfactual gender augmentation: the swapped copy of a CoNLL document, and the
epochs that train on it."""
from pathlib import Path

import pytest

pytest.importorskip("torch", exc_type=ModuleNotFoundError)

from conftest import EN_PIPELINE, SAMPLE_CONLL  # noqa: E402
from neuralcoref.corpora.conll import read_conll_path  # noqa: E402
from neuralcoref.train import TrainConfig  # noqa: E402
from neuralcoref.train.augment import GenderSwapper, alternate, read_names, swapped_copies  # noqa: E402
from neuralcoref.train.folds import document_blocks, run_folds  # noqa: E402


def conll_doc(rows) -> str:
    lines = [f"d\t0\t{i}\t{word}\t{tag}\t-\t-\t-\t-\t-\t*\t{coref}" for i, (word, tag, coref) in enumerate(rows)]
    return "#begin document (d); part 000\n" + "\n".join(lines) + "\n\n#end document\n"


def words(text: str):
    return [line.split("\t")[3] for line in text.splitlines() if "\t" in line]


def test_augment_swaps_pronouns_by_tag_nouns_and_names_keeping_clusters():
    swapper = GenderSwapper((["Mary"], ["John"]))
    doc = conll_doc([("Mary", "NNP", "(1)"), ("saw", "VBD", "-"), ("her", "PRP$", "(2"), ("brother", "NN", "2)"),
                     ("and", "CC", "-"), ("thanked", "VBD", "-"), ("him", "PRP", "(2)"), ("and", "CC", "-"),
                     ("her", "PRP", "(1)"), ("Mary", "NNP", "(1)"), ("Smith", "NNP", "-"), ("Mr.", "NNP", "-")])
    swapped = swapper.swap_document(doc)
    assert words(swapped) == ["John", "saw", "his", "sister", "and", "thanked", "her", "and", "him", "John",
                              "Smith", "Mrs."]
    assert swapped.startswith("#begin document (d_swapped); part 000")
    # Only the word column changes: brackets, tags and line structure stay.
    for before, after in zip(doc.splitlines()[1:], swapped.splitlines()[1:]):
        assert before.split("\t")[4:] == after.split("\t")[4:]
    assert words(swapper.swap_document(swapped)) == words(doc)[:11] + ["Mr."]  # names map back one-to-one here


def test_augment_reads_names_of_one_gender_only(tmp_path):
    (tmp_path / "female.txt").write_text("Anna\nRobin\nDee Dee\n", encoding="utf8")
    (tmp_path / "male.txt").write_text("Peter\nRobin\n", encoding="utf8")
    assert read_names(tmp_path) == (["Anna"], ["Peter"])


def test_augment_copies_keep_every_document_and_its_clusters(tmp_path):
    copy, = swapped_copies([SAMPLE_CONLL], tmp_path, None)
    original, swapped = list(read_conll_path(SAMPLE_CONLL)), list(read_conll_path(copy))
    assert [d.doc_id + "_swapped" for d in original] == [d.doc_id for d in swapped]
    assert [d.clusters for d in original] == [d.clusters for d in swapped]
    assert len(document_blocks(copy)) == len(original)
    text = copy.read_text(encoding="utf8")
    assert " She " not in text and "\tHis\t" in text  # "Her brother" -> "His sister"


class _Data:
    def __init__(self, swapped=None):
        self.swapped = swapped


def test_augment_alternates_the_swapped_copy_every_other_epoch():
    copy = _Data()
    data, plain = _Data(copy), _Data()
    assert alternate([data, plain], 0) == [data, plain]
    assert alternate([data, plain], 1) == [copy, plain]
    assert alternate([data, plain], 2) == [data, plain]


def test_folds_run_with_gender_swap_trains_on_the_copies(tmp_path):
    cfg = TrainConfig.from_dict(TrainConfig(embedding_dim=4, single_hidden=[8], pair_hidden=[8], max_dist=20,
                                            phases=[{"loss": "softmax", "max_epochs": 2, "lr": 0.01}],
                                            gender_swap=True).to_dict())
    result = run_folds([SAMPLE_CONLL], EN_PIPELINE, tmp_path / "runs" / "swap", cfg, k=3, only=[0], progress=False)
    assert len(result["folds"]) == 1 and len(result["folds"][0]["losses"]) == 2
    assert sorted(p.name for p in (tmp_path / "runs" / "cache" / "folds").glob("*.swapped.conll")) == [
        f"fold_{k}.swapped.conll" for k in range(3)]


def test_swapped_train_of_a_folder_is_one_folder_of_every_file(tmp_path):
    from neuralcoref.train.trainer import _swapped_train

    src = tmp_path / "train"
    src.mkdir()
    text = Path(SAMPLE_CONLL).read_text(encoding="utf8")
    (src / "a.conll").write_text(text, encoding="utf8")
    (src / "b.conll").write_text(text, encoding="utf8")
    out = _swapped_train(src, tmp_path / "swapped", None)
    assert out.is_dir() and sorted(p.name for p in out.iterdir()) == ["a.swapped.conll", "b.swapped.conll"]
    (src / "b.conll").unlink()
    assert sorted(p.name for p in _swapped_train(src, tmp_path / "swapped", None).iterdir()) == ["a.swapped.conll"]
    single = _swapped_train(src / "a.conll", tmp_path / "swapped", None)
    assert single == tmp_path / "swapped" / "a.swapped.conll" and single.is_file()
