"""The REST server's limits: settings with safe defaults, and the checks made on
a request in the server's own process (before any worker sees it).

Each exceeded limit is answered with a coded HTTP error (:class:`RequestError`);
``docs/serving.md`` lists the limits, their defaults and how to raise them.
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, fields
from typing import Any, Dict, List, Optional

from ..errors import Errors, NeuralcorefError
from ..validation import check_float, check_int, check_known

#: Whose settings these are, as E170 and E173 say.
OWNER = "the server"
#: Largest request body accepted by default: 1 MB.
DEFAULT_MAX_BODY_BYTES = 1_000_000


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
        (408, E327; served by :func:`neuralcoref.server.serve` only).
    body_timeout (float): seconds a client has to send a request's body (408, E328).
    max_waiting (int): requests that may wait for a free worker (503, E329 beyond).
    max_connections (int): open connections; one more is answered 503 (E334) and
        closed (served by :func:`neuralcoref.server.serve` only).
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
        """The limits as a JSON-ready dict (what ``GET /health`` reports)."""
        return asdict(self)


def make_limits(settings: Dict[str, Any]) -> ServerLimits:
    """ServerLimits from keyword settings, with a coded error (E173) for a name
    that is not a limit, rather than a bare TypeError."""
    check_known(settings, [field.name for field in fields(ServerLimits)], OWNER)
    return ServerLimits(**settings)


def check_content_type(content_type: str) -> None:
    """Refuse a body that is not declared as JSON (415, E325): a web page can
    send ``text/plain`` to any server without the browser asking first, but
    not ``application/json``."""
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        found = repr(content_type[:100]) if content_type else "none"
        raise RequestError(415, Errors.E325.format(found=found))


def check_texts(texts: List[str], limits: ServerLimits) -> None:
    """Refuse, before any work, a request over the limits on texts, characters
    or tokens (413, E320-E322).

    Tokens are counted here from below, as runs of non-space characters (spaCy
    makes at least one token of each); the worker counts them exactly.
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
