from allauth.account.adapter import DefaultAccountAdapter
from django.utils import translation

from accounts.models import Language


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # A visitor who switched language before signing up keeps it: the new account
        # starts in the language they were reading, not the site default.
        language = translation.get_language()
        if language in Language.values:
            user.language = language
        return super().save_user(request, user, form, commit)
