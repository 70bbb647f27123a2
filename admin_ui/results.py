"""A game's result as moderators read it in the admin: a table of its seats, best first,
with each seat's place and score (under the heading its game gives scores that are not
points: ``GameKind.scoring``), instead of the stored JSON."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from games.play.models import Game
from games.ratings.standings import seat_lines


def result_table(game: Game):
    if not game.result:
        return "–"
    try:
        lines = seat_lines(game)
    except ValueError:  # a stored result without ranks: show what there is
        return format_html("<code>{}</code>", game.result)
    lines.sort(key=lambda s: (s.rank is None, s.rank or 0, s.number))
    score = game.kind.scoring.heading or _("Score")
    head = format_html(
        "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        _("Place"),
        _("Seat"),
        _("Player"),
        score,
    )
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>",
        (
            (
                "–" if s.rank is None else s.rank,
                s.number + 1,
                s.name,
                f" ({_('computer')})" if s.is_computer and s.player_id else "",
                "–" if s.score is None else s.score,
            )
            for s in lines
        ),
    )
    return format_html(
        '<table class="result-table"><thead>{}</thead><tbody>{}</tbody></table>', head, rows
    )
