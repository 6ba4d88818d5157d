"""A REST server over a neuralcoref pipeline: FastAPI, served by uvicorn.

    neuralcoref serve --host 127.0.0.1 --port 8000
    curl -s localhost:8000/resolve -H 'Content-Type: application/json' \\
         -d '{"text": "Anna said she likes Paris."}'

``POST /resolve`` takes ``{"text": "..."}`` and answers one record (see
:mod:`neuralcoref.records`), or takes ``{"texts": [...]}`` and answers
``{"results": [record, ...]}``. ``GET /health`` says the server is up. A body
over ``max_body_bytes`` is answered with 413; a body that is not JSON, or neither
shape, with 422 and a message saying what to send.

``create_app`` only builds the application (and loads the pipeline): nothing
listens until ``serve`` (or any ASGI server) runs it. FastAPI and uvicorn come
with ``pip install 'neuralcoref[serve]'``.
"""
# No ``from __future__ import annotations``: FastAPI reads the handlers' annotations
# (``request: Request``), and Request is only imported inside create_app.
import json
import re
import threading
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .errors import Errors, NeuralcorefError

if TYPE_CHECKING:
    from fastapi import FastAPI
    from spacy.language import Language

#: Largest request body accepted by default: 1 MB.
DEFAULT_MAX_BODY_BYTES = 1_000_000
_SURROGATE = re.compile("[\ud800-\udfff]")

_REQUEST_SCHEMA = {
    "oneOf": [
        {"type": "object", "required": ["text"], "additionalProperties": False,
         "properties": {"text": {"type": "string"}}},
        {"type": "object", "required": ["texts"], "additionalProperties": False,
         "properties": {"texts": {"type": "array", "items": {"type": "string"}}}},
    ],
    "examples": [{"text": "Anna said she likes Paris."}],
}


class RequestError(NeuralcorefError):
    """A request the server answers with an HTTP error: ``status`` and a coded message."""

    def __init__(self, status: int, message: str):
        self.status = status
        super().__init__(message)


