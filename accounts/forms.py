from django import forms

from accounts.models import User
from accounts.names import clean_name


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language"]

    def clean_display_name(self):
        # Left empty, the username is shown; anything typed must show something.
        value = self.cleaned_data["display_name"]
        if value == "":
            return value
        return clean_name(value, max_length=User._meta.get_field("display_name").max_length)
