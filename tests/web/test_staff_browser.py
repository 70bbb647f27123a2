"""The admin in a real browser (Debian's Chromium, Playwright): a view-only staff account
opens a running game, its move log and a move, and finds neither the seed nor a hidden
card anywhere in the HTML; the superuser sees the seed. Screenshots in test-artifacts/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from games.play.models import Move
from tests.web.browser import shot
from tests.web.test_staff_secrets import running_felix_with_a_placed_card, smoking_cat_with_a_pass

pytestmark = [pytest.mark.services, pytest.mark.slow]


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")


def test_view_only_staff_see_no_secret_of_a_running_game(
    page, live_server, transactional_db, django_user_model
):
    game, placed = running_felix_with_a_placed_card()
    match, passed = smoking_cat_with_a_pass()
    hidden_moves = list(Move.objects.filter(game__in=[game, match]).filter(action__contains=":"))
    secrets = {str(game.seed), str(match.seed), placed, passed}
    secrets |= {m.action for m in hidden_moves}
    assert any(s.startswith("place:") for s in secrets) and passed.startswith("pass:")

    looker = django_user_model.objects.create_user("looker", password="pw", is_staff=True)
    looker.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="games", codename__startswith="view_"
        ).exclude(codename="view_secrets")
    )
    base = live_server.url
    log_in(page, base, "looker")

    move = Move.objects.get(game=game, key="tap-1")
    urls = {
        "staff-game-running": f"/admin/games/game/{game.pk}/change/",
        "staff-moves-running": f"/admin/games/move/?game__id__exact={game.pk}",
        "staff-move-running": f"/admin/games/move/{move.pk}/change/",
        "staff-match-moves": f"/admin/games/move/?game__id__exact={match.pk}",
        "staff-all-moves": "/admin/games/move/",
        "staff-match-running": f"/admin/games/game/{match.pk}/change/",
    }
    for name, path in urls.items():
        response = page.goto(base + path)
        assert response.status == 200, path
        html = page.content()
        for secret in secrets:
            assert secret not in html, (path, secret)
        assert "place:" not in html and "pass:" not in html, path
        if name in ("staff-game-running", "staff-moves-running", "staff-move-running"):
            shot(page, name)
    # The move's page names what is hidden, and shows the public event.
    page.goto(base + urls["staff-move-running"])
    assert page.locator(".hidden-secret").count() >= 1
    assert page.locator("text=you_placed").count() == 0
    # The admin has no favicon (a 404 in the console); anything else is a problem.
    problems = [p for p in page.problems if "404 (Not Found)" not in p]
    assert not problems, problems

    # The superuser has games.view_secrets: the seed and the cards are there.
    page.context.clear_cookies()
    django_user_model.objects.create_superuser("root", password="pw")
    log_in(page, base, "root")
    page.goto(base + urls["staff-game-running"])
    assert str(game.seed) in page.content()
    shot(page, "superuser-game-running")
    page.goto(base + urls["staff-move-running"])
    assert placed in page.content()
