from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import Language

#: Username prefixes the platform keeps for its own accounts (the table bots): a person
#: holding one would pass for a bot, and would block the bot that needs the name.
RESERVED_PREFIXES = ("bot-", "bot_", "bot.")


def is_reserved_username(username: str) -> bool:
    return username.strip().lower().startswith(RESERVED_PREFIXES)


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        if is_reserved_username(username):
            raise forms.ValidationError(
                _("Names starting with “bot-” are kept for the table bots; choose another.")
            )
        return super().clean_username(username, shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        # A visitor who switched language before signing up keeps it: the new account
        # starts in the language they were reading, not the site default.
        language = translation.get_language()
        if language in Language.values:
            user.language = language
        return super().save_user(request, user, form, commit)
