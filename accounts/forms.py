from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import clean_name
from accounts.zones import is_zone


class SignupForm(forms.Form):
    """What sign-up asks beyond allauth's fields (``ACCOUNT_SIGNUP_FORM_CLASS``): the
    browser's time zone, filled in by static/js/timezone.js; the adapter stores it."""

    timezone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_timezone(self):
        # A browser that names no zone, or one this machine does not know, leaves it to
        # the language (accounts.zones.reader_zone): sign-up is not refused for it.
        value = self.cleaned_data["timezone"]
        return value if is_zone(value) else ""

    def signup(self, request, user):
        """allauth's hook after the user is saved; the adapter has stored everything."""


class ProfileForm(forms.ModelForm):
    # Typed with the browser's suggestions (a datalist of the zones, which the profile page
    # lists), not a select of six hundred English place names.
    timezone = forms.CharField(
        label=_("Time zone"),
        required=False,
        max_length=64,
        help_text=_("For example Asia/Shanghai. Left empty: China's time for Chinese."),
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
    )

    def clean_timezone(self):
        value = self.cleaned_data["timezone"].strip()
        if value and not is_zone(value):
            raise forms.ValidationError(_("Not a known time zone."), code="bad_timezone")
        return value

    class Meta:
        model = User
        fields = ["display_name", "language", "timezone"]

    def clean_display_name(self):
        # Left empty, the username is shown; anything typed must show something.
        value = self.cleaned_data["display_name"]
        if value == "":
            return value
        return clean_name(value, max_length=User._meta.get_field("display_name").max_length)
