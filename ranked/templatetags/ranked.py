from django import template

from ranked.selectors import standings

register = template.Library()


@register.inclusion_tag("ranked/_profile.html")
def ranked_standings(user):
    """The player's 段位 this season, their board position and a chart of their points."""
    rows = standings(user)
    for row in rows:
        row["chart"] = chart(row["history"])
    return {"standings": rows}


def chart(history: list[dict], width: int = 240, height: int = 60) -> dict:
    """Polyline points of the ladder value over the season's matches (an inline SVG)."""
    values = [history[0]["before"] if history else 0, *(h["value"] for h in history)]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = width / max(1, len(values) - 1)
    points = " ".join(
        f"{i * step:.1f},{height - 4 - (v - low) * (height - 8) / span:.1f}"
        for i, v in enumerate(values)
    )
    return {"points": points, "width": width, "height": height, "low": low, "high": high}
