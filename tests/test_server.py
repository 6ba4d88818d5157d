"""The REST server: the app with FastAPI's TestClient, then one real uvicorn process."""
import json
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi", reason="the REST server needs fastapi: pip install 'neuralcoref[serve]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")
from fastapi.testclient import TestClient  # noqa: E402

from conftest import EN_PIPELINE  # noqa: E402
from neuralcoref.errors import NeuralcorefError  # noqa: E402
from neuralcoref.records import doc_record  # noqa: E402
from neuralcoref.server import create_app, parse_request  # noqa: E402

ANNA = "Anna said she likes Paris."
LIMIT = 2_000


@pytest.fixture(scope="module")
def client(nlp_coref):
    with TestClient(create_app(nlp_coref, max_body_bytes=LIMIT)) as client:
        yield client


def test_server_health(client):
    answer = client.get("/health")
    assert answer.status_code == 200
    data = answer.json()
    assert data["status"] == "ok" and data["max_body_bytes"] == LIMIT
    assert data["pipeline"] == EN_PIPELINE


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
    "lone-surrogate": (b'{"text": "Anna \\udc80"}', "E317", "lone surrogate (U+DC80) at character 5"),
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
    for setting in ({"max_body_bytes": 0}, {"batch_size": -1}, {"max_body_bytes": "1MB"}):
        with pytest.raises(NeuralcorefError, match=r"\[E304\]"):
            create_app(nlp_coref, **setting)


def test_server_openapi_has_no_cdn_pages(client):
    assert client.get("/docs").status_code == 404
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/resolve"]["post"]["requestBody"]["content"]["application/json"]
    assert {tuple(s["required"]) for s in body["schema"]["oneOf"]} == {("text",), ("texts",)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_server_uvicorn_process(handmade_model, tmp_path):
    pytest.importorskip("uvicorn")
    import httpx

    port = free_port()
    log = open(tmp_path / "server.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "neuralcoref", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--model", str(handmade_model), "--spacy-model", EN_PIPELINE, "--max-body-bytes", "5000"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.2)
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
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        log.close()
    assert process.returncode is not None


def test_server_cli_fails_cleanly(tmp_path):
    from typer.testing import CliRunner

    from neuralcoref.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--model", "en_fast",
                                      "--spacy-model", "no_such_pipeline"])
    assert result.exit_code == 1 and "[E152]" in result.output
    # An unknown model stops the server before spaCy loads or anything listens.
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--model",
                                      str(tmp_path / "no_model"), "--spacy-model", EN_PIPELINE])
    assert result.exit_code == 1 and "[E157]" in result.output


def test_server_needs_the_component(nlp_en):
    with pytest.raises(NeuralcorefError, match=r"\[E305\]"):
        create_app(nlp_en)


def test_server_without_fastapi_is_a_coded_error(nlp_coref, monkeypatch):
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(NeuralcorefError, match=r"\[E303\].*neuralcoref\[serve\]"):
        create_app(nlp_coref)
