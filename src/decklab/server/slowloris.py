"""A deadline for request headers, which uvicorn does not have.

uvicorn closes a connection that stays idle after an answer (keep-alive, 5 s), but
once a byte arrives it waits for the rest of the headers for ever: a client sending
half a request line holds a connection, a file descriptor and a little memory as long
as it likes (slowloris). :func:`protocol_with_header_timeout` gives uvicorn's HTTP
protocol a timer, started when the connection opens and again after each answer,
that closes the connection unless a request's headers were complete in time.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose headers come too slowly."""

    header_timeout_s = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # waiting for the next request, unless a pipelined one (headers read) runs now
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def header_timeout_protocol(timeout_s: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class to give uvicorn as ``http=``, its deadline set to ``timeout_s``.

    One class for the process, its deadline a class attribute: uvicorn's worker
    processes receive the class by name (pickled), and each sets the deadline again
    from its settings when it builds the application (:func:`commands.app_factory`)."""
    HeaderTimeoutProtocol.header_timeout_s = timeout_s
    return HeaderTimeoutProtocol
