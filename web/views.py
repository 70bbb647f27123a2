"""The public pages: leagues and their standings, players, and game replays. No login;
every page runs a fixed number of queries whatever the data."""

from __future__ import annotations

import secrets

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import catalog
from games.leagues.models import League, LeagueMember
from games.leagues.services import organised_leagues
from games.play import completion, levels, reviews
from games.play.models import Game, GameStatus, Player
from games.ratings import standings
from games.ratings.models import RatedGame, RatingChange
from games.tournaments.models import Status as TournamentStatus
from games.tournaments.models import Tournament

from . import learn, profiles, replay, tables
from . import review as post_game
from .actors import session_player
from .params import strict

RECENT = 10
TOURNAMENTS = 10  # the latest, by start
PLAYING_NOW = 8
# A league's page shows the top of each table; the whole table is the league's
# leaderboard, paged (``players.leaderboard``): a league of thousands stays one page.
STANDINGS_TOP = 20
BOARDS = 3  # small boards of tables playing now on the home page
UPCOMING = 5  # tournaments on the home page


@require_safe
def home(request):
    """The games, each with its cover card, what it is, how many play it and a button that
    sits the visitor at a table with computers right away; tables playing now as a
    spectator sees them; upcoming tournaments; leagues. Telegram is one more way to play."""
    player = session_player(request)
    boards = _boards()
    context = {
        "games": [_home_game(kind) for kind in catalog.all_games()],
        # The name the visitor plays under: theirs, or a guest's until they give one (the
        # Play now page renames them).
        "name": player.display_name if player else guest_name(),
        "boards": boards,
        # The rest of the tables playing now, listed.
        "playing": [
            line for line in _playing_now() if line.game.pk not in {b.game.pk for b in boards}
        ],
        "board_css": sorted({f"web/tables/{b.game.game_type}.css" for b in boards}),
        "tournaments": _upcoming_tournaments(),
        "leagues": _leagues()[:6],
        "telegram": learn.telegram_links(),
    }
    return render(request, "web/home.html", context)


def guest_name() -> str:
    """A visitor's name until they give one: a number tells two guests at a table apart."""
    return _("Guest %(number)d") % {"number": 1000 + secrets.randbelow(9000)}


def _home_game(kind) -> dict:
    entry = learn.index_entry(kind)
    entry["playable"] = catalog.WEB in kind.renderers
    # The usual table: the visitor and enough computers to start at once.
    entry["computers"] = max(kind.min_players, min(kind.table_players, kind.max_players)) - 1
    return entry


def _boards() -> list[tables.TableContext]:
    """The latest tables playing now that the web draws, each as a spectator sees it:
    the public view only (a seat's hand never reaches this page)."""
    running = (
        # A game with no state yet has no board to draw.
        Game.objects.filter(
            status=GameStatus.RUNNING, game_type__in=_drawn_games(), state__isnull=False
        )
        .select_related("league")
        .order_by("-started_at", "-pk")[:BOARDS]
    )
    return [tables.table_context(game, None) for game in running]


def _drawn_games() -> list[str]:
    return [kind.slug for kind in catalog.all_games() if catalog.WEB in kind.renderers]


def _upcoming_tournaments():
    """Tournaments still to come or under way, soonest first."""
    return (
        Tournament.objects.filter(
            status__in=[
                TournamentStatus.SCHEDULED,
                TournamentStatus.SIGNUP,
                TournamentStatus.RUNNING,
            ]
        )
        .select_related("league")
        .order_by("starts_at", "pk")[:UPCOMING]
    )


def _playing_now(league: League | None = None) -> list[standings.GameLine]:
    """The latest games that started and run now, everywhere or in one league: two
    queries (the games, their seats)."""
    games = Game.objects.filter(status=GameStatus.RUNNING)
    if league is not None:
        games = games.filter(league=league)
    games = (
        games.select_related("league")
        .prefetch_related(standings.seats_prefetch())
        .order_by("-started_at", "-pk")[:PLAYING_NOW]
    )
    return [standings.GameLine(g, standings.seat_lines(g)) for g in games]


def _count(queryset):
    """A correlated COUNT subquery: two counts over joins would multiply each other."""
    return Coalesce(
        Subquery(
            queryset.filter(league=OuterRef("pk"))
            .order_by()
            .values("league")
            .annotate(n=Count("pk"))
            .values("n")
        ),
        0,
    )


def _leagues():
    return League.objects.filter(is_active=True).annotate(
        n_members=_count(LeagueMember.objects.all()),
        n_games=_count(Game.objects.filter(status=GameStatus.FINISHED)),
    )


@require_safe
def rules(request):
    """The games' rules, one card each, and how to start playing (in Telegram or here)."""
    context = {
        "games": [learn.index_entry(kind) for kind in catalog.all_games()],
        "telegram": learn.telegram_links(),
    }
    return render(request, "web/rules.html", context)


