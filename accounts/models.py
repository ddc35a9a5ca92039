from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.zones import validate_zone


class Language(models.TextChoices):
    ZH_HANS = "zh-hans", "简体中文"
    EN = "en", "English"


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, default=Language.ZH_HANS
    )

    # An IANA name ("Asia/Shanghai") taken from the browser at sign-up; empty: by language.
    timezone = models.CharField(
        _("time zone"), max_length=64, blank=True, validators=[validate_zone]
    )

    # Bots are accounts of their own so that they are rated like anyone else.
    is_bot = models.BooleanField(_("bot"), default=False)
    # Running total of every settled hand's transfers, in base units.
    balance = models.BigIntegerField(_("balance"), default=0)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
