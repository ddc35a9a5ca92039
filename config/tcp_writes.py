"""Daphne's TCP connections send a frame at once when nothing is waiting to be sent.

Twisted's ``FileDescriptor.write`` never sends: it buffers the bytes and registers the
socket with the event loop for writability; on the loop's next pass the socket is
reported writable (it nearly always is), the buffer is sent and the socket is taken off
the loop again.  For a table socket that is, for every frame out, two ``epoll_ctl``
calls, a loop pass and Twisted's logging context around the callback: at four frames
out for every move, a good part of what the WebSocket server costs a move (issue 15).
``asyncio``'s own transports, like most servers', try the send first and wait for
writability only for what the kernel did not take.

``install`` makes Twisted's plain TCP connections (``twisted.internet.tcp.Connection``,
what Daphne serves on) do the same: while the connection has nothing buffered and is not
closing, a write is offered to the socket at once and only the remainder, if any, is
buffered the usual way (so the order of bytes is kept: once anything is buffered, every
later write queues behind it).  A send that fails is left to the usual path too, which
meets the same error on the next pass and closes the connection as it always did.
Connections with TLS started on them (``startTLS``) keep Twisted's path untouched.

Written against Twisted 26.10 (``requirements.txt`` pins it through Daphne): it relies on
``FileDescriptor``'s ``dataBuffer``/``offset``/``_tempDataLen`` buffer and on
``writeSomeData`` returning a count of bytes sent or an exception.
"""

from __future__ import annotations

from twisted.internet import tcp

_twisted_write = tcp.Connection.write


def _write(self, data: bytes) -> None:
    if (
        type(data) is bytes
        and data
        and self.connected
        and not getattr(self, "TLS", False)
        and not self.disconnecting
        and not self._writeDisconnected
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)
    ):
        sent = self.writeSomeData(data)
        if isinstance(sent, int) and sent > 0:
            if sent == len(data):
                return
            data = data[sent:]
    _twisted_write(self, data)


def install() -> None:
    """Send at once on Twisted's TCP connections (idempotent)."""
    tcp.Connection.write = _write
