"""The REST server: the app with FastAPI's TestClient, then one real uvicorn process."""
import json
import signal
import sys
import time

import pytest

pytest.importorskip("fastapi", reason="the REST server needs fastapi: pip install 'neuralcoref[serve]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")
from fastapi.testclient import TestClient  # noqa: E402
from spacy.language import Language  # noqa: E402

from conftest import EN_PIPELINE, load_bench  # noqa: E402
from neuralcoref.apps.records import doc_record  # noqa: E402
from neuralcoref.apps.server import create_app, parse_request  # noqa: E402
from neuralcoref.apps.server_limits import ServerLimits, check_texts, tokenizer_cost  # noqa: E402
from neuralcoref.apps.server_worker import CANCEL_GRACE, Job, record_size_bound, run_job, run_jobs  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402

ANNA = "Anna said she likes Paris."
LIMIT = 2_000
load = load_bench("server_load")


@pytest.fixture(scope="module")
def client(nlp_coref):
    with TestClient(create_app(nlp_coref, max_body_bytes=LIMIT, workers=1, health_details=True)) as client:
        yield client


def test_server_health(client):
    answer = client.get("/health")
    assert answer.status_code == 200
    data = answer.json()
    assert data["status"] == "ok" and data["max_body_bytes"] == LIMIT
    assert data["pipeline"] == EN_PIPELINE


def test_server_health_is_minimal_by_default(nlp_coref):
    """Without health_details, /health says the server is up and nothing an
    attacker could use (version, limits, load)."""
    with TestClient(create_app(nlp_coref, workers=1)) as client:
        answer = client.get("/health")
    assert answer.status_code == 200 and answer.json() == {"status": "ok"}
    with pytest.raises(NeuralcorefError, match=r"\[E170\] Setting 'health_details'"):
        create_app(nlp_coref, health_details="yes")


