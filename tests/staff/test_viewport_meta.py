"""Every page layout of ours (a template with its own <head>: the site's base, the staff base, the error and
API docs pages) tells a phone to lay it out at the phone's width, not a desktop's zoomed out."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VIEWPORT = re.compile(r'<meta name="viewport" content="width=device-width, initial-scale=1">')


def _layouts():
    for base in (ROOT / "frontend" / "templates", ROOT / "games"):
        for path in base.rglob("templates/**/*.html") if base.name == "games" else base.rglob("*.html"):
            if re.search(r"<head[\s>]", path.read_text()):
                yield path


def test_every_layout_with_a_head_has_the_viewport_meta():
    layouts = list(_layouts())
    assert any(p.match("staff/base.html") for p in layouts) and any(p.match("frontend/base.html") for p in layouts)
    missing = [str(p.relative_to(ROOT)) for p in layouts if not VIEWPORT.search(p.read_text())]
    assert not missing, missing
