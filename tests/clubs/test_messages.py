"""Every refusal the clubs API can give has a message in each language for the pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from clubs import services, views

SOURCE = Path(services.__file__).read_text()
CODES = set(re.findall(r'ServiceError\(\s*"(\w+)"', SOURCE)) | set(
    re.findall(r'code="(\w+)"', SOURCE)
)


def test_the_codes_are_found():
    assert {"bad_invite", "locked_option", "bad_name", "unchanged"} <= CODES


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_refusal_reads_in_both_languages(code):
    with translation.override("en"):
        english = views.ui_strings()["errors"][code]
    with translation.override("zh-hans"):
        chinese = views.ui_strings()["errors"][code]

    assert english and chinese != english
    assert not re.search(r"[A-Za-z]{3,}", chinese), chinese


@pytest.mark.django_db
def test_a_wrong_invite_code_is_told_in_the_readers_language(client_for, people):
    with pytest.raises(services.ServiceError) as refused:
        services.club_join(user=people["member"], invite_code="NOPE2345")
    with translation.override("zh-hans"):
        said = views.ui_strings()["errors"][refused.value.code]

    assert said == "没有使用这个邀请码的亲友圈。"
