"""``config.handshake_logs``: autobahn's debug arguments are pretty-printed when a log
line is rendered, not when a connection is made, and render as before."""

from __future__ import annotations

import pprint

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
