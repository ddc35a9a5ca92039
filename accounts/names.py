"""Names people give: display names, usernames, club and preset names, announcement lines.

Kept as typed (full-width punctuation and letters included), without characters that show
nothing or change how the text around them runs (zero-width and other format characters,
direction overrides and isolates, controls); line breaks and tabs become spaces, runs of
spaces one, the ends trimmed; at least one visible character left. Only canonically equal
spellings are made one (NFC: "e" and a combining accent is "é"), which changes nothing shown.

Comparing names is another matter: ``name_key`` folds compatibility forms and case, so
"ＬＩＮ" and "lin" are the same name for uniqueness and for telling who is who.
"""

import re
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
#: A line break or tab (both controls), or more than one space of any kind in a row.
_SPACING = re.compile(r"[\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]|\s{2,}")


def _kept(char: str) -> bool:
    return unicodedata.category(char) not in DROPPED_CATEGORIES and char not in DROPPED_CHARACTERS


def _visible(char: str) -> bool:
    # A mark only shows on a letter, and a space is not a name.
    return not char.isspace() and not unicodedata.category(char).startswith("M")


def clean_name(value: str, *, max_length: int) -> str:
    """The name as it is stored, or a ValidationError (code ``blank_name`` or ``long_name``)
    in the reader's language."""
    # Spacing first, so that words a line break kept apart stay apart once controls go.
    value = _SPACING.sub(" ", str(value))
    name = "".join(char for char in value if _kept(char)).strip()
    # After the drop: what was dropped may have stood between a letter and its mark.
    name = _SPACING.sub(" ", unicodedata.normalize("NFC", name))
    if not any(_visible(char) for char in name):
        raise ValidationError(_("A name needs at least one visible character."), code="blank_name")
    if len(name) > max_length:
        raise ValidationError(
            _("A name is at most %(n)s characters.") % {"n": max_length}, code="long_name"
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by: compatibility forms and case folded (full-width and
    half-width letters, ligatures, "ß" and "ss" alike). Never stored or shown."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
