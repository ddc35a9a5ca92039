"""Nothing outside a variant's own folder names a variant or its vocabulary.

The generic engine, the Django side, the templates and the browser code ask the variant
object (or the data it serves); a new rule set is a folder under games/rules/variants/
and appears everywhere by itself.  The vocabulary is collected from the registered
variant objects, not kept by hand: their keys, and every id only one of them uses
(options, action types, setup phases, scoring items, payment reasons,
the fields and events its site data names), and the Chinese names of those."""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

import pytest
from django.test import Client

from games.rules import available
from games.rules.engine import KONG_KINDS
from games.rules.variants import Variant
from games.table import services
from tests.variants.tuidaohu import TuiDaoHu

ROOT = Path(__file__).resolve().parents[2]
# Where a variant's words belong: its folder, the translations, migrations and tests.
OWN_PLACES = (
    "games/rules/variants/",
    "locale/",
    "tests/",
    "docs/",
    "deploy/",
    ".venv/",
    "node_modules/",
    "test-output/",
    "staticfiles/",  # collectstatic's copies (STATIC_ROOT): the sources are checked
)
# The public `evaluate` contract names its request fields (cai_piao, missing_suit …):
# the CLI that reads them and the WinContext that carries them may say them.
CONTRACT = {"games/rules/evaluate.py", "games/rules/model.py"}


def _site_words(site: dict) -> set[str]:
    words: set[str] = set()
    for s in site["setup"]:
        words |= {s["phase"], s["action"]}
    for part in ("mark", "note", "end_checks"):
        if site[part]:
            words.add(site[part]["field"])
    if site["note"]:
        words |= set(site["note"]["values"])
    return words | set(site["refusals"]) | set(site["errors"])


def words_of(v) -> set[str]:
    """The ids and names a variant uses (each may be shared with another variant)."""
    words = {o.id for o in v.options.options} | set(v.action_fields)
    words |= {o.label_zh for o in v.options.options}
    all_on = v.resolve_options({o.id: True for o in v.options.options if o.type == "bool"})
    words |= set(v.setup_phases(all_on))
    for ids in (v.pattern_names(), v.reason_names()):
        words |= set(ids) | {n["zh-hans"] for n in ids.values()}
    return words | _site_words(v.site_data())


# Words one variant uses that are also the generic engine's own: the variant interface's
# names (a Ningbo option is called ``wild_kinds`` like the hook), the flow's kong kinds
# (Hangzhou scores them by name), and plain English words an option is named by.
GENERIC = {*dir(Variant), *KONG_KINDS, "mode", "cap"}


def variant_vocabulary() -> set[str]:
    """The keys, and every word exactly one variant uses: the listed ones and the test-only
    fifth (tests/variants/tuidaohu/, not registered here), which must need no site change."""
    variants = [*available(), TuiDaoHu()]
    per = [words_of(v) for v in variants]
    seen = Counter(w for words in per for w in words)
    only = {w for words in per for w in words if seen[w] == 1 and len(w) > 1}
    return {v.key for v in variants} | (only - GENERIC)


VOCABULARY = variant_vocabulary()
ASCII = sorted(w for w in VOCABULARY if w.isascii())
WORDS = re.compile(
    r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, ASCII)) + r")(?![A-Za-z0-9_])",
    re.IGNORECASE,
)
CJK = sorted(w for w in VOCABULARY if not w.isascii())


def hits_in(text: str) -> list[str]:
    return [m.group() for m in WORDS.finditer(text)] + [w for w in CJK if w in text]


def site_sources():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix not in (".py", ".js", ".html") or rel.startswith(OWN_PLACES):
            continue
        if "/migrations/" in rel or rel in CONTRACT:
            continue
        yield rel


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


JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
TEMPLATE_COMMENT = re.compile(r"{#.*?#}|{% comment %}.*?{% endcomment %}", re.DOTALL)


def blank(comment: re.Match) -> str:
    """A comment's lines, emptied: prose may name a rule set, and line numbers stay true."""
    return "\n" * comment.group().count("\n")


def code_lines(rel: str) -> list[tuple[int, str]]:
    text = (ROOT / rel).read_text()
    if rel.endswith(".py"):
        return [(tok.start[0], tok.string) for tok in code_tokens(text)]
    comment = JS_COMMENT if rel.endswith(".js") else TEMPLATE_COMMENT
    return list(enumerate(comment.sub(blank, text).splitlines(), 1))


def test_the_vocabulary_comes_from_the_variants():
    """Collected, not listed: the words the old hand list held are among them."""
    for word in ("sichuan", "ningbo", "ding_que", "que", "exchange", "cha", "cai_piao"):
        assert word in VOCABULARY, word
    assert {"test_tuidaohu", "lucky_suit", "lucky"} <= VOCABULARY
    assert "定缺" in VOCABULARY and "base" not in VOCABULARY and "hu" not in VOCABULARY


@pytest.mark.parametrize("rel", list(site_sources()))
def test_site_code_names_no_variant(rel):
    hits = [f"{rel}:{n}: {w}" for n, line in code_lines(rel) for w in hits_in(line)]
    assert not hits, "\n".join(hits)


def test_python_templates_and_js_are_all_scanned():
    scanned = set(site_sources())
    for rel in (
        "games/rooms/views.py",
        "games/rules/engine.py",
        "static/js/fair.js",
        "static/js/table/variant_ui.js",
        "templates/games/room.html",
        "leaderboards/views.py",
        "records/rulebook.py",
        "config/asgi.py",
    ):
        assert rel in scanned, rel


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
        assert boot["variant"] == v.site_data() and boot["variant"]["key"] == v.key
        services.room_leave(room_id=room.pk, user=ann)  # frees ann's open-room allowance
