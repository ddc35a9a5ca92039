"""The documented deployment, run for real: nginx in front of gunicorn and two Daphnes.

``deploy/nginx.conf`` (its upstream and listen ports rewritten to free ones) routes
``/ws/`` to two Daphne processes and everything else to one gunicorn (``config.wsgi``),
with ``manage.py run_sweeper`` and a Celery worker as processes of their own, all on
the test database and the environment's Redis, with production settings
(``DJANGO_DEBUG=0``, collected static files). Through nginx only, a player logs in
with the HTTP form, creates a room with three bots over REST, opens two sockets (nginx
routes a room's sockets to one Daphne process), readies and plays; the hand ends and both
sockets see ``hand_end``, then ``settled`` from the test's Celery worker. nginx's log
shows which backend served each request.

Collected only with REDIS_URL (see ``conftest.py``): CI's second pass.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from games.models import Hand
from tests.live import DaphneServer, choose, database_url, free_port, server_env

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output"
BIN = Path(sys.executable).parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port}")


def stop(proc: subprocess.Popen | None, sig=signal.SIGTERM) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def nginx_conf(site: str, *, listen: int, http_port: int, ws_ports: list[int], tmp: Path) -> str:
    """The repo's site config on these ports, inside a minimal nginx main config."""
    assert "listen 80;" in site and "server 127.0.0.1:8000;" in site
    site = site.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{http_port};")
    ws = re.findall(r"server 127\.0\.0\.1:800[1-9];", site)
    assert len(ws) == len(ws_ports), ws
    for line, port in zip(ws, ws_ports, strict=True):
        site = site.replace(line, f"server 127.0.0.1:{port};", 1)
    temp = "\n".join(
        f"    {kind}_temp_path {tmp / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""
daemon off;
worker_processes 1;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    log_format routed '$request_method $uri $status upstream=$upstream_addr';
    access_log {tmp / "access.log"} routed;
{temp}
{site}
}}
"""


class Browserless:
    """Plain HTTP through nginx with a cookie jar kept by hand (the production cookies
    are Secure; this test's nginx speaks plain HTTP, as behind a TLS terminator)."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port = port
        self.source = source  # the client's address: any 127.x address reaches loopback
        self.cookies: dict[str, str] = {}

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        h = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        data = resp.read()
        for name, value in resp.getheaders():
            if name.lower() == "set-cookie":
                k, v = value.split(";", 1)[0].split("=", 1)
                self.cookies[k.strip()] = v.strip()
        conn.close()
        return resp, data

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def deployment(tmp_path: Path):
    """The documented deployment on free ports, stopped on the way out: yields nginx's
    port, gunicorn's, the Daphne servers and nginx's access log."""
    assert os.environ.get("REDIS_URL"), "collected only with REDIS_URL (conftest.py)"
    assert Path(NGINX).exists(), "nginx is missing: apt-get install nginx-light (.ci/run does)"
    OUT.mkdir(exist_ok=True)
    env = server_env(
        database_url(connection.settings_dict),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="deploy-test-" + "k" * 50,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DB_CONN_MAX_AGE="0",  # pytest drops the test database at the end
        DJANGO_TRUSTED_PROXY_COUNT="1",  # nginx, as deploy/Procfile says
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    http_port, listen = free_port(), free_port()
    daphnes = [DaphneServer(free_port(), env, OUT / f"daphne-deploy-{k}.log") for k in range(2)]
    (tmp_path / "nginx").mkdir()
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / "nginx" / kind).mkdir(mode=0o777)
    tmp_path.chmod(0o755)
    (tmp_path / "nginx").chmod(0o777)  # nginx's workers may run as nobody
    conf = tmp_path / "nginx" / "nginx.conf"
    conf.write_text(
        nginx_conf(
            (ROOT / "deploy" / "nginx.conf").read_text(),
            listen=listen,
            http_port=http_port,
            ws_ports=[d.port for d in daphnes],
            tmp=tmp_path / "nginx",
        )
    )
    procs: dict[str, subprocess.Popen] = {}

    def spawn(name, args):
        log = open(OUT / f"deploy-{name}.log", "ab")  # noqa: SIM115 - closed with the process
        procs[name] = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=log)
        return procs[name]

    try:
        check = subprocess.run(
            [NGINX, "-t", "-c", str(conf), "-p", str(tmp_path / "nginx"), "-e", "stderr"],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
        spawn(
            "gunicorn",
            [
                str(BIN / "gunicorn"),
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{http_port}",
                "--workers",
                "2",
            ],
        )
        for d in daphnes:
            d.start(timeout=120)  # six processes start at once: slow on a loaded machine
        spawn("sweeper", [sys.executable, "manage.py", "run_sweeper"])
        spawn(
            "worker",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--hostname",
                f"deploy-{os.getpid()}@%h",
            ],
        )
        spawn("nginx", [NGINX, "-c", str(conf), "-p", str(tmp_path / "nginx"), "-e", "stderr"])
        wait_port(http_port, procs["gunicorn"], "gunicorn")
        wait_port(listen, procs["nginx"], "nginx")
        yield SimpleNamespace(
            listen=listen,
            http_port=http_port,
            daphnes=daphnes,
            access_log=tmp_path / "nginx" / "access.log",
        )
    finally:
        stop(procs.get("nginx"), signal.SIGQUIT)  # graceful: the access log is complete
        for d in daphnes:
            d.stop()
        stop(procs.get("sweeper"))
        stop(procs.get("worker"))
        stop(procs.get("gunicorn"))


