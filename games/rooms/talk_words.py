"""The table's words for the match's end (大结算), dissolve votes and quick phrases, in
the reader's language: JavaScript strings and refusal codes, merged into the table
page's boot data (``games.rooms.views.room``)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def talk_strings() -> dict[str, str]:
    return {
        "summary_title": _("Match summary"),
        "sum_total": _("Total"),
        "sum_wins": _("Wins"),
        "sum_self_draws": _("Self-draws"),
        "sum_fed": _("Dealt in"),
        "sum_best": _("Best hand"),
        "sum_hand": _("Hand"),
        "hand_no_short": _("hand %(n)s"),
        "room_no": _("Table %(n)s"),
        "sum_drawn": _("drawn"),
        "big_winner": _("Big winner"),
        "top_feeder": _("Top feeder"),
        "ended_complete": _("played to the end"),
        "ended_dissolved": _("dissolved"),
        "save_image": _("Save as image"),
        "match_record": _("Match record"),
        "dissolve": _("End the match"),
        "dissolve_confirm": _("Ask everyone at the table to end the match now?"),
        "vote_title": _("%(name)s asks to end the match"),
        "vote_help": _("No answer within the time counts as agreeing."),
        "agree": _("Agree"),
        "refuse": _("Refuse"),
        "answer_agree": _("agrees"),
        "answer_refuse": _("refuses"),
        "answer_none": _("not answered"),
        "vote_left": _("%(s)s s left"),
        "vote_passed": _("Everyone agreed: the match ends after this hand."),
        "vote_refused": _("The match goes on: someone refused to end it."),
        "phrases": _("Quick phrases"),
    }
