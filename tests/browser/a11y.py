"""The accessibility check of a page: axe-core (vendored under ``vendor/axe-core``, a test
asset never served to players) injected by Playwright and run with its contrast and
labelling rules.  The context must be opened with ``bypass_csp=True``: the script is added
inline, which the site's content security policy would otherwise refuse."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
# Text a reader cannot make out, and controls or links without a name a screen reader reads.
RULES = [
    "color-contrast",
    "label",
    "select-name",
    "button-name",
    "input-button-name",
    "link-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "summary-name",
    "image-alt",
    "svg-img-alt",
]


def violations(page: Page, context: str = "body") -> list[tuple]:
    """axe's violations of ``RULES`` inside ``context`` (a selector): for each, the rule,
    the element and axe's summary of what is wrong (colours and ratio for contrast)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async ([context, rules]) => {
            // A tile's face is a drawing named by its label, not text to read: left out
            // (hundreds of them on the rules page would only slow the run).
            const where = {include: [[context]], exclude: [[".tile svg"]]};
            const r = await axe.run(where, {runOnly: {type: "rule", values: rules},
                                              resultTypes: ["violations", "incomplete"]});
            const said = (n) => n.any[0] || n.all[0] || n.none[0] || {};
            // axe leaves a 1:1 ratio "to review" (text may be hidden so on purpose): here it
            // is text the colour of its panel, never meant.
            const unsure = r.incomplete.flatMap((v) => v.nodes
              .filter((n) => v.id === "color-contrast" && said(n).data
                && said(n).data.messageKey === "equalRatio")
              .map((n) => ({v, n})));
            return [...r.violations.flatMap((v) => v.nodes.map((n) => ({v, n}))), ...unsure]
              .map(({v, n}) => [v.id, n.target.join(" "), said(n).message || ""]);
        }""",
        [context, RULES],
    )
    return [(rule, target, message, page.url) for rule, target, message in found]
