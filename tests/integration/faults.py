"""Private services for fault tests: a PostgreSQL cluster and a Redis of their own (so
stopping them disturbs nobody else), and the project's processes pointed at them: a
Celery worker and ``manage.py run_sweeper``.  Tables of four players whom the bot
policy plays for at once (``Seat.auto``) are dealt there and the ledger is read back
with plain SQL.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import psycopg

from tests.live import ROOT, SITE, free_port, wait_for

# The newest PostgreSQL server installed (Debian keeps each version's binaries apart).
PG_BIN = max(
    Path("/usr/lib/postgresql").glob("*/bin"),
    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    default=Path("/nonexistent"),
)
REDIS_SERVER = shutil.which("redis-server")
MISSING = [
    name
    for name, found in (
        ("redis-server", REDIS_SERVER),
        ("PostgreSQL's initdb", (PG_BIN / "initdb").exists()),
    )
    if not found
]
# A sweeper's log line when its sweeps start failing and when they work again.
OUTAGE = "sweeps are failing"
RECOVERED = "sweeps work again"


def _as_postgres(args: list[str], **kw) -> subprocess.CompletedProcess:
    """Run a PostgreSQL server binary, as the postgres user when we are root (it refuses
    to run as root)."""
    if os.geteuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, check=True, capture_output=True, **kw)


class Postgres:
    """A throwaway cluster (trust authentication, no fsync) on a free port."""

    def __init__(self, root: Path):
        self.dir = root / "pg"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/mahjong"

    def init(self) -> None:
        self.dir.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir.parent, "postgres")
            shutil.chown(self.dir, "postgres")
        _as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(self.dir), "-U", "postgres", "--auth=trust"]
        )
        self.start()
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE mahjong")

    def dsn(self, db: str = "mahjong") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={db}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        _as_postgres(
            [str(PG_BIN / "pg_ctl"), "-D", str(self.dir), "-o", options, "-l",
             str(self.dir / "server.log"), "-w", "start"]
        )  # fmt: skip

    def stop(self) -> None:
        """A fast shutdown: every connection is cut, as in a restart."""
        _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.dir), "-m", "fast", "-w", "stop"])


class Redis:
    def __init__(self):
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self.ping, 10, "redis to answer")

    def ping(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_timeout=1).ping()
        except redis.ConnectionError:
            return False

    def stop(self) -> None:
        """Gone, and what it held with it (no persistence)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def client(self, db: int = 0):
        import redis

        return redis.Redis(port=self.port, db=db, socket_timeout=2)


class Process:
    """One of the project's processes, its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log_dir: Path):
        self.name, self.args, self.env = name, args, env
        self.log = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            self.args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def environment(pg: Postgres, redis: Redis) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=pg.url,
        REDIS_URL=f"redis://127.0.0.1:{redis.port}/0",
        REDIS_CACHE_URL=f"redis://127.0.0.1:{redis.port}/1",
        GAME_BOT_DELAY="0",
        GAME_CLAIM_WINDOW="0",
        GAME_NEXT_HAND_SECONDS="0",
        GAME_SETTLE_RESEND_SECONDS="2",
        DJANGO_LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return out.stdout


def worker(env: dict[str, str], log_dir: Path, n: int) -> Process:
    """A real Celery worker (one task at a time, as in CI), once it is ready."""
    celery = str(Path(sys.executable).with_name("celery"))
    proc = Process(
        f"worker-{n}",
        [celery, "-A", "config", "worker", "--pool=solo", "--loglevel=INFO",
         "--hostname", f"faults-{n}@%h", "--without-gossip", "--without-mingle"],
        env,
        log_dir,
    )  # fmt: skip
    proc.start()
    wait_for(lambda: "ready." in proc.text() or not proc.alive(), 60, f"{proc.name} ready")
    assert proc.alive(), proc.text()[-3000:]
    return proc


def daphne(env: dict[str, str], log_dir: Path, name: str = "daphne") -> tuple[Process, int]:
    """A Daphne server (its sweeper starts with its first table socket) and its port."""
    port = free_port()
    proc = Process(
        name,
        # As the site runs it: Daphne through the server's entry module.
        [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port), SITE],
        env,
        log_dir,
    )
    proc.start()
    wait_for(lambda: _listening(port) or not proc.alive(), 30, "daphne to listen")
    assert proc.alive(), proc.text()[-3000:]
    return proc, port


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def sweeper(env: dict[str, str], log_dir: Path) -> Process:
    proc = Process("sweeper", [sys.executable, "manage.py", "run_sweeper"], env, log_dir)
    proc.start()
    return proc


# Deals ``rooms`` untimed private tables of ``hands`` hands to four new players each,
# every seat played for by the bot policy at once; prints the rooms' ids.
DEAL = """
import sys
from django.contrib.auth import get_user_model
from games.table import services
from games.models import Seat
rooms, hands, tag = {rooms}, {hands}, {tag!r}
User = get_user_model()
for r in range(rooms):
    users = [User.objects.create_user(username=f"{{tag}}{{r}}p{{i}}", password="x-felt-99")
             for i in range(4)]
    room = services.room_create(owner=users[0], variant="sichuan", hands=hands, private=True,
                                discard_seconds=None, claim_seconds=None)
    for u in users[1:]:
        services.room_join(room_id=room.pk, user=u, code=room.code)
    Seat.objects.filter(room=room).update(auto=True)
    for u in users:
        services.room_ready(room_id=room.pk, user=u)
    print("room", room.pk)
