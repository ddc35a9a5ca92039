from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from django import forms
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import after_login
from accounts.models import Language, User
from accounts.names import clean_name, name_key

#: Username prefixes the platform keeps for its own accounts (the table bots): a person
#: holding one would pass for a bot, and would block the bot that needs the name.
RESERVED_PREFIXES = ("bot-", "bot_", "bot.")


def is_reserved_username(username: str) -> bool:
    return name_key(username.strip()).startswith(RESERVED_PREFIXES)


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = clean_name(username, max_length=User._meta.get_field("username").max_length)
        # A username is what people log in with and are told apart by: compatibility
        # forms are folded as Django's own user forms do (NFKC), so "ＬＩＮ" cannot sign up
        # beside "lin" (allauth compares without case). Display names are kept as typed.
        username = User.normalize_username(username)
        if is_reserved_username(username):
            raise forms.ValidationError(
                _("Names starting with “bot-” are kept for the table bots; choose another.")
            )
        return super().clean_username(username, shallow=shallow)

    def _get_login_attempts_cache_key(self, request, **credentials):
        # allauth counts failed logins per account ("key") and per address; qualified by
        # the address, the account's count is that address's alone, so nobody can lock an
        # account for its owner by failing to log in to it from elsewhere.
        account = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{self.get_client_ip(request)}|{account}"

    def pre_authenticate(self, request, **credentials):
        # Over the limit is a 429, as allauth's other limits answer, not a form error a
        # script reads as one more wrong password. The page says which limit was hit: the
        # address's own (any account), or the account's from this address.
        try:
            super().pre_authenticate(request, **credentials)
        except forms.ValidationError:
            # A key never counted (the account's keys all hold "|") leaves the address's
            # limits alone to answer this look, which counts nothing.
            address_ok = ratelimit.consume(request, action="login_failed", key="-", dry_run=True)
            limit = "account" if address_ok else "address"
            raise ImmediateHttpResponse(
                render(request, "429.html", {"login_limit": limit}, status=429)
            ) from None

    # Without a ``next`` of its own, a sign-in or sign-up goes where the visitor was headed
    # when asked to sign in (an invite), whichever door they took.
    def get_login_redirect_url(self, request):
        return after_login.take(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request):
        return after_login.take(request) or super().get_signup_redirect_url(request)

    def send_mail(self, template_prefix, email, context):
        # A mail about an account is in its owner's language, whatever page sent it.
        language = getattr(context.get("user"), "language", "") or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)

    def save_user(self, request, user, form, commit=True):
        # A visitor who switched language before signing up keeps it: the new account
        # starts in the language they were reading, not the site default.
        language = translation.get_language()
        if language in Language.values:
            user.language = language
        # Times are shown in the zone the browser said it was in (the form's hidden field).
        user.timezone = form.cleaned_data.get("timezone", "")
        return super().save_user(request, user, form, commit)