def log_in(port: int, username: str, password: str, source: str = "127.0.0.1") -> Browserless:
    """A session through nginx, by the login form as a browser would."""
    web = Browserless(port, source)
    resp, page = web.request("GET", "/accounts/login/")
    assert resp.status == 200, page[:500]
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    resp, body = web.request(
        "POST",
        "/accounts/login/",
        urlencode({"login": username, "password": password, "csrfmiddlewaretoken": token}),
        {"Content-Type": "application/x-www-form-urlencoded", "Origin": web.origin},
    )
    assert resp.status == 302, body[:500]
    assert "sessionid" in web.cookies
    return web


def open_room(web: Browserless, **options) -> int:
    """A room over REST; its id."""
    resp, body = web.request(
        "POST",
        "/api/rooms/",
        json.dumps({"variant": "sichuan", **options}),
        {
            "Content-Type": "application/json",
            "X-CSRFToken": web.cookies["csrftoken"],
            "Origin": web.origin,
        },
    )
    assert resp.status == 201, body[:500]
    return json.loads(body)["id"]


def test_nginx_gunicorn_and_two_daphnes_play_a_bot_hand(django_user_model, tmp_path):
    django_user_model.objects.create_user(username="mei", password="green-felt-8trs")
    with deployment(tmp_path) as site:
        listen, http_port, daphnes = site.listen, site.http_port, site.daphnes
        # A password guesser at another address is stopped by its own address's count,
        # whatever X-Forwarded-For it writes; the owner's login below is not held up.
        guesser = Browserless(listen, source="127.0.0.2")
        guesser.request("GET", "/accounts/login/")
        statuses = [
            guesser.request(
                "POST",
                "/accounts/login/",
                urlencode(
                    {
                        "login": "mei",
                        "password": f"guess-{n}",
                        "csrfmiddlewaretoken": guesser.cookies["csrftoken"],
                    }
                ),
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": guesser.origin,
                    "X-Forwarded-For": f"10.9.8.{n}",
                },
            )[0].status
            for n in range(7)
        ]
        assert statuses == [200] * 5 + [429] * 2, statuses

        # A page, a static file and the login form, through nginx to gunicorn.
        web = log_in(listen, "mei", "green-felt-8trs")
        resp, css = web.request("GET", "/static/css/site.css")
        assert resp.status == 200 and b"{" in css
        room_id = open_room(
            web, hands=1, private=True, bots=3, discard_seconds=None, claim_seconds=None
        )
        seen = asyncio.run(play(listen, room_id, web.cookies["sessionid"], web.origin))

    assert all(s["hand_end"] is not None for s in seen), seen
    # Settled by a Celery worker (this test's, or CI's on the same broker and database).
    assert all(s["settled"] is not None for s in seen), seen
    assert seen[0]["acted"] > 0  # the player played its seat through nginx
    hand = Hand.objects.get(room_id=room_id)
    assert hand.status == Hand.Status.ENDED
    assert seen[0]["hand_end"]["hand_id"] == seen[1]["hand_end"]["hand_id"] == hand.pk

    # Which backend served what: nginx's log names the upstream of every request.
    log = site.access_log.read_text()
    ws_upstreams = re.findall(rf"GET /ws/rooms/{room_id}/ 101 upstream=(\S+)", log)
    assert len(ws_upstreams) == 2, log
    # One room, one process (``hash $request_uri``): a table's update reaches only it.
    assert len(set(ws_upstreams)) == 1, log
    assert set(ws_upstreams) <= {f"127.0.0.1:{d.port}" for d in daphnes}, log
    for line in ("POST /accounts/login/ 302", "POST /api/rooms/ 201", "GET /static/css/site.css"):
        assert re.search(rf"{re.escape(line)}.* upstream=127\.0\.0\.1:{http_port}\b", log), log


