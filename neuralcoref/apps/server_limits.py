"""The REST server's limits: settings with safe defaults, and the checks made on
a request in the server's own process (before any worker sees it).

Each exceeded limit is answered with a coded HTTP error (:class:`RequestError`);
``docs/serving.md`` lists the limits, their defaults and how to raise them.
"""
from __future__ import annotations

import codecs
import sys
from dataclasses import asdict, dataclass, fields
from typing import Any, Dict, List, Optional, Union

from ..errors import Errors, NeuralcorefError
from ..validation import check_float, check_int, check_known
from .input_guard import MAX_TOKENIZER_COST, tokenizer_cost

#: Whose settings these are, as E170 and E173 say.
OWNER = "the server"
#: Largest request body accepted by default: 1 MB.
DEFAULT_MAX_BODY_BYTES = 1_000_000
#: Tokenizer cost units that take about as long as parsing and resolving one
#: token (measured: a unit 0.3-1 µs, a token of a long text about 0.5 ms).
TOKENIZER_UNITS_PER_TOKEN = 1_000


class RequestError(NeuralcorefError):
    """A request the server answers with an HTTP error: ``status`` and a coded message."""

    def __init__(self, status: int, message: str, headers: Dict[str, str] = None):
        self.status = status
        self.headers = headers or {}
        super().__init__(message)


@dataclass(frozen=True)
class ServerLimits:
    """What one request may cost the server. Sizes are integers >= 1, seconds
    numbers > 0; a bad value is a coded error (E170) when the limits are made.

    max_body_bytes (int): largest request body (413, E300).
    max_text_chars (int): largest text, in characters (413, E320).
    max_texts (int): most texts in one request (413, E321).
    max_tokens (int): most tokens in one request, all texts together (413, E322).
    max_response_bytes (int): largest response body (413, E323).
    timeout (float): seconds a worker may spend on one request (422, E324); a
        request may wait as long again for a free worker (503, E329).
    header_timeout (float): seconds a client has to send a request's headers
        (408, E327; served by :func:`neuralcoref.apps.server.serve` only).
    body_timeout (float): seconds a client has to send a request's body (408, E328).
    max_waiting (int): requests that may wait for a free worker (503, E329 beyond).
    max_connections (int): open connections; beyond it the oldest connection
        idle between requests is closed to make room, and a connection with none
        to close is answered 503 (E334) and closed (served by
        :func:`neuralcoref.apps.server.serve` only, as the next two).
    max_client_connections (int): open connections from one client address; one
        more is answered 503 (E420) and closed.
    idle_timeout (float): seconds a connection may stay open without sending a
        byte (after it opens, or after its last answer); then it is closed.
    max_tokenizer_cost (int): what a request's texts may cost spaCy's
        tokenizer, estimated before any work as the length times the
        punctuation and symbols of each run of characters without a space
        (the tokenizer is quadratic on such runs; 422, E421).
    heavy_tokens (int): a request that costs more tokens (counted from below,
        plus its tokenizer cost in tokens' worth) is large: large requests run
        alone and on at most ``workers - 1`` workers at once, so that small
        ones always find a worker.
    worker_memory_mb (int | None): megabytes of address space a worker may take
        beyond its loaded pipeline (Linux only); a request that needs more is
        answered 422 (E330) and its worker replaced. None: no limit.
    """

    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_text_chars: int = 100_000
    max_texts: int = 1_000
    max_tokens: int = 50_000
    max_response_bytes: int = 10_000_000
    timeout: float = 30.0
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_waiting: int = 64
    max_connections: int = 1_000
    max_client_connections: int = 64
    idle_timeout: float = 5.0
    max_tokenizer_cost: int = MAX_TOKENIZER_COST
    heavy_tokens: int = 2_000
    worker_memory_mb: Optional[int] = None

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is None and field.type.startswith("Optional"):
                continue
            if field.type in ("int", "Optional[int]"):
                check_int(field.name, value, 1, OWNER)
            else:
                check_float(field.name, value, 0, owner=OWNER, above=True, what="a number of seconds")
        if self.worker_memory_mb is not None and not sys.platform.startswith("linux"):
            raise NeuralcorefError(Errors.E333.format(platform=sys.platform))

    def to_dict(self) -> Dict[str, Any]:
        """The limits as a JSON-ready dict (what ``GET /health`` reports with
        ``health_details``)."""
        return asdict(self)


