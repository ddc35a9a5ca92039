"""One line per house rule saying what it does, for the create form (keyed by option id).

The options themselves (games/rules/variants/*_options.py) carry their names; what each one
*means* to a player is said here, in gettext so it is translated like every other page text.
A test checks that every option of every registered variant has a line.
"""

from django.utils.translation import gettext_lazy as _

HELP = {
    # Sichuan
    "mode": _(
        "Bloody battle: after a win the others play on until three have won. "
        "Otherwise the first win ends the hand."
    ),
    "ding_que": _(
        "Each player gives up one suit at the start and must discard it before anything else."
    ),
    "huan_san_zhang": _("Before play, everyone passes three tiles of one suit to another player."),
    "fan_cap": _("The most fan a win can count; bigger hands are paid as this many."),
    "self_draw_bonus": _("What a self-drawn win adds: nothing, the base stake, or one more fan."),
    "direct_kong_pay": _(
        "How many base stakes the discarder pays for a kong made from their discard."
    ),
    "last_four_forced_win": _(
        "With four tiles or fewer left in the wall, a player who can win must win."
    ),
    "hai_di": _("Winning on the very last tile of the wall adds one fan."),
    "jin_gou_diao": _("Winning with a single tile left in hand (all else melded) adds one fan."),
    "cha_da_jiao": _(
        "When the wall runs out, players not ready pay the ready ones their best or their "
        "least possible hand."
    ),
    "hua_zhu_pay": _(
        "What a player still holding all three suits at the end pays each other player."
    ),
    "escape_pay": _("What a player who leaves during a hand pays each player still in it."),
    "dealer_rule": _(
        "Who deals the next hand: by dice, the player who discarded into a win, or the first "
        "winner. Default: dice in bloody battle, the discarder otherwise."
    ),
    "dian_gang_hua": _(
        "A win on the replacement tile after a kong from someone's discard: everyone pays "
        "as for a self-draw, or the one who discarded the kong tile pays alone."
    ),
    "base": _("The stake every payment is counted in (底分)."),
}


def option_help() -> dict[str, str]:
    """The lines in the current language."""
    return {key: str(text) for key, text in HELP.items()}