if {cookie!r}:
    from django.test import Client
    client = Client()
    client.force_login(users[0])
    print("cookie", client.cookies["sessionid"].value)
"""


def deal(env: dict[str, str], *, rooms: int, hands: int, tag: str) -> list[int]:
    return _deal(env, rooms=rooms, hands=hands, tag=tag)[0]


def deal_with_session(env, *, rooms: int, hands: int, tag: str) -> tuple[list[int], str]:
    """``deal``, and a session cookie of the last room's first player."""
    return _deal(env, rooms=rooms, hands=hands, tag=tag, cookie=True)


def _deal(env, *, rooms, hands, tag, cookie=False) -> tuple[list[int], str]:
    script = DEAL.format(rooms=rooms, hands=hands, tag=tag, cookie=cookie)
    found: dict[str, list[str]] = {"room": [], "cookie": []}
    for line in manage(env, "shell", "-c", script).splitlines():
        key, _, value = line.partition(" ")
        if key in found:
            found[key].append(value)
    return [int(r) for r in found["room"]], "".join(found["cookie"])


class Watcher:
    """A player's table socket kept open (its frames read and dropped) in a thread."""

    def __init__(self, port: int, room_id: int, session: str):
        from websockets.sync.client import connect

        self.closing = contextlib.ExitStack()
        self.ws = self.closing.enter_context(
            connect(
                f"ws://127.0.0.1:{port}/ws/rooms/{room_id}/",
                origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": f"sessionid={session}"},
                proxy=None,
                open_timeout=10,
            )
        )
        self.first = self.ws.recv(timeout=10)  # the snapshot: the socket was let in
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for _ in self.ws:
                pass
        except ConnectionClosed:
            pass

    def close(self) -> None:
        self.closing.close()
        self.thread.join(5)


def count(dsn: str, sql: str, params=()) -> int:
    with psycopg.connect(dsn, connect_timeout=2) as conn:
        return conn.execute(sql, params).fetchone()[0]


def try_count(dsn: str, sql: str, params=()) -> int | None:
    """``count``, or None while the database is unreachable."""
    try:
        return count(dsn, sql, params)
    except psycopg.OperationalError:
        return None


ENDED = "SELECT count(*) FROM games_hand WHERE status = 'ended'"
UNSETTLED = "SELECT count(*) FROM games_hand WHERE status = 'ended' AND settled_at IS NULL"
FINISHED = "SELECT count(*) FROM games_room WHERE id = ANY(%s) AND status = 'finished'"


def all_done(dsn: str, rooms: list[int]) -> bool:
    """Every room has played all its hands and every hand that ended is settled."""
    return try_count(dsn, FINISHED, (rooms,)) == len(rooms) and try_count(dsn, UNSETTLED) == 0


def ledger_problems(dsn: str) -> list[str]:
    """What is wrong with the books: each ended hand settled once and rated once (four
    rating changes; a rated hand counted once in each player's rating), and each seat's
    score the sum of its hands' settlements."""
    problems = []
    with psycopg.connect(dsn) as conn:
        for sql, what in (
            (
                "SELECT h.id FROM games_hand h LEFT JOIN games_settlement s ON s.hand_id = h.id"
                " WHERE h.status = 'ended' AND (s.id IS NULL OR h.settled_at IS NULL)",
                "ended hands not settled",
            ),
            (
                "SELECT h.id FROM games_hand h WHERE h.status = 'ended' AND (SELECT count(*)"
                " FROM leaderboards_ratingchange c WHERE c.hand_id = h.id) <> 4",
                "ended hands without exactly four rating changes",
            ),
            (
                # A seat's score is the sum of its deltas over the room's settlements.
                "SELECT st.room_id, st.index FROM games_seat st WHERE st.score <> (SELECT"
                " coalesce(sum((s.deltas ->> st.index::int)::int), 0) FROM games_settlement s"
                " JOIN games_hand h ON h.id = s.hand_id WHERE h.room_id = st.room_id)",
                "seats whose score is not the sum of their settlements",
            ),
            (
                # A player's rated hands: as many as the rating changes that counted.
                "SELECT r.user_id FROM leaderboards_rating r WHERE r.hands <> (SELECT count(*)"
                " FROM leaderboards_ratingchange c WHERE c.user_id = r.user_id"
                " AND c.variant = r.variant AND c.rated)",
                "ratings that did not count each rated hand once",
            ),
        ):
            found = conn.execute(sql).fetchall()
            if found:
                problems.append(f"{what}: {found[:10]}")
        rated = conn.execute("SELECT count(*) FROM leaderboards_ratingchange WHERE rated")
        if not rated.fetchone()[0]:
            problems.append("no hand was rated publicly (the check above proves nothing)")
    return problems


def temp_root() -> Path:
    return Path(tempfile.mkdtemp(prefix="mj-faults-"))
