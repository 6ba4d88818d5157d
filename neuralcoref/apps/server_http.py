"""uvicorn's HTTP/1.1 protocol (h11) with deadlines on idle connections and
request headers, and caps on open connections, in all and per client.

uvicorn closes idle keep-alive connections, but a client that sends a request's
headers a byte at a time ("slowloris") is held as long as it keeps sending, and
one client opening connections without a request can hold every slot. The
protocol here:

- closes a connection that sends no byte for ``idle_timeout`` seconds after it
  opens (or after its last answer);
- gives each request ``header_timeout`` seconds from the moment the connection
  opens (or the previous answer is sent) until its headers are in, then answers
  408 with a coded message and closes the connection;
- answers 503 (E420) and closes a connection beyond ``max_client_connections``
  from one client address;
- beyond ``max_connections`` in all, closes the oldest idle connection of the
  client holding the most, to make room; only when none is idle is the new
  connection answered 503 (E334) and closed.

The body's deadline is the application's (``ServerLimits.body_timeout``), since
uvicorn hands a request to the application as soon as its headers are in.
"""
from __future__ import annotations

import collections
import json
import os
import socket
import time
from typing import Any, Dict, Optional

from ..errors import Errors
from .server_limits import ServerLimits


#: Idle connections looked at, at most, to find one to close for a newcomer.
_EVICTION_TRIES = 16


def _has_unread_bytes(transport: Any) -> bool:
    """Whether the kernel holds bytes the event loop has not read yet from the
    transport's socket (a request sent, not yet seen as data_received)."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return False
    try:
        with socket.socket(fileno=os.dup(sock.fileno())) as peek:
            return bool(peek.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except (BlockingIOError, InterruptedError):
        return False  # nothing to read
    except OSError:
        return True  # in doubt, keep it


def closing_response(status: str, code: str, limit: float, **fields: Any) -> bytes:
    """A complete HTTP/1.1 response (``status``: "408 Request Timeout"...)
    carrying the coded message ``code``, which closes the connection."""
    message = getattr(Errors, code).format(limit=f"{limit:g}", **fields)
    body = json.dumps({"detail": message}).encode()
    head = (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode() + body


def header_timeout_protocol(limits: ServerLimits) -> type:
    """A subclass of uvicorn's H11Protocol that enforces ``limits``'
    idle_timeout, header_timeout, max_connections and max_client_connections
    (see the module); pass it to ``uvicorn.run(..., http=...)``."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    per_client: Dict[str, int] = collections.Counter()

    class HeaderTimeoutH11Protocol(H11Protocol):
        _header_timer: Optional[Any] = None
        _idle_timer: Optional[Any] = None
        _idle_since: Optional[float] = None  # no byte received since then
        _refused = False
        _address: Optional[str] = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else "unknown"
            if per_client[address] >= limits.max_client_connections:
                self._refuse(closing_response("503 Service Unavailable", "E420",
                                              limits.max_client_connections, client=address))
                return
            if len(self.connections) > limits.max_connections and not self._evict_idle():
                self._refuse(closing_response("503 Service Unavailable", "E334", limits.max_connections))
                return
            self._address = address
            per_client[address] += 1
            self._arm()

        def _refuse(self, answer: bytes) -> None:
            self._refused = True
            self.transport.write(answer)
            # Closing with the request unread would reset the connection, and the
            # client could lose the answer: end writing, drop what comes, close a
            # second later if the client has not.
            self.transport.write_eof()
            self.loop.call_later(1.0, self.transport.close)

        def _evict_idle(self) -> bool:
            """Close the oldest idle connection of the client holding the most
            connections. RETURNS (bool): whether one was closed."""
            idle = [c for c in self.connections if isinstance(c, HeaderTimeoutH11Protocol)
                    and c._idle_since is not None and not c.transport.is_closing()]
            idle.sort(key=lambda c: (-per_client[c._address], c._idle_since))
            for victim in idle[:_EVICTION_TRIES]:
                if not _has_unread_bytes(victim.transport):  # a request on its way: not idle
                    victim._close_idle()
                    return True
            return False

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self._idle_since is not None:  # the first byte since the connection opened or was answered
                if self._idle_timer is not None:
                    self._idle_timer.cancel()
                    self._idle_timer = None
                if self._header_timer is None:  # passed while idle: the headers are late unless in now
                    self._header_timer = self.loop.call_later(0, self._headers_late)
                self._idle_since = None
            super().data_received(data)

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self._disarm()
            if self._address is not None:
                per_client[self._address] -= 1
                if per_client[self._address] <= 0:
                    del per_client[self._address]
                self._address = None
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # this request's headers are in
                self._disarm()  # (a pipelined request's too, which sent no new byte)
                self._idle_since = None

        def on_response_complete(self) -> None:
            self._arm()  # before super(), which may read a pipelined request's headers
            super().on_response_complete()

        def _arm(self) -> None:
            self._disarm()
            self._idle_since = time.monotonic()
            self._idle_timer = self.loop.call_later(limits.idle_timeout, self._close_idle)
            self._header_timer = self.loop.call_later(limits.header_timeout, self._headers_late)

        def _disarm(self) -> None:
            for timer in (self._header_timer, self._idle_timer):
                if timer is not None:
                    timer.cancel()
            self._header_timer = self._idle_timer = None

        def _close_idle(self) -> None:
            """Close a connection that has sent nothing since it opened or was
            last answered (as uvicorn closes an idle keep-alive connection)."""
            self._idle_timer = None
            if self._idle_since is not None and not self.transport.is_closing():
                try:
                    self.conn.send(h11.ConnectionClosed())
                except h11.LocalProtocolError:
                    pass
                self.transport.close()

        def _headers_late(self) -> None:
            self._header_timer = None
            if self._idle_since is not None:
                return  # nothing sent yet: the idle deadline applies
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.write(closing_response("408 Request Timeout", "E327", limits.header_timeout))
                self.transport.close()

    return HeaderTimeoutH11Protocol
