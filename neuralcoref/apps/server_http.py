"""uvicorn's HTTP/1.1 protocol (h11) with a deadline on request headers and a
cap on open connections.

uvicorn closes idle keep-alive connections, but a client that sends a request's
headers a byte at a time ("slowloris") is held as long as it keeps sending. The
protocol here gives each request ``header_timeout`` seconds from the moment the
connection opens (or the previous answer is sent) until its headers are in,
then answers 408 with a coded message and closes the connection. The body's
deadline is the application's (``ServerLimits.body_timeout``), since uvicorn
hands a request to the application as soon as its headers are in.
"""
from __future__ import annotations

import json
from typing import Any, Optional

from ..errors import Errors


def closing_response(status: str, code: str, limit: float) -> bytes:
    """A complete HTTP/1.1 response (``status``: "408 Request Timeout"...)
    carrying the coded message ``code``, which closes the connection."""
    message = getattr(Errors, code).format(limit=f"{limit:g}")
    body = json.dumps({"detail": message}).encode()
    head = (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode() + body


def header_timeout_protocol(header_timeout: float, max_connections: int) -> type:
    """A subclass of uvicorn's H11Protocol that answers 408 (E327) to a request
    whose headers are not in after ``header_timeout`` seconds, and 503 (E334) to
    a connection beyond ``max_connections``; pass it to ``uvicorn.run(..., http=...)``."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimeoutH11Protocol(H11Protocol):
        _header_timer: Optional[Any] = None
        _refused = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._refused = len(self.connections) > max_connections  # this one included
            if self._refused:
                transport.write(closing_response("503 Service Unavailable", "E334", max_connections))
                # Closing with the request unread would reset the connection, and
                # the client could lose the answer: end writing, drop what comes,
                # close a second later if the client has not.
                transport.write_eof()
                self.loop.call_later(1.0, transport.close)
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self._disarm()
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # this request's headers are in
                self._disarm()

        def on_response_complete(self) -> None:
            self._arm()  # before super(), which may read a pipelined request's headers
            super().on_response_complete()

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.write(closing_response("408 Request Timeout", "E327", header_timeout))
                self.transport.close()

    return HeaderTimeoutH11Protocol
