"""Every public page, in every language, on a phone (390 × 844): no serious or critical
axe-core violation, no sideways scroll, no page error or outside request, a title and the
Open Graph tags a shared link's preview is built from. A screenshot of each goes to
test-artifacts/.

A new public page is one line in ``PAGES``: its name and how to reach it on the seeded
league (``tests/web/seed.py``)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.request import urlopen

import pytest
from django.conf import settings
from django.urls import reverse

from games import catalog
from games.play import services
from games.tournaments import rounds
from tests.tourneys import after_commit, tournament
from tests.web.browser import PHONE, fits_the_phone, shot
from tests.web.seed import Seeded, played, seed_league
from tests.web.test_accessibility import serious_violations

pytestmark = [pytest.mark.services, pytest.mark.slow]

LANGUAGES = [code for code, _name in settings.LANGUAGES]
OG_LOCALES = {"en": "en_GB", "it": "it_IT", "pt": "pt_BR"}

# name -> the page's path on the seeded league. One line per public page.
PAGES: dict[str, Callable[[Seeded], str]] = {
    "home": lambda s: reverse("web:home"),
    "leagues": lambda s: reverse("web:leagues"),
    "league": lambda s: reverse("web:league", args=[s.league.slug]),
    "league-season": lambda s: (
        reverse("web:league", args=[s.league.slug]) + f"?season={s.spring.pk}"
    ),
    "player": lambda s: reverse("web:player", args=[s.bruno.pk]),
    "game-finished": lambda s: reverse("web:game", args=[s.replayed.pk]),
    "game-aborted": lambda s: reverse("web:game", args=[s.g8.pk]),
    "game-running": lambda s: reverse("web:game", args=[s.match.pk]),
    "rules": lambda s: reverse("web:rules"),
    **{
        f"rules-{slug}": lambda s, slug=slug: reverse("web:rules-game", args=[slug])
        for slug in catalog.slugs()
    },
    "games": lambda s: reverse("web:games"),
    "games-filtered": lambda s: reverse("web:games") + f"?game=felix&league={s.league.slug}",
    "players": lambda s: reverse("web:players"),
    "players-search": lambda s: reverse("web:players") + "?q=an",
    "leaderboard": lambda s: reverse("web:leaderboard"),
    "leaderboard-felix": lambda s: reverse("web:leaderboard-game", args=["felix"]),
    "play": lambda s: reverse("web:play"),
    "play-table-watched": lambda s: reverse("web:table", args=[s.match.pk]),
    "play-lobby": lambda s: reverse("web:table", args=[s.lobby.pk]),
    "tournament": lambda s: reverse("web:tournament", args=[s.tournament.pk]),
}

OG_PROPERTIES = ("og:title", "og:description", "og:type", "og:url", "og:image", "og:site_name")


def meta(page, prop: str) -> str | None:
    node = page.locator(f'head meta[property="{prop}"]')
    return node.first.get_attribute("content") if node.count() else None


def problems_of(page, name: str, path: str, language: str) -> list[str]:
    found = []
    title = page.title().strip()
    if not title or title == "catclub":
        found.append(f"title {title!r} does not name the page")
    for prop in OG_PROPERTIES:
        if not (meta(page, prop) or "").strip():
            found.append(f"no {prop}")
    url, image = meta(page, "og:url") or "", meta(page, "og:image") or ""
    if not url.startswith(settings.SITE_URL + "/") or not path.startswith(
        url.removeprefix(settings.SITE_URL)
    ):
        found.append(f"og:url {url!r} is not this page's full address")
    if not image.startswith(settings.SITE_URL) or not image.endswith(".png"):
        found.append(f"og:image {image!r} is not a full address of a PNG")
    if meta(page, "og:locale") != OG_LOCALES[language]:
        found.append(f"og:locale {meta(page, 'og:locale')!r}")
    if page.locator("html").get_attribute("lang") != language:
        found.append("not in the chosen language")
    if not fits_the_phone(page):
        width = page.evaluate("document.documentElement.scrollWidth")
        found.append(f"scrolls sideways: {width} px wide on a {PHONE['width']} px phone")
    if "μ − 3σ" in page.content():
        found.append("explains the rating by its formula, not in words (a skill estimate)")
    found += serious_violations(page)
    found += page.problems
    page.problems.clear()
    return [f"{name} [{language}] {path}: {p}" for p in found]


@pytest.fixture
def site(transactional_db) -> Seeded:
    s = seed_league()
    s.replayed = played("felix", [s.anna, s.bruno], 1, league=s.league)
    s.lobby = services.create_lobby(None, "bon_appetit", s.elena)  # a table in the browser
    # A Swiss under way (issue 26): entrants, its first round's tables, the standings.
    s.tournament, _people = tournament(8, league=s.league)
    after_commit(rounds.advance, s.tournament.pk)
    return s


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_public_page_on_a_phone(page, live_server, site, language):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    found = []
    for name, where in PAGES.items():
        path = where(site)
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, path)
        page.wait_for_load_state("load")
        found += problems_of(page, name, path, language)
        shot(page, f"every-page-{name}-{language}")
    assert not found, "\n".join(found)


def test_the_preview_image_and_the_icon_are_served(page, live_server, site):
    """og:image names a PNG this site serves (SITE_URL is the site's public address; the
    test server stands in for it), and the favicon the pages link to is there."""
    page.goto(live_server.url + "/")
    image = meta(page, "og:image").removeprefix(settings.SITE_URL)
    with urlopen(live_server.url + image) as response:
        assert response.headers["Content-Type"] == "image/png"
        assert response.read(8) == b"\x89PNG\r\n\x1a\n"
    icon = page.locator('head link[rel="icon"]').get_attribute("href")
    with urlopen(live_server.url + icon) as response:
        assert response.headers["Content-Type"].startswith("image/svg")


def test_the_ratings_and_seat_tables_fit_a_phone_in_portuguese(page, live_server, site):
    """Issue 17: the player's ratings table and a game's seat table scrolled sideways at
    390 px in Portuguese (long uppercase headings that could not wrap)."""
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "pt", "url": live_server.url}]
    )
    for path, table in (
        (reverse("web:player", args=[site.bruno.pk]), "table.ratings"),
        (reverse("web:game", args=[site.g1.pk]), "table.seats"),
    ):
        page.goto(live_server.url + path)
        box = page.locator(table)
        assert box.count() == 1, path
        # Neither the page nor the table's own box scrolls: the table is as wide as its
        # container at most.
        overflow = box.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
        assert overflow <= 1, (path, overflow)
        assert fits_the_phone(page), path
        # Headings as written: uppercase made "μ ± σ" read "M ± Σ".
        assert box.locator("th").first.evaluate("e => getComputedStyle(e).textTransform") == "none"
