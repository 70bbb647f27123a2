"""A tournament's messages in Telegram (issue 26): the announcement in its group (sign-up,
withdrawal, the organisers' start and cancel, the page), each round's tables in the group,
each seated player's seat in private, the final standings and a cancellation.

Renderers take what the caller read from the database (``Facts``, ``SeatAt``) and return
text and buttons; names come from users and are escaped here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bot import callbacks
from bot.keyboard import Button, Rows, grid
from bot.render.common import MEDALS, esc, join
from games.tournaments.models import Format, Status, Tournament
from server.links import absolute

# Telegram's limits (4096 characters, 100 buttons): a round of many tables is posted in
# several messages, each of at most this many tables and characters.
TABLES_PER_MESSAGE = 40
MESSAGE_CHARS = 2000
NAMES_SHOWN = 10  # of the players the bot cannot write to
TABLE_BUTTONS_PER_ROW = 4
STANDINGS_SHOWN = 10


@dataclass
class Facts:
    """What an announcement shows besides the tournament's own fields."""

    entrants: int
    rounds_played: int = 0  # rounds started so far
    fewest: int = 0  # players needed to start


@dataclass
class TableLine:
    number: int
    names: list[str]  # in seat order, not escaped
    url: str = ""  # the live table (empty for a bye)
    bye: bool = False


@dataclass
class RoundPost:
    tournament: Tournament
    number: int
    tables: list[TableLine]
    turn_seconds: int
    timeouts: int  # missed turns in a row before a computer takes the seat
    unreachable: list[str] = field(default_factory=list)  # names, not escaped
    start_link: str = ""  # the bot's private chat (deep link)


def rounds_text(n: int) -> str:
    return ngettext("%(n)d round", "%(n)d rounds", n) % {"n": n}


def format_name(t: Tournament) -> str:
    return str(Format(t.format).label)


def starts_text(when: datetime) -> str:
    local = timezone.localtime(when)
    return f"{local:%H:%M} {local.tzname()}"


def heading(t: Tournament) -> str:
    return f"🏆 <b>{esc(t.name)}</b>"


def shape(t: Tournament) -> str:
    """ "🐱 Name · Swiss · 3 rounds · tables of 4"."""
    kind = t.kind
    parts = [f"{kind.emoji} {esc(kind.short_name)}", format_name(t)]
    if t.format == Format.SWISS:
        parts.append(rounds_text(t.round_count or 1))
    elif t.format == Format.ARENA:
        parts.append(_("%(minutes)d min") % {"minutes": t.duration_minutes or 0})
    else:
        parts.append(_("the top %(n)d of each table go on") % {"n": t.go_on})
    parts.append(_("tables of %(n)d") % {"n": t.table_size})
    return " · ".join(parts)


def explain(fmt: str) -> str:
    texts: dict[str, str] = {
        Format.SWISS: _("Swiss: a set number of rounds; each pairs players of like scores."),
        Format.ARENA: _(
            "Arena: a time window; whoever finishes a game is seated again at once, and "
            "wins in a row score double."
        ),
        Format.KNOCKOUT: _("Knockout: the best of each table play on, round after round."),
    }
    return texts[fmt]


def page_url(t: Tournament) -> str:
    return absolute("web:tournament", t.pk)


def announcement(t: Tournament, facts: Facts) -> tuple[str, Rows]:
    lines = [heading(t), shape(t), "🏟 " + esc(t.league.name)]
    entrants = ngettext("%(n)d player signed up", "%(n)d players signed up", facts.entrants) % {
        "n": facts.entrants
    }
    if t.status in (Status.SCHEDULED, Status.SIGNUP):
        lines.append("🕒 " + _("Starts at %(time)s.") % {"time": starts_text(t.starts_at)})
        lines.append("👥 " + entrants)
        if facts.entrants < facts.fewest:
            lines.append(
                _("It needs %(n)d players at least, or it is cancelled at the start.")
                % {"n": facts.fewest}
            )
    elif t.status == Status.RUNNING:
        lines.append("👥 " + entrants)
        if t.format == Format.ARENA:
            # A running tournament has started: its start is set.
            started: datetime = t.started_at  # type: ignore[assignment]
            closes = started + timedelta(minutes=t.duration_minutes or 0)
            lines.append(
                "▶ "
                + _("Under way until %(time)s: sign up and play at once.")
                % {"time": starts_text(closes)}
            )
        elif t.format == Format.SWISS:
            lines.append(
                "▶ "
                + _("Under way: round %(n)d of %(of)d.")
                % {"n": facts.rounds_played, "of": t.round_count or 1}
            )
        else:
            lines.append("▶ " + _("Under way: round %(n)d.") % {"n": facts.rounds_played})
    elif t.status == Status.FINISHED:
        lines.append("👥 " + entrants)
        lines.append("🏁 " + _("Finished: the standings are on its page."))
    else:
        lines.append("✖ " + _("Cancelled."))
    lines.append(_("Tournament page: %(url)s") % {"url": page_url(t)})
    rows: Rows = []
    entry = []
    if t.status == Status.SIGNUP or (t.format == Format.ARENA and t.status == Status.RUNNING):
        entry.append(Button("✋ " + _("Sign up"), callbacks.tournament(t.pk, "j")))
    if t.status in (Status.SIGNUP, Status.RUNNING):
        entry.append(Button("🚪 " + _("Withdraw"), callbacks.tournament(t.pk, "x")))
    if entry:
        rows.append(entry)
    if t.status in (Status.SCHEDULED, Status.SIGNUP):
        rows.append(
            [
                Button("▶ " + _("Start now"), callbacks.tournament(t.pk, "s")),
                Button("✖ " + _("Cancel"), callbacks.tournament(t.pk, "q")),
            ]
        )
    rows.append([Button("🏆 " + _("Tournament page"), url=page_url(t))])
    return join(lines), rows


