"""Server-side charts: pure geometry for the rating-history plot, rendered as inline SVG by the
profile template (no script, so nothing for the Content Security Policy to allow)."""

from dataclasses import dataclass

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 34  # margins: room for the axis labels


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    rating: int
    label: str  # tooltip: match number and rating


def _nice_bounds(values: list[int]) -> tuple[int, int, int]:
    """(low, high, step) covering ``values`` with round gridlines every ``step``."""
    lo, hi = min(values), max(values)
    span = max(hi - lo, 40)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000) if span / s <= 5)
    low = (lo // step) * step
    high = -(-hi // step) * step
    if high == low:
        high = low + step
    return low, high, step


def rating_chart(history: list[dict]) -> dict | None:
    """Geometry of a line chart of ``history`` ([{rating, at, ...}], oldest first): the polyline,
    markers, horizontal gridlines with their labels, and x-axis labels. None without data."""
    if not history:
        return None
    ratings = [p["rating"] for p in history]
    low, high, step = _nice_bounds(ratings)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = len(history)

    def x(i):
        return round(LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2), 1)

    def y(value):
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    points = [Point(x(i), y(p["rating"]), p["rating"],
                    "start: " + str(p["rating"]) if i == 0 else f"after match {i}: {p['rating']}")
              for i, p in enumerate(history)]
    grid = [{"y": y(v), "label": v} for v in range(low, high + 1, step)]
    ticks = sorted({0, n - 1} | ({(n - 1) // 2} if n > 2 else set()))
    xlabels = [{"x": x(i), "label": "start" if i == 0 else f"match {i}",
                "anchor": "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"} for i in ticks]
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
        "bottom": HEIGHT - BOTTOM, "label_y": HEIGHT - 10,
        "polyline": " ".join(f"{p.x},{p.y}" for p in points),
        "points": points, "grid": grid, "xlabels": xlabels,
        "low": low, "high": high, "last": ratings[-1],
    }
