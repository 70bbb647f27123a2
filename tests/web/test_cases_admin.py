"""Issue 48: the moderators' queue in the admin: open cases, the most reported and the
newest first; a case's evidence; each action from a case, with its log entry; a voided
game's ratings recomputed exactly as if it had never been rated."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from bot.handlers import reports as bot_reports
from games.leagues.models import LeagueMember
from games.moderation import reports
from games.moderation.models import Case, ModerationAction, Report
from games.play import services
from games.play.models import Game, Player
from games.ratings.models import Rating
from tests.factories import LeagueFactory
from tests.web.conftest import VIEW_PERMISSIONS, staff_user
from tests.web.seed import T0, _on_commit, finished, players

pytestmark = pytest.mark.django_db

CASE_PERMISSIONS = ["handle_cases", "ban_player", "flag_game", "view_case", *VIEW_PERMISSIONS]


@pytest.fixture
def handler(db, django_user_model):
    return staff_user(django_user_model, "casemod", CASE_PERMISSIONS)


@pytest.fixture
def told(monkeypatch, settings):
    """What the bot says in private, as (player, text)."""
    said = []
    settings.TELEGRAM_BOT_TOKEN = "123456:TEST-TOKEN"
    monkeypatch.setattr(bot_reports, "_send_private", lambda p, text: said.append((p, text)))
    return said


def report(reporter, reported, game=None, reason="stalling"):
    with _on_commit():
        return reports.file(reporter, reported, reason, game=game)


def test_issue_48_the_queue_puts_the_most_reported_then_the_newest_first(client, handler):
    a, b, c, d, e = players(5)
    for x in (a, b, c, d):
        finished("felix", [x, e], [1, 2])
    report(a, e)  # e: one report, old
    Case.objects.filter(player=e).update(updated_at=timezone.now() - timedelta(days=2))
    report(a, d)
    report(b, d)  # d: two reports
    report(a, c)  # c: one report, newest
    closed = Case.objects.create(player=b, kind="reports", status="closed")
    client.force_login(handler)
    page = client.get(reverse("admin:games_case_changelist"))
    assert page.status_code == 200
    ids = [row.pk for row in page.context["cl"].result_list]
    expected = [Case.objects.get(player=p, status="open").pk for p in (d, c, e)]
    assert ids == expected and closed.pk not in ids


def test_issue_48_only_case_handlers_see_the_queue(client, moderator):
    a, b = players(2)
    finished("felix", [a, b], [1, 2])
    report(a, b)
    case = Case.objects.get()
    client.force_login(moderator)
    assert client.get(reverse("admin:games_case_changelist")).status_code == 403
    assert client.get(reverse("admin:games_case_change", args=[case.pk])).status_code == 403


def test_issue_48_a_case_shows_its_evidence(client, handler):
    a, b, c = players(3)
    game = finished("felix", [a, b, c], [1, 2, 3])
    finished("felix", [a, b], [2, 1], at=T0 + timedelta(hours=1))
    report(a, b, game)
    case = Case.objects.get(player=b)
    ModerationAction.objects.create(kind="warn", actor_name="old-mod", player=b, reason="rude")
    client.force_login(handler)
    page = client.get(reverse("admin:games_case_change", args=[case.pk])).content.decode()
    assert a.display_name in page  # the reporter: moderators only
    assert "Stalling" in page or "stalling" in page
    assert f'id="game-{game.pk}"' in page  # the replay with every hand
    assert "Seat 1" in page and "Seat 3" in page
    assert "Recent results against each other" in page
    assert "finished 2 of 2" in page  # the completion record
    assert "old-mod" in page and "rude" in page  # past moderation


def act(client, case, **data):
    with _on_commit():
        return client.post(reverse("admin:games_case_change", args=[case.pk]), data)


@pytest.fixture
def reported_case():
    a, b, c = players(3)
    Player.objects.filter(pk=a.pk).update(language="it")
    game = finished("felix", [a, b, c], [1, 2, 3])
    report(a, b, game)
    return Case.objects.get(player=b), a, b, game


@pytest.mark.parametrize("action", ["warn", "rename", "ban", "dismiss", "void"])
def test_issue_48_each_action_is_logged_and_the_reporter_told(
    client, handler, reported_case, told, action
):
    case, reporter, player, game = reported_case
    extra = {
        "rename": {"new_name": "Polite Cat"},
        "ban": {"until": (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")},
        "void": {"game": game.pk},
    }.get(action, {})
    client.force_login(handler)
    answer = act(client, case, action=action, reason=f"because {action}", **extra)
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    entry = ModerationAction.objects.get(reason=f"because {action}")
    assert entry.player == player and entry.actor == handler
    assert entry.details["case"] == case.pk
    case.refresh_from_db()
    assert case.status == "closed" and case.resolution == entry.kind
    assert Report.objects.get().handled_at is not None
    player.refresh_from_db()
    if action == "rename":
        assert player.display_name == "Polite Cat" and player.name_locked
    if action == "ban":
        assert player.banned_now
    if action == "void":
        assert Game.objects.get(pk=game.pk).flagged_not_rated
    # The reporter hears, in Italian, that the report was handled, not what was done.
    to_reporter = [text for p, text in told if p.pk == reporter.pk]
    assert len(to_reporter) == 1 and "segnalazione" in to_reporter[0]
    assert action not in to_reporter[0].lower()
    if action == "warn":
        assert [p.pk for p, _text in told if p.pk == player.pk] == [player.pk]
    else:
        assert not [p for p, _text in told if p.pk == player.pk]


def test_issue_48_an_action_needs_a_reason(client, handler, reported_case):
    case, *_rest = reported_case
    client.force_login(handler)
    answer = act(client, case, action="dismiss", reason=" ")
    assert answer.status_code == 200
    assert Case.objects.get(pk=case.pk).status == "open"
    assert not ModerationAction.objects.exists()


def ratings_of(people) -> list[tuple]:
    rows = []
    for p in people:
        for r in Rating.objects.filter(player=p).order_by("game_type", "league", "season"):
            rows.append((r.game_type, r.league_id, r.season_id, r.mu, r.sigma, r.games))
    return rows


def test_issue_48_a_voided_game_is_recomputed_as_if_never_rated(client, handler):
    """Two identical groups play the same games at the same times; one of the first
    group's games is voided from a case, the second group never played it: their
    ratings must be the same, to the last digit."""
    first, second = players(3), players(3)
    results = [[1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 3, 2]]
    voided = None
    for i, ranks in enumerate(results):
        at = T0 + timedelta(hours=i)
        game = finished("felix", first, ranks, at=at)
        if i == 1:
            voided = game
        else:
            finished("felix", second, ranks, at=at)
    report(first[0], first[1], voided, reason="collusion")
    case = Case.objects.get(player=first[1])
    client.force_login(handler)
    assert act(client, case, action="void", reason="thrown game", game=voided.pk).status_code == 302
    assert ratings_of(first) == ratings_of(second)
    assert all(row[-1] == 3 for row in ratings_of(first))


def test_issue_48_a_rename_shows_everywhere_and_telegram_does_not_undo_it(
    client, handler, reported_case
):
    case, _reporter, player, game = reported_case
    client.force_login(handler)
    act(client, case, action="rename", reason="abusive", new_name="Polite Cat")
    # Telegram still calls them by their old name: the moderator's stays.
    again = services.player_from_telegram(player.telegram_id, "Rude Name", "rude", "en")
    assert again.display_name == "Polite Cat"
    for url in (reverse("web:game", args=[game.pk]), reverse("web:player", args=[player.pk])):
        page = client.get(url).content.decode()
        assert "Polite Cat" in page and "Rude Name" not in page


def test_issue_48_a_league_reviews_new_names_before_play(client, handler, told):
    league = LeagueFactory(review_names=True)
    newcomer, moderator_player = players(2)
    LeagueMember.objects.create(league=league, player=moderator_player, is_moderator=True)
    # A lobby's creator sits at its table: their name is reviewed first.
    with pytest.raises(reports.NameUnderReview), _on_commit():
        services.create_lobby(-4242, "felix", newcomer, league=league)
    case = Case.objects.get(player=newcomer, kind="name")
    assert case.details["name"] == newcomer.display_name and case.league == league
    # The league's moderator hears of it in private, with the link to the case.
    to_moderator = [text for p, text in told if p.pk == moderator_player.pk]
    assert len(to_moderator) == 1
    assert reverse("admin:games_case_change", args=[case.pk]) in to_moderator[0]
    # Refused again while waiting: still one case.
    with pytest.raises(reports.NameUnderReview), _on_commit():
        services.create_lobby(-4242, "felix", newcomer, league=league)
    assert Case.objects.filter(player=newcomer, kind="name").count() == 1
    client.force_login(handler)
    assert act(client, case, action="dismiss", reason="the name is fine").status_code == 302
    with _on_commit():
        game = services.create_lobby(-4242, "felix", newcomer, league=league)
    assert game.league == league


def test_issue_48_a_collusion_case_shows_its_figure_and_games(client, handler):
    cheat, partner, other = players(3)
    games = [finished("felix", [cheat, partner, other], [1, 3, 2]) for _ in range(3)]
    with _on_commit():
        case = reports.open_case(
            cheat,
            "collusion",
            details={
                "partner": partner.pk,
                "partner_name": partner.display_name,
                "games": [g.pk for g in games],
                "figure": "together in 3 games; p=1.00e-09 < 1.00e-05",
            },
        )
    client.force_login(handler)
    page = client.get(reverse("admin:games_case_change", args=[case.pk])).content.decode()
    assert "p=1.00e-09" in page
    assert f"{cheat.display_name} places better with {partner.display_name}" in page
    for game in games:
        assert f'id="game-{game.pk}"' in page
    assert f"{cheat.display_name} – {partner.display_name}" in page  # results together
