"""openskill (Plackett–Luce) ratings for finished games.

Two scopes per game type: overall, and per league (when the game's league counts that
game type). Human seats are rated against each other by the game's places (ties share a
place; a forfeit counts last: ``games.ratings.places``, as a tournament's round and the
game's page count them); computer seats are not rated. A game is not rated when it was
aborted, a moderator flagged it, computers played more than half its seats (a forfeited
seat is a computer's), or fewer than two humans played.

The arithmetic (``update`` and ``fold``) is pure and lives in ``games.ratings.maths``;
``rate_game`` applies one game under row locks, once (the ``RatedGame`` row, keyed by the
game, makes a redelivered task a no-op), and ``rebuild`` replays a whole scope from the
rated games when a moderator's flag changes the past.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from games.leagues.models import League, LeagueMember, Season
from games.play.models import ENDED_STATUSES, AbortReason, Game, GameStatus, Seat
from games.ratings.maths import Change, Placing, Played, Skill, fold
from games.ratings.models import RatedGame, Rating, RatingChange
from games.ratings.places import seat_places

log = logging.getLogger(__name__)

Skip = RatedGame.Skip


# --- Which games are rated -----------------------------------------------------------------
def skip_reason(game: Game, seats: list[Seat]) -> str:
    """Why ``game`` is not rated, or "" if it is.

    A player who abandoned the game (``Seat.forfeits``: cancelled it while it ran, or
    was replaced by a computer after timing out) still counts as a person at the table and
    is rated as last, so walking away never dodges a loss; their seat, which a computer
    played, counts among the computers' seats. A running game cancelled by a
    player is rated for that forfeit; any other abort is not rated."""
    forfeits = any(seat.forfeits for seat in seats)
    if game.status == GameStatus.ABORTED:
        if not (game.abort_reason == AbortReason.CANCELLED and forfeits):
            return Skip.ABORTED
    else:
        try:
            result = game.outcome
        except ValueError:
            result = None
        if game.status != GameStatus.FINISHED or result is None or result.n_seats < len(seats):
            return Skip.NO_RESULT
    if game.flagged_not_rated:
        return Skip.FLAGGED
    if game.chat_id is None and game.league_id is None:
        return Skip.CASUAL
    # Every seat a computer played counts as a computer's, a forfeit's too (issue 45: two
    # games whose no-shows left computers in two seats of three were rated).
    computers = sum(1 for seat in seats if seat.is_computer)
    if computers * 2 > len(seats):
        return Skip.COMPUTERS
    # Those who sat down count as people, whoever played their seat to the end.
    people = sum(1 for seat in seats if seat.player_id is not None and not _handed_over(seat))
    if people < 2:
        return Skip.TOO_FEW
    return ""


def _handed_over(seat: Seat) -> bool:
    """A seat a moderator handed to a computer: its result is the computer's, not rated."""
    return seat.replaced_by_computer and not seat.forfeits


def placings(game: Game, seats: list[Seat]) -> tuple[Placing, ...]:
    """The people's places, as the game's page and a tournament's round count them
    (``games.ratings.places``): the game's places, a forfeit counted last. A seat handed
    to a computer by a moderator is not rated (the result is the computer's, not the
    player's)."""
    places = seat_places(game, seats) or {}
    result = game.outcome if game.status == GameStatus.FINISHED else None
    out = []
    for seat in sorted(seats, key=lambda s: s.number):
        player = seat.player_id
        if player is None or _handed_over(seat) or seat.number not in places:
            continue  # a computer's seat from the start, or one a moderator handed over
        score = result.score(seat.number) if result and not seat.forfeits else None
        out.append(
            Placing(
                player,
                places[seat.number],
                float(score) if isinstance(score, (int, float)) else None,
            )
        )
    return tuple(out)


def played_at(game: Game) -> datetime:
    # The processor stamps finished games; a row without the stamp still gets a time.
    return game.finished_at or game.updated_at or game.created_at


