"""An organiser's journey on the embedded default (issue 45): a tournament made with
sign-up open and a start a few seconds ahead starts by itself through the embedded
default's schedule (``server.background.Beat``, every entry of ``CELERY_BEAT_SCHEDULE`` at
its own period, as ``manage.py start`` runs it), its rounds follow one another, the
players who came play their tables, the seats of those who did not are the computers'
from the first move, and the finished tournament's page agrees with every game: each
table's places are the game's (a forfeit placed last, and said so), and the standings are
the sum of those places."""

from __future__ import annotations

import random
import re
import threading
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.play.models import Game, GameStatus, Player, Seat
from games.ratings.places import seat_places
from games.tournaments import entries, rounds
from games.tournaments.models import Entry, RoundTable, Status, Tournament
from games.tournaments.pairing.results import RoundResult, TableResult
from server import background
from tests.factories import PlayerFactory
from tests.tourneys import finished_with_people, play_out, tournament
from tests.web.browser import fits_the_phone

pytestmark = pytest.mark.slow

LIVE = "#tournament-live"
PLACE = re.compile(r"^(?P<name>.+?) — place (?P<place>\d+)(?P<forfeit> \(forfeit: placed last\))?$")


@pytest.fixture
def schedule():
    """The embedded default's schedule, on a thread of its own, at its real periods."""
    stop = threading.Event()
    thread = threading.Thread(target=background.Beat().run, args=(stop,), daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join(30)


def test_issue_45_an_organisers_tournament_starts_by_itself_and_its_page_agrees_with_every_game(
    page, live_server, schedule
):
    olga = PlayerFactory(display_name="Olga")
    t, _ = tournament(
        0,
        name="Winter cup",
        game_type="bon_appetit",
        round_count=2,
        table_size=2,
        created_by=olga,
        starts_at=timezone.now() + timedelta(seconds=3),
    )
    came = [PlayerFactory(display_name=name) for name in ("Anna", "Bruno", "Carla")]
    stayed = [PlayerFactory(display_name=name, telegram_id=None) for name in ("Dario",)]
    finished_with_people(stayed[0])  # a web guest who may enter a tournament (issue 46)
    for player in (*came, *stayed):
        entries.sign_up(t, player)
    # Dario signed up long ago on the web and closed the page.
    Entry.objects.filter(player=stayed[0]).update(seen_at=timezone.now() - timedelta(hours=2))
    assert Tournament.objects.get(pk=t.pk).status == Status.SIGNUP

    page.goto(live_server.url + reverse("web:tournament", args=[t.pk]))
    live = page.locator(LIVE)
    # Nobody presses "start now": the schedule's tournaments entry starts it.
    live.get_by_text("Round 1").first.wait_for(timeout=25_000)
    assert Tournament.objects.get(pk=t.pk).status == Status.RUNNING

    rng = random.Random(45)
    for number in (1, 2):
        tables = list(RoundTable.objects.filter(round__tournament=t, round__number=number))
        for table in tables:
            if not table.is_bye:
                seats = Seat.objects.filter(game=table.game)
                gone = {s.player_id for s in seats if s.player_id == stayed[0].pk}
                assert all(s.is_computer == (s.player_id in gone) for s in seats)
                play_out(table.game_id, rng)
        # The round's last game starts the next one (or ends the tournament) by itself.
        if number == 1:
            live.get_by_text("Round 2").first.wait_for(timeout=25_000)
    live.locator("[data-over]").wait_for(timeout=25_000)  # the page knows it is over
    assert Tournament.objects.get(pk=t.pk).status == Status.FINISHED
    assert fits_the_phone(page) and page.problems == []

    # Every table on the page shows its game's places; a forfeit is marked.
    names = dict(Player.objects.values_list("pk", "display_name"))
    results = []
    for table in RoundTable.objects.filter(round__tournament=t).order_by("round__number", "number"):
        if table.is_bye:
            results.append(RoundResult((), (table.players[0],)))
            continue
        game = Game.objects.get(pk=table.game_id)
        assert game.status == GameStatus.FINISHED
        seats = list(Seat.objects.filter(game=game))
        places = seat_places(game, seats)
        item = (
            live.locator(f"#round-{table.round.number}")
            .locator("xpath=..")
            .locator("ul.tables > li")
            .nth(table.number - 1)
        )
        shown = {}
        for line in item.locator("ol > li").all_inner_texts():
            found = PLACE.match(line.strip())
            assert found, line
            shown[found["name"]] = (int(found["place"]), bool(found["forfeit"]))
        expected = {
            names[s.player_id]: (places[s.number], s.forfeits) for s in seats if s.player_id
        }
        assert shown == expected, (table.round.number, table.number)
        for s in seats:
            if not s.forfeits:
                assert places[s.number] == game.outcome.ranks[s.number]  # as played
        # The game's own page says the same, forfeit included.
        game_page = page.context.new_page()
        game_page.goto(live_server.url + reverse("web:game", args=[game.pk]))
        text = game_page.locator("main").inner_text()
        for s in seats:
            if s.forfeits:
                assert f"{names[s.player_id]} forfeited" in text
        game_page.close()
        by_player = {s.player_id: places[s.number] for s in seats}
        ranks = tuple(by_player[p] for p in table.players)
        results.append(RoundResult((TableResult(tuple(table.players), ranks),), ()))

    # The standings are the places' points, recomputed here from the games alone.
    merged: dict[int, list] = {}
    for table, result in zip(
        RoundTable.objects.filter(round__tournament=t).order_by("round__number", "number"),
        results,
        strict=True,
    ):
        merged.setdefault(table.round.number, []).append(result)
    per_round = [
        RoundResult(tuple(x for r in rs for x in r.tables), tuple(x for r in rs for x in r.byes))
        for _n, rs in sorted(merged.items())
    ]
    players = [e.player_id for e in t.entries.order_by("created_at", "id")]
    expected_rows = rounds.swiss_rules(t).standings(per_round, players)
    rows = live.locator(".standings tbody tr")
    assert rows.count() == len(players)
    for i, row in enumerate(expected_rows):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[1].strip() == names[row.player], i
        assert int(cells[2]) == row.points, names[row.player]