@require_safe
def rules_detail(request, slug: str):
    """A game's full rules, clause by clause (each an anchor: ``#F12``), the
    interpretations beside the clauses they interpret."""
    try:
        kind = catalog.get(slug)
    except catalog.UnknownGame:
        raise Http404(_("There is no such game.")) from None
    doc = learn.document(kind)
    context = {
        "kind": kind,
        "doc": doc,
        "sections": learn.sections(kind, doc) if doc else [],
        "telegram": learn.telegram_links(),
        # The computers' ladder with each level's measured rating (issue 47).
        "ladder": levels.choices(kind),
    }
    return render(request, "web/rules_detail.html", context)


@require_safe
def league_list(request):
    return render(request, "web/league_list.html", {"leagues": list(_leagues())})


@require_safe
def league_detail(request, slug: str):
    league = get_object_or_404(
        League.objects.annotate(n_members=_count(LeagueMember.objects.all())), slug=slug
    )
    seasons, season = standings.pick_season(league, request.GET.get("season"))
    context = {
        "league": league,
        "seasons": seasons,
        "season": season,
        "tables": _top(standings.tables(league, season, limit=STANDINGS_TOP + 1)),
        "matches": standings.running_matches(league),
        "playing": _playing_now(league),
        "recent": standings.recent_games(league=league, limit=RECENT),
        # Issue 45: the coming and running ones first, near the top, then the latest
        # finished; its organisers get the link to organise one.
        "tournaments": _league_tournaments(league),
        "organiser": league in organised_leagues(session_player(request)),
    }
    return render(request, "web/league_detail.html", context)


def _league_tournaments(league) -> list:
    """The coming and running ones, the next first, then the latest finished: one query
    of the latest by start, sorted here."""
    shown = league.tournaments.exclude(status=TournamentStatus.CANCELLED)
    latest = list(shown.order_by("-starts_at", "-id")[: 2 * TOURNAMENTS])
    ahead = [t for t in latest if t.status != TournamentStatus.FINISHED]
    ahead.sort(key=lambda t: (t.starts_at, t.pk))
    done = [t for t in latest if t.status == TournamentStatus.FINISHED]
    return (ahead + done)[:TOURNAMENTS]


def _top(tables):
    """(game type, name, the top rows, whether more follow) for each table."""
    return [(t, name, rows[:STANDINGS_TOP], len(rows) > STANDINGS_TOP) for t, name, rows in tables]


@require_safe
def player_detail(request, pk: int):
    # Only people who sat at a table that started have a public page: someone who only
    # talked to the bot (/help) is nobody's business.
    player = get_object_or_404(
        Player.objects.filter(seats__game__started_at__isnull=False).distinct(), pk=pk
    )
    records = profiles.records(player)
    context = {
        "player": player,
        "ratings": standings.player_ratings(player),
        "records": records,
        "completion": completion.record(player.pk),
        "series": profiles.chart_series(records),
        "recent": standings.recent_games(player=player, limit=RECENT),
    }
    return render(request, "web/player_detail.html", context)


@require_safe
@strict
def game_detail(request, pk: int):
    """A game's page. A running game shows the live table as a spectator sees it (followed
    by long polling, as the web table is) above the replay so far, which follows it too
    (``?format=json&since=<step>`` gives the steps from there); a finished game's page is
    its replay."""
    game = (
        Game.objects.select_related("league", "review")
        .prefetch_related(standings.seats_prefetch())
        .filter(pk=pk)
        .first()
    )
    if game is None:
        raise Http404(_("There is no such game."))
    data = replay.payload(game)
    if request.GET.get("format") == "json":
        since = replay.since_param(request.GET.get("since"))
        return JsonResponse(replay.follow(game, data, since))
    seats = standings.seat_lines(game)
    decision = RatedGame.objects.filter(game=game).first()
    changes = {
        c.rating.player_id: c
        for c in RatingChange.objects.filter(game=game, rating__league=None).select_related(
            "rating"
        )
    }
    for seat in seats:
        change = changes.get(seat.player_id) if seat.player_id is not None else None
        seat.rating_delta = change.shown_change if change else None
    running = game.status == GameStatus.RUNNING
    review = post_game.context(game, data, [s.name for s in seats])
    context = {
        "game": game,
        "seats": seats,
        "decision": decision,
        "replay": data,
        "replay_meta": {
            "seats": [{"number": s.number, "name": s.name} for s in seats],
            "labels": replay.labels(game),
            "live": running,
            "review": review["steps"] if review else {},
        },
        "review": review,
        # Linked from the bot's final message before it is made: the page says it is coming.
        "review_pending": review is None and reviews.expected(game),
        # The table's change token as the page saw it: the page's stream (replay.js) tells
        # it when the review is stored, which moves the token (issue 45).
        "review_token": tables.change_token(game, len(seats)),
        "deck": replay.deck(game, data["steps"]) if data else {},
        "card_back": replay.back(game) if data else "",
        "legend": tables.legend(game.game_type) if data else [],
        "board_script": replay.board_script(game),
        # A spectator's table: a seat's own view never reaches this page.
        "t": tables.table_context(game, None) if running else None,
        "running": running,
        "ended": game.status in replay.ENDED,
    }
    return render(request, "web/game_detail.html", context)
