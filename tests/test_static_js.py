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
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.MULTILINE | re.DOTALL)


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


# A module's imports: static (`import … from "x"`, `import "x"`, `export … from "x"`) and
# dynamic (`import("x")`), with a literal path.
IMPORT = re.compile(
    r"""(?:^|;)\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']"""
    r"""|(?:^|;)\s*import\s*["']([^"']+)["']"""
    r"""|\bimport\s*\(\s*["']([^"']+)["']\s*\)""",
    re.MULTILINE,
)


def js_imports(path: Path) -> set[Path]:
    """The site's modules that ``path`` imports (relative and site-absolute paths)."""
    found = set()
    for m in IMPORT.finditer(COMMENT.sub(blank, path.read_text())):
        spec = next(g for g in m.groups() if g)
        if spec.startswith("."):
            found.add((path.parent / spec).resolve())
        elif spec.startswith("/static/js/"):
            found.add((JS / spec.removeprefix("/static/js/")).resolve())
    return found


def js_cycles(graph: dict[Path, set[Path]]) -> list[list[Path]]:
    """One import circle through each module that is on one."""
    cycles = []
    for start in sorted(graph):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            if start in graph.get(node, ()):
                cycles.append(path + [start])
                break
            for dep in sorted(graph.get(node, ())):
                if dep not in seen:
                    seen.add(dep)
                    stack.append((dep, path + [dep]))
    return cycles


def test_the_import_reader_sees_every_form_and_finds_a_circle(tmp_path):
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text(
        'import {\n  c,\n} from "./sub/c.js";\n// import { z } from "./z.js";\n'
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.js").write_text(
        'export { a } from "../a.js";\nimport "../d.js";\nconst e = import("../e.js");\n'
    )
    graph = {p.resolve(): js_imports(p) for p in tmp_path.rglob("*.js")}
    a, b, c = ((tmp_path / n).resolve() for n in ("a.js", "b.js", "sub/c.js"))
    assert graph[b] == {c}
    assert graph[c] == {a, (tmp_path / "d.js").resolve(), (tmp_path / "e.js").resolve()}
    assert js_cycles(graph) == [[a, b, c, a], [b, c, a, b], [c, a, b, c]]


def test_no_import_circle_among_the_sites_modules():
    """Imports point one way (a part that must reach a higher one goes through the table's
    calls.js): a circle would make load order and redraws depend on which module ran first."""
    graph = {p.resolve(): js_imports(p) for p in JS.rglob("*.js")}
    assert (JS / "table" / "hand.js").resolve() in graph[(JS / "table" / "board.js").resolve()]
    cycles = js_cycles(graph)
    assert not cycles, "\n".join(" -> ".join(str(p.relative_to(JS)) for p in c) for c in cycles)


def test_no_page_hangs_a_test_hook_on_window():
    """Tests read the page as a person does (its DOM, and the socket's frames): the shipped
    code offers them no back door such as ``window.__table``."""
    hooks = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in JS.rglob("*.js")
        for n, line in enumerate(COMMENT.sub(blank, p.read_text()).splitlines(), 1)
        if re.search(r"\bwindow\.__\w", line)
    ]
    assert not hooks, hooks