def round_heading(t: Tournament, number: int) -> str:
    if t.format == Format.SWISS:
        return (
            heading(t)
            + " — "
            + _("round %(n)d of %(of)d")
            % {
                "n": number,
                "of": t.round_count or 1,
            }
        )
    if t.format == Format.ARENA:
        return heading(t) + " — " + _("new tables")
    return heading(t) + " — " + _("round %(n)d") % {"n": number}


def forfeit_rule(turn_seconds: int, timeouts: int) -> str:
    return "⏱ " + ngettext(
        "%(seconds)d s per turn. Whoever does not show forfeits the round: after %(n)d "
        "missed turn a computer takes the seat, placed last.",
        "%(seconds)d s per turn. Whoever does not show forfeits the round: after %(n)d "
        "missed turns in a row a computer takes the seat, placed last.",
        timeouts,
    ) % {"seconds": turn_seconds, "n": timeouts}


def _table_lines(post: RoundPost) -> list[tuple[str, Button | None]]:
    out: list[tuple[str, Button | None]] = []
    for table in post.tables:
        names = ", ".join(esc(n) for n in table.names)
        if table.bye:
            out.append(("☕ " + _("A bye this round: %(names)s.") % {"names": names}, None))
            continue
        line = "🃏 " + _("Table %(n)d: %(names)s") % {"n": table.number, "names": names}
        button: Button | None = None
        if table.url:
            button = Button("🃏 " + _("Table %(n)d") % {"n": table.number}, url=table.url)
        out.append((line, button))
    return out


def _chunks(lines: list[tuple[str, Button | None]]) -> list[list[tuple[str, Button | None]]]:
    chunks: list[list] = [[]]
    size = 0
    for line in lines:
        full = len(chunks[-1]) >= TABLES_PER_MESSAGE or size + len(line[0]) > MESSAGE_CHARS
        if chunks[-1] and full:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += len(line[0]) + 1
    return chunks


def round_posts(post: RoundPost) -> list[tuple[str, Rows]]:
    """The round's tables for the group: one message, or several for a big round."""
    chunks = _chunks(_table_lines(post))
    out = []
    for i, chunk in enumerate(chunks):
        lines = [round_heading(post.tournament, post.number)]
        lines += [text for text, _button in chunk]
        buttons = [button for _text, button in chunk if button is not None]
        rows = grid(buttons, TABLE_BUTTONS_PER_ROW)
        if i == len(chunks) - 1:
            lines.append(forfeit_rule(post.turn_seconds, post.timeouts))
            lines.append(_("Each player's seat and cards come in private."))
            if post.unreachable:
                shown = post.unreachable[:NAMES_SHOWN]
                names = ", ".join(esc(n) for n in shown)
                if len(post.unreachable) > len(shown):
                    names += " " + _("… and %(n)d more.") % {
                        "n": len(post.unreachable) - len(shown)
                    }
                lines.append(
                    "⚠️ "
                    + _(
                        "%(names)s: I cannot write to you in private. Open a private chat "
                        "with the bot and press Start to get your seat and cards."
                    )
                    % {"names": names}
                )
                if post.start_link:
                    link = "📩 " + _("Open a private chat with the bot")
                    rows.append([Button(link, url=post.start_link)])
        out.append((join(lines), rows))
    return out


@dataclass
class SeatAt:
    """A player's seat in a round, for their private message."""

    tournament: Tournament
    round_number: int
    table: int
    others: list[str]  # the other players' names, not escaped
    turn_seconds: int
    timeouts: int
    table_url: str
    web_app: bool  # the button opens the Mini App (private chats only)
    private_hands: bool


def seat_message(seat: SeatAt) -> tuple[str, Rows]:
    lines = [
        round_heading(seat.tournament, seat.round_number),
        "🪑 "
        + _("You play at table %(n)d with %(names)s.")
        % {"n": seat.table, "names": ", ".join(esc(n) for n in seat.others)},
    ]
    if seat.private_hands:
        lines.append(
            _("Your cards come in a message of their own: play there, or at the web table.")
        )
    else:
        lines.append(_("The table comes in a message of its own: play there, or at the web table."))
    lines.append(forfeit_rule(seat.turn_seconds, seat.timeouts))
    label = "🃏 " + _("Open table")
    if seat.web_app:
        button = Button(label, web_app=seat.table_url)
    else:
        button = Button(label, url=seat.table_url)
    return join(lines), [[button]]


@dataclass
class Standing:
    rank: int
    name: str  # not escaped
    points: int


def final_standings(t: Tournament, rows: list[Standing]) -> str:
    lines = [heading(t) + " — " + _("final standings")]
    for row in rows[:STANDINGS_SHOWN]:
        medal = MEDALS.get(row.rank, f"{row.rank}.")
        points = ngettext("%(n)d point", "%(n)d points", row.points) % {"n": row.points}
        lines.append(f"{medal} {esc(row.name)} — {points}")
    if len(rows) > STANDINGS_SHOWN:
        lines.append(_("… and %(n)d more.") % {"n": len(rows) - STANDINGS_SHOWN})
    lines.append(_("The full standings: %(url)s") % {"url": page_url(t)})
    return join(lines)


def cancelled(t: Tournament, too_few: bool) -> str:
    if too_few:
        why = _("✖ The tournament was cancelled: too few players signed up.")
    else:
        why = _("✖ The tournament was cancelled.")
    return join([heading(t), why])
