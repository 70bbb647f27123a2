"""Builders of leagues, finished games and matches for the ratings, standings, moderation
and web tests. Games are either rows with a result (fast, for ratings arithmetic) or real
games played through ``games.services`` with computer seats (for replays)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.test import TestCase
from django.utils import timezone

from games import catalog
from games.kinds.smoking_cat.capabilities import AWARD_LETTER
from games.leagues.models import League
from games.play import services
from games.play.models import AbortReason, Game, GameStatus, Player, Seat
from games.ratings import service as ratings
from tests.factories import LeagueFactory, PlayerFactory

T0 = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.get_fixed_timezone(0))


def finished(
    game_type: str,
    seats: list[Player | None],
    ranks: list[int],
    scores: list[float] | None = None,
    *,
    league: League | None = None,
    at: datetime | None = None,
    rate: bool = True,
    replaced: tuple[int, ...] = (),
    **fields,
) -> Game:
    """A finished game as the processor leaves it: seats (None: a computer), a result.
    ``rate``: run the rating update as the game_finished task would."""
    at = at or T0
    game = Game.objects.create(
        game_type=game_type,
        chat_id=-(10**9) - Game.objects.count(),
        league=league,
        status=GameStatus.FINISHED,
        seed=1,
        started_at=at - timedelta(minutes=20),
        finished_at=at,
        result={"ranks": ranks, "scores": scores or [0] * len(ranks)},
        **fields,
    )
    for number, player in enumerate(seats):
        Seat.objects.create(
            game=game,
            number=number,
            player=player,
            strategy="heuristic" if player is None or number in replaced else "",
            replaced_by_computer=player is not None and number in replaced,
        )
    if rate:
        ratings.rate_game(game.pk)
    return game


def played(
    game_type: str,
    humans: list[Player],
    computers: int,
    *,
    league: League | None = None,
    strategy: str = "random",
    humans_play: bool = False,
    seed: int = 0,
) -> Game:
    """A real game played to its end through the services and the processor.

    ``humans_play``: the humans submit their own (random) moves, as taps would, so the
    finished game is rated by the game_finished task. Otherwise their seats are handed
    to computers after the start and the computers play it out."""
    chat = -(2 * 10**9) - Game.objects.count()
    with _on_commit():
        game = services.create_lobby(chat, game_type, humans[0], league=league)
        for player in humans[1:]:
            services.join(game, player)
        for _ in range(computers):
            services.add_computer(game, strategy, by=services.SYSTEM)
        game = services.start(game, by=services.SYSTEM)
    if not humans_play:
        for seat in game.seats.filter(player__isnull=False):
            with _on_commit():
                services.replace_with_computer(game, seat.number, strategy, by=services.SYSTEM)
        return Game.objects.get(pk=game.pk)
    rules = catalog.get(game_type).rules
    rng = random.Random(seed)
    by_seat = {s.number: s.player for s in game.seats.filter(player__isnull=False)}
    for step in range(5_000):
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            return game
        state = rules.load(game.state)
        number = next(n for n in rules.to_act(state) if n in by_seat)
        action = rng.choice(rules.legal_actions(state, number))
        with _on_commit():
            services.submit_move(game.pk, by_seat[number], action, f"t{step}", game.version)
    raise AssertionError("the game did not finish")


def smoking_cat_match(
    league: League | None, players: list[Player], letters: list[int], *, word: str | None = None
) -> Game:
    """A running Smoking Cat match of four players, each with ``letters[i]`` letters as
    if they had lost that many deals (moderator letters, so the move log replays it)."""
    with _on_commit():
        game = services.create_lobby(
            -(3 * 10**9) - Game.objects.count(), "smoking_cat", players[0], league=league
        )
        for player in players[1:]:
            services.join(game, player)
        if word:
            Game.objects.filter(pk=game.pk).update(options={"word": word})
        game = services.start(game, by=services.SYSTEM)
    # The start shuffles the seats: find each player's seat for their letters.
    seat_of = dict(game.seats.values_list("player_id", "number"))
    for player, count in zip(players, letters, strict=True):
        number = seat_of[player.pk]
        for _ in range(count):
            with _on_commit():
                services.moderator_move(game, number, AWARD_LETTER.value, "seeded")
    return Game.objects.get(pk=game.pk)


def letters_of(game: Game) -> list[str]:
    rules = catalog.get(game.game_type).rules
    return rules.view(rules.load(Game.objects.get(pk=game.pk).state), None)["letters"]


def _on_commit():
    """Run the block's after-commit callbacks (queued tasks run in-process) when it ends,
    as a real commit would, also inside a test's transaction."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def league_with_chat(**fields) -> League:
    return LeagueFactory(**fields)


def players(n: int) -> list[Player]:
    return [PlayerFactory() for _ in range(n)]


class Seeded:
    """The seeded league's objects, by name."""


def seed_league() -> Seeded:
    """A league with two seasons, rated and unrated games and a match in progress; the
    expected standings are worked out by hand in tests/games/test_standings.py."""
    from datetime import date

    from games.leagues.models import Season

    s = Seeded()
    s.league = LeagueFactory(
        name="Gatti di Roma",
        slug="roma",
        description="Tuesday nights at the club.",
        game_types=["felix", "smoking_cat", "cats_and_dogs"],
        word="MICIO",
    )
    s.other = LeagueFactory(name="Milano", slug="milano")
    s.spring = Season.objects.create(
        league=s.league, name="Spring 2026", starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 31)
    )
    s.april = Season.objects.create(league=s.league, name="April 2026", starts_on=date(2026, 4, 1))
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    s.anna, s.bruno, s.carla, s.dario, s.elena = (
        PlayerFactory(display_name=n, username=n.lower()) for n in names
    )
    a, b, c, d = s.anna, s.bruno, s.carla, s.dario
    day = lambda m, dd: T0.replace(month=m, day=dd)  # noqa: E731
    L = s.league
    s.g1 = finished("felix", [a, b, c], [1, 2, 3], [50, 40, 30], league=L, at=day(3, 2))
    s.g2 = finished("felix", [b, a], [1, 2], [30, 20], league=L, at=day(3, 10))
    s.g3 = finished("felix", [b, c, d], [1, 1, 3], [40, 40, 10], league=L, at=day(4, 5))
    s.g4 = finished(
        "felix",
        [a, d],
        [1, 2],
        [60, 0],
        league=L,
        at=day(4, 6),
        flagged_not_rated=True,
        not_rated_reason="collusion",
    )
    s.g5 = finished("felix", [a, None, None, None], [1, 2, 3, 4], league=L, at=day(4, 7))
    s.g6 = finished("bon_appetit", [a, b], [1, 2], [30, 10], league=L, at=day(4, 8))
    s.g7 = finished("felix", [a, b], [2, 1], [5, 9], league=s.other, at=day(4, 9))
    s.g8 = finished("felix", [c, d], [1, 2], rate=False, league=L, at=day(4, 10))
    Game.objects.filter(pk=s.g8.pk).update(
        status="aborted", result=None, abort_reason=AbortReason.MODERATOR, abort_note="rain"
    )
    s.match = smoking_cat_match(L, [a, b, c, d], [2, 0, 1, 0])
    s.other_match = smoking_cat_match(s.other, players(4), [1, 1, 1, 1])
    return s
