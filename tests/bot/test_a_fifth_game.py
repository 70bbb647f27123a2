"""Adding a game is one package: a game that exists only in the tests (``tests/cat_nap``,
laid out as the real games' packages in ``games/kinds``) is installed the way the catalog
installs a real one, and then shows up in /new, the lobby, the table in Telegram and in
the browser, the rules page, the archive's filter and the admin, with no other file of the
project naming it."""

import dataclasses
import subprocess
from importlib import import_module
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from admin_ui import results
from games import art, catalog
from games.capabilities import Scoring
from games.leagues.models import League
from games.moderation import services as moderation
from games.moderation.models import ModerationAction, create_game_permissions
from games.play import errors, services
from games.play.models import Game, GameStatus, Player, Seat
from games.play.result import Termination
from games.play.table import Table as GameTable
from games.ratings import standings
from tests.bot.play import Table
from tests.cat_nap import capabilities
from tests.factories import LeagueFactory
from tests.web.browser import chromium, page  # noqa: F401  (the browser fixtures)
from tests.web.seed import _on_commit, players
from tests.web.tables import play_by_clicking, start_from_home
from web.templatetags.web import scoring

PACKAGE = "tests.cat_nap"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cat_nap():
    kind = catalog.install(PACKAGE)
    yield kind
    catalog.unregister(kind.slug)


def test_no_file_outside_the_package_and_this_test_names_the_fifth_game():
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if listed.returncode == 0:
        files = listed.stdout.split()
    else:  # a copy of the tree that is no git checkout: every file but the tools' own
        skip = {".git", ".venv", "var", "staticfiles", "test-artifacts", "__pycache__"}
        found = (p.relative_to(ROOT) for p in ROOT.rglob("*") if p.is_file())
        files = [f.as_posix() for f in found if not skip & set(f.parts)]
    here = Path(__file__).resolve().relative_to(ROOT).as_posix()
    package = PACKAGE.replace(".", "/") + "/"
    naming = [
        name
        for name in files
        if not name.startswith(package)
        and name != here
        and (ROOT / name).is_file()
        and any(
            word in (ROOT / name).read_bytes().lower()
            for word in (b"cat_nap", b"cat nap", b"catnap")
        )
    ]
    assert naming == []
    assert PACKAGE not in catalog.PACKAGES  # not in the product: the test installs it


def test_the_fifth_game_is_offered_by_new_and_played_through_the_bot(cat_nap, telegram, recorder):
    group = telegram.group()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    anna.start_bot()
    bruno.start_bot()
    anna.say(group, "/new")
    picker = recorder.last(group["id"])
    assert "n:cat_nap" in [b["callback_data"] for b in picker.buttons]
    assert any(b["text"] == "💤 Cat Nap" for b in picker.buttons)

    table = Table(telegram, recorder, group, [anna, bruno])
    game = table.open_lobby("nap", anna, [bruno])  # by its alias
    assert game.game_type == "cat_nap" and game.turn_seconds == 20
    assert any("💤 <b>Cat Nap</b>" in m.html for m in recorder.screen(group["id"]))  # lobby
    while table.game().status == GameStatus.RUNNING:
        (seat,) = table.to_act()
        user = anna if table.seat_of(anna) == seat else bruno
        shown = recorder.with_button(group["id"], f"g{game.pk}:")
        table.tap(user, shown, label="💤 Nap")
    game = table.game()
    assert game.status == GameStatus.FINISHED
    assert game.outcome.scores == (3, 3)
    assert "🏁 <b>Cat Nap</b>" in recorder.last(group["id"]).html


def test_the_fifth_game_has_its_rules_and_admin_pages(cat_nap, admin_client, client):
    index = client.get(reverse("web:rules")).content.decode()
    assert 'id="cat_nap"' in index
    html = client.get(reverse("web:rules-game", args=["cat_nap"])).content.decode()
    # The package's own rules document, with the catalog entry's interpretation beside it.
    assert "On your turn, nap (one nap more) or purr" in html
    assert 'id="N1"' in html and "Purring is allowed at any time." in html
    # Its cards come from its package's ``art`` through the catalog, as any game's deck.
    assert art.codes("cat_nap") == ["nap", "purr"]
    assert "<svg" in index and 'aria-label="Napping cat"' in index  # the cover, in the index
    assert 'aria-label="Purring cat"' in html  # the card drawn beside its clause
    changelist = admin_client.get(reverse("admin:games_game_changelist"))
    assert "Cat Nap" in changelist.content.decode()  # the game filter offers it


