"""The lobby message (who is in, the buttons to join and start) and the group notices
that are not about one game's moves: the start, the final result, a cancelled game."""

from __future__ import annotations

from django.utils.translation import gettext as _

from bot import callbacks
from bot.keyboard import Button, grid
from bot.render.common import Ctx, esc, join, ranking, title
from games import catalog
from games.play import levels, reviews
from games.play.completion import Completion
from games.play.models import AbortReason, Game, GameStatus, Seat
from server.links import absolute


def seat_label(seat: Seat) -> str:
    """How a seat is named everywhere (not escaped): a computer's with its level."""
    if seat.player_id is None or seat.player is None:
        name = "🤖 " + computer_name(seat)
    else:
        name = seat.player.display_name
        name = f"{name} 🤖" if seat.replaced_by_computer else name
    return levels.with_level(name, seat)


def computer_name(seat: Seat) -> str:
    return _("Computer %(number)d") % {"number": seat.number + 1}


def players_rule(slug: str) -> str:
    kind = catalog.get(slug)
    if kind.min_players == kind.max_players:
        return _("%(n)d players") % {"n": kind.min_players}
    return _("%(min)d to %(max)d players") % {"min": kind.min_players, "max": kind.max_players}


def completion_text(record: Completion) -> str:
    """Issue 26: how often a player sees a game through (``games.play.completion``)."""
    return _("finished %(finished)d of %(counted)d") % {
        "finished": record.finished,
        "counted": record.counted,
    }


def lobby(
    game: Game, seats: list[Seat], start_link: str, records: dict[int, Completion] | None = None
):
    """The lobby message; ``records``: the seated players' completion records."""
    heading = title(game.game_type)
    if game.status == GameStatus.ABORTED:
        reasons: dict[str, str] = {
            AbortReason.EXPIRED: _("⌛ The lobby expired."),
            AbortReason.EVERYONE_LEFT: _("Everyone left the lobby."),
            AbortReason.MOVED: _(
                "✖ This group became a supergroup, where another game was already open:"
                " that one goes on."
            ),
        }
        return join([heading, reasons.get(game.abort_reason, _("✖ The game was cancelled."))]), []
    if game.status != GameStatus.LOBBY:
        names = ", ".join(esc(seat_label(s)) for s in seats)
        lines = [heading, _("▶ Started with %(names)s.") % {"names": names}]
        if game.kind.private_hands and game.status == GameStatus.RUNNING:
            lines.append(_("Your cards and choices come in your private chat with the bot."))
        return join(lines), []
    info = ["👥 " + players_rule(game.game_type)]
    if game.turn_seconds:
        info.append("⏱ " + _("%(seconds)d s per turn") % {"seconds": game.turn_seconds})
    if game.league is not None:
        info.append("🏆 " + esc(game.league.name))
    lines = [heading + " — " + _("new game"), " · ".join(info)]
    unreachable = []
    for i, seat in enumerate(seats, 1):
        line = f"{i}. {esc(seat_label(seat))}"
        if seat.player_id and seat.player_id == game.created_by_id:
            line += " ⭐"
        record = (records or {}).get(seat.player_id) if seat.player_id is not None else None
        if record is not None:
            line += " · " + completion_text(record)
        if seat.player is not None and not seat.player.reachable:
            line += " ⚠️ " + _("must start a private chat with the bot")
            unreachable.append(seat)
        lines.append(line)
    creator = next((s for s in seats if s.player_id and s.player_id == game.created_by_id), None)
    lines.append(
        _("%(name)s or a chat administrator starts the game.")
        % {
            "name": esc(creator.player.display_name)
            if creator and creator.player
            else _("The creator")
        }
    )
    rows = [
        [
            Button("✋ " + _("Join"), callbacks.lobby(game.pk, "j")),
            Button("🚪 " + _("Leave"), callbacks.lobby(game.pk, "x")),
        ],
        *add_rows(game, max(len(seats), game.kind.min_players)),
        [
            Button("▶ " + _("Start"), callbacks.lobby(game.pk, "s")),
            Button("✖ " + _("Cancel"), callbacks.lobby(game.pk, "q")),
        ],
    ]
    computers = [s for s in seats if s.player_id is None]
    under = level_rows(game, computers)  # under the computers' own row
    if computers:
        remove = "➖ " + _("Remove computer")
        under.append([Button(remove, callbacks.lobby(game.pk, f"k{computers[-1].number}"))])
    rows[-1:-1] = under  # before Start and Cancel
    for seat in unreachable[:5]:
        label = "🤖 " + _("Computer instead of %(name)s") % {
            "name": seat.player.display_name if seat.player else "?"
        }
        rows.append([Button(label, callbacks.lobby(game.pk, f"r{seat.number}"))])
    if unreachable and start_link:
        rows.append([Button("📩 " + _("Open a private chat with the bot"), url=start_link)])
    return join(lines), rows


def add_rows(game: Game, players: int | None = None) -> list[list[Button]]:
    """ "Add computer", one button per level with its rating for a game whose computers
    come in several (issues 14 and 47): the creator picks the level as the computer sits
    down, or taps "Play at my level" for the level nearest their rating."""
    offered = levels.offered(game.kind)
    if len(offered) < 2:
        return [[Button("🤖 " + _("Add computer"), callbacks.add_computer(game.pk))]]
    buttons = [
        Button(
            "🤖 + " + levels.with_rating(game.kind, level, players),
            callbacks.add_computer(game.pk, level),
        )
        for level in offered
    ]
    mine = Button("🎯 " + _("Play at my level"), callbacks.lobby(game.pk, "m"))
    return [*grid(buttons, 3), [mine]]


def level_rows(game: Game, computers: list[Seat]) -> list[list[Button]]:
    """A button per lobby computer that moves it on to the next level (issue 14); none
    for a game whose computers come in one level."""
    if len(levels.offered(game.kind)) < 2:
        return []
    rows = []
    for seat in computers:
        shown = levels.level_of(seat.strategy)
        if shown is None:
            continue
        text = "🎚 " + _("%(name)s: %(level)s") % {
            "name": computer_name(seat),
            "level": levels.with_rating(game.kind, shown),
        }
        rows.append([Button(text + " 🔄", callbacks.level(game.pk, seat.number, shown))])
    return rows


def final(game: Game, names: list[str], score_label, view: dict) -> str:
    """The final result; ``view`` is the game's last public view."""
    ctx = Ctx(game.pk, game.version, game.game_type, names)
    result = game.outcome
    if result is None:  # not finished: nothing to rank
        return ""
    lines = ["🏁 <b>" + esc(game.kind.name) + "</b> — " + _("final result")]
    lines += ranking(ctx, list(result.ranks), lambda s: score_label(result, s, view))
    lines.append("🎬 " + _("Replay: %(url)s") % {"url": replay_url(game)})
    if reviews.expected(game):
        # The post-game review (issue 27) is made after this message: the page shows it
        # when it is ready, and says it is coming until then.
        url = absolute("web:game", game.pk, fragment="review")
        lines.append("🔎 " + _("Review the game: %(url)s") % {"url": url})
    return join(lines)


def replay_url(game: Game) -> str:
    return absolute("web:game", game.pk)


def cancelled(game: Game) -> str:
    if game.abort_reason == AbortReason.ABANDONED:
        why = _("✖ The game was cancelled: its only player stopped playing.")
    else:
        why = _("✖ The game was cancelled.")
    return join([title(game.game_type, short=True), why])