def _describe(value: Any) -> str:
    names = {dict: "a JSON object", list: "a JSON array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def parse_request(body: bytes) -> Dict[str, Any]:
    """Check a request body and return it as {"text": str} or {"texts": List[str]}.

    body (bytes): the raw body.
    RETURNS (Dict[str, Any]): the parsed body.
    RAISES (RequestError): status 422 with a coded message (E301, E302, E317).
    """
    try:
        data = json.loads(body)
    except ValueError as err:  # JSONDecodeError and UnicodeDecodeError
        raise RequestError(422, Errors.E301.format(error=err)) from None
    if not isinstance(data, dict):
        raise RequestError(422, Errors.E302.format(found=_describe(data)))
    if set(data) not in ({"text"}, {"texts"}):
        found = f"a JSON object with the keys {sorted(data)}" if data else "an empty JSON object"
        raise RequestError(422, Errors.E302.format(found=found))
    texts = [data["text"]] if "text" in data else data["texts"]
    if "texts" in data and not isinstance(texts, list):
        raise RequestError(422, Errors.E302.format(found=f"an object whose 'texts' is {_describe(texts)}"))
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            where = "'text'" if "text" in data else f"item {i} of 'texts'"
            raise RequestError(422, Errors.E302.format(found=f"an object whose {where} is {_describe(text)}"))
        surrogate = _SURROGATE.search(text)
        if surrogate is not None:
            where = "" if "text" in data else f" {i} of 'texts'"
            raise RequestError(422, Errors.E317.format(
                where=where, char=f"U+{ord(surrogate.group()):04X}", offset=surrogate.start()))
    return data


class _Resolver:
    """Runs the pipeline, one request at a time (spaCy pipelines are not thread-safe)."""

    def __init__(self, nlp: "Language", batch_size: int):
        self.nlp = nlp
        self.batch_size = batch_size
        self.lock = threading.Lock()

    def __call__(self, texts: List[str]) -> List[Dict[str, Any]]:
        from .records import doc_record

        with self.lock:
            return [doc_record(doc) for doc in self.nlp.pipe(texts, batch_size=self.batch_size)]


def create_app(nlp: Optional["Language"] = None, *, model: Optional[str] = None,
               spacy_model: Optional[str] = None, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
               batch_size: int = 32) -> "FastAPI":
    """Build the FastAPI application (nothing is started).

    nlp (Language | None): a pipeline with the neuralcoref component; by default
        ``spacy_model`` with neuralcoref (``model``) added.
    model (str | None): shipped model name or model folder, when ``nlp`` is None.
    spacy_model (str | None): the spaCy pipeline, when ``nlp`` is None.
    max_body_bytes (int): largest request body; larger ones get 413.
    batch_size (int): texts per ``nlp.pipe`` batch.
    RETURNS (FastAPI): the application, to run with uvicorn (or TestClient).
    """
    try:
        from fastapi import FastAPI, Request
        from fastapi.concurrency import run_in_threadpool
        from fastapi.responses import JSONResponse
    except ImportError:
        raise NeuralcorefError(Errors.E303) from None
    from . import __version__

    for name, value in (("max_body_bytes", max_body_bytes), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise NeuralcorefError(Errors.E304.format(name=name, value=value, expected="an integer >= 1"))
    if nlp is None:
        from .api import build_pipeline

        nlp = build_pipeline(model, spacy_model)  # the model's own pipeline by default
    if "neuralcoref" not in nlp.pipe_names:
        raise NeuralcorefError(Errors.E305.format(pipes=nlp.pipe_names))
    nlp.get_pipe("neuralcoref").resolver  # a model that failed to load: fail now, not per request
    resolve_texts = _Resolver(nlp, batch_size)
    pipeline = f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', 'pipeline')}"

    # No /docs or /redoc: their pages load scripts from a CDN.
    app = FastAPI(title="neuralcoref", version=__version__, docs_url=None, redoc_url=None,
                  description="Coreference resolution for spaCy.")
    app.state.nlp = nlp
    app.state.max_body_bytes = max_body_bytes

    @app.exception_handler(RequestError)
    async def _request_error(request: Request, err: RequestError) -> JSONResponse:
        return JSONResponse(status_code=err.status, content={"detail": str(err)})

    @app.get("/health")
    async def health() -> Dict[str, Any]:
        """Whether the server is up, with its versions and limits."""
        return {"status": "ok", "neuralcoref": __version__, "pipeline": pipeline,
                "max_body_bytes": max_body_bytes}

    @app.post("/resolve", openapi_extra={"requestBody": {
        "required": True, "content": {"application/json": {"schema": _REQUEST_SCHEMA}}}})
    async def resolve(request: Request) -> Dict[str, Any]:
        """Resolve coreference in {"text": ...} or {"texts": [...]}."""
        data = parse_request(await _read_body(request, max_body_bytes))
        texts = [data["text"]] if "text" in data else data["texts"]
        try:
            records = await run_in_threadpool(resolve_texts, texts)
        except NeuralcorefError as err:
            raise RequestError(422, str(err)) from None
        return records[0] if "text" in data else {"results": records}

    return app


async def _read_body(request, limit: int) -> bytes:
    """The request body, or a 413 as soon as it is known to pass ``limit`` bytes
    (from Content-Length, or while reading a chunked body)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise RequestError(413, Errors.E300.format(limit=limit))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RequestError(413, Errors.E300.format(limit=limit))
    return bytes(body)


def serve(host: str = "127.0.0.1", port: int = 8000, *, model: Optional[str] = None,
          spacy_model: Optional[str] = None, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
          batch_size: int = 32, log_level: str = "info") -> None:
    """Load the pipeline and serve the application with uvicorn until stopped."""
    try:
        import uvicorn
    except ImportError:
        raise NeuralcorefError(Errors.E303) from None
    app = create_app(model=model, spacy_model=spacy_model, max_body_bytes=max_body_bytes,
                     batch_size=batch_size)
    uvicorn.run(app, host=host, port=port, log_level=log_level)
