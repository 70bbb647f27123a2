"""axe-core (the copy that axe-playwright-python ships, nothing fetched) finds no serious
or critical violation on the pages a player uses: the home page, Play now, and a table
of each game in play, in each language, on a phone."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web.tables import start_from_home

pytestmark = [pytest.mark.services, pytest.mark.slow]

SERIOUS = ("serious", "critical")


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("slug", ["felix", "cats_and_dogs", "bon_appetit"])
def test_the_table_and_the_way_to_it_have_no_serious_violation(page, live_server, slug):
    page.goto(live_server.url + "/")
    assert serious_violations(page) == []
    page.goto(live_server.url + "/play/")
    assert serious_violations(page) == []
    start_from_home(page, live_server.url, slug, computers=2 if slug == "felix" else 1)
    page.wait_for_selector(".tablebox [data-pick]:not([disabled])")
    assert serious_violations(page) == []


@pytest.mark.parametrize("language", ["it", "pt"])
def test_the_pages_in_italian_and_portuguese_have_no_serious_violation(page, live_server, language):
    page.goto(live_server.url + "/")
    with page.expect_navigation():
        page.select_option("#lang", language)  # the form submits itself
    assert page.locator("html").get_attribute("lang") == language
    assert serious_violations(page) == []
    start_from_home(page, live_server.url, "felix", computers=2)
    assert serious_violations(page) == []
