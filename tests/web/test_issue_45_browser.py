"""Issue 45 in a browser: the home page on a phone (390 px) in every language, with its
games, boards and tournaments, no sideways scroll and no serious axe violation; one tap
sits the visitor at a table; the rating chart writes its dates as the page does."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.browser import PHONE, fits_the_phone, shot
from tests.web.test_accessibility import serious_violations
from tests.web.test_issue_45 import EMOJI, site  # noqa: F401  (the seeded site)

pytestmark = [pytest.mark.services, pytest.mark.slow]


def in_language(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_45_the_home_page_on_a_phone(page, live_server, site, language):  # noqa: F811
    in_language(page, live_server, language)
    page.goto(live_server.url + "/")
    page.wait_for_load_state("load")
    shot(page, f"issue-45-home-{language}")
    assert page.viewport_size == PHONE
    assert fits_the_phone(page), page.evaluate("document.documentElement.scrollWidth")
    assert serious_violations(page) == []
    assert page.locator(".home-games > li").count() == 4
    # Each game's art is drawn (not a broken image): its cover card has a size.
    for box in page.locator(".home-games .cover svg").all():
        assert (box.bounding_box() or {}).get("width", 0) > 40
    assert page.locator(".boards .mini").count() >= 1
    assert page.locator('a[href^="/tournaments/"]').count() >= 1
    assert not EMOJI.search(page.content())
    # The icons' sprite is served: an icon is a picture, not an empty box.
    href = page.locator("svg.icon use").first.get_attribute("href")
    assert page.request.get(live_server.url + href.split("#")[0]).ok, href
    assert page.problems == []


def test_issue_45_one_tap_plays_against_computers(page, live_server, site):  # noqa: F811
    page.goto(live_server.url + "/")
    page.locator(".home-games form button").first.click()
    page.wait_for_url(re.compile(r"/play/\d+/"))
    assert page.locator(".tablebox").count() == 1
    assert page.problems == []


# The page writes "2 Mar 2026" (Django's "j M Y" in the page's language); the chart's
# axis as Intl writes a day in the page's language (pt-PT: "2/03/2026" or "2 de mar.").
AXIS = {
    "en": re.compile(r"\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}"),
    "pt": re.compile(
        r"\d{1,2}/(0\d|1[0-2])/\d{4}"  # day first, as Portugal writes it
        r"|\d{1,2} de (jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez)\.? de \d{4}"
    ),
    "it": re.compile(r"\d{1,2} (gen|feb|mar|apr|mag|giu|lug|ago|set|ott|nov|dic) \d{4}"),
}


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_45_the_rating_chart_writes_dates_in_the_pages_language(
    page,
    live_server,
    site,  # noqa: F811
    language,
):
    """The axis read "3/2/2026" (the browser's own locale, en-US order) on a page that
    writes "2 Mar 2026"."""
    in_language(page, live_server, language)
    page.goto(live_server.url + reverse("web:player", args=[site.anna.pk]))
    page.wait_for_selector("#chart svg text")
    labels = page.eval_on_selector_all("#chart svg text", "ns => ns.map(n => n.textContent)")
    dates = [t for t in labels if re.search(r"\d{4}$", t or "") and not t.isdigit()]
    assert len(dates) == 3, labels
    assert all(AXIS[language].fullmatch(d) for d in dates), dates
