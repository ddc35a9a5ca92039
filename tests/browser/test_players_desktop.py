"""The player's path (``tests.browser.players``) on a desktop (1280×800), in Chinese and English."""

from __future__ import annotations

import pytest

from tests.browser.players import a_player_finds_a_game_plays_it_and_reads_about_it


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_player_finds_a_game_plays_it_and_reads_about_it(
    browser, live_server_url, screenshots_dir, lang
):
    a_player_finds_a_game_plays_it_and_reads_about_it(
        browser, live_server_url, screenshots_dir, lang, "1280x800"
    )