@pytest.mark.parametrize("charset,body", [
    ("latin-1", '{"text": "Ren\u00e9e said she left."}'.encode("latin-1")),
    ("ISO-8859-1", '{"text": "Ren\u00e9e said she left."}'.encode("latin-1")),
    ("utf-16", '{"text": "Ren\u00e9e said she left."}'.encode("utf-16")),
    ("utf-8", '{"text": "Ren\u00e9e said she left."}'.encode("utf-8")),
], ids=["latin-1", "iso-8859-1", "utf-16", "utf-8"])
def test_server_body_decoded_as_its_charset(client, charset, body):
    answer = client.post("/resolve", content=body, headers={"content-type": f"application/json; charset={charset}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["resolved"] == "Ren\u00e9e said Ren\u00e9e left."


@pytest.mark.parametrize("charset,status,code", [
    ("no-such-charset", 415, "E422"), ("zlib", 415, "E422"), ("rot13", 415, "E422"), ("ascii", 422, "E423")])
def test_server_body_charset_refused(client, charset, status, code):
    body = '{"text": "Ren\u00e9e left."}'.encode("latin-1")
    answer = client.post("/resolve", content=body, headers={"content-type": f"application/json; charset={charset}"})
    assert answer.status_code == status and answer.json()["detail"].startswith(f"[{code}] ")


def test_server_resolve_text(client, nlp_coref):
    answer = client.post("/resolve", json={"text": ANNA})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data == doc_record(nlp_coref(ANNA))
    assert data["resolved"] == "Anna said Anna likes Paris."
    (cluster,) = data["clusters"]
    assert cluster["main"] == {"start": 0, "end": 4, "text": "Anna"}
    assert [(m["start"], m["end"], m["text"]) for m in cluster["mentions"]] == [
        (0, 4, "Anna"), (10, 13, "she")]


def test_server_resolve_texts(client):
    texts = [ANNA, "", "No one here.", "The company said its profits rose. ünïcödé 😀 it"]
    answer = client.post("/resolve", json={"texts": texts})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert len(results) == 4 and results[1] == {"clusters": [], "resolved": ""}
    for text, result in zip(texts, results):
        for cluster in result["clusters"]:
            for m in [cluster["main"], *cluster["mentions"]]:
                assert text[m["start"]:m["end"]] == m["text"]
    assert client.post("/resolve", json={"texts": []}).json() == {"results": []}


def test_server_body_too_large(client):
    big = json.dumps({"text": "Anna left. " * 300})
    assert len(big) > LIMIT
    answer = client.post("/resolve", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["detail"].startswith("[E300] The request body has more than 2000 bytes")

    def chunks():  # no Content-Length: counted while reading
        for k in range(0, len(big), 500):
            yield big[k:k + 500].encode()

    answer = client.post("/resolve", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "[E300]" in answer.json()["detail"]


BAD_BODIES = {
    "empty": (b"", "E301", "not valid JSON"),
    "truncated": (b'{"text": "Anna', "E301", "not valid JSON"),
    "not-utf8": (b'{"text": "\xff"}', "E301", "not valid JSON"),
    "array": (b'["Anna left."]', "E302", "is a JSON array"),
    "string": (b'"Anna left."', "E302", "is a string"),
    "empty-object": (b"{}", "E302", "an empty JSON object"),
    "other-key": (b'{"txt": "Anna left."}', "E302", "keys ['txt']"),
    "both-keys": (b'{"text": "a", "texts": ["b"]}', "E302", "keys ['text', 'texts']"),
    "text-number": (b'{"text": 3}', "E302", "whose 'text' is a number"),
    "texts-string": (b'{"texts": "Anna left."}', "E302", "whose 'texts' is a string"),
    "texts-null-item": (b'{"texts": ["a", null]}', "E302", "item 1 of 'texts' is null"),
    "lone-surrogate": (b'{"text": "Anna \\udc80"}', "E171", "lone surrogate (U+DC80) at character 5"),
}


@pytest.mark.parametrize("name", list(BAD_BODIES), ids=list(BAD_BODIES))
def test_server_bad_body_is_422(client, name):
    body, code, says = BAD_BODIES[name]
    answer = client.post("/resolve", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert detail.startswith(f"[{code}] ") and says in detail
    if code == "E302":
        assert '{"text": "a text"}' in detail  # says what to send


def test_server_parse_request():
    assert parse_request(b'{"text": "a"}') == {"text": "a"}
    assert parse_request('{"texts": ["a", "b"]}'.encode("utf-16")) == {"texts": ["a", "b"]}
    with pytest.raises(NeuralcorefError) as err:
        parse_request(b"[]")
    assert err.value.status == 422


def test_server_settings_are_checked(nlp_coref):
    for setting in ({"max_body_bytes": 0}, {"batch_size": -1}, {"max_body_bytes": "1MB"},
                    {"workers": 0}, {"timeout": 0}, {"timeout": float("inf")}, {"max_texts": 2.5},
                    {"header_timeout": True}, {"worker_memory_mb": 0}):
        with pytest.raises(NeuralcorefError, match=rf"\[E170\] Setting '{next(iter(setting))}' of the server"):
            create_app(nlp_coref, **setting)
    with pytest.raises(NeuralcorefError, match=r"\[E173\] Unknown setting 'max_txts' of the server"):
        create_app(nlp_coref, max_txts=3)


def test_server_openapi_has_no_cdn_pages(client):
    assert client.get("/docs").status_code == 404
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/resolve"]["post"]["requestBody"]["content"]["application/json"]
    assert {tuple(s["required"]) for s in body["schema"]["oneOf"]} == {("text",), ("texts",)}


def test_server_uvicorn_process(handmade_model, tmp_path):
    pytest.importorskip("uvicorn")
    import httpx

    options = ["--model", str(handmade_model), "--spacy-model", EN_PIPELINE, "--max-body-bytes", "5000",
               "--workers", "1"]
    try:
        process, url = load.start_server(options, tmp_path / "server.log", timeout=60)
    except RuntimeError as err:
        pytest.fail(f"{err}\n{(tmp_path / 'server.log').read_text()}")
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            answer = http.post("/resolve", json={"texts": [ANNA, "Tom said he left."]})
            assert answer.status_code == 200
            assert [r["resolved"] for r in answer.json()["results"]] == [
                "Anna said Anna likes Paris.", "Tom said Tom left."]
            answer = http.post("/resolve", content=b"{oops", headers={"content-type": "application/json"})
            assert answer.status_code == 422 and "[E301]" in answer.json()["detail"]
            answer = http.post("/resolve", json={"text": "x" * 6000})
            assert answer.status_code == 413 and "[E300]" in answer.json()["detail"]
            assert http.get("/health").json()["status"] == "ok"  # still serving
    finally:
        load.stop_server(process)
    assert process.returncode is not None


def test_server_cli_fails_cleanly(tmp_path):
    from typer.testing import CliRunner

    from neuralcoref.apps.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", str(load.free_port()), "--model", "en_fast",
                                      "--spacy-model", "no_such_pipeline"])
    assert result.exit_code == 1 and "[E152]" in result.output
    # An unknown model stops the server before spaCy loads or anything listens.
    result = CliRunner().invoke(app, ["serve", "--port", str(load.free_port()), "--model",
                                      str(tmp_path / "no_model"), "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 1 and "[E157]" in result.output


def test_server_needs_the_component(nlp_en):
    with pytest.raises(NeuralcorefError, match=r"\[E305\]"):
        create_app(nlp_en)


def test_server_without_fastapi_is_a_coded_error(nlp_coref, monkeypatch):
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(NeuralcorefError, match=r"\[E303\].*neuralcoref\[serve\]"):
        create_app(nlp_coref)


def test_server_health_reports_limits_and_workers(client):
    data = client.get("/health").json()
    assert data["limits"]["max_body_bytes"] == LIMIT
    assert data["limits"]["max_text_chars"] == ServerLimits().max_text_chars
    workers = data["workers"]
    assert {k: workers[k] for k in ("workers", "idle", "waiting", "restarts", "cancels")} == {
        "workers": 1, "idle": 1, "waiting": 0, "restarts": 0, "cancels": 0}
    assert workers["requests_per_batch"] >= 0


@pytest.mark.parametrize("content_type", ["text/plain", "", "multipart/form-data; boundary=x"])
def test_server_content_type_must_be_json(client, content_type):
    headers = {"content-type": content_type} if content_type else {}
    answer = client.post("/resolve", content=json.dumps({"text": ANNA}), headers=headers)
    assert answer.status_code == 415 and answer.json()["detail"].startswith("[E325] ")
    answer = client.post("/resolve", content=json.dumps({"text": ANNA}),
                         headers={"content-type": "application/json; charset=utf-8"})
    assert answer.status_code == 200


def test_server_deep_json_is_422():
    with pytest.raises(NeuralcorefError, match=r"\[E326\]") as err:
        parse_request(b"[" * 5000 + b"]" * 5000)
    assert err.value.status == 422


def test_server_limits_checked_before_the_workers():
    limits = ServerLimits(max_text_chars=15, max_texts=2, max_tokens=5)
    check_texts(["Anna left.", "Tom left."], limits)
    for texts, code, status in ((["a" * 16], "E320", 413), (["a", "b", "c"], "E321", 413),
                                (["one two three", "four five six"], "E322", 413)):
        with pytest.raises(NeuralcorefError, match=rf"\[{code}\]") as err:
            check_texts(texts, limits)
        assert err.value.status == status


def test_server_run_job_answers_records(nlp_coref):
    texts = [ANNA, "Tom said he left."]
    status, body = run_job(nlp_coref, Job(texts, False, 100, 100_000), batch_size=8)
    assert status == "ok"
    assert json.loads(body) == {"results": [doc_record(nlp_coref(t)) for t in texts]}
    status, body = run_job(nlp_coref, Job([ANNA], True, 100, 100_000), batch_size=8)
    assert json.loads(body) == doc_record(nlp_coref(ANNA))


def test_server_run_jobs_same_answers_as_one_at_a_time(nlp_coref):
    """A worker runs queued requests together through one nlp.pipe: each answer
    is the one its request gets alone, and one job over its token limit is
    refused without touching the others."""
    jobs = [Job([ANNA], True, 100, 100_000), Job(["Tom said he left.", "", "The cat ate its food."], False, 100, 100_000),
            Job(["a,b,c,d"], True, 6, 100_000), Job(["The company said its profits rose."], True, 100, 100_000)]
    alone = [run_job(nlp_coref, job, 8) for job in jobs]
    assert run_jobs(nlp_coref, jobs, batch_size=8) == alone
    assert run_jobs(nlp_coref, jobs, batch_size=2) == alone
    assert alone[2][:2] == ("error", 413) and alone[0][0] == alone[1][0] == alone[3][0] == "ok"


def test_server_tokenizer_cost_refused_before_the_workers():
    """Runs of punctuation without a space make spaCy's tokenizer quadratic
    (10,000 "(" take 10 s): refused in the server's process at once (E421),
    ordinary text and URLs pass."""
    limits = ServerLimits(max_tokenizer_cost=2_000_000)
    ordinary = ["Anna said she likes Paris. " * 3000, "See https://example.com/a/b?c=d&e=f. " * 1000, "a" * 50_000]
    assert check_texts(ordinary, limits) > 0
    assert tokenizer_cost("(" * 1000) == (1_000_000, 0, "(" * 20)
    for texts, where in ((["(" * 20_000 + ")" * 20_000], " at character 0"),
                         (["Anna left.", "x" * 1000 + "(" * 2000], " in text 1 at character 0"),
                         (["((((( " * 4 + "(" * 1500 + "Anna"], " at character 24")):
        with pytest.raises(NeuralcorefError, match=r"\[E421\]") as err:
            check_texts(texts, limits)
        assert err.value.status == 422 and where in str(err.value)


def test_server_run_job_limits(nlp_coref):
    # Tokens are counted exactly once the texts are tokenized: 7 here, for one word.
    assert run_job(nlp_coref, Job(["a,b,c,d"], True, 6, 100_000), 8)[:2] == ("error", 413)
    assert "[E322]" in run_job(nlp_coref, Job(["a,b,c,d"], True, 6, 100_000), 8)[2]
    status, body = run_job(nlp_coref, Job([ANNA], True, 100, 100_000), 8)
    size = len(body)
    # Refused before it is built when an upper bound on its size passes the limit.
    bound = record_size_bound(nlp_coref(ANNA))
    assert size <= bound
    assert run_job(nlp_coref, Job([ANNA], True, 100, bound + 16), 8) == ("ok", body)
    too_small = run_job(nlp_coref, Job([ANNA], True, 100, size - 1), 8)
    assert too_small[:2] == ("error", 413) and "[E323]" in too_small[2]


def test_server_record_size_bound(nlp_coref):
    # A long main mention replacing many pronouns: the bound is checked before
    # the resolved text (here 200 times the main mention) is built.
    text = "The tall old man with the grey hat arrived. " + "He said he was tired. " * 100
    doc = nlp_coref(text)
    size = len(json.dumps(doc_record(doc), ensure_ascii=False, separators=(",", ":")))
    assert size <= record_size_bound(doc) < 20 * size
    assert len(doc_record(doc)["resolved"]) > 2 * len(text)


def test_server_workers_start_with_the_lifespan(nlp_coref):
    app = create_app(nlp_coref, workers=1)
    answer = TestClient(app).post("/resolve", json={"text": ANNA})  # no lifespan: no workers
    assert answer.status_code == 503 and answer.json()["detail"].startswith("[E329] ")
    for _ in range(2):  # each run of the app starts and stops its own workers
        with TestClient(app) as client:
            answer = client.post("/resolve", json={"text": ANNA})
            assert answer.status_code == 200 and answer.json()["resolved"] == "Anna said Anna likes Paris."


def test_server_run_job_out_of_memory(nlp_coref):
    class Starved:  # a pipeline whose allocations fail
        make_doc = nlp_coref.make_doc

        def pipe(self, docs, batch_size):
            raise MemoryError()

    reply = run_job(Starved(), Job([ANNA], True, 100, 100_000), 8)
    assert reply[:2] == ("error", 422) and reply[2].startswith("[E330] ") and reply[3] == "replace"


def _refuse_to_load():
    raise RuntimeError("this component cannot be copied to another process")


class _NotPortable:
    """A component that pickles, but cannot be unpickled (in a worker)."""

    def __call__(self, doc):
        return doc

    def __reduce__(self):
        return (_refuse_to_load, ())


@Language.factory("neuralcoref_test_not_portable")
def _make_not_portable(nlp, name):
    return _NotPortable()


def test_server_worker_that_cannot_start_is_a_coded_error(make_nlp):
    nlp = make_nlp()
    nlp.add_pipe("neuralcoref_test_not_portable")
    with pytest.raises(NeuralcorefError, match=r"\[E331\] .*could not start \(RuntimeError: this component"):
        with TestClient(create_app(nlp, workers=1)):
            pass


def test_server_kb_links_the_clusters(make_nlp, tmp_path):
    from neuralcoref.artifacts.kb_build import build_kb, read_kb_tsv

    (tmp_path / "kb.tsv").write_text("id\tname\taliases\tprior\ttype\nQ1\tAnna\t\t\tperson\n", encoding="utf8")
    build_kb(read_kb_tsv(tmp_path / "kb.tsv")).to_disk(tmp_path / "kb")
    with pytest.raises(NeuralcorefError, match="E400"):
        create_app(make_nlp(), workers=1, kb=str(tmp_path / "nokb"))
    # timeout: a first request parses with a cold pipeline (slow on a loaded machine)
    with TestClient(create_app(make_nlp(), workers=1, timeout=300, kb=str(tmp_path / "kb"))) as linked:
        data = linked.post("/resolve", json={"text": ANNA}).json()
    assert [(c["main"]["text"], c["kb_id"]) for c in data["clusters"]] == [("Anna", "Q1")]


class _Slow:
    """A component that takes 30 s on a text that says "slow": in Python (a
    sleep, which a signal interrupts), or, on "stubborn", with the server's
    stop signal blocked, as in C code that never looks at signals."""

    def __call__(self, doc):
        if "stubborn" in doc.text:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
            try:
                time.sleep(30)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        elif "slow" in doc.text:
            time.sleep(30)
        return doc


@Language.factory("neuralcoref_test_slow")
def _make_slow(nlp, name):
    return _Slow()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signals")
def test_server_deadline_stops_the_work_not_the_worker(make_nlp):
    """Issue 58 (4): work past its deadline is stopped in its worker, which
    keeps its pipeline (no restart); only a worker that does not stop within
    CANCEL_GRACE is killed and replaced."""
    nlp = make_nlp()
    nlp.add_pipe("neuralcoref_test_slow", before="neuralcoref")
    with TestClient(create_app(nlp, workers=1, timeout=1, health_details=True)) as client:
        start = time.monotonic()
        answer = client.post("/resolve", json={"text": "A slow text."})
        took = time.monotonic() - start
        assert answer.status_code == 422 and answer.json()["detail"].startswith("[E324] ")
        assert 1 <= took < 1 + CANCEL_GRACE
        workers = client.get("/health").json()["workers"]
        assert (workers["idle"], workers["restarts"], workers["cancels"]) == (1, 0, 1)
        assert client.post("/resolve", json={"text": ANNA}).json()["resolved"] == "Anna said Anna likes Paris."

        start = time.monotonic()
        answer = client.post("/resolve", json={"text": "A stubborn text."})
        took = time.monotonic() - start
        assert answer.status_code == 422 and answer.json()["detail"].startswith("[E324] ")
        assert 1 + CANCEL_GRACE <= took < 3 + CANCEL_GRACE
        while client.get("/health").json()["workers"]["idle"] == 0:  # the replacement loads
            time.sleep(0.1)
        assert client.get("/health").json()["workers"]["restarts"] == 1
        assert client.post("/resolve", json={"text": ANNA}).json()["resolved"] == "Anna said Anna likes Paris."


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signals")
def test_server_batch_past_its_deadline_runs_its_requests_alone(make_nlp):
    """A slow request that shares a batch with a short one does not cost the
    short one its answer: the batch is stopped at the deadline and each of its
    requests runs again alone."""
    import asyncio
    import pickle

    from neuralcoref.apps.server_worker import WorkerPool

    nlp = make_nlp()
    nlp.add_pipe("neuralcoref_test_slow", before="neuralcoref")

    async def run():
        pool = WorkerPool(pickle.dumps(nlp), 1, 8, ServerLimits(timeout=1))
        await pool.start()
        never = asyncio.get_running_loop().create_future()
        try:
            with pool.arriving():  # a request still being read: both wait to share a batch
                tasks = [asyncio.ensure_future(pool.resolve(Job([text], True, 100, 100_000), never))
                         for text in ("A slow text.", ANNA)]
                await asyncio.sleep(0)
            results = await asyncio.gather(*tasks, return_exceptions=True)
            return results, pool.status()
        finally:
            await pool.close()

    (slow, short), status = asyncio.run(run())
    assert isinstance(slow, NeuralcorefError) and str(slow).startswith("[E324] ")
    assert json.loads(short)["resolved"] == "Anna said Anna likes Paris."
    assert status["requests_per_batch"] > 1 and status["restarts"] == 0 and status["cancels"] == 2