def league_scope(game: Game) -> League | None:
    """The league a game counts for: its own (set when the lobby opened), if that league
    counts this game type."""
    league = game.league
    return league if league is not None and league.counts(game.game_type) else None


def season_scope(game: Game, league: League | None) -> Season | None:
    """The league's season the game counts for: the one running the day it ended."""
    if league is None:
        return None
    return league.current_season(timezone.localdate(played_at(game)))


# --- Applying one game ---------------------------------------------------------------------
def rate_game(game_id: int) -> RatedGame | None:
    """Decide and apply the rating of one finished game, once."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status not in ENDED_STATUSES:
            return None
        decided = RatedGame.objects.filter(game_id=game_id).first()
        if decided is not None:
            return decided  # a redelivered task: the game was rated (or skipped) already
        if game.league_id:
            game.league = League.objects.get(pk=game.league_id)
        seats = list(Seat.objects.filter(game_id=game_id))
        skip = skip_reason(game, seats)
        league = league_scope(game)
        season = season_scope(game, league)
        decision = RatedGame.objects.create(
            game=game, rated=not skip, skipped=skip, league=league, season=season
        )
        if not skip:
            played = Played(game.pk, played_at(game), placings(game, seats))
            # Always overall first, then the league, then its season: one global lock
            # order, so two games finishing together for the same players wait for each
            # other, not deadlock.
            _apply(played, game.game_type, None)
            if league is not None:
                _apply(played, game.game_type, league)
                if season is not None:
                    _apply(played, game.game_type, league, season)
                LeagueMember.objects.bulk_create(
                    [LeagueMember(league=league, player_id=p.player_id) for p in played.placings],
                    ignore_conflicts=True,
                )
        log.info("game %s: %s", game_id, "rated" if not skip else f"not rated ({skip})")
    return decision


def _scope(game_type: str, league: League | None, season: Season | None = None):
    return Rating.objects.filter(game_type=game_type, league=league, season=season)


def _lock_ratings(
    player_ids: list[int], game_type: str, league: League | None, season: Season | None = None
):
    """The scope's rating rows of these players, created if missing, locked in pk order."""
    scope = _scope(game_type, league, season)
    have = set(scope.filter(player_id__in=player_ids).values_list("player_id", flat=True))
    fresh = Skill()
    missing = [
        Rating(
            player_id=pid,
            game_type=game_type,
            league=league,
            season=season,
            mu=fresh.mu,
            sigma=fresh.sigma,
            ordinal=fresh.ordinal,
        )
        for pid in player_ids
        if pid not in have
    ]
    if missing:
        # Another game may create the same row at the same moment: the unique constraint
        # keeps one, and the lock below then waits for its transaction.
        Rating.objects.bulk_create(missing, ignore_conflicts=True)
    rows = scope.select_for_update().filter(player_id__in=player_ids).order_by("pk")
    return {r.player_id: r for r in rows}


def _apply(
    played: Played, game_type: str, league: League | None, season: Season | None = None
) -> None:
    ratings = _lock_ratings([p.player_id for p in played.placings], game_type, league, season)
    start = {pid: Skill(r.mu, r.sigma) for pid, r in ratings.items()}
    skills, _counts, changes = fold([played], start)
    for pid, skill in skills.items():
        rating = ratings[pid]
        rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
        rating.games += 1
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "ordinal", "games"])
    RatingChange.objects.bulk_create([_change_row(ratings, c) for c in changes])


def _change_row(ratings: dict[int, Rating], change: Change) -> RatingChange:
    return RatingChange(
        rating=ratings[change.placing.player_id],
        game_id=change.game_id,
        played_at=change.played_at,
        rank=change.placing.rank,
        score=change.placing.score,
        mu_before=change.before.mu,
        sigma_before=change.before.sigma,
        mu_after=change.after.mu,
        sigma_after=change.after.sigma,
        ordinal_before=change.before.ordinal,
        ordinal_after=change.after.ordinal,
    )


