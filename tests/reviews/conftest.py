from tests.games.conftest import _table_settings  # noqa: F401  (autouse here too)
