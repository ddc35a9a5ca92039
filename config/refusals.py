"""The one refusal of the site, and the one place each refusal code's words live.

Every service raises :class:`ServiceError`; every interface turns it into its own
answer: the REST API's ``{"code", "detail"}`` (``config.api``), a socket's error frame,
a page's message.  A page or a script shows a code in the reader's language from
:func:`texts`; the ``detail`` (English, for developers) is only the fallback.

A variant's own rejection codes are the variant's words (its site data, in both
languages): the rules engine names them, the site does not; :func:`texts` takes them in.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

MAX_DETAIL = 300  # characters of a refusal's text; offending values are cut, not echoed


def clip(text: str, limit: int = MAX_DETAIL) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class ServiceError(Exception):
    """A refused request: a stable ``code``, a message for people, an HTTP status.

    ``option`` names the house rule at fault, when one is."""

    code: str
    message: str
    status: int = 400
    option: str | None = None

    def __post_init__(self):
        # Messages may quote what was sent (an option's value, a tile string): never whole.
        self.message = clip(self.message)

    def __str__(self) -> str:
        return self.message

    def body(self) -> dict:
        """The API's answer: ``{"code", "detail"}``, and ``"option"`` when a rule is at fault."""
        out = {"code": self.code, "detail": self.message}
        if self.option is not None:
            out["option"] = self.option
        return out


def refuse(code: str, status: int = 400, **params) -> ServiceError:
    """The refusal whose message is the code's own words in the reader's language."""
    text = gettext(TEXTS[code])
    return ServiceError(code, text % params if params else text, status)


def texts(variant_errors: dict | None = None, **params: dict) -> dict[str, str]:
    """Every code's words in the active language.  ``variant_errors`` is a variant's own
    (its site data: ``{code: {"en", "zh-hans"}}``); ``params`` fill a code's placeholders
    (``bad_announcement={"n": 500}``)."""
    out = {code: str(text) for code, text in TEXTS.items()}
    for code, values in params.items():
        out[code] = out[code] % values
    if variant_errors:
        lang = "en" if (get_language() or "").startswith("en") else "zh-hans"
        out.update({code: words[lang] for code, words in variant_errors.items()})
    return out


def text_of(error: ServiceError) -> str:
    """What a page says for a refusal: its code's words, else its message."""
    text = TEXTS.get(error.code)
    return str(text) if text is not None else error.message


