from tests.games.conftest import _table_settings, make_user  # noqa: F401  (same table settings)
