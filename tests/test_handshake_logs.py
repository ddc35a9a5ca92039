"""``config.handshake_logs``: autobahn's debug arguments are made when a log line is
rendered, not when a connection is made or a frame sent, and render as before."""

from __future__ import annotations

import pprint

from autobahn import util
from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol
from twisted.logger import formatEvent

from config import handshake_logs


class Counted:
    """A value that counts how often it is turned into text."""

    def __init__(self):
        self.reprs = 0

    def __repr__(self):
        self.reprs += 1
        return "Counted()"


def test_autobahns_pformat_makes_no_text_until_a_log_line_is_rendered():
    handshake_logs.install()  # what config.asgi does in every Daphne process
    value = Counted()
    attrs = [("openHandshakeTimeout", 5, "WebSocketFactory"), ("value", value, "x")]
    arg = protocol.pformat(attrs)
    assert value.reprs == 0
    # Twisted's logger (which txaio's logs through under Daphne) renders it as before.
    line = formatEvent({"log_format": "\n{attrs}", "attrs": arg})
    assert line == "\n" + pprint.pformat(attrs)
    assert value.reprs == 2  # once by each pformat above
    assert f"{arg:>5}" == format(pprint.pformat(attrs), ">5")


def test_a_connections_timings_still_print_as_text():
    handshake_logs.install()
    timings = protocol.Timings()
    timings.track("onOpen")
    text = str(timings)
    assert type(text) is str
    assert text == pprint.pformat(timings._timings)
    assert "onOpen" in text


def test_a_frame_s_highlighted_names_are_made_only_when_logged(monkeypatch):
    handshake_logs.install()
    made = []
    real = util.hl
    monkeypatch.setattr(util, "hl", lambda *a, **k: made.append(a) or real(*a, **k))
    value = Counted()
    for module in (protocol, twisted_websocket):
        made.clear()
        value.reprs = 0
        func, peer = module.hltype(Counted), module.hlval(value)
        assert made == [] and value.reprs == 0  # what sending a frame pays: nothing
        line = formatEvent({"log_format": "{func} to {peer}", "func": func, "peer": peer})
        assert made and value.reprs == 1  # made as the line is rendered
        assert line == f"{util.hltype(Counted)} to {util.hlval(value)}"
        assert "Counted" in line