@pytest.mark.services
@pytest.mark.slow
def test_the_fifth_game_is_played_to_the_end_at_the_web_table(
    cat_nap,
    page,  # noqa: F811  (the browser fixture imported above)
    live_server,
    transactional_db,
    client,
):
    # Offered by /play/ like the others; its board and style come from its package.
    start_from_home(page, live_server.url, "cat_nap", computers=1)
    page.wait_for_selector(".board.nap")
    style = page.request.get(live_server.url + "/static/web/tables/cat_nap.css")
    assert style.ok and ".board.nap" in style.text()
    assert play_by_clicking(page, max_clicks=20) >= 3  # three rounds, one nap or purr each
    game = Game.objects.get(game_type="cat_nap")
    assert game.status == GameStatus.FINISHED and len(game.outcome.scores) == 2
    assert page.locator(".final").count() == 1
    assert not page.problems, page.problems
    # The archive's filter offers the game and finds the finished table.
    archive = client.get(reverse("web:games")).content.decode()
    assert '<option value="cat_nap">Cat Nap</option>' in archive
    found = client.get(reverse("web:games") + "?game=cat_nap").content.decode()
    assert reverse("web:game", args=[game.pk]) in found
    assert client.get(reverse("web:game", args=[game.pk])).status_code == 200  # its replay


# --- Capabilities (issue 23): what a game adds to the generic code, or the defaults --------
# The same game declaring every capability: its moves, scoring, league option and progress
# live in its own package (``tests/cat_nap/capabilities.py``), and the generic code calls them.
CAT_NAP_CLUB = dataclasses.replace(
    import_module(PACKAGE).KIND,  # the same game, not installed
    slug="cat_nap_club",
    name="Cat Nap Club",
    short_name="Club",
    aliases=("napclub",),
    interpretations=(("N2", "A moderator may wake a napping cat; the game ends at once."),),
    moderator_moves=(capabilities.WAKE,),
    scoring=capabilities.SCORING,
    league_options=capabilities.LEAGUE_OPTIONS,
    progress=capabilities.PROGRESS,
)


@pytest.fixture
def cat_nap_club():
    catalog.register(CAT_NAP_CLUB)
    yield CAT_NAP_CLUB
    catalog.unregister(CAT_NAP_CLUB.slug)


@pytest.fixture
def waker(cat_nap_club, django_user_model):
    """A staff account with the fake game's permission (its row made as after a migrate,
    which makes the catalog's games' permissions: the club joined the catalog later)."""
    create_game_permissions()
    content_type = ContentType.objects.get_for_model(ModerationAction)
    permission = Permission.objects.get(codename="wake_cats", content_type=content_type)
    user = django_user_model.objects.create_user("waker", password="pw", is_staff=True)
    user.user_permissions.add(permission)
    user.user_permissions.add(Permission.objects.get(codename="adjust_letters"))
    return django_user_model.objects.get(pk=user.pk)  # fresh permission cache


def running(slug: str, league: League) -> tuple[Game, list[Player]]:
    people = players(2)
    with _on_commit():
        game = services.create_lobby(None, slug, people[0], league=league)  # a web table
        services.join(game, people[1], game.invite)
        game = services.start(game, by=services.SYSTEM)
    return Game.objects.get(pk=game.pk), people


def play_out(game: Game, people: list[Player]) -> Game:
    while (game := Game.objects.get(pk=game.pk)).status == GameStatus.RUNNING:
        (number,) = GameTable(game).to_act()
        player = game.seats.get(number=number).player
        with _on_commit():
            services.submit_move(game.pk, player, "nap", key=f"nap{game.version}")
    return game


