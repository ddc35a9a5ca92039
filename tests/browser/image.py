"""The 大结算 image's layout, read from the texts drawn on its canvas (``image_texts.js``
records them while the page draws)."""

from __future__ import annotations

from pathlib import Path

IMAGE_TEXTS = (Path(__file__).parent / "image_texts.js").read_text()


def image_faults(drawn: list[dict]) -> list:
    """What is wrong with the texts drawn on the summary image (``image_texts.js``'s
    record): a text outside the image, or two texts overlapping."""
    bad = []
    for i, a in enumerate(drawn):
        if a["left"] < 0 or a["right"] > a["width"] or a["top"] < 0 or a["bottom"] > a["height"]:
            bad.append(("outside", a["text"]))
        for b in drawn[i + 1 :]:
            if (
                a["left"] < b["right"] - 0.5
                and b["left"] < a["right"] - 0.5
                and a["top"] < b["bottom"] - 0.5
                and b["top"] < a["bottom"] - 0.5
            ):
                bad.append(("overlap", a["text"], b["text"]))
    return bad
