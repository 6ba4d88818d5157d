"""A REST server over a neuralcoref pipeline: FastAPI, served by uvicorn.

    neuralcoref serve --host 127.0.0.1 --port 8000
    curl -s localhost:8000/resolve -H 'Content-Type: application/json' \\
         -d '{"text": "Anna said she likes Paris."}'

``POST /resolve`` takes ``{"text": "..."}`` and answers one record (see
:mod:`neuralcoref.apps.records`), or takes ``{"texts": [...]}`` and answers
``{"results": [record, ...]}``. ``GET /health`` says the server is up (and no
more, unless ``health_details``). A body
that is not JSON, or neither shape, is answered with 422 and a message saying
what to send; every limit of :class:`~neuralcoref.apps.server_limits.ServerLimits`
(body, characters, texts, tokens, response size, seconds) with its own coded
413, 422, 408 or 503 (``docs/serving.md``).

The server's process reads, checks and answers requests; worker processes
(:mod:`neuralcoref.apps.server_worker`) parse and resolve them, each under a
deadline, so that no request can stall ``/health`` or the others.
``create_app`` only builds the application (and loads the pipeline): nothing
listens until ``serve`` (or any ASGI server) runs it. FastAPI and uvicorn come
with ``pip install 'neuralcoref[serve]'``.
"""
# No ``from __future__ import annotations``: FastAPI reads the handlers' annotations
# (``request: Request``), and Request is only imported inside create_app.
import asyncio
import json
import pickle
import time
from contextlib import asynccontextmanager
from dataclasses import fields
from typing import TYPE_CHECKING, Any, AsyncIterator, Dict, Optional, Union

from ..errors import Errors, NeuralcorefError
from ..validation import check_choice, check_int, check_known, check_text
from .server_limits import DEFAULT_MAX_BODY_BYTES  # noqa: F401 (its old home)
from .server_limits import (OWNER, RequestError, ServerLimits, check_content_type, check_texts, decode_body,
                            make_limits)
from .server_worker import ClientGone, Job, WorkerPool

if TYPE_CHECKING:
    from fastapi import FastAPI
    from spacy.language import Language

#: create_app's keyword options besides the limits (serve passes them on).
APP_OPTIONS = ("model", "spacy_model", "batch_size", "workers", "kb", "health_details")
#: uvicorn's log levels.
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")

_REQUEST_SCHEMA = {
    "oneOf": [
        {"type": "object", "required": ["text"], "additionalProperties": False,
         "properties": {"text": {"type": "string"}}},
        {"type": "object", "required": ["texts"], "additionalProperties": False,
         "properties": {"texts": {"type": "array", "items": {"type": "string"}}}},
    ],
    "examples": [{"text": "Anna said she likes Paris."}],
}