# --- Rebuilding a scope --------------------------------------------------------------------
def redecide(game: Game) -> None:
    """Take a finished game's rating decision again (after a moderator's flag changed)
    and rebuild the scopes it touches, so its effect on every later game is undone or
    redone."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status not in ENDED_STATUSES:
            return  # not decided yet: the finishing game's task will read the flag
        seats = list(Seat.objects.filter(game_id=game.pk))
        skip = skip_reason(game, seats)
        league = league_scope(game)
        season = season_scope(game, league)
        before = RatedGame.objects.filter(game=game).first()
        RatedGame.objects.update_or_create(
            game=game,
            defaults={"rated": not skip, "skipped": skip, "league": league, "season": season},
        )
        rebuild(game.game_type, None)
        # The league it counts for now, and the one it counted for before (if moved).
        leagues = {x for x in (league, before.league if before else None) if x is not None}
        for in_league in sorted(leagues, key=lambda x: x.pk):
            rebuild(game.game_type, in_league)
        seasons = {x for x in (season, before.season if before else None) if x is not None}
        for in_season in sorted(seasons, key=lambda x: x.pk):
            rebuild(game.game_type, in_season.league, in_season)


def rebuild(game_type: str, league: League | None, season: Season | None = None) -> int:
    """Recompute one scope from its rated games, oldest first. Returns the games used."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Rare and short: hold off concurrent rating updates while the scope is redone
            # (SQLite's IMMEDIATE transactions serialise writers already).
            with connection.cursor() as cursor:
                cursor.execute(
                    f"LOCK TABLE {Rating._meta.db_table}, {RatingChange._meta.db_table}"
                    " IN SHARE ROW EXCLUSIVE MODE"
                )
        decisions = RatedGame.objects.filter(rated=True, game__game_type=game_type)
        if league is not None:
            decisions = decisions.filter(league=league)
        if season is not None:
            decisions = decisions.filter(season=season)
        games = list(
            Game.objects.filter(pk__in=decisions.values("game_id"))
            .prefetch_related("seats")
            .order_by("finished_at", "pk")
        )
        played = [Played(g.pk, played_at(g), placings(g, list(g.seats.all()))) for g in games]
        skills, counts, changes = fold(played)
        scope = _scope(game_type, league, season)
        RatingChange.objects.filter(rating__in=scope).delete()
        scope.exclude(player_id__in=list(skills)).delete()
        existing = {r.player_id: r for r in scope}
        for pid, skill in skills.items():
            rating = existing.get(pid) or Rating(
                player_id=pid, game_type=game_type, league=league, season=season
            )
            rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
            rating.games = counts[pid]
            existing[pid] = rating
        Rating.objects.bulk_update(
            [r for r in existing.values() if r.pk], ["mu", "sigma", "ordinal", "games"]
        )
        Rating.objects.bulk_create([r for r in existing.values() if not r.pk])
        # bulk_create sets pks on PostgreSQL and SQLite alike (RETURNING).
        RatingChange.objects.bulk_create([_change_row(existing, c) for c in changes])
    return len(played)


def rebuild_season(season: Season) -> int:
    """A season's dates changed (or it was added after games were played): decide again
    which of the league's rated games fall in it and rebuild its tables, and those of the
    seasons that lost games to it. Returns the games the season now holds."""
    with transaction.atomic():
        league = season.league
        decisions = RatedGame.objects.filter(league=league).select_related("game")
        touched = {season.pk: season}
        for decision in decisions:
            now = season_scope(decision.game, league)
            if (now.pk if now else None) != decision.season_id:
                for s in (now, decision.season):
                    if s is not None:
                        touched[s.pk] = s
                decision.season = now
                decision.save(update_fields=["season"])
        for s in touched.values():
            for game_type in league.game_types:
                rebuild(game_type, league, s)
    return RatedGame.objects.filter(season=season, rated=True).count()
