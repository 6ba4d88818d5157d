"""Batch runs against hostile files and texts (issue 58): outputs locked by file
identity, not name; a deadline per record; FIFOs, missing inputs, a full disk and
NaN answered with coded errors."""
import errno
import json
import os
import resource
import time
from pathlib import Path

import pytest

import neuralcoref.apps.batch as batch
from neuralcoref.apps.batch import resolve_jsonl
from neuralcoref.apps.output_guard import locked_output
from neuralcoref.errors import NeuralcorefError

LINES = ['{"text": "Anna said she left."}', '{"text": "Tom lent his bike to Anna."}',
         '{"text": "My sister has a dog. She loves him."}']


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(line + "\n" for line in LINES * 3), encoding="utf8")
    return path


def strict_json(line: str):
    def refuse(name):
        raise ValueError(f"{name} in the output")
    return json.loads(line, parse_constant=refuse)


def records(path: Path):
    return [strict_json(line) for line in path.read_text(encoding="utf8").splitlines()]


# Item 3: one output file under two names ------------------------------------

def test_batch_hostile_symlink_to_a_locked_output_is_refused(nlp_coref, data, tmp_path):
    out, link = tmp_path / "out.jsonl", tmp_path / "link.jsonl"
    link.symlink_to(out)
    with locked_output(out):  # another run writes out.jsonl
        with pytest.raises(NeuralcorefError, match=r"\[E339\] Another run is writing to .*link\.jsonl"):
            resolve_jsonl(data, link, nlp=nlp_coref)
    assert out.read_bytes() == b""
    # Free again: through the link the run writes the file, and resumes it by either name.
    assert resolve_jsonl(data, link, nlp=nlp_coref).written == 9
    again = resolve_jsonl(data, out, nlp=nlp_coref)
    assert (again.skipped, again.written) == (9, 0)


def test_batch_hostile_hard_link_to_a_locked_output_is_refused(nlp_coref, data, tmp_path):
    out, link = tmp_path / "out.jsonl", tmp_path / "hard.jsonl"
    with locked_output(out):  # another run writes out.jsonl; the link is made meanwhile
        link.hardlink_to(out)
        with pytest.raises(NeuralcorefError, match=r"\[E430\] Another run is writing to the file .*hard\.jsonl "
                                                   r"under another name"):
            resolve_jsonl(data, link, nlp=nlp_coref)
    assert out.read_bytes() == b""


def test_batch_hostile_hard_linked_output_is_refused(nlp_coref, data, tmp_path):
    out, link = tmp_path / "out.jsonl", tmp_path / "hard.jsonl"
    resolve_jsonl(data, out, nlp=nlp_coref)
    before = out.read_bytes()
    link.hardlink_to(out)  # a later run under the other name would not find out.jsonl's state
    for name in (out, link):
        with pytest.raises(NeuralcorefError, match=r"\[E431\] The output .* has 2 names \(hard links"):
            resolve_jsonl(data, name, nlp=nlp_coref)
    assert out.read_bytes() == before


def test_batch_hostile_two_processes_through_a_link(nlp_coref, data, tmp_path):
    import subprocess
    import sys

    out, link = tmp_path / "out.jsonl", tmp_path / "link.jsonl"
    out.touch()
    link.hardlink_to(out)
    script = ("import sys, time; from neuralcoref.apps.output_guard import _lock\n"
              "import os; fd = os.open(sys.argv[1], os.O_RDONLY); _lock(fd, 'held')\n"
              "print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(NeuralcorefError, match=r"\[E430\]"):
            resolve_jsonl(data, link, nlp=nlp_coref)
    finally:
        holder.kill()
        holder.wait()
    assert out.read_bytes() == b""


# Item 9: FIFOs, missing inputs, a full disk -----------------------------------

def test_batch_hostile_fifo_output_and_input(nlp_coref, data, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(NeuralcorefError, match=r"\[E342\] .*not a regular file \(a FIFO"):
        resolve_jsonl(data, fifo, nlp=nlp_coref)
    with pytest.raises(NeuralcorefError, match=r"\[E432\] The batch input .*fifo is not a regular file"):
        resolve_jsonl(fifo, tmp_path / "out.jsonl", nlp=nlp_coref)
    assert time.monotonic() - start < 10  # neither waited for a writer


def test_batch_hostile_missing_input(nlp_coref, tmp_path):
    with pytest.raises(NeuralcorefError, match=r"\[E432\] The batch input .*nothing\.jsonl does not exist"):
        resolve_jsonl(tmp_path / "nothing.jsonl", tmp_path / "out.jsonl", nlp=nlp_coref)


def test_batch_hostile_file_size_limit_then_resume(nlp_coref, data, tmp_path):
    """Errno 27 (EFBIG) for real: the process's file size limit is the disk's end."""
    out = tmp_path / "out.jsonl"
    clean = tmp_path / "clean.jsonl"
    resolve_jsonl(data, clean, nlp=nlp_coref, batch_size=2)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1500, hard))
    try:
        with pytest.raises(NeuralcorefError, match=r"\[E433\] Cannot write the output .*out\.jsonl "
                                                   r"\(File too large \(errno 27\)\).*run the same command again"):
            resolve_jsonl(data, out, nlp=nlp_coref, batch_size=2)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert 0 < out.stat().st_size <= 1500
    stats = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=2)
    assert stats.skipped > 0 and out.read_bytes() == clean.read_bytes()


