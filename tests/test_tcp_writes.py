"""``config.tcp_writes``: Twisted's TCP connections send at once when nothing is queued,
and never reorder bytes.  On a real socket pair and a real (uninstalled) epoll reactor."""

from __future__ import annotations

import socket

import pytest
from twisted.internet import tcp
from twisted.internet.epollreactor import EPollReactor
from twisted.internet.protocol import Protocol

from config import tcp_writes


@pytest.fixture
def pair():
    tcp_writes.install()  # what config.asgi does in every Daphne process
    reactor = EPollReactor()
    ours, peer = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    conn = tcp.Connection(ours, Protocol(), reactor)
    conn.connected = True
    peer.setblocking(False)
    yield reactor, conn, peer
    reactor.removeAll()
    ours.close()
    peer.close()


def _drain(peer) -> bytes:
    out = b""
    while True:
        try:
            chunk = peer.recv(1 << 16)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk


def test_a_frame_goes_out_at_once_without_waiting_for_the_loop(pair):
    reactor, conn, peer = pair
    conn.write(b"frame one")
    conn.write(b"frame two")
    assert _drain(peer) == b"frame oneframe two"  # no reactor pass ran
    assert conn not in reactor.getWriters()  # nothing left for the loop to do


def test_what_the_kernel_did_not_take_is_queued_and_later_writes_wait_behind_it(pair):
    reactor, conn, peer = pair
    big = bytes(range(256)) * 4096  # 1 MiB: more than the socket buffers hold
    conn.write(big)
    first = _drain(peer)
    assert 0 < len(first) < len(big)
    assert conn in reactor.getWriters()  # the rest waits for writability, as before
    conn.write(b"tail")  # must not overtake the queued part
    received = first
    while conn in reactor.getWriters():
        conn.doWrite()
        received += _drain(peer)
    assert received == big + b"tail"


def test_a_closing_connection_keeps_twisteds_path(pair):
    reactor, conn, peer = pair
    conn.disconnecting = True
    conn.write(b"late")
    assert _drain(peer) == b""  # queued: Twisted flushes it before closing
    assert conn in reactor.getWriters()


def test_a_failed_send_is_left_to_twisted_which_reports_the_lost_connection(pair):
    reactor, conn, peer = pair
    peer.close()
    conn.write(b"to nobody")  # the send fails (EPIPE); nothing raises here
    assert conn in reactor.getWriters()
    assert conn.doWrite() is not None  # the usual path sees the error and says so
