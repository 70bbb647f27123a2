""" "Play at my level" (issue 47): the computers' level whose measured rating is nearest a
person's rating in that game.

A person's rating is the one the site shows (``games.ratings.display``), overall for the
game (not a league's); a newcomer without one stands where newcomers start (1500), which
is where the ladder anchors its normal level.

Are games against computers rated for people? Computers never are (their seats are left
out of every rated game). People are, by their places among the people only, when the
game counts at all (``games.ratings.service.skip_reason``): in a group or a league (a
table started on the web is casual, never rated), with two or more people, and computers
in at most half the seats. So a person cannot farm the ladder alone (one person and
computers is never rated), while a group's table that a computer completes still counts
for the people at it, as it always has.
"""

from __future__ import annotations

from games import catalog
from games.play import levels
from games.play.models import Player
from games.ratings.display import CENTRE, shown
from games.ratings.models import Rating


def person_rating(player: Player | None, kind: catalog.GameKind) -> int:
    """The rating ``player`` shows in a game overall (a newcomer's when none)."""
    if player is None:
        return CENTRE
    rating = Rating.objects.filter(
        player=player, game_type=kind.slug, league__isnull=True, season__isnull=True
    ).first()
    if rating is None:
        return CENTRE
    return shown(rating.mu, rating.sigma, rating.games).value


def level_for(player: Player | None, kind: catalog.GameKind, players: int | None = None) -> str:
    """The level "Play at my level" seats for ``player`` in a game."""
    return levels.at_my_level(kind, person_rating(player, kind), players)
