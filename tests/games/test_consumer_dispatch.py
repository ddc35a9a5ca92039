"""``consumers._eager``: how the table socket runs a handler in the turn of the loop that
handed it a message, and finishes it in a task when it has to wait."""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync

from games.consumers import _eager


def test_a_coroutine_that_never_waits_is_done_when_eager_returns():
    done = []

    async def handler():
        done.append(1)
        return "value"

    async def run():
        assert _eager(handler()) is None
        assert done == [1]

    async_to_sync(run)()


def test_a_coroutine_that_waits_is_finished_by_a_task_in_order():
    async def run():
        lock = asyncio.Lock()
        out = []

        async def handler(n):
            out.append(("start", n))
            async with lock:
                out.append(("locked", n))
            await asyncio.sleep(0)  # a bare yield too
            out.append(("end", n))

        await lock.acquire()
        rest = _eager(handler(1))
        assert isinstance(rest, asyncio.Task) and out == [("start", 1)]
        await asyncio.sleep(0.01)
        assert not rest.done() and out == [("start", 1)]  # still waits for the lock
        lock.release()
        await asyncio.wait_for(rest, 1)
        assert out == [("start", 1), ("locked", 1), ("end", 1)] and not lock.locked()

    async_to_sync(run)()


def test_an_error_after_the_wait_is_the_task_s_and_cancelling_it_reaches_the_coroutine():
    async def run():
        gate = asyncio.get_running_loop().create_future()
        cleaned = []

        async def fails():
            await gate
            raise ValueError("after the wait")

        rest = _eager(fails())
        gate.set_result(None)
        try:
            await asyncio.wait_for(rest, 1)
        except ValueError as e:
            assert str(e) == "after the wait"
        else:
            raise AssertionError("the coroutine's error was lost")

        async def waits_forever():
            try:
                await asyncio.get_running_loop().create_future()
            finally:
                cleaned.append(1)

        rest = _eager(waits_forever())
        await asyncio.sleep(0)
        rest.cancel()
        await asyncio.gather(rest, return_exceptions=True)
        assert cleaned == [1] and rest.done()

    async_to_sync(run)()


def test_the_benchmark_s_echo_socket_answers_with_no_thread_hop(monkeypatch):
    """The echo socket (the table benchmark's floor) is as bare as the table socket's own
    dispatch: no database cleanup on Channels' shared sync thread for each frame."""
    import channels.consumer
    from channels.testing import WebsocketCommunicator

    from games.consumers import EchoConsumer

    hops = []
    real = channels.consumer.aclose_old_connections

    async def counted():
        hops.append(1)
        await real()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)

    async def run():
        comm = WebsocketCommunicator(EchoConsumer.as_asgi(), "/ws/echo/")
        connected, _ = await comm.connect()
        assert connected
        for text in ('{"t": "act", "v": 1}', "two"):
            await comm.send_to(text_data=text)
            assert await comm.receive_from() == text
        await comm.disconnect()

    async_to_sync(run)()
    assert hops == []


def test_a_source_that_fails_ends_the_socket_with_its_error():
    """As with Channels' dispatch: a source (the client's, the channel layer's) that
    raises ends the consumer with that error, which the server answers by closing the
    socket; it is not left reading from the other source alone."""
    from channels.testing import WebsocketCommunicator

    from games.consumers import EchoConsumer

    class Broken(EchoConsumer):
        async def connect(self):
            await self.accept()

            async def fails():
                raise ConnectionError("the channel layer went away")

            self._task(self._read(fails))

    async def run():
        comm = WebsocketCommunicator(Broken.as_asgi(), "/ws/echo/")
        connected, _ = await comm.connect()
        assert connected
        try:
            await comm.wait(1)
        except ConnectionError as e:
            assert "went away" in str(e)
        else:
            raise AssertionError("the consumer did not end with its source's error")

    async_to_sync(run)()


def test_messages_handed_over_in_one_turn_are_handled_one_at_a_time_in_order():
    """Two messages handed to an idle socket in the same turn of the loop (``_local``, as
    the layer does): the second is handled only once the first's handler has returned,
    though that one waits meanwhile."""
    from channels.testing import WebsocketCommunicator

    from games.consumers import EchoConsumer

    log = []

    class Recording(EchoConsumer):
        async def connect(self):
            type(self).last = self
            await self.accept()

        async def t_one(self, message):
            log.append("one starts")
            await asyncio.sleep(0.05)
            log.append("one ends")

        async def t_two(self, message):
            log.append("two")

    async def run():
        comm = WebsocketCommunicator(Recording.as_asgi(), "/ws/echo/")
        connected, _ = await comm.connect()
        assert connected
        socket = Recording.last
        socket._local({"type": "t.one"})
        socket._local({"type": "t.two"})
        await asyncio.sleep(0.2)
        await comm.disconnect()

    async_to_sync(run)()
    assert log == ["one starts", "one ends", "two"]
