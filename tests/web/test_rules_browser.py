"""The rules pages in a real browser on a phone: axe-core finds no serious or critical
violation, nothing scrolls sideways, in every language; a clause is reached by its anchor
and shows its link sign on focus. A screenshot of each game's rules is kept."""

import pytest

from games import catalog
from tests.web.browser import fits_the_phone, shot
from tests.web.test_accessibility import serious_violations

pytestmark = [pytest.mark.services, pytest.mark.slow]

SLUGS = [kind.slug for kind in catalog.all_games()]


def visit(page, url: str) -> None:
    page.goto(url)
    assert page.title().endswith("· catclub")
    assert serious_violations(page) == []
    assert fits_the_phone(page), url
    assert page.problems == []


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_the_rules_pages_are_accessible_and_fit_a_phone(page, live_server, language):
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    visit(page, f"{live_server.url}/rules/")
    assert page.locator("html").get_attribute("lang") == language
    titles = {page.title()}
    for slug in SLUGS:
        visit(page, f"{live_server.url}/rules/{slug}/")
        titles.add(page.title())
        if language == "en":
            shot(page, f"rules-{slug}")
    assert len(titles) == len(SLUGS) + 1  # each page its own <title>


def test_F12_a_clause_is_reached_by_its_anchor_and_shows_its_link_on_focus(page, live_server):
    page.goto(f"{live_server.url}/rules/felix/#F12")
    clause = page.locator("#F12")
    assert clause.evaluate("e => e.matches(':target')")
    anchor = clause.locator("a.anchor")
    sign = "e => getComputedStyle(e, '::before').opacity"
    page.goto(f"{live_server.url}/rules/felix/")
    assert anchor.evaluate(sign) == "0"
    anchor.focus()
    assert anchor.evaluate(sign) == "1"
    anchor.click()
    assert page.url.endswith("#F12")


def test_the_old_links_to_a_games_section_still_land_on_it(page, live_server):
    page.goto(f"{live_server.url}/rules/#smoking_cat")
    assert page.locator("#smoking_cat").evaluate("e => e.matches(':target')")
    page.locator("#smoking_cat h2 a").click()
    page.wait_for_url("**/rules/smoking_cat/")
    assert page.locator("#S14 .reading").is_visible()
