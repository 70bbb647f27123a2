"""The web's own icons: small inline SVGs drawn here, in place of emoji.

An emoji is drawn by the visitor's system, and a system without an emoji font shows an
empty box; these are drawn by the page itself, like its cards. The Telegram bot keeps its
emoji (Telegram draws them). Each icon is a 24 x 24 drawing; ``svg`` makes it decorative
(``aria-hidden``) or, with a label, an image named by it. ``EMOJI`` maps the emoji that
shared texts carry (a game's summary, a move's label) to an icon, for ``iconize``.
"""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

DRAWINGS: dict[str, str] = {
    "computer": (
        '<path d="M12 3.2v3.3" stroke="currentColor" stroke-width="1.6"/>'
        '<circle cx="12" cy="3" r="1.6" fill="currentColor"/>'
        '<rect x="4.5" y="7" width="15" height="12" rx="3" fill="currentColor"/>'
        '<circle cx="9.3" cy="12.2" r="1.9" fill="#fff"/>'
        '<circle cx="14.7" cy="12.2" r="1.9" fill="#fff"/>'
        '<path d="M9 16.2h6" stroke="#fff" stroke-width="1.4" stroke-linecap="round"/>'
        '<rect x="1.8" y="10.5" width="2" height="5" rx="1" fill="currentColor"/>'
        '<rect x="20.2" y="10.5" width="2" height="5" rx="1" fill="currentColor"/>'
    ),
    "streak": (
        '<path d="M12.5 1.8c.8 4.2 6.5 6.3 6.5 12.2a7 7 0 0 1-14 0c0-3.4 2-5.3 2.9-7.6'
        ' 1.6 1.3 2.4 3 2.4 5 1.8-2.1 2.6-5.7.2-9.6z" fill="#e4572e"/>'
        '<path d="M12 12.5c1.5 1.8 3.3 2.8 3.3 5a3.3 3.3 0 0 1-6.6 0c0-1.6 1.6-2.6 3.3-5z"'
        ' fill="#ffc83d"/>'
    ),
    "token": (
        '<path d="M6.5 1.5h4.5l2 7H8.5zM13 1.5h4.5l-2 7H11z" fill="#2f6fb3"/>'
        '<circle cx="12" cy="15.5" r="6.5" fill="#f2b705" stroke="#a87b00" stroke-width="1.2"/>'
        '<path d="M12 11.8l1.1 2.3 2.5.3-1.8 1.7.5 2.5-2.3-1.2-2.3 1.2.5-2.5-1.8-1.7 2.5-.3z"'
        ' fill="#fff6d5"/>'
    ),
    "first": (
        '<path d="M12 2.2l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.1l-5.9 3.1 1.2-6.5L2.5 9.1l6.6-.9z"'
        ' fill="#f2b705" stroke="#a87b00" stroke-width="1" stroke-linejoin="round"/>'
    ),
    "bank": (
        '<path d="M2.5 9L12 3.5 21.5 9z" fill="currentColor"/>'
        '<path d="M5 10.5h2.6v7H5zM10.7 10.5h2.6v7h-2.6zM16.4 10.5H19v7h-2.6z"'
        ' fill="currentColor"/><rect x="2.5" y="18.5" width="19" height="2.5" fill="currentColor"/>'
    ),
    "bag": (
        '<path d="M9 2.5h6l-1.8 4h-2.4z" fill="#8d6e63"/>'
        '<path d="M9.5 7.5h5c3.5 3 6 6.4 6 9.6a4.4 4.4 0 0 1-4.4 4.4H7.9a4.4 4.4 0 0 1'
        '-4.4-4.4c0-3.2 2.5-6.6 6-9.6z" fill="#b08968" stroke="#6d4c41" stroke-width="1"/>'
        '<path d="M9 7.3h6" stroke="#6d4c41" stroke-width="1.6" stroke-linecap="round"/>'
    ),
    "virtual": (
        '<path d="M9 7V5.5a3 3 0 0 1 6 0V7" fill="none" stroke="#5d4037" stroke-width="1.8"/>'
        '<rect x="4.5" y="7" width="15" height="14.5" rx="3.5" fill="#8d6e63"/>'
        '<rect x="8" y="12.5" width="8" height="5.5" rx="1.2" fill="#d7ccc8"/>'
    ),
    "hidden": (
        '<path d="M2 12s3.8-6.5 10-6.5S22 12 22 12s-3.8 6.5-10 6.5S2 12 2 12z" fill="none"'
        ' stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3"'
        ' fill="currentColor"/><path d="M4 3.5l16 17" stroke="currentColor" stroke-width="2.2"'
        ' stroke-linecap="round"/>'
    ),
    "mouse": (
        '<path d="M20 15.5c2.4.4 2.6 3.6.2 4.5" fill="none" stroke="#8c8785"'
        ' stroke-width="1.4" stroke-linecap="round"/>'
        '<path d="M3 15.5C3 11 7.5 8 12.5 8S21 11.5 21 16H4.5C3.7 16 3 15.8 3 15.5z"'
        ' fill="#a7a2a0" stroke="#4a4340" stroke-width="1"/>'
        '<circle cx="9" cy="8" r="3" fill="#d9d4cf" stroke="#4a4340" stroke-width="1"/>'
        '<circle cx="6" cy="12.5" r="1" fill="#2b2523"/><circle cx="3.2" cy="15.3" r=".9"'
        ' fill="#f29ca3"/>'
    ),
    "cat": (
        '<path d="M4.5 10L5.5 2.5l5 4.2q1.5-.3 3 0l5-4.2 1 7.5q2 3.6 0 7.2Q17 21.5 12 21.5'
        'T4.5 17.2q-2-3.6 0-7.2z" fill="#f5a25d" stroke="#3a2e2a" stroke-width="1.1"/>'
        '<circle cx="9" cy="12.5" r="1.2" fill="#3a2e2a"/><circle cx="15" cy="12.5" r="1.2"'
        ' fill="#3a2e2a"/><path d="M11 15.3h2l-1 1.1z" fill="#f29ca3"/>'
    ),
    "dog": (
        '<path d="M6.5 5Q1.5 4.5 2 11q.3 4 3.5 3.6L8 7.5zM17.5 5q5-.5 4.5 6-.3 4-3.5 3.6L16'
        ' 7.5z" fill="#7a5230"/><path d="M6.5 9Q6.5 4.5 12 4.5T17.5 9v6q0 6-5.5 6t-5.5-6z"'
        ' fill="#c8955c" stroke="#3a2e2a" stroke-width="1"/><circle cx="9.5" cy="11" r="1.1"'
        ' fill="#3a2e2a"/><circle cx="14.5" cy="11" r="1.1" fill="#3a2e2a"/>'
        '<ellipse cx="12" cy="15.2" rx="1.8" ry="1.3" fill="#3a2e2a"/>'
    ),
    "rabbit": (
        '<path d="M8 10C6 6 6.5 1.5 8.5 1.5S11 6 10.5 10zM16 10c2-4 1.5-8.5-.5-8.5S13 6 13.5'
        ' 10z" fill="#e9e1d6" stroke="#3a2e2a" stroke-width="1"/><circle cx="12" cy="15" r="7"'
        ' fill="#e9e1d6" stroke="#3a2e2a" stroke-width="1"/><circle cx="9.5" cy="14" r="1"'
        ' fill="#3a2e2a"/><circle cx="14.5" cy="14" r="1" fill="#3a2e2a"/>'
    ),
    "wedge": (
        '<path d="M2.5 17.5V11L18 5.5l3.5 5.5v6.5z" fill="#ffcf40" stroke="#b8860b"'
        ' stroke-width="1" stroke-linejoin="round"/><path d="M2.5 11h19" stroke="#b8860b"'
        ' stroke-width="1"/><circle cx="7" cy="14.5" r="1.5" fill="#e0a800"/><circle cx="15"'
        ' cy="14" r="1.2" fill="#e0a800"/>'
    ),
    "bone": (
        '<path d="M6.5 9.5L14.5 17.5a2.6 2.6 0 1 0 3.6 2.8 2.6 2.6 0 1 0 2.2-3.9L9.5 6.5A2.6'
        ' 2.6 0 1 0 5.9 3.7a2.6 2.6 0 1 0-2.2 3.9z" fill="#f4ead5" stroke="#6d5c45"'
        ' stroke-width="1.1"/>'
    ),
    "fish": (
        '<path d="M3 12q6-7 13-3l5-4-1.5 7 1.5 7-5-4q-7 4-13-3z" fill="#4f9fd9"'
        ' stroke="#2f6fa8" stroke-width="1"/><circle cx="7.5" cy="11" r="1" fill="#12365a"/>'
    ),
    "leaf": (
        '<path d="M4 20C4 10 10 4 20 4c0 10-6 16-16 16z" fill="#4caf50" stroke="#2e7d32"'
        ' stroke-width="1"/><path d="M4 20L15 9" stroke="#2e7d32" stroke-width="1.3"/>'
    ),
    "heart": (
        '<path d="M12 20.5S3 14.8 3 8.9A4.6 4.6 0 0 1 12 7a4.6 4.6 0 0 1 9 1.9c0 5.9-9 11.6'
        '-9 11.6z" fill="#d32f2f"/>'
    ),
    "bell": (
        '<path d="M12 3a6 6 0 0 1 6 6v4.5l2 3.5H4l2-3.5V9a6 6 0 0 1 6-6z" fill="#f2b705"'
        ' stroke="#a87b00" stroke-width="1"/><circle cx="12" cy="19.2" r="2" fill="#a87b00"/>'
    ),
    "acorn": (
        '<path d="M6 10.5q0 9 6 11.5 6-2.5 6-11.5z" fill="#b5651d" stroke="#6d3b0f"'
        ' stroke-width="1"/><path d="M4.5 10.5Q5 5 12 5t7.5 5.5z" fill="#7b5a33"'
        ' stroke="#4a3419" stroke-width="1"/><path d="M12 5V2" stroke="#4a3419"'
        ' stroke-width="1.6"/>'
    ),
    "cards": (
        '<rect x="3" y="5" width="11" height="15" rx="2" fill="#fffdf8" stroke="currentColor"'
        ' stroke-width="1.3" transform="rotate(-12 8.5 12.5)"/><rect x="9" y="4" width="11"'
        ' height="15" rx="2" fill="#fffdf8" stroke="currentColor" stroke-width="1.3"/>'
        '<path d="M14.5 9.5c1.2-1.6 3.2-.4 2.2 1.2l-2.2 2.3-2.2-2.3c-1-1.6 1-2.8 2.2-1.2z"'
        ' fill="#d32f2f"/>'
    ),
    "flag": (
        '<path d="M5 21V3.5" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>'
        '<path d="M5.5 4h12l-2.5 4 2.5 4h-12z" fill="#fffdf8" stroke="currentColor"'
        ' stroke-width="1.2"/>'
    ),
    "smoke": (
        '<rect x="2" y="14" width="17" height="4" rx="1" fill="#fffdf8" stroke="#5d5d5d"'
        ' stroke-width="1"/><rect x="14" y="14" width="5" height="4" fill="#e07b39"/>'
        '<rect x="19" y="14" width="2.6" height="4" rx=".6" fill="#ff7043"/>'
        '<path d="M20 11.5c-1.5-1.5 1.5-2.5 0-4.5s1-3 0-4.5" fill="none" stroke="#9e9e9e"'
        ' stroke-width="1.2" stroke-linecap="round"/>'
    ),
    "check": (
        '<circle cx="12" cy="12" r="9.5" fill="#2e7d32"/><path d="M7.5 12.5l3 3 6-6.5"'
        ' fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round"'
        ' stroke-linejoin="round"/>'
    ),
    "party": (
        '<path d="M3 21l4.5-12 7.5 7.5z" fill="#f2b705" stroke="#a87b00" stroke-width="1"/>'
        '<circle cx="15" cy="5" r="1.4" fill="#d32f2f"/><circle cx="19.5" cy="9.5" r="1.4"'
        ' fill="#2f6fb3"/><path d="M11 7.5q1-3-1-5M16.5 12.5q3-1 5 1" fill="none"'
        ' stroke="#2e7d32" stroke-width="1.4" stroke-linecap="round"/>'
    ),
}

