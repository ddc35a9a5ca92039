"""The browser code stays in modules a reader can take in whole, and the table page renders
what only some rule sets show from their data, in its one variant module."""

from __future__ import annotations

import re
from pathlib import Path

from tests.games.test_variant_neutral import hits_in

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "static" / "js"
MAX_LINES = 500
# The table page: its entry module and the modules under table/.
TABLE_MODULES = [JS / "table.js", *sorted((JS / "table").glob("*.js"))]
VARIANT_MODULE = JS / "table" / "variant_ui.js"
COMMENT = re.compile(r"//.*$|/\*.*?\*/", re.MULTILINE | re.DOTALL)


def blank(comment: re.Match) -> str:
    """A comment's lines, emptied: prose may name a rule set, and line numbers stay true."""
    return "\n" * comment.group().count("\n")


def test_no_browser_module_is_over_500_lines():
    sizes = {p.relative_to(ROOT): len(p.read_text().splitlines()) for p in JS.rglob("*.js")}
    assert JS / "table.js" in {ROOT / p for p in sizes}
    too_long = {str(p): n for p, n in sizes.items() if n > MAX_LINES}
    assert not too_long, too_long


def test_no_table_module_names_a_variant_not_even_the_variant_module():
    """The variant module renders the variant's served data; like every other module it
    names no variant key or term (the vocabulary collected from the variant objects)."""
    assert VARIANT_MODULE in TABLE_MODULES and len(TABLE_MODULES) > 2
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in TABLE_MODULES
        for n, line in enumerate(COMMENT.sub(blank, path.read_text()).splitlines(), 1)
        if hits_in(line)
    ]
    assert not hits, "\n".join(hits)
