"""Batch processing of JSON Lines: output records, bad lines, resuming, the CLI, Dask."""
import faulthandler
import json
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest
from typer.testing import CliRunner

import neuralcoref.apps.batch as batch
import neuralcoref.apps.batch_records as batch_records
from conftest import EN_PIPELINE
from neuralcoref.apps.batch import BatchStats, resolve_jsonl, resolve_records
from neuralcoref.apps.cli import app
from neuralcoref.apps.records import doc_record
from neuralcoref.errors import NeuralcorefError

TEXTS = ["Anna said she likes Paris.", "The company said its profits rose. The company is happy.",
         "", "Tom lent his bike to Anna. She rode it home.", "No coreference here.",
         "My sister has a dog. She loves him."]


def write_jsonl(path: Path, n: int) -> List[dict]:
    objects = [{"id": i, "text": TEXTS[i % len(TEXTS)], "meta": {"n": i}} for i in range(n)]
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf8")
    return objects


def read_jsonl(path: Path) -> List[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines()]


@pytest.fixture
def data(tmp_path) -> Path:
    write_jsonl(tmp_path / "in.jsonl", 23)
    return tmp_path / "in.jsonl"


@pytest.fixture(scope="module")
def clean_output(nlp_coref, tmp_path_factory) -> bytes:
    """The output of one uninterrupted run over the ``data`` input."""
    folder = tmp_path_factory.mktemp("clean")
    write_jsonl(folder / "in.jsonl", 23)
    resolve_jsonl(folder / "in.jsonl", folder / "out.jsonl", nlp=nlp_coref, batch_size=4)
    return (folder / "out.jsonl").read_bytes()


def test_batch_output_is_input_plus_coref(nlp_coref, data, clean_output):
    out = data.parent / "out.jsonl"
    stats = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    assert stats == BatchStats(total=23, skipped=0, written=23, errors=0)
    assert out.read_bytes() == clean_output
    for obj, record in zip(read_jsonl(data), read_jsonl(out), strict=True):
        assert record == {**obj, "coref": doc_record(nlp_coref(obj["text"]))}
    first = read_jsonl(out)[0]["coref"]
    assert first["resolved"] == "Anna said Anna likes Paris."
    assert [[m["text"] for m in c["mentions"]] for c in first["clusters"]] == [["Anna", "she"]]