@pytest.mark.django_db
def test_a_game_that_declares_no_capability_gets_the_defaults(cat_nap, waker):
    assert cat_nap.moderator_moves == () and cat_nap.moderator_move("wake") is None
    assert cat_nap.scoring == Scoring() and cat_nap.league_options == () and not cat_nap.progress
    league = LeagueFactory(game_types=["cat_nap"])
    assert league.shown_options == []  # no option; the league's own word is not shown
    game, people = running("cat_nap", league)
    assert standings.running_matches(league) == []
    with pytest.raises(errors.WrongGame):
        services.moderator_move(game, 0, "award_letter", "no letters here")
    with pytest.raises(moderation.NoSuchMove):
        moderation.game_move(game, 0, "award_letter", by=waker, reason="no letters here")
    assert "award_letter" not in {m.value for m in cat_nap.moderator_moves}
    game = play_out(game, people)
    assert game.result["termination"] == "normal"
    assert game.outcome.termination == Termination.NORMAL
    assert "<th>Score</th>" in results.result_table(game)
    assert scoring("cat_nap") == Scoring()


@pytest.mark.django_db
def test_a_game_that_declares_capabilities_gets_them_called(cat_nap_club, waker, client):
    league = LeagueFactory(game_types=["cat_nap_club"], word="PURR")
    # The league option: its page names it, the game takes it when dealt.
    assert league.shown_options == [("Lullaby", "PURR")]
    game, _people = running("cat_nap_club", league)
    assert game.options == {"lullaby": "PURR"}
    # The progress a league's page shows, from the public view.
    with _on_commit():
        services.submit_move(game.pk, people_at(game, 0), "nap", key="first-nap")
    (match,) = standings.running_matches(league)
    assert (match.heading, match.target) == ("Cat naps in progress", "ZZZ")
    assert [line.marks for line in sorted(match.seats, key=lambda s: s.number)] == ["Z", ""]
    html = client.get(reverse("web:league", args=[league.slug])).content.decode()
    assert "Cat naps in progress" in html and "Lullaby" in html and "PURR" in html
    # The moderator's move: the permission it names, the game's own refusal, then the
    # processor applies it through the game, which ends (N2) with its termination.
    assert moderation.permission("wake") == "games.wake_cats"
    staff = type(waker).objects.create_user("helper", password="pw", is_staff=True)
    with pytest.raises(PermissionDenied):
        moderation.game_move(game, 0, "wake", by=staff, reason="too loud")
    with pytest.raises(moderation.ModerationError, match="Seat 1 is not napping") as refused:
        moderation.game_move(game, 1, "wake", by=waker, reason="too loud")
    assert refused.value.code == "not_napping"
    with _on_commit():
        move = services.moderator_move(game, 0, "wake", "snoring")
    game = Game.objects.get(pk=game.pk)
    assert game.moves.get(pk=move.pk).status == "applied"
    assert game.status == GameStatus.FINISHED
    assert game.outcome.termination == Termination.MODERATOR
    assert game.result["termination"] == "moderator"
    # Scores read as the game says: fewer is better, under its own heading.
    assert "Naps (fewer is better)" in results.result_table(game)
    assert scoring("cat_nap_club").lower_is_better


@pytest.mark.django_db
def test_the_admin_offers_each_declared_moderator_move(cat_nap_club, waker, django_user_model):
    request = RequestFactory().get("/")
    seats = admin.site._registry[Seat]
    request.user = waker
    assert {"wake", "award_letter", "remove_letter"} <= set(seats.get_actions(request))
    request.user = django_user_model.objects.create_user("helper", is_staff=True)
    assert not {"wake", "award_letter"} & set(seats.get_actions(request))


def people_at(game: Game, number: int) -> Player:
    return game.seats.get(number=number).player


@pytest.mark.django_db
def test_a_games_moderator_move_needs_no_migration(cat_nap_club):
    """The log's kinds and the moves' permissions come from the catalog: with the club's
    move declared, the models still match the migrations, the log takes the move's kind
    and refuses one no game declares."""
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 on a change
    assert ("wake", "cat woken") in ModerationAction._meta.get_field("kind").choices
    ModerationAction.objects.create(kind="wake", actor_name="m", reason="too loud")
    with pytest.raises(ValueError, match="unknown moderation kind"):
        ModerationAction.objects.create(kind="tickle", actor_name="m", reason="why not")
