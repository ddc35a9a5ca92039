import pytest


@pytest.fixture(autouse=True)
def _ranked_settings(settings):
    # Tests run matching passes and sweeps themselves; bots act as soon as they are swept.
    settings.GAME_SWEEPER = False
    settings.GAME_BOT_DELAY = 0
    settings.GAME_CLAIM_WINDOW = 0
    settings.GAME_NEXT_HAND_SECONDS = 3 * 3600
    settings.RANKED_HANDS = 1


@pytest.fixture
def four(make_user):
    return [make_user(f"r{i}") for i in range(4)]
