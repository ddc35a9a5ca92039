"""The shared bot accounts that fill seats, and how they are shown.

Sign-up refuses their names (accounts.adapter.RESERVED_PREFIXES)."""

import logging

from django.contrib.auth import get_user_model

from config.refusals import ServiceError

log = logging.getLogger(__name__)

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


def bot_user(n: int):
    """The shared bot account ``n``.  Sign-up cannot take a bot's name, but an account
    made before that rule (or by an admin) may hold it: then the bot uses another name
    rather than failing every room that wants it."""
    for suffix in ("", *(f"-{k}" for k in range(2, 10))):
        user, _ = get_user_model().objects.get_or_create(
            username=BOT_NAMES[n] + suffix,
            defaults={"is_bot": True, "display_name": BOT_DISPLAY[n], "email": ""},
        )
        if user.is_bot:
            return user
        log.warning("the bot name %s is held by a person's account", user.username)
    raise ServiceError("busy", "no bot account is available", 503)  # pragma: no cover
