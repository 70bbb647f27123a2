"""Finding people: the list of players with a search by name, and each game's leaderboard
across leagues (the overall ratings). Keyset pages (``paging``): a fixed number of queries
and the same cost on the last page as on the first."""

from __future__ import annotations

from itertools import pairwise
from urllib.parse import urlencode

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Lower
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games import catalog
from games.leagues.models import League, Season
from games.play.models import Player, Seat
from games.ratings.models import Rating, RatingChange

from . import paging
from .params import strict, text

SEARCH_MAX = 64


def public_players() -> QuerySet[Player]:
    """The people with a public page: those who sat at a table that started (someone who
    only talked to the bot is nobody's business, issue 15)."""
    return Player.objects.filter(
        Exists(Seat.objects.filter(player=OuterRef("pk"), game__started_at__isnull=False))
    )


def _games_played() -> Coalesce:
    seats = (
        Seat.objects.filter(player=OuterRef("pk"), game__started_at__isnull=False)
        .order_by()
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(seats, output_field=IntegerField()), 0)


@require_safe
@strict
def player_list(request):
    """Everyone who has played, A to Z, or those whose name contains the search
    (case-insensitive). One query per page."""
    # A longer search is cut, not refused: it is what a person typed.
    search = text(request.GET.get("q"), "q", max_length=10 * SEARCH_MAX).strip()[:SEARCH_MAX]
    rows = public_players().annotate(n_games=_games_played())
    if search:
        rows = rows.filter(display_name__icontains=search)
    page = paging.page(
        rows,
        Lower("display_name"),
        descending=False,
        after=paging.cursor(request, "after"),
        before=paging.cursor(request, "before"),
        query={"q": search} if search else {},
    )
    context = {"page": page, "search": search}
    return render(request, "web/player_list.html", context)


@require_safe
@strict
def leaderboard(request, slug: str | None = None):
    """One game's ratings, best first: overall (every league's games and the games
    outside leagues), or a league's full standings with ``?league=<slug>`` (and
    ``&season=<id>`` for a season's), which its page shows the top of. Equal ratings
    share a place, across pages too. Two queries; two more (the league, its seasons) when
    scoped."""
    league, season = _scope(request.GET)
    kinds = [k for k in catalog.all_games() if league is None or league.counts(k.slug)]
    kind = kinds[0] if slug is None and kinds else next((k for k in kinds if k.slug == slug), None)
    if kind is None:
        raise Http404
    ratings = Rating.objects.filter(league=league, season=season, game_type=kind.slug)
    wins = (
        RatingChange.objects.filter(rating=OuterRef("pk"), rank=1)
        .order_by()
        .values("rating")
        .annotate(n=Count("pk"))
        .values("n")
    )
    scope = {"league": league.slug} if league else {}
    if season:
        scope["season"] = str(season.pk)
    page = paging.page(
        ratings.select_related("player").annotate(
            wins=Coalesce(Subquery(wins, output_field=IntegerField()), 0)
        ),
        "ordinal",
        descending=True,
        after=paging.cursor(request, "after"),
        before=paging.cursor(request, "before"),
        query=scope,
    )
    _rank(ratings, page.items)
    context = {
        "kind": kind,
        "kinds": kinds,
        "page": page,
        "league": league,
        "season": season,
        "scope": "?" + urlencode(scope) if scope else "",
    }
    return render(request, "web/leaderboard.html", context)


def _scope(params) -> tuple[League | None, Season | None]:
    """The league (and season) a leaderboard is limited to; none for the overall one."""
    slug = text(params.get("league"), "league", max_length=100)
    if not slug:
        return None, None
    league = League.objects.filter(slug=slug).prefetch_related("seasons").first()
    if league is None:
        raise Http404
    wanted = params.get("season", "")
    season = next((s for s in league.seasons.all() if str(s.pk) == wanted), None)
    return league, season


def _rank(ratings: QuerySet[Rating], rows: list[Rating]) -> None:
    """Give each row its place: one more than the ratings above it (1, 1, 3), counted in
    the database for the page's first row, which may tie with the page before."""
    if not rows:
        return
    first = rows[0]
    # Only the ratings from the first row's up: an index range, short near the top.
    counts = ratings.filter(ordinal__gte=first.ordinal).aggregate(
        above=Count("pk", filter=Q(ordinal__gt=first.ordinal)),
        ahead=Count(
            "pk", filter=Q(ordinal__gt=first.ordinal) | Q(ordinal=first.ordinal, pk__gt=first.pk)
        ),
    )
    # The page's place, set on each row for the template.
    first.rank = counts["above"] + 1  # type: ignore[attr-defined]
    for i, (previous, row) in enumerate(pairwise(rows), start=1):
        row.rank = (  # type: ignore[attr-defined]
            previous.rank  # type: ignore[attr-defined]
            if row.ordinal == previous.ordinal
            else counts["ahead"] + i + 1
        )