def _describe(value: Any) -> str:
    names = {dict: "a JSON object", list: "a JSON array", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def parse_request(body: Union[bytes, str]) -> Dict[str, Any]:
    """Check a request body and return it as {"text": str} or {"texts": List[str]}.

    body (bytes | str): the raw body, or the body decoded as its declared charset.
    RETURNS (Dict[str, Any]): the parsed body.
    RAISES (RequestError): status 422 with a coded message (E301, E302, E326, or
        E171 for a lone surrogate in a text).
    """
    try:
        data = json.loads(body)
    except ValueError as err:  # JSONDecodeError and UnicodeDecodeError
        raise RequestError(422, Errors.E301.format(error=err)) from None
    except RecursionError as err:  # the decoder recurses once per level of nesting
        raise RequestError(422, Errors.E326.format(error=err)) from None
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
        try:
            check_text(text, "" if "text" in data else f" {i} of 'texts'")
        except NeuralcorefError as err:
            raise RequestError(422, str(err)) from None
    return data


def create_app(nlp: Optional["Language"] = None, *, model: Optional[str] = None,
               spacy_model: Optional[str] = None, batch_size: int = 32, workers: int = 2,
               kb: Optional[str] = None, health_details: bool = False, **limits: Any) -> "FastAPI":
    """Build the FastAPI application (nothing is started: the worker processes
    start with the application's lifespan, e.g. ``with TestClient(app)``).

    nlp (Language | None): a pipeline with the neuralcoref component; by default
        ``spacy_model`` with neuralcoref (``model``) added. Each worker loads a copy.
    model (str | None): shipped model name or model folder, when ``nlp`` is None.
    spacy_model (str | None): the spaCy pipeline, when ``nlp`` is None.
    batch_size (int): texts per ``nlp.pipe`` batch, and per batch of small
        requests that a worker runs together.
    workers (int): worker processes resolving requests.
    health_details (bool): ``GET /health`` also reports the versions, limits and
        workers (off by default: they help an attacker; see docs/serving.md).
    kb (str | None): also link clusters to this knowledge base (a shipped KB's
        name or a KB folder; adds ``neuralcoref_linker`` after neuralcoref, to
        ``nlp`` too when given): each linked cluster of a response has "kb_id".
    **limits: any field of :class:`~neuralcoref.apps.server_limits.ServerLimits`
        (max_body_bytes, max_text_chars, max_texts, max_tokens,
        max_response_bytes, timeout, header_timeout, body_timeout, max_waiting,
        worker_memory_mb, max_connections, max_client_connections, idle_timeout,
        max_tokenizer_cost, heavy_tokens).
    RETURNS (FastAPI): the application, to run with uvicorn (or TestClient).
    """
    try:
        from fastapi import FastAPI, Request
        from fastapi.responses import JSONResponse, Response
    except ImportError:
        raise NeuralcorefError(Errors.E303) from None
    from ..about import __version__

    check_int("batch_size", batch_size, 1, OWNER)
    check_int("workers", workers, 1, OWNER)
    if not isinstance(health_details, bool):
        raise NeuralcorefError(Errors.E170.format(name="health_details", owner=OWNER,
                                                  value=repr(health_details), expected="True or False"))
    settings = make_limits(limits)
    if kb is not None:
        from ..artifacts.kb import check_kb_folder

        check_kb_folder(kb)  # E400-E401 before the pipeline loads
    if nlp is None:
        from ..api import build_pipeline

        nlp = build_pipeline(model, spacy_model)  # the model's own pipeline by default
    if "neuralcoref" not in nlp.pipe_names:
        raise NeuralcorefError(Errors.E305.format(pipes=nlp.pipe_names))
    if kb is not None:
        from ..api import add_linker

        add_linker(nlp, kb)
    nlp.get_pipe("neuralcoref").resolver  # a model that failed to load: fail now, not per request
    pipeline = f"{nlp.meta.get('lang', nlp.lang)}_{nlp.meta.get('name', 'pipeline')}"
    nlp_bytes = pickle.dumps(nlp)

    @asynccontextmanager
    async def lifespan(app: "FastAPI") -> AsyncIterator[None]:
        # A pool per run of the app: a TestClient may enter and leave it twice.
        app.state.pool = WorkerPool(nlp_bytes, workers, batch_size, settings)
        await app.state.pool.start()
        try:
            yield
        finally:
            await app.state.pool.close()

    # No /docs or /redoc: their pages load scripts from a CDN.
    app = FastAPI(title="neuralcoref", version=__version__, docs_url=None, redoc_url=None,
                  description="Coreference resolution for spaCy.", lifespan=lifespan)
    app.state.nlp = nlp
    app.state.max_body_bytes = settings.max_body_bytes
    app.state.limits = settings
    app.state.pool = WorkerPool(nlp_bytes, workers, batch_size, settings)  # not started

    @app.exception_handler(RequestError)
    async def _request_error(request: Request, err: RequestError) -> JSONResponse:
        return JSONResponse(status_code=err.status, content={"detail": str(err)}, headers=err.headers)

    @app.get("/health")
    async def health() -> Dict[str, Any]:
        """Whether the server is up (answered by the server's process, never by a
        worker); with ``health_details``, its versions, limits and workers."""
        if not health_details:
            return {"status": "ok"}
        return {"status": "ok", "neuralcoref": __version__, "pipeline": pipeline,
                "max_body_bytes": settings.max_body_bytes, "limits": settings.to_dict(),
                "workers": app.state.pool.status()}

    @app.post("/resolve", openapi_extra={"requestBody": {
        "required": True, "content": {"application/json": {"schema": _REQUEST_SCHEMA}}}})
    async def resolve(request: Request) -> Response:
        """Resolve coreference in {"text": ...} or {"texts": [...]}."""
        with app.state.pool.arriving():
            codec = check_content_type(request.headers.get("content-type", ""))
            data = parse_request(decode_body(await _read_body(request, settings), codec))
            single = "text" in data
            texts = [data["text"]] if single else data["texts"]
            cost = check_texts(texts, settings)
            job = Job(texts, single, settings.max_tokens, settings.max_response_bytes)
        disconnect = asyncio.ensure_future(_disconnected(request))
        try:
            body = await app.state.pool.resolve(job, disconnect, heavy=cost > settings.heavy_tokens)
        except ClientGone:
            return Response(status_code=499)  # nobody reads it
        finally:
            disconnect.cancel()
        return Response(content=body, media_type="application/json")

    return app


async def _disconnected(request) -> None:
    """Return once the client has gone: after the body, the next ASGI message
    is ``http.disconnect``, sent when the connection closes."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
        await asyncio.sleep(0.05)  # a server that repeats empty body messages


async def _read_body(request, limits: ServerLimits) -> bytes:
    """The request body, or a 413 as soon as it is known to pass the limit
    (from Content-Length, or while reading a chunked body), or a 408 if it has
    not all arrived ``limits.body_timeout`` seconds after the headers."""
    limit = limits.max_body_bytes
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise RequestError(413, Errors.E300.format(limit=limit))
    body = bytearray()
    deadline = time.monotonic() + limits.body_timeout
    chunks = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(chunks.__anext__(), max(deadline - time.monotonic(), 0))
        except StopAsyncIteration:
            return bytes(body)
        except asyncio.TimeoutError:
            raise RequestError(408, Errors.E328.format(limit=f"{limits.body_timeout:g}"),
                               {"Connection": "close"}) from None
        body += chunk
        if len(body) > limit:
            raise RequestError(413, Errors.E300.format(limit=limit))


def serve(host: str = "127.0.0.1", port: int = 8000, *, log_level: str = "info", **options: Any) -> None:
    """Load the pipeline and serve the application with uvicorn until stopped,
    with a deadline on request headers (``header_timeout``), on idle
    connections (``idle_timeout``) and caps on connections, in all and per
    client.

    host (str): address to listen on; port (int): port to listen on (0-65535).
    log_level (str): uvicorn's log level (LOG_LEVELS).
    **options: :func:`create_app`'s keyword options (APP_OPTIONS: model,
        spacy_model, batch_size, workers, kb, health_details) and the fields of
        :class:`~neuralcoref.apps.server_limits.ServerLimits`; another name: E173.
    """
    try:
        import uvicorn
    except ImportError:
        raise NeuralcorefError(Errors.E303) from None
    from .server_http import header_timeout_protocol

    # Before the pipeline loads, not after a minute of it.
    check_int("port", port, 0, OWNER, maximum=65535)
    check_choice("log_level", log_level, LOG_LEVELS, OWNER)
    check_known(options, APP_OPTIONS + tuple(field.name for field in fields(ServerLimits)), OWNER)

    app = create_app(**options)
    protocol = header_timeout_protocol(app.state.limits)
    uvicorn.run(app, host=host, port=port, log_level=log_level, http=protocol)
