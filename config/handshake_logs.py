"""Autobahn's WebSocket protocol makes its debug lines' arguments only when they are logged.

Every WebSocket connection Daphne accepts runs autobahn's ``_connectionMade``, which
copies some forty options from the factory and passes them, pretty-printed, to a debug
log line: ``self.log.debug("\\n{attrs}", attrs=pformat(configAttrLog))``.  The argument
is built whether or not anything logs at debug level, and ``pprint`` is slow: in the
table benchmark's busiest seconds (a thousand sockets sitting down in ten) it was 2.4 %
of the socket servers' CPU, more than the handshake's own parsing (issue 15).  Likewise
every frame sent or received passes ``func=hltype(...)``, ``peer=hlval(...)`` to a
debug line, and those colour their text with ``click.style`` at once: 1.8-2.7 % of the
socket servers' CPU at 250 tables (issue 15, the nineteenth round).

``install`` makes the ``pformat``, ``hltype`` and ``hlval`` those modules call return a
stand-in that makes the text when it is formatted into a log line (``str.format``, as
Twisted's and txaio's loggers render an event, calls its ``__format__``) and not
before; the one place the protocol module uses ``pformat`` for a value rather than a log
argument, ``Timings.__str__``, gets the real one back.  What a debug log shows is
unchanged.

Written against autobahn 26.11 (a dependency of Daphne's, in ``requirements.txt``).
"""

from __future__ import annotations

import functools
import pprint

from autobahn import util
from autobahn.twisted import websocket as twisted_websocket
from autobahn.websocket import protocol


class _Lazy:
    """``make(*args, **kwargs)``, called when formatted."""

    __slots__ = ("make", "args", "kwargs")

    def __init__(self, make, *args, **kwargs):
        self.make, self.args, self.kwargs = make, args, kwargs

    def __str__(self) -> str:
        return self.make(*self.args, **self.kwargs)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _timings_str(self) -> str:
    return pprint.pformat(self._timings)


def install() -> None:
    """Make autobahn's debug arguments lazily (idempotent)."""
    protocol.pformat = functools.partial(_Lazy, pprint.pformat)
    protocol.Timings.__str__ = _timings_str
    for module in (protocol, twisted_websocket):
        module.hltype = functools.partial(_Lazy, util.hltype)
        module.hlval = functools.partial(_Lazy, util.hlval)
