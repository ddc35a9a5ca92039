"""One refusal and one registry of its words: every code the site raises reads in zh and en.

The codes are found in the source, not listed: a call of ``ServiceError``, ``refuse``,
the engine's ``Rejection`` or the socket's error frame with a literal code, a ``code=``
passed on in a module that raises ``ServiceError``, and each variant's own rejections
(what its ``explain`` returns), which its site data words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from config import refusals
from games.rules import available

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", "tests", "migrations", "node_modules", "static", "templates", "locale"}
RAISERS = {"ServiceError", "refuse", "Rejection", "_error"}


def sources():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIP & set(path.relative_to(ROOT).parts):
            yield path


def called(node: ast.Call) -> str | None:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)


def raised_codes() -> dict[str, str]:
    """code -> the first file raising it."""
    found: dict[str, str] = {}
    for path in sources():
        text = path.read_text()
        tree = ast.parse(text)
        passes_code = "ServiceError" in text
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = []
            if called(node) in RAISERS and node.args:
                args.append(node.args[0])
            if passes_code:
                args += [k.value for k in node.keywords if k.arg == "code"]
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    found.setdefault(a.value, str(path.relative_to(ROOT)))
    return found


def variant_codes(variant) -> set[str]:
    """The codes a variant's ``explain`` returns (``return "code", "reason"``)."""
    folder = Path(__import__(type(variant).__module__, fromlist=["_"]).__file__).parent
    codes = set()
    for path in folder.glob("*.py"):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef) and fn.name == "explain":
                for r in ast.walk(fn):
                    if (
                        isinstance(r, ast.Return)
                        and isinstance(r.value, ast.Tuple)
                        and isinstance(r.value.elts[0], ast.Constant)
                    ):
                        codes.add(r.value.elts[0].value)
    return codes


def test_the_scan_finds_the_codes_of_every_layer():
    codes = raised_codes()
    # The engine, the table, the socket, clubs (also through ``code=``), reviews, ranked.
    assert {"tile_not_held", "room_full", "bad_message", "bad_invite", "bad_name"} <= set(codes)
    assert {"not_your_hand", "queued_elsewhere"} <= set(codes)


def test_every_raised_code_has_words_in_both_languages():
    codes = raised_codes()
    with translation.override("en"):
        en = refusals.texts(bad_announcement={"n": 1})
    with translation.override("zh-hans"):
        zh = refusals.texts(bad_announcement={"n": 1})
    missing = sorted(f"{c} ({where})" for c, where in codes.items() if c not in en)
    untranslated = sorted(c for c in codes if c in en and en[c] == zh[c])
    assert missing == []
    assert untranslated == []


def test_the_registry_holds_no_code_nothing_raises():
    """Words for a code no longer raised are dead text (the pages' own codes aside)."""
    client_side = {"rate_limited", "network"}  # the pages' own: a 429, a dropped socket
    dead = set(refusals.TEXTS) - set(raised_codes()) - client_side
    assert dead == set()


@pytest.mark.parametrize("variant", available(), ids=lambda v: v.key)
def test_a_variants_own_rejections_read_in_both_languages(variant):
    own = variant.site_data()["errors"]
    for code in variant_codes(variant):
        assert own[code]["en"] and own[code]["zh-hans"] != own[code]["en"], code
    with translation.override("zh-hans"):
        merged = refusals.texts(own)
    assert all(merged[c] == own[c]["zh-hans"] for c in own)


def test_a_refusal_is_one_shape_on_every_interface(client, django_user_model):
    """The REST answer of a games refusal and of a clubs refusal: ``{"code", "detail"}``."""
    user = django_user_model.objects.create_user(username="ann", password="pw-long-enough-1")
    client.force_login(user)
    club = client.post("/api/clubs/join/", {"invite_code": "NOPE2345"}, "application/json")
    room = client.get("/api/rooms/999999/")
    assert (club.status_code, room.status_code) == (404, 404)
    assert club.json() == {"code": "bad_invite", "detail": "no club has that invite code"}
    assert room.json() == {"code": "no_room", "detail": "no such room"}
