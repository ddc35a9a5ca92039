from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    ZH_HANS = "zh-hans", "简体中文"
    EN = "en", "English"


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("language"), max_length=8, choices=Language.choices, default=Language.ZH_HANS
    )

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
