"""The shared bot accounts that fill seats, and how they are shown.

Sign-up refuses their names (accounts.adapter.RESERVED_PREFIXES)."""

BOT_NAMES = ("bot-east", "bot-south", "bot-west", "bot-north")
# Shown names: never a wind, suit or flower, so a bot's name cannot contradict its seat.
BOT_DISPLAY = ("机器人·小青", "机器人·小墨", "机器人·小杉", "机器人·小枫")
BOT_DISPLAY_EN = ("Bot Jade", "Bot Ink", "Bot Cedar", "Bot Maple")


def display_names(user) -> dict | None:
    """A bot account's name in each language (None for people)."""
    if user is None or not user.is_bot:
        return None
    base = user.username.rsplit("-", 1)[0] if user.username.count("-") > 1 else user.username
    if base not in BOT_NAMES:
        return None
    n = BOT_NAMES.index(base)
    return {"zh-hans": BOT_DISPLAY[n], "en": BOT_DISPLAY_EN[n]}