def test_batch_hostile_disk_full(nlp_coref, data, tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(batch.os, "fsync", full)
    with pytest.raises(NeuralcorefError, match=r"\[E433\] .*No space left on device \(errno 28\)"):
        resolve_jsonl(data, tmp_path / "out.jsonl", nlp=nlp_coref)


# Item 10: NaN is not JSON ------------------------------------------------------

@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_batch_hostile_nan_in_input_gives_standard_json(nlp_coref, tmp_path, constant):
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text(LINES[0] + '\n{"text": "Anna left.", "score": %s}\n' % constant + LINES[1] + "\n")
    stats = resolve_jsonl(path, out, nlp=nlp_coref)
    assert (stats.written, stats.errors) == (3, 1)
    first, bad, last = records(out)  # every output line is standard JSON
    assert bad["coref"] is None and bad["coref_error"].startswith("[E310] Line 2 of")
    assert f"{constant.lstrip('-')} is not a JSON value" in bad["coref_error"]
    assert first["coref"] is not None and last["coref"] is not None


# Item 7: a deadline per record ---------------------------------------------------

def test_batch_hostile_pathological_record_meets_its_deadline(nlp_coref, tmp_path):
    """An ordinary text within limits that holds the pipeline for long (one name
    repeated 14,000 times: 26.9 s in the probe) is stopped at its deadline,
    written as an error record, and a resume skips it."""
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text(LINES[0] + "\n" + json.dumps({"text": "Anna . " * 14_000}) + "\n" + LINES[1] + "\n")
    start = time.monotonic()
    stats = resolve_jsonl(path, out, nlp=nlp_coref, record_timeout=1.0)
    assert time.monotonic() - start < 15
    assert (stats.written, stats.errors) == (3, 1)
    first, slow, last = records(out)
    assert first["coref"]["resolved"] == "Anna said Anna left." and last["coref"] is not None
    assert slow["coref"] is None
    assert slow["coref_error"].startswith("[E434] The pipeline took more than 1 s on line 2 of")
    assert "--record-timeout" in slow["coref_error"]
    start = time.monotonic()
    again = resolve_jsonl(path, out, nlp=nlp_coref, record_timeout=1.0)
    assert (again.skipped, again.written, again.earlier_errors) == (3, 0, 1)
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("text", ["(" * 20_000, "Anna " + '"(' * 5_000 + " left.", "a" + "'s" * 10_000],
                         ids=["parens", "quotes-parens", "apostrophes"])
def test_batch_hostile_punctuation_run_refused_at_once(nlp_coref, tmp_path, text):
    """The probe's 20 KB of "(((" (49 s in a 7-line run): refused before tokenizing."""
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text(LINES[0] + "\n" + json.dumps({"text": text}) + "\n" + LINES[1] + "\n")
    start = time.monotonic()
    stats = resolve_jsonl(path, out, nlp=nlp_coref)  # the default deadline: the guard answers first
    assert time.monotonic() - start < 10
    assert (stats.written, stats.errors) == (3, 1)
    error = records(out)[1]["coref_error"]
    assert error.startswith("[E439] The text of line 2 of") and "without a space" in error


def test_input_guard_counts_only_long_runs_of_affixes():
    from neuralcoref.apps.input_guard import MAX_TOKENIZER_COST, tokenizer_cost

    assert tokenizer_cost("Anna said: \"(see p. 3)!\" -- ok")[0] == 0  # short runs
    assert tokenizer_cost("x " + "-" * 1000) == (1_000_000, 2, "-" * 20)
    assert tokenizer_cost("x " + "-" * 1500)[0] > MAX_TOKENIZER_COST
    assert tokenizer_cost("https://example.org/a/long/path/of/words")[0] < MAX_TOKENIZER_COST


def test_batch_hostile_deadline_does_not_run_while_writing(nlp_coref, data, tmp_path, monkeypatch):
    """A slow write (a loaded disk) is not the record's time: only the pipeline's is."""
    real = batch._write_batch

    def slow_write(out, lines):
        time.sleep(0.6)
        real(out, lines)
    monkeypatch.setattr(batch, "_write_batch", slow_write)
    stats = resolve_jsonl(data, tmp_path / "out.jsonl", nlp=nlp_coref, batch_size=1, record_timeout=0.5)
    assert (stats.written, stats.errors) == (9, 0)


@pytest.mark.parametrize("value", [-1, float("inf"), "10", True])
def test_batch_hostile_bad_record_timeout(nlp_coref, data, tmp_path, value):
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'record_timeout'"):
        resolve_jsonl(data, tmp_path / "out.jsonl", nlp=nlp_coref, record_timeout=value)


def test_deadline_budget_is_spent_in_pieces():
    from neuralcoref.apps.deadline import Budget, DeadlineExceeded, time_limit

    budget = Budget(0.3)
    with budget.spend():
        time.sleep(0.1)
    time.sleep(0.4)  # between pieces: not counted
    with pytest.raises(DeadlineExceeded):
        with budget.spend():
            time.sleep(1)
    with pytest.raises(DeadlineExceeded):
        with budget.spend():  # nothing left
            pass
    with time_limit(None):  # no deadline
        time.sleep(0.01)