FLOOD_LOOPS = 50  # concurrent connect loops of one address, as the attack measured did
FLOOD_SECONDS = 300  # at most: it is stopped once the round trips are timed


def test_a_handshake_flood_from_one_address_slows_nobody_else(django_user_model, tmp_path):
    """One signed-in user, already at their socket cap, runs 50 loops opening the table
    socket as fast as they can from one address.  Another player's ``sync`` round trip
    and an anonymous page's stay within twice their unloaded values: nginx answers the
    flood's handshakes 429 itself (``limit_req``/``limit_conn``), and the few it lets
    through are refused by the cap's one read.  Through nginx too, a socket from a page on
    another port or scheme is refused (``config.origin``)."""
    for name in ("mei", "flo"):
        django_user_model.objects.create_user(username=name, password="green-felt-8trs")
    with deployment(tmp_path) as site:
        mei = log_in(site.listen, "mei", "green-felt-8trs")
        flo = log_in(site.listen, "flo", "green-felt-8trs", source="127.0.0.3")
        room_id = open_room(mei, bots=3)  # waiting for mei: only the flood moves
        url = f"ws://127.0.0.1:{site.listen}/ws/rooms/{room_id}/"
        cookie = f"sessionid={mei.cookies['sessionid']}"
        quiet = asyncio.run(round_trips(url, mei, cookie))
        flood = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.integration.flood",
                url,
                flo.origin,
                f"sessionid={flo.cookies['sessionid']}",
                flo.source,
                str(settings.GAME_MAX_SOCKETS),
                str(FLOOD_LOOPS),
                str(FLOOD_SECONDS),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            # The attacker's machine is not the server's: its client yields the cores.
            preexec_fn=lambda: os.nice(19),
        )
        try:
            assert "holding" in json.loads(flood.stdout.readline())  # at the cap
            time.sleep(1)  # its loops going
            loaded = asyncio.run(round_trips(url, mei, cookie))
            assert flood.poll() is None, "the flood ended before the loaded round trips did"
            flood.terminate()
            got = json.loads(flood.communicate(timeout=30)[0])
        finally:
            stop(flood)
        # Only the site's own pages open a socket: not one on another port or scheme.
        for origin in (f"http://127.0.0.1:{site.http_port}", f"https://127.0.0.1:{site.listen}"):
            with pytest.raises(InvalidStatus) as refused:
                asyncio.run(open_socket(url, origin, cookie))
            assert refused.value.response.status_code == 403, origin
        asyncio.run(open_socket(url, mei.origin, cookie))
    report = {
        "quiet": {k: statistics.median(v) for k, v in quiet.items()},
        "flood": {k: statistics.median(v) for k, v in loaded.items()},
        "handshakes": got,
    }
    (OUT / "handshake-flood.json").write_text(json.dumps(report, indent=1))
    # The flood was a flood, and nginx turned most of it away before any backend heard it.
    assert sum(got.values()) > 500 and got.get("429", 0) > 0.9 * sum(got.values()), report
    for kind in ("sync", "page"):
        assert report["flood"][kind] <= 2 * report["quiet"][kind], report


