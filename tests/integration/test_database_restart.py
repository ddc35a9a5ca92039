"""A PostgreSQL restart mid-hand loses no move a player was shown (PostgreSQL only)."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from tests.integration import test_live_server
from tests.integration.test_live_server import play_through_an_outage
from tests.live import database_url

pytestmark = [test_live_server.pytestmark, pytest.mark.postgresql]


def test_four_clients_survive_a_database_restart_mid_hand(django_user_model):
    """PostgreSQL goes away mid-hand as a restart makes it: every connection to the
    table's database is cut and new ones are refused for a second, then it is back.
    Every move a player was shown is in the log (each was committed, and commits wait
    for the disk), and the hand plays on to its settlement."""

    def restart_database(servers):
        name = connection.settings_dict["NAME"]
        with psycopg.connect(_admin_url(), autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
            try:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    [name],
                )
                time.sleep(1.0)  # the outage: new connections are refused for a second
            finally:
                admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')

    play_through_an_outage(
        django_user_model, restart_database, reconnected=False, refusals=("stale", "server_error")
    )


def _admin_url() -> str:
    """The server's maintenance database, as the test database's owner."""
    return database_url({**connection.settings_dict, "NAME": "postgres"})
