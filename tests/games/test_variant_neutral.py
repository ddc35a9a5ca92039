"""Nothing outside a variant's own modules names a variant or its vocabulary.

The generic engine and the Django side ask the variant object; a new rule set is
added under games/rules/variants/ and appears everywhere by itself."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest
from django.test import Client

from games import services
from games.rules import available

ROOT = Path(__file__).resolve().parents[2]
# Variant keys and words only one rule set uses (定缺, 查叫, 换三张, 财神, 财飘, 承包 …).
VARIANT_WORDS = re.compile(
    r"\b(sichuan|hangzhou|guangzhou|ningbo|que|ding_que|cha|cha_da_jiao|cha_hua_zhu|"
    r"exchange_dir|cai_piao|cheng_bao|bao_tou|xuezhan)\b",
    re.IGNORECASE,
)


# The public `evaluate` contract names its request fields (cai_piao, missing_suit …):
# the CLI that reads them and the WinContext that carries them may say them.
CONTRACT = {"evaluate.py", "model.py"}


def generic_sources():
    for path in (ROOT / "games" / "rules").glob("*.py"):
        if path.name not in CONTRACT:
            yield path
    # The site's catalogue of the four (by key) and the variants' own help lines for their
    # options (by option id, translated with gettext) are the variants' own strings.
    own_strings = {"variants.py", "option_help.py"}
    for path in (ROOT / "games").glob("*.py"):
        if path.name not in own_strings:
            yield path


def code_tokens(source: str):
    """Names and string literals that are code: comments and docstrings are prose."""
    previous = tokenize.NEWLINE  # a string opening the file is its docstring
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME or (
            tok.type == tokenize.STRING and previous not in (tokenize.INDENT, tokenize.NEWLINE)
        ):
            yield tok
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.type


@pytest.mark.parametrize("path", sorted(generic_sources()), ids=lambda p: p.name)
def test_generic_code_names_no_variant(path):
    hits = [
        f"{path.name}:{tok.start[0]}: {tok.string}"
        for tok in code_tokens(path.read_text())
        if VARIANT_WORDS.search(tok.string)
    ]
    assert not hits, "\n".join(hits)


@pytest.mark.django_db
def test_each_room_page_carries_its_own_variants_names(django_user_model):
    ann = django_user_model.objects.create_user(username="ann", password="green-felt-8trs")
    client = Client()
    client.force_login(ann)
    for v in available():
        room = services.room_create(owner=ann, variant=v.key, bots=3)
        boot = client.get(f"/rooms/{room.pk}/").context["boot"]
        assert boot["patterns"] == v.pattern_names() and boot["patterns"]
        assert boot["reasons"] == v.reason_names() and "hu" in boot["reasons"]
        services.room_leave(room_id=room.pk, user=ann)  # frees ann's open-room allowance