BAD_LINES = {
    "invalid-json": (b'{"text": "Anna said', "E310"),
    "invalid-utf8": (b'{"text": "\xff\xfe"}', "E337"),
    "nested-5000-deep": (b'{"text": "Anna left.", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", "E336"),
    "not-an-object": (b'["Anna said she left."]', "E311"),
    "missing-field": (b'{"body": "Anna said she left."}', "E311"),
    "not-a-string": (b'{"text": 42}', "E311"),
    "lone-surrogate": (b'{"text": "Anna \\ud800 left."}', "E171"),
}


@pytest.mark.parametrize("name", list(BAD_LINES), ids=list(BAD_LINES))
def test_batch_bad_line_becomes_error_record(nlp_coref, tmp_path, name):
    line, code = BAD_LINES[name]
    path = tmp_path / "in.jsonl"
    path.write_bytes(b'{"text": "Anna said she left."}\n' + line + b'\n{"text": "Tom ate."}\n')
    stats = resolve_jsonl(path, tmp_path / "out.jsonl", nlp=nlp_coref)
    assert (stats.total, stats.written, stats.errors) == (3, 3, 1)
    first, error, last = read_jsonl(tmp_path / "out.jsonl")
    assert first["coref"]["resolved"] == "Anna said Anna left." and last["coref"] is not None
    assert error["coref"] is None and error["coref_error"].startswith(f"[{code}] ")
    assert "line 2 of " in error["coref_error"].lower()
    if code in ("E310", "E336", "E337") or name == "not-an-object":
        assert error["input_line"] == 2 and isinstance(error["input"], str)
    else:
        assert {k: v for k, v in error.items() if not k.startswith("coref")} == json.loads(line)


def test_batch_strict_stops_at_the_first_bad_line(nlp_coref, tmp_path):
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text('{"text": "Anna left."}\n{"text": "Tom left."}\nnot json\n{"text": "Bo ate."}\n')
    with pytest.raises(NeuralcorefError, match=r"\[E310\] Line 3 of "):
        resolve_jsonl(path, out, nlp=nlp_coref, strict=True, batch_size=1)
    assert [r["text"] for r in read_jsonl(out)] == ["Anna left.", "Tom left."]
    stats = resolve_jsonl(path, out, nlp=nlp_coref)  # fixed by hand, or accepted: resume
    assert (stats.skipped, stats.written, stats.errors) == (2, 2, 1)
    assert [r.get("text") for r in read_jsonl(out)] == ["Anna left.", "Tom left.", None, "Bo ate."]


class Crash(Exception):
    pass


@pytest.mark.parametrize("mid_write", [False, True], ids=["before-write", "mid-write"])
def test_batch_resume_after_crash_equals_clean_run(nlp_coref, data, clean_output, monkeypatch,
                                                   mid_write):
    out = data.parent / "out.jsonl"
    real_write = batch._write_batch
    calls = []

    def crashing_write(f, lines):
        calls.append(len(lines))
        if len(calls) == 3:  # the third batch: two are on disk
            if mid_write:  # half a batch, the last line cut in the middle
                f.write(b"".join(lines[:2]) + lines[2][:10])
                f.flush()
            raise Crash()
        real_write(f, lines)

    monkeypatch.setattr(batch, "_write_batch", crashing_write)
    with pytest.raises(Crash):
        resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    written = out.read_bytes()
    assert written.count(b"\n") == (10 if mid_write else 8)
    assert written.endswith(b"\n") != mid_write
    monkeypatch.setattr(batch, "_write_batch", real_write)
    stats = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    assert (stats.skipped, stats.written) == ((10, 13) if mid_write else (8, 15))
    assert out.read_bytes() == clean_output
    again = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    assert (again.skipped, again.written) == (23, 0)
    assert out.read_bytes() == clean_output


def test_batch_resume_after_interrupt_in_pipeline(nlp_coref, data, clean_output, monkeypatch):
    out = data.parent / "out.jsonl"
    real_pipe, seen = nlp_coref.pipe, []

    def interrupted_pipe(texts, **kwargs):
        for doc in real_pipe(texts, **kwargs):
            seen.append(doc)
            if len(seen) == 14:
                raise KeyboardInterrupt
            yield doc

    monkeypatch.setattr(nlp_coref, "pipe", interrupted_pipe)
    with pytest.raises(KeyboardInterrupt):
        resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    monkeypatch.undo()
    assert out.read_bytes().count(b"\n") == 13  # complete records are kept
    stats = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    assert (stats.skipped, stats.written) == (13, 10)
    assert out.read_bytes() == clean_output


def test_batch_blank_lines_are_not_records(nlp_coref, tmp_path):
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text('\n{"text": "Anna left."}\n  \n\n{"text": "Tom left."}\n\n')
    assert resolve_jsonl(path, out, nlp=nlp_coref).total == 2
    assert [r["text"] for r in read_jsonl(out)] == ["Anna left.", "Tom left."]


def test_batch_output_from_another_input(nlp_coref, data, tmp_path):
    out = tmp_path / "out.jsonl"
    resolve_jsonl(data, out, nlp=nlp_coref)
    shorter = tmp_path / "short.jsonl"
    write_jsonl(shorter, 3)
    with pytest.raises(NeuralcorefError, match=r"\[E312\].* 23 lines .* only 3"):
        resolve_jsonl(shorter, out, nlp=nlp_coref)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text('{"id": 0}\n{"id": 1\n{"id": 2}\n')
    with pytest.raises(NeuralcorefError, match=r"\[E313\] Line 2 of the output"):
        resolve_jsonl(data, damaged, nlp=nlp_coref)


def test_batch_settings_are_checked(nlp_coref, data, tmp_path):
    for name in ("batch_size", "n_process"):
        with pytest.raises(NeuralcorefError, match=rf"\[E170\] Setting '{name}'"):
            resolve_jsonl(data, tmp_path / "o.jsonl", nlp=nlp_coref, **{name: 0})


def test_batch_options_by_name_or_as_one_object(nlp_coref, data, tmp_path):
    """resolve_jsonl's options are BatchSettings' fields: a typo is E173 (not a bare
    TypeError), a bad value E170 when the object is made, named ones override it."""
    from neuralcoref.apps.batch import BatchSettings, resolve_jsonl_dask

    with pytest.raises(NeuralcorefError, match=r"\[E173\] Unknown setting 'batch_szie'.*batch_size"):
        resolve_jsonl(data, tmp_path / "o.jsonl", nlp=nlp_coref, batch_szie=4)
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'record_timeout'"):
        BatchSettings(record_timeout=-1)
    with pytest.raises(NeuralcorefError, match=r"\[E173\] Unknown setting 'n_process'"):
        resolve_jsonl_dask(str(tmp_path / "*.jsonl"), tmp_path / "out", n_process=2)
    run = BatchSettings(text_field="body", batch_size=2)
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text('{"body": "Anna said she left.", "text": 1}\n{"text": "Anna left."}\n')
    stats = resolve_jsonl(path, out, nlp=nlp_coref, batch_settings=run)
    assert read_jsonl(out)[0]["coref"]["resolved"] == "Anna said Anna left." and stats.errors == 1
    with pytest.raises(NeuralcorefError, match=r"\[E311\]"):  # strict overrides the object's default
        resolve_jsonl(path, tmp_path / "strict.jsonl", nlp=nlp_coref, batch_settings=run, strict=True)
    assert run.strict is False  # frozen: the override made a copy


def test_batch_resolve_records_keeps_order(nlp_coref):
    items = [(1, {"text": "Anna said she ate."}), (2, "oops"), (3, '{"body": 1}'),
             (4, '{"text": "Tom ate."}'), (5, "[]")]
    records = list(resolve_records(items, nlp_coref, batch_size=2))
    assert [r["coref"] is None for r in records] == [False, True, True, False, True]
    assert records[0]["coref"]["resolved"] == "Anna said Anna ate."


def test_batch_text_field(nlp_coref, tmp_path):
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text('{"body": "Anna said she left.", "text": 1}\n')
    resolve_jsonl(path, out, nlp=nlp_coref, text_field="body")
    assert read_jsonl(out)[0]["coref"]["resolved"] == "Anna said Anna left."


def test_batch_cli(handmade_model, data, clean_output, tmp_path):
    out = tmp_path / "cli.jsonl"
    args = ["batch", "--input", str(data), "--output", str(out), "--model", str(handmade_model),
            "--spacy-model", EN_PIPELINE, "--batch-size", "4", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "23 new lines (0 error records), 0 already done, 23 in all" in result.output
    assert out.read_bytes() == clean_output
    result = CliRunner().invoke(app, args + ["--strict"])
    assert result.exit_code == 0 and "0 new lines" in result.output
    result = CliRunner().invoke(app, ["batch", "--input", str(tmp_path / "missing.jsonl"),
                                      "--output", str(out)])
    assert result.exit_code == 1 and "missing.jsonl" in result.output


def test_batch_n_process(handmade_model, data, clean_output, nlp_coref):
    out = data.parent / "out.jsonl"
    stats = resolve_jsonl(data, out, nlp=nlp_coref, n_process=2, batch_size=4)
    assert stats.written == 23 and out.read_bytes() == clean_output


# Dask -------------------------------------------------------------------------

def test_batch_resolve_bag_local(handmade_model, data, clean_output):
    db = pytest.importorskip("dask.bag")
    pytest.importorskip("distributed")
    from neuralcoref.apps.batch import resolve_bag

    bag = db.read_text(str(data), blocksize=None)
    records = resolve_bag(bag, model=str(handmade_model), spacy_model=EN_PIPELINE)
    out = [json.dumps(r, ensure_ascii=False) + "\n" for r in records.compute(scheduler="sync")]
    assert "".join(out).encode("utf8") == clean_output


def run_on_cluster(distributed, db, inputs: Path, out: Path, settings: dict):
    """Both Dask entry points on a two-process LocalCluster; RETURNS (pipelines loaded
    per worker, resolve_jsonl_dask's stats, resolve_bag's records)."""
    from neuralcoref.apps.batch import pipeline_loads, resolve_bag, resolve_jsonl_dask

    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster, timeout=60) as client:
        stats = resolve_jsonl_dask(str(inputs / "*.jsonl"), out, **settings)
        bag = db.read_text(str(inputs / "*.jsonl"), blocksize=None)
        records = resolve_bag(bag, **settings).compute()
        loads = client.run(pipeline_loads)
    return loads, stats, records


def test_batch_dask_local_cluster(handmade_model, tmp_path, clean_output):
    """Two worker processes, four files: each worker loads the pipeline once."""
    pytest.importorskip("dask.bag")
    distributed = pytest.importorskip("distributed")
    import dask.bag as db

    inputs = tmp_path / "in"
    inputs.mkdir()
    for k in range(4):
        write_jsonl(inputs / f"part{k}.jsonl", 23)
    (tmp_path / "out").mkdir()
    done = clean_output[:clean_output.index(b"\n", 500) + 1]  # part1 was begun earlier
    (tmp_path / "out" / "part1.jsonl").write_bytes(done)
    settings = dict(model=str(handmade_model), spacy_model=EN_PIPELINE, batch_size=4)
    faulthandler.dump_traceback_later(180, exit=True)  # a hung cluster must not hang the suite
    try:
        loads, stats, records = run_on_cluster(distributed, db, inputs, tmp_path / "out", settings)
    finally:
        faulthandler.cancel_dump_traceback_later()
    # Eight tasks on two workers; a worker that ran any loaded the pipeline once.
    assert len(loads) == 2 and set(loads.values()) <= {0, 1} and sum(loads.values()) >= 1
    assert sorted(Path(p).name for p in stats) == [f"part{k}.jsonl" for k in range(4)]
    assert [s.skipped for _, s in sorted(stats.items())] == [0, done.count(b"\n"), 0, 0]
    for k in range(4):
        assert (tmp_path / "out" / f"part{k}.jsonl").read_bytes() == clean_output
    expected = 4 * clean_output.decode("utf8")
    assert "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records) == expected


def test_batch_dask_no_match(tmp_path):
    pytest.importorskip("dask.bag")
    pytest.importorskip("distributed")
    from neuralcoref.apps.batch import resolve_jsonl_dask

    with pytest.raises(NeuralcorefError, match=r"\[E316\]"):
        resolve_jsonl_dask(str(tmp_path / "*.jsonl"), tmp_path / "out")


def test_batch_dask_missing_is_a_coded_error(monkeypatch, tmp_path):
    from neuralcoref.apps.batch import resolve_bag, resolve_jsonl_dask

    monkeypatch.setitem(sys.modules, "dask.bag", None)
    with pytest.raises(NeuralcorefError, match=r"\[E314\].*neuralcoref\[dask\]"):
        resolve_jsonl_dask(str(tmp_path / "*.jsonl"), tmp_path)
    with pytest.raises(NeuralcorefError, match=r"\[E314\]"):
        resolve_bag(None)


# Hostile input (issue 28) ---------------------------------------------------------

def test_batch_text_longer_than_max_length_is_an_error_record(nlp_coref, tmp_path, monkeypatch):
    monkeypatch.setattr(nlp_coref, "max_length", 40)
    path, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    path.write_text('{"text": "Anna left."}\n{"text": "' + "Anna said she left. " * 5 + '"}\n'
                    '{"text": "Tom ate."}\n')
    stats = resolve_jsonl(path, out, nlp=nlp_coref)
    assert (stats.written, stats.errors) == (3, 1)
    records = read_jsonl(out)
    assert records[1]["coref_error"].startswith("[E335] Line 2 of ") and "(40)" in records[1]["coref_error"]
    assert records[2]["coref"] is not None
    # every resume goes past it: the run is complete
    assert resolve_jsonl(path, out, nlp=nlp_coref).written == 0


def test_batch_text_the_pipeline_fails_on_is_an_error_record(nlp_coref, data, clean_output, monkeypatch):
    coref = nlp_coref.get_pipe("neuralcoref")
    real_predict = coref.predict

    def fragile_predict(docs):
        docs = list(docs)
        if any("Tom lent" in doc.text for doc in docs):
            raise RuntimeError("poison " * 100)
        return real_predict(docs)

    monkeypatch.setattr(coref, "predict", fragile_predict)
    out = data.parent / "out.jsonl"
    stats = resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    bad = [i for i in range(23) if TEXTS[i % len(TEXTS)].startswith("Tom lent")]
    assert (stats.written, stats.errors) == (23, len(bad))
    records, clean = read_jsonl(out), [json.loads(x) for x in clean_output.decode().splitlines()]
    for i, (record, expected) in enumerate(zip(records, clean)):
        if i in bad:
            assert record["coref"] is None and record["id"] == i
            assert record["coref_error"].startswith(f"[E338] The pipeline failed on line {i + 1} ")
            assert len(record["coref_error"]) < 500  # the error is quoted, not dumped
        else:
            assert record == expected  # the others as in a clean run


def test_batch_output_is_input(nlp_coref, data, tmp_path):
    before = data.read_bytes()
    for output in (data, data.parent / "." / data.name):
        with pytest.raises(NeuralcorefError, match=r"\[E340\]"):
            resolve_jsonl(data, output, nlp=nlp_coref)
    link = tmp_path / "link.jsonl"
    link.hardlink_to(data)  # another name, the same inode
    with pytest.raises(NeuralcorefError, match=r"\[E340\]"):
        resolve_jsonl(data, link, nlp=nlp_coref)
    assert data.read_bytes() == before
    with pytest.raises(NeuralcorefError, match=r"\[E342\].*folder"):
        resolve_jsonl(data, tmp_path, nlp=nlp_coref)


def test_batch_second_run_on_one_output_is_refused(nlp_coref, data):
    from neuralcoref.apps.output_guard import locked_output

    out = data.parent / "out.jsonl"
    with locked_output(out):  # another run holds the output
        with pytest.raises(NeuralcorefError, match=r"\[E339\] Another run is writing"):
            resolve_jsonl(data, out, nlp=nlp_coref)
    assert out.read_bytes() == b""  # nothing written (the holder's lock created the file)
    assert resolve_jsonl(data, out, nlp=nlp_coref).written == 23  # free again


def test_batch_second_process_on_one_output_is_refused(nlp_coref, data):
    import subprocess

    out = data.parent / "out.jsonl"
    script = ("import sys, time; from neuralcoref.apps.output_guard import locked_output\n"
              "with locked_output(sys.argv[1]):\n    print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(NeuralcorefError, match=r"\[E339\]"):
            resolve_jsonl(data, out, nlp=nlp_coref)
    finally:
        holder.kill()
        holder.wait()
    assert resolve_jsonl(data, out, nlp=nlp_coref).written == 23  # the kernel dropped the lock


def test_batch_resume_refuses_another_input(nlp_coref, data, tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    monkeypatch.setattr(batch, "_write_batch", lambda f, lines: (_ for _ in ()).throw(Crash()))
    with pytest.raises(Crash):
        resolve_jsonl(data, out, nlp=nlp_coref, batch_size=4)
    monkeypatch.undo()
    out.write_bytes(b'{"id": 0, "coref": null}\n')  # one line done
    other = tmp_path / "other.jsonl"
    other.write_bytes(data.read_bytes())  # the same lines under another name
    with pytest.raises(NeuralcorefError, match=r"\[E341\].*in\.jsonl"):
        resolve_jsonl(other, out, nlp=nlp_coref)
    data.write_bytes(data.read_bytes().replace(b"Anna", b"Emma"))  # same name, same size
    with pytest.raises(NeuralcorefError, match=r"\[E341\].*first lines"):
        resolve_jsonl(data, out, nlp=nlp_coref)


def _children(pid: int) -> List[int]:
    """Pids of the live processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def start_batch_process(model: Path, folder: Path, pipeline: str = EN_PIPELINE) -> Tuple[subprocess.Popen, Path]:
    """``resolve_jsonl`` of 5,000 texts with two workers, in a process of its own
    (to be killed). RETURNS (the process, its output file)."""
    path, out = folder / "in.jsonl", folder / "out.jsonl"
    write_jsonl(path, 5000)
    script = ("import sys; from neuralcoref.apps.batch import resolve_jsonl; "
              f"resolve_jsonl(sys.argv[1], sys.argv[2], model={str(model)!r}, "
              f"spacy_model={pipeline!r}, n_process=2, batch_size=2)")
    return subprocess.Popen([sys.executable, "-c", script, str(path), str(out)]), out


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_batch_workers_die_with_their_parent(handmade_model, tmp_path, signal_name):
    import os
    import signal
    import time

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc (Linux)")
    parent, out = start_batch_process(handmade_model, tmp_path)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not (out.exists() and out.stat().st_size > 0):
            time.sleep(0.2)
        workers = _children(parent.pid)
        assert len(workers) >= 2, "the workers never started"
        parent.send_signal(getattr(signal, signal_name))
        parent.wait(30)
        deadline = time.time() + 10
        while time.time() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)], "orphaned workers"
    finally:
        if parent.poll() is None:
            parent.kill()
        for worker in _children(parent.pid):
            os.kill(worker, signal.SIGKILL)
    lines = out.read_bytes()
    if signal_name == "SIGTERM":  # unwound: only complete lines
        assert lines.endswith(b"\n") and parent.returncode != 0


def write_texts(folder: Path) -> List[str]:
    """Three documents as .txt files (one with several lines), and files that are not inputs."""
    folder.mkdir()
    texts = {"b.txt": TEXTS[0], "a.txt": "Tom lent his bike to Anna.\nShe rode it home.\n", "c.txt": TEXTS[5]}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf8")
    (folder / "notes.md").write_text("not a document")
    (folder / "sub").mkdir()
    (folder / "sub" / "d.txt").write_text(TEXTS[1])
    return [texts[name] for name in sorted(texts)]


def test_batch_folder_of_text_files_one_document_each(nlp_coref, tmp_path):
    texts = write_texts(tmp_path / "texts")
    out = tmp_path / "out.jsonl"
    stats = resolve_jsonl(tmp_path / "texts", out, nlp=nlp_coref)
    assert stats == BatchStats(total=3, skipped=0, written=3, errors=0)
    records = read_jsonl(out)
    assert [r["id"] for r in records] == ["a.txt", "b.txt", "c.txt"]
    for record, text in zip(records, texts, strict=True):
        assert record == {"id": record["id"], "text": text, "coref": doc_record(nlp_coref(text))}
    # one document across its lines: "She" on the second line links to "Anna" on the first
    clusters = [[m["text"] for m in c["mentions"]] for c in records[0]["coref"]["clusters"]]
    assert ["Anna", "She"] in clusters
    assert resolve_jsonl(tmp_path / "texts", out, nlp=nlp_coref).skipped == 3  # resumable
    (tmp_path / "texts" / "d.txt").write_text("Another one.")  # the folder changed: another input
    with pytest.raises(NeuralcorefError, match="E341"):
        resolve_jsonl(tmp_path / "texts", out, nlp=nlp_coref)


def test_batch_one_text_file_is_one_document(nlp_coref, tmp_path):
    path = tmp_path / "story.txt"
    path.write_text("Anna said she was late.\nAnna agreed.\n", encoding="utf8")
    stats = resolve_jsonl(path, tmp_path / "out.jsonl", nlp=nlp_coref)
    assert (stats.total, stats.written, stats.errors) == (1, 1, 0)
    (record,) = read_jsonl(tmp_path / "out.jsonl")
    assert record["id"] == "story.txt" and record["coref"]["resolved"] == "Anna said Anna was late.\nAnna agreed.\n"


def test_batch_text_file_errors_are_coded_records(nlp_coref, tmp_path, monkeypatch):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "bad.txt").write_bytes(b"Anna \xff said.")
    (folder / "good.txt").write_text("Anna left.")
    (folder / "long.txt").write_text("Anna said she left. " * 5)
    monkeypatch.setattr(nlp_coref, "max_length", 40)
    stats = resolve_jsonl(folder, tmp_path / "out.jsonl", nlp=nlp_coref)
    assert (stats.written, stats.errors) == (3, 2)
    bad, good, long = read_jsonl(tmp_path / "out.jsonl")
    assert bad["id"] == "bad.txt" and bad["coref_error"].startswith("[E344]") and "UTF-8" in bad["coref_error"]
    assert good["coref"] is not None
    assert long["coref_error"].startswith("[E345]") and "--split-paragraphs" in long["coref_error"]
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "data.jsonl").write_text('{"text": "Anna left."}\n')
    with pytest.raises(NeuralcorefError, match=r"E343.*data\.jsonl"):
        resolve_jsonl(empty, tmp_path / "out2.jsonl", nlp=nlp_coref)
    with pytest.raises(NeuralcorefError, match=r"\[E432\] The batch input .*missing does not exist"):
        resolve_jsonl(tmp_path / "missing", tmp_path / "out3.jsonl", nlp=nlp_coref)
    with pytest.raises(NeuralcorefError, match="E340"):  # the output is one of the inputs
        resolve_jsonl(folder, folder / "good.txt", nlp=nlp_coref)


def test_batch_cli_folder_and_exit_codes(handmade_model, tmp_path):
    write_texts(tmp_path / "texts")
    out = tmp_path / "out.jsonl"
    options = ["--model", str(handmade_model), "--spacy-model", EN_PIPELINE, "--no-progress"]
    result = CliRunner().invoke(app, ["batch", "--input", str(tmp_path / "texts"), "--output", str(out), *options])
    assert result.exit_code == 0, result.output
    assert "3 new lines (0 error records)" in result.output
    # a .txt input is no longer one error record per line: one document, no error
    lines = tmp_path / "lines.jsonl"
    lines.write_text('{"text": "Anna left."}\nnot json\n')
    args = ["batch", "--input", str(lines), "--output", str(tmp_path / "lines.out.jsonl"), *options]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "1 records of" in result.output and "coref_error" in result.output
    result = CliRunner().invoke(app, args)  # resumed, nothing left to do: the output still has the error
    assert result.exit_code == 2 and "0 new lines" in result.output
    result = CliRunner().invoke(app, args + ["--strict", "--output", str(tmp_path / "strict.jsonl")])
    assert result.exit_code == 1 and "[E310]" in result.output
    result = CliRunner().invoke(app, ["batch", "--input", str(tmp_path / "nothing"), "--output", str(out)])
    assert result.exit_code == 1 and "[E432]" in result.output and "does not exist" in result.output


@pytest.mark.parametrize("stop", ["KeyboardInterrupt", "SIGTERM"])
def test_batch_cli_interrupted_says_what_was_done_and_how_to_resume(handmade_model, data, monkeypatch, stop):
    from neuralcoref.apps.workers import Terminated

    real = batch_records._resolve_chunk

    def interrupted_at_second_chunk(nlp, chunk, *args):
        if chunk[0][0] > 4:
            raise KeyboardInterrupt if stop == "KeyboardInterrupt" else Terminated()
        yield from real(nlp, chunk, *args)
    monkeypatch.setattr(batch_records, "_resolve_chunk", interrupted_at_second_chunk)
    out = data.parent / "out.jsonl"
    args = ["batch", "--input", str(data), "--output", str(out), "--model", str(handmade_model),
            "--spacy-model", EN_PIPELINE, "--batch-size", "4", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == (130 if stop == "KeyboardInterrupt" else 143), result.output
    assert "Interrupted" in result.output and "4 of 23 records" in result.output
    assert "run the same command again to resume" in result.output
    assert len(read_jsonl(out)) == 4


def test_batch_kb_links_the_clusters(make_nlp, handmade_model, data, tmp_path):
    from neuralcoref.artifacts.kb_build import build_kb, read_kb_tsv

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\nQ1\tAnna\t\t\tperson\n", encoding="utf8")
    build_kb(read_kb_tsv(tmp_path / "kb.tsv")).to_disk(tmp_path / "kb")
    with pytest.raises(NeuralcorefError, match="E400"):
        resolve_jsonl(data, tmp_path / "none.jsonl", nlp=make_nlp(), kb=str(tmp_path / "nokb"))
    resolve_jsonl(data, tmp_path / "out.jsonl", nlp=make_nlp(), kb=str(tmp_path / "kb"))
    records = read_jsonl(tmp_path / "out.jsonl")
    assert [(c["main"]["text"], c.get("kb_id")) for c in records[0]["coref"]["clusters"]] == [("Anna", "Q1")]
    assert all("kb_id" not in c for c in records[1]["coref"]["clusters"])  # "The company": no entity
    result = CliRunner().invoke(app, ["batch", "--input", str(data), "--output", str(tmp_path / "cli.jsonl"),
                                      "--model", str(handmade_model), "--kb", str(tmp_path / "kb"),
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    assert read_jsonl(tmp_path / "cli.jsonl") == records


def test_batch_dask_kb_links_the_clusters(handmade_model, data, tmp_path):
    db = pytest.importorskip("dask.bag")
    pytest.importorskip("distributed")
    from neuralcoref.apps.batch import resolve_bag
    from neuralcoref.artifacts.kb_build import build_kb, read_kb_tsv

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\nQ1\tAnna\t\t\tperson\n", encoding="utf8")
    build_kb(read_kb_tsv(tmp_path / "kb.tsv")).to_disk(tmp_path / "kb")
    bag = db.read_text(str(data), blocksize=None)
    records = resolve_bag(bag, model=str(handmade_model), spacy_model=EN_PIPELINE,
                          kb=str(tmp_path / "kb")).compute(scheduler="sync")
    assert [(c["main"]["text"], c.get("kb_id")) for c in records[0]["coref"]["clusters"]] == [("Anna", "Q1")]