def make_limits(settings: Dict[str, Any]) -> ServerLimits:
    """ServerLimits from keyword settings, with a coded error (E173) for a name
    that is not a limit, rather than a bare TypeError."""
    check_known(settings, [field.name for field in fields(ServerLimits)], OWNER)
    return ServerLimits(**settings)


def check_content_type(content_type: str) -> Optional[str]:
    """Refuse a body that is not declared as JSON (415, E325): a web page can
    send ``text/plain`` to any server without the browser asking first, but
    not ``application/json``.

    RETURNS (str | None): the Python codec of the declared ``charset``, None when
        none is declared (JSON's own detection of UTF-8, -16 or -32 applies).
    RAISES (RequestError): 415 with E325, or E422 for a charset that is not a
        text encoding Python knows.
    """
    media_type, _, params = content_type.partition(";")
    if media_type.strip().lower() != "application/json":
        found = repr(content_type[:100]) if content_type else "none"
        raise RequestError(415, Errors.E325.format(found=found))
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return _codec(value.strip().strip('"'))
    return None


def _codec(charset: str) -> str:
    """The Python codec of an HTTP charset name; 415 (E422) for one that is
    unknown or not a text encoding (e.g. 'zlib' or 'rot13')."""
    try:
        info = codecs.lookup(charset)
    except (LookupError, ValueError):
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True) or info.name == "rot-13":
        raise RequestError(415, Errors.E422.format(charset=repr(charset[:40])))
    return info.name


def decode_body(body: bytes, codec: Optional[str]) -> Union[bytes, str]:
    """The body as declared: text decoded with ``codec``, or the bytes as they
    came when no charset is declared. RAISES (RequestError): 422, E423."""
    if codec is None:
        return body
    try:
        return body.decode(codec)
    except UnicodeDecodeError as err:
        raise RequestError(422, Errors.E423.format(charset=codec, error=err.reason + f" at byte {err.start}")) \
            from None


def check_texts(texts: List[str], limits: ServerLimits) -> int:
    """Refuse, before any work, a request over the limits on texts, characters
    or tokens (413, E320-E322), or over the tokenizer's budget (422, E421).

    Tokens are counted here from below, as runs of non-space characters (spaCy
    makes at least one token of each); the worker counts them exactly.
    RETURNS (int): the request's cost in tokens: those counted from below, plus
        the tokenizer's cost (:func:`tokenizer_cost`) in tokens' worth
        (``TOKENIZER_UNITS_PER_TOKEN``), compared with ``heavy_tokens``.
    """
    if len(texts) > limits.max_texts:
        raise RequestError(413, Errors.E321.format(n=len(texts), limit=limits.max_texts))
    n_words = 0
    for i, text in enumerate(texts):
        if len(text) > limits.max_text_chars:
            where = "" if len(texts) == 1 else f" {i}"
            raise RequestError(413, Errors.E320.format(
                where=where, n=len(text), limit=limits.max_text_chars))
        n_words += len(text.split())
        if n_words > limits.max_tokens:
            raise RequestError(413, Errors.E322.format(
                n=f"at least {n_words}", limit=limits.max_tokens))
    return n_words + check_tokenizer_cost(texts, limits.max_tokenizer_cost) // TOKENIZER_UNITS_PER_TOKEN


def check_tokenizer_cost(texts: List[str], limit: int) -> int:
    """Refuse texts whose tokenizer cost (:func:`tokenizer_cost`), all
    together, passes ``limit`` (422, E421). RETURNS (int): their cost."""
    total, worst = 0, (0, 0, 0, "")
    for i, text in enumerate(texts):
        cost, offset, start = tokenizer_cost(text)
        total += cost
        worst = max(worst, (cost, i, offset, start))
        if total > limit:
            _, where, offset, start = worst
            raise RequestError(422, Errors.E421.format(
                cost=total, limit=limit, where="" if len(texts) == 1 else f" in text {where}",
                offset=offset, run=repr(start + "...")))
    return total
