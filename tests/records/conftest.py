from tests.clubs.conftest import client_for, club, people, preset  # noqa: F401
from tests.games.conftest import _table_settings  # noqa: F401  (autouse here too)