TEXTS = {
    # A request's shape.
    "bad_request": _("The form was not filled in correctly."),
    "bad_frame": _("Your page sent a message the table cannot read; reload the page."),
    "too_large": _("That message is too long."),
    "server_error": _("Something went wrong on the server; reload the page."),
    "bad_json": _("Your page sent a message the table cannot read; reload the page."),
    "bad_message": _("Your page sent a message the table does not understand; reload the page."),
    "busy": _("The server is busy; try again in a moment."),
    "rate_limited": _("Too many requests; wait a moment."),
    "network": _("No connection to the server."),
    # Making a table.
    "bad_length": _("A game is 1 to 64 hands long."),
    "bad_bots": _("Choose 0 to 3 bots."),
    "bad_bot_level": _("The bots' level is Basic or Strong."),
    "bad_private": _("Only a private table can have no timer."),
    "bad_timer": _("Timers are 3 to 300 seconds, or no timer where that is allowed."),
    "bad_delay": _("The spectator delay is 0 to 300 seconds, and not less than the club preset's."),
    "bad_rules": _("One of the house rules has a value it cannot take."),
    "unknown_variant": _("That rule set is not available yet."),
    "bad_variant": _("This club's rule preset is for another rule set."),
    "no_preset": _("There is no such rule preset in your clubs."),
    "bad_client_seed": _("Your browser sent a malformed random seed; reload the page."),
    "too_many_rooms": _("You already have tables waiting for players: start or leave one first."),
    "too_many_tables": _(
        "You are seated at as many tables as you may be while their games go on: "
        "finish or leave one first."
    ),
    "too_many_sockets": _(
        "You have too many tables open in other tabs or windows: close one and reload."
    ),
    # Joining and sitting at a table.
    "no_room": _("There is no such table."),
    "wrong_code": _("That join code is not right."),
    "room_started": _("The game at this table has already started."),
    "room_full": _("This table is full."),
    "not_seated": _("You are not seated at this table."),
    "not_owner": _("Only its owner can do that."),
    "not_a_bot": _("There is no bot in that seat."),
    "game_over": _("The game at this table is over."),
    "left": _("You left this game's hand in progress: you can rejoin when it is over."),
    "not_member": _("You are no longer a member of this table's club."),
    # A move.
    "no_hand": _("No hand is being played at this table."),
    "stale": _("The table moved on before your move arrived; try again."),
    "bad_version": _("Your page is behind the table; it has been brought up to date."),
    "not_your_turn": _("Not your turn yet."),
    "out": _("You have won this hand; the others play on."),
    "tile_not_held": _("You do not hold that tile."),
    "illegal": _("That move is not allowed now."),
    "hand_over": _("This hand is over."),
    "already_left": _("You have already left this hand."),
    "bad_action": _("That move was not understood."),
    "bad_tile": _("That is not a tile of this game."),
    "bad_seat": _("There is no such seat at this table."),
    # Votes to end the match, and quick phrases.
    "vote_open": _("A vote to end the match is already open."),
    "vote_too_soon": _("You can propose ending the match once every 5 minutes."),
    "not_started": _("The match has not started yet."),
    "no_vote": _("No vote to end the match is open."),
    "not_voter": _("Only the players seated when it was proposed answer this vote."),
    "answered": _("You have answered this vote."),
    "bad_answer": _("Answer agree or refuse."),
    "bad_phrase": _("That is not one of the quick phrases."),
    "spectator": _("Spectators cannot do that."),
    "phrase_too_soon": _("One quick phrase every 3 seconds: wait a moment."),
    # A finished hand: its replay and its review.
    "unknown_hand": _("There is no such hand."),
    "private_hand": _("This hand was played at a private table: only its players see it."),
    "replay_delayed": _(
        "Spectators of this table see it late: this hand's replay opens when the delay has passed."
    ),
    "hand_in_play": _("This hand is still being played: its replay and review open when it ends."),
    "no_record": _("This hand was dealt before deals could be verified: it has no replay."),
    "not_your_hand": _("Only the players of this hand may ask for a review of their play."),
    "no_review": _("Nobody has asked for this seat's review."),
    # Clubs.
    "bad_invite": _("No club has that invite code."),
    "no_club": _("There is no such club."),
    "not_manager": _("Only the club's owner and managers can do this."),
    "owner_stays": _("The club's owner cannot be removed or demoted."),
    "no_member": _("That player is not a member of this club."),
    "bad_role": _("A member is either a manager or a plain member."),
    "bad_name": _("A name is 1 to 60 characters."),
    "bad_note": _("The note is at most 200 characters."),
    "bad_locked": _("Only the variant's own rules can be locked."),
    "locked_option": _("The club's preset locks that rule."),
    "locked_timer": _("The club's preset fixes this table's timers."),
    "unchanged": _("These are already the preset's rules: change something first."),
    "bad_board": _("Choose whether the club board counts unrated games."),
    "bad_announcement": _("The announcement is at most %(n)s characters."),
    "bad_approval": _("Choose whether joining needs approval."),
    "request_pending": _("Your request to join this club is already waiting for a decision."),
    "request_handled": _("This request has already been decided."),
    "no_request": _("There is no such join request in this club."),
    # Ranked play.
    "bad_bots_after": _("Fill with bots after 10 to 600 seconds, or not at all."),
    "queued_elsewhere": _("You are already queued for another variant: leave that queue first."),
    "seated_ranked": _(
        "You are seated at a ranked table: finish that match before queueing again."
    ),
    "penalised": _("You did not come to your last ranked table: you may queue again at %(until)s."),
    "not_queued": _("You are not in a ranked queue."),
    "no_season": _("There is no such season."),
}