# The emoji that shared texts carry, and the icon each becomes on a web page.
EMOJI = {
    "🤖": "computer",
    "🔥": "streak",
    "🏅": "token",
    "⭐": "first",
    "🏦": "bank",
    "👜": "bag",
    "🎒": "virtual",
    "🙈": "hidden",
    "🐭": "mouse",
    "🐱": "cat",
    "🐶": "dog",
    "🐕": "dog",
    "🐰": "rabbit",
    "🧀": "wedge",
    "🦴": "bone",
    "🐟": "fish",
    "🍃": "leaf",
    "❤": "heart",
    "🔔": "bell",
    "🌰": "acorn",
    "🃏": "cards",
    "🂠": "cards",
    "🏳": "flag",
    "🚬": "smoke",
    "✅": "check",
    "🎉": "party",
}
SPRITE = "web/icons.svg"
VARIATION = "\ufe0f"  # asks for the emoji form of the character before it


def svg(name: str, label: str = "", css: str = "") -> SafeString:
    """Icon ``name`` drawn from the icons' sprite (``SPRITE``: a table polled every second
    carries a few dozen bytes an icon): decorative (hidden from screen readers) without a
    label, an image named by ``label`` with one."""
    if name not in DRAWINGS:
        raise KeyError(name)
    named = (
        format_html(' role="img" aria-label="{}"><title>{}</title', label, label)
        if label
        else mark_safe(' aria-hidden="true" focusable="false"')
    )
    return format_html(
        '<svg class="icon icon-{}{}" viewBox="0 0 24 24" width="1.2em" height="1.2em"{}>'
        '<use href="{}#{}"/></svg>',
        name,
        f" {css}" if css else "",
        named,
        static(SPRITE),
        name,
    )


def sprite() -> str:
    """Every icon as a symbol of one SVG, the static file ``SPRITE`` (a test keeps the
    file and ``DRAWINGS`` the same)."""
    symbols = "".join(
        f'<symbol id="{name}" viewBox="0 0 24 24">{drawing}</symbol>'
        for name, drawing in DRAWINGS.items()
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>\n'


def iconize(text: object) -> SafeString:
    """``text`` escaped for a page, each emoji of ``EMOJI`` drawn as its icon: the words
    around an emoji say what it means, so the icon is decorative."""
    out = []
    for ch in escape(str(text)).replace(VARIATION, ""):
        name = EMOJI.get(ch)
        out.append(svg(name) if name else ch)
    return mark_safe("".join(out))  # noqa: S308 - escaped above, icons drawn here
