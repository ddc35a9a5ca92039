"""Names people give: display names, usernames, club and preset names.

One rule for all of them, so a name reads the same wherever it is shown: NFKC-normalised,
without characters that show nothing or change how the text around them runs (zero-width
and other format characters, direction overrides and isolates, controls), spaces collapsed,
and at least one visible character left.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: Unicode categories dropped whole: controls, format characters (zero-width spaces and
#: joiners, direction marks, overrides and isolates, the BOM, tags), surrogates, private use.
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
#: Default-ignorable characters outside those categories: fillers that show as nothing,
#: the combining grapheme joiner, variation selectors, and the blank braille pattern.
DROPPED_CHARACTERS = frozenset(
    {"\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u2800", "\u3164", "\uffa0"}
    | {chr(c) for c in range(0xFE00, 0xFE10)}
    | {chr(c) for c in range(0xE0100, 0xE01F0)}
)


def _kept(char: str) -> bool:
    return unicodedata.category(char) not in DROPPED_CATEGORIES and char not in DROPPED_CHARACTERS


def _visible(char: str) -> bool:
    # A mark only shows on a letter, and a space is not a name.
    return not char.isspace() and not unicodedata.category(char).startswith("M")


def clean_name(value: str, *, max_length: int) -> str:
    """The name as it is stored, or a ValidationError (code ``blank_name`` or ``long_name``)
    in the reader's language."""
    # Line breaks and tabs become spaces before controls are dropped, so words stay apart.
    value = unicodedata.normalize("NFKC", str(value))
    value = "".join(
        " " if char.isspace() else char for char in value if _kept(char) or char.isspace()
    )
    # Again: what was dropped may have stood between a letter and its mark.
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    if not any(_visible(char) for char in name):
        raise ValidationError(_("A name needs at least one visible character."), code="blank_name")
    if len(name) > max_length:
        raise ValidationError(
            _("A name is at most %(n)s characters.") % {"n": max_length}, code="long_name"
        )
    return name
