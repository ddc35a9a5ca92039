"""Autobahn's WebSocket protocol pretty-prints its debug lines only when they are logged.

Every WebSocket connection Daphne accepts runs autobahn's ``_connectionMade``, which
copies some forty options from the factory and passes them, pretty-printed, to a debug
log line: ``self.log.debug("\\n{attrs}", attrs=pformat(configAttrLog))``.  The argument
is built whether or not anything logs at debug level, and ``pprint`` is slow: in the
table benchmark's busiest seconds (a thousand sockets sitting down in ten) it was 2.4 %
of the socket servers' CPU, more than the handshake's own parsing (issue 15).

``install`` makes the ``pformat`` that module calls return a stand-in that pretty-prints
when it is formatted into a log line (``str.format``, as Twisted's and txaio's loggers
render an event, calls its ``__format__``) and not before; the one place the module uses
``pformat`` for a value rather than a log argument, ``Timings.__str__``, gets the real
one back.  What a debug log shows is unchanged.

Written against autobahn 26.11 (a dependency of Daphne's, in ``requirements.txt``).
"""

from __future__ import annotations

import pprint

from autobahn.websocket import protocol


class _Pretty:
    """``pprint.pformat(obj)``, made when formatted."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def __str__(self) -> str:
        return pprint.pformat(*self.args, **self.kwargs)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _timings_str(self) -> str:
    return pprint.pformat(self._timings)


def install() -> None:
    """Pretty-print autobahn's debug arguments lazily (idempotent)."""
    protocol.pformat = _Pretty
    protocol.Timings.__str__ = _timings_str
