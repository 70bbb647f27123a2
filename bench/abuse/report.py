"""Judging a run by its effects in the database, and the figures the report prints."""

from __future__ import annotations

import re
from collections import Counter

from bench.abuse.common import ALIAS, GAME, TELEGRAM_BASE, TELEGRAM_LOBBIES, Run, is_bad_name
from games.play.models import Game, GameStatus, Move, MoveSource, Player, Seat


# -- judging ----------------------------------------------------------------------------
def seed_telegram_lobbies(run: Run) -> None:
    """Lobbies of Telegram groups, waiting for the group's players: no browser visitor may
    sit down at them or start them."""
    for i in range(TELEGRAM_LOBBIES):
        player = Player.objects.using(ALIAS).create(
            telegram_id=TELEGRAM_BASE + i, display_name=f"Telegram {i}"
        )
        game = Game.objects.using(ALIAS).create(
            game_type=GAME, chat_id=-TELEGRAM_BASE - i, created_by=player
        )
        Seat.objects.using(ALIAS).create(game=game, number=0, player=player)
        run.telegram_lobbies.append(game.pk)


def judge(run: Run) -> None:  # noqa: C901 - one check per kind of attack, in a row
    """The hostile clients' successes, by their effects in the database."""
    success = run.tally.success
    tables = run.normal_tables
    games = Game.objects.using(ALIAS).in_bulk(list(tables) + run.telegram_lobbies)
    for pk, entry in tables.items():
        game = games[pk]
        if entry.friend is None or game.started_at is None:
            continue
        if entry.start_asked is None or game.started_at.timestamp() < entry.start_asked:
            success("start", f"table {pk} started before its creator asked")
    for pk in run.telegram_lobbies:
        if games[pk].status != GameStatus.LOBBY:
            success("start", f"Telegram lobby {pk} started from the browser")
    seats = (
        Seat.objects.using(ALIAS)
        .filter(game__in=games)
        .values_list("game_id", "player_id", "player__display_name", "player__telegram_id")
    )
    computers: Counter = Counter()
    for pk, player, name, telegram_id in seats:
        if player is None:
            computers[pk] += 1
        elif pk in tables:
            if name not in (tables[pk].creator, tables[pk].friend):
                success("seat", f"{name!r} sat down at table {pk}")
        elif telegram_id is None:
            success("seat", f"browser player {name!r} sat down in Telegram lobby {pk}")
    for pk, entry in tables.items():
        if computers[pk] > entry.computers:
            success("computer", f"{computers[pk] - entry.computers} computer(s) added to {pk}")
    moves = Move.objects.using(ALIAS).filter(game__in=list(tables), source=MoveSource.HUMAN)
    for pk, key, seat in moves.values_list("game_id", "key", "seat"):
        # The page's key (a uuid's 32 hex digits) is somewhere in the stored one.
        if not run.normal_keys.intersection(re.findall(r"[0-9a-f]{32}", key)):
            success("move", f"a move nobody at table {pk} sent, for seat {seat}")
    for name in Player.objects.using(ALIAS).values_list("display_name", flat=True):
        if is_bad_name(name):
            success("name", f"stored {name[:40]!r}")


def hostile_costs(run: Run) -> str:
    """What the abandoned hard tables cost: how many, their hard seats, computer moves."""
    tables = Game.objects.using(ALIAS).filter(pk__in=run.hostile_tables)
    hard = Seat.objects.using(ALIAS).filter(game__in=tables, player=None, strategy="hard")
    moves = Move.objects.using(ALIAS).filter(game__in=tables, source=MoveSource.COMPUTER)
    by_status = Counter(tables.values_list("status", flat=True))
    figures = [f"hostile_tables={len(run.hostile_tables)}", f"hard_seats={hard.count()}"]
    figures.append(f"computer_moves={moves.count()}")
    figures += [f"tables_{status}={n}" for status, n in sorted(by_status.items())]
    return " ".join(figures)


def people_moves(run: Run):
    """The people's moves that were applied, from the bench's connection."""
    return Move.objects.using(ALIAS).filter(
        game__in=list(run.normal_tables), source=MoveSource.HUMAN, processed_at__isnull=False
    )


def applied_after(run: Run) -> list[float]:
    """How long each person's move waited to be applied (``processed_at`` less its
    ``created_at``, in ms): the game workers' queue and step, apart from the web."""
    moves = people_moves(run)
    return [
        (done - made).total_seconds() * 1000
        for made, done in moves.values_list("created_at", "processed_at")
    ]


def click_parts(run: Run) -> dict[str, list[float]]:
    """Each counted click in its parts (ms): from the post to the move recorded (the web),
    to the move applied (the game workers' queue and step), to the screen showing it (the
    notification, the render, the stream or poll)."""
    sent = {key: (at, shown) for key, at, shown in run.tally.timed_clicks}
    moves = people_moves(run)
    parts: dict[str, list[float]] = {"recorded": [], "applied": [], "shown": []}
    for key, made, done in moves.values_list("key", "created_at", "processed_at"):
        if (times := sent.get(key.rsplit(":", 1)[-1])) is None:
            continue
        at, shown = times
        parts["recorded"].append((made.timestamp() - at) * 1000)
        parts["applied"].append((done - made).total_seconds() * 1000)
        parts["shown"].append((shown - done.timestamp()) * 1000)
    return parts


def counts(counter: Counter) -> str:
    return " ".join(f"{k}={v}" for k, v in counter.most_common()) or "-"