async def open_socket(url: str, origin: str, cookie: str) -> None:
    async with connect(url, origin=origin, additional_headers={"Cookie": cookie}, proxy=None):
        pass


async def round_trips(url: str, web: Browserless, cookie: str, n: int = 30) -> dict:
    """``n`` of each, one at a time: a table socket's ``sync`` to its answer, and an
    anonymous GET of the lobby's room list (seconds)."""
    out: dict[str, list[float]] = {"sync": [], "page": []}
    anonymous = Browserless(web.port, web.source)
    async with connect(
        url, origin=web.origin, additional_headers={"Cookie": cookie}, proxy=None
    ) as ws:
        await asyncio.wait_for(ws.recv(), 10)  # the first snapshot
        for _ in range(n):
            while True:  # anything still on its way
                try:
                    await asyncio.wait_for(ws.recv(), 0.05)
                except TimeoutError:
                    break
            start = time.perf_counter()
            await ws.send(json.dumps({"t": "sync"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["t"] != "room":
                pass
            out["sync"].append(time.perf_counter() - start)
            start = time.perf_counter()
            resp, _ = await asyncio.to_thread(anonymous.request, "GET", "/api/rooms/")
            assert resp.status == 200
            out["page"].append(time.perf_counter() - start)
    return out


async def play(port: int, room_id: int, session: str, origin: str) -> list[dict]:
    """Two sockets of the player through nginx: the first readies and plays, the second
    watches. Returns what each saw."""
    url = f"ws://127.0.0.1:{port}/ws/rooms/{room_id}/"
    headers = {"Cookie": f"sessionid={session}"}
    seen = [{"hand_end": None, "settled": None, "acted": 0, "states": 0} for _ in range(2)]

    async def run(i, ws):
        if i == 0:
            await ws.send(json.dumps({"t": "ready"}))
        while seen[i]["settled"] is None:
            try:
                raw = await asyncio.wait_for(ws.recv(), 5)
            except TimeoutError:
                await ws.send(json.dumps({"t": "sync"}))  # as a browser does after silence
                continue
            msg = json.loads(raw)
            if msg["t"] == "state":
                seen[i]["states"] += 1
                if i == 0 and msg["d"]["legal"]:
                    action = choose(msg["d"]["legal"])
                    await ws.send(json.dumps({"t": "act", "v": msg["v"], "action": action}))
                    seen[i]["acted"] += 1
            elif msg["t"] == "hand_end":
                seen[i]["hand_end"] = msg["d"]
            elif msg["t"] == "settled":
                seen[i]["settled"] = msg["d"]
            elif msg["t"] == "error":
                assert msg["d"]["code"] == "stale", msg  # a bot moved first

    # Opened one after the other while the first stays open: the same room's address, so
    # the same Daphne process.
    async with connect(url, origin=origin, additional_headers=headers, proxy=None) as a:
        async with connect(url, origin=origin, additional_headers=headers, proxy=None) as b:
            await asyncio.wait_for(asyncio.gather(run(0, a), run(1, b)), 180)
    return seen
