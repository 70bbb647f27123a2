"""The web table: what one viewer (a seat, or a spectator) sees of a game, drawn with the
card art, and the choices that seat has now.

Every game has a web module (its catalog entry's ``renderers["web"]``) keeping
``WebTable``, and optionally ``picks`` (the taps that make an action: ``pick_tree``),
``BOARD`` (the keys its board draws as buttons), ``CONFIRM`` and ``AUTO``.

Views are the only thing read here: a seat's page holds its own view and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import art, catalog, narration
from games.play import levels
from games.play.completion import Completion
from games.play.models import Game, GameStatus, Move, MoveStatus, Player, Seat
from games.play.table import Table, seen_by
from games.ratings.models import RatedGame, RatingChange

RECENT_MOVES = 8
EVENT_LINES = 6


@runtime_checkable
class WebTable(Protocol):
    """A game's web module: what the web table asks of a game."""

    TEMPLATE: str  # the board's template (gets ``t``, a ``TableContext``)

    def card_label(self, code: str) -> str:
        """A card's name in the active language (alt text)."""
        ...

    def option(
        self, parts: tuple[str, ...], view: dict | None, names: list[str]
    ) -> tuple[str, str | None]:
        """How the last part of a partial action is offered: a label, and a card code to
        draw (or None)."""
        ...

    def pieces(self, view: dict | None) -> dict[str, Callable[..., Any]]:
        """How the game's narration pieces read here: card family or amount unit ->
        words (``games.narration``)."""
        ...

    def score_text(self, result: Any, seat: int, view: dict | None) -> str:
        """A seat's score on the final screen."""
        ...

    def legend_texts(self) -> list[str]:
        """What the deck's symbols mean, translated, in the order of ``games.art.legend``."""
        ...


def web_module(slug: str) -> WebTable:
    return cast(WebTable, catalog.get(slug).renderer(catalog.WEB))


def event_text(slug: str, ev: dict, names: list[str], view: dict | None) -> str | None:
    """One event as the game's narration tells it, in the active language, or None."""

    def seat(number: int | None) -> str:
        return names[number] if number is not None and 0 <= number < len(names) else "?"

    return narration.tell(
        catalog.get(slug).narrate(ev),
        translate=_,
        seat=seat,
        formats=web_module(slug).pieces(view),
    )


def legend(slug: str) -> list[tuple[str, str]]:
    """The deck's legend, (symbol_svg, text), in the active language (none for a game
    without card art)."""
    if slug not in art.GAMES:
        return []
    return art.legend(slug, web_module(slug).legend_texts())


Pick = tuple[str, str]  # a board item's or a button's key, and its words


def default_picks(module: WebTable, action: str, view: dict | None, names: list[str]):
    """A game without ``picks``: each step of ``give:7:b2`` is a button of its own, named
    by the game's ``option``."""
    parts = tuple(action.split(":"))
    return [
        [
            (":".join(parts[:d]), module.option(parts[:d], view, names)[0])
            for d in range(1, len(parts) + 1)
        ]
    ]


def pick_tree(module: WebTable, legal: list[str], view: dict | None, names: list[str]) -> dict:
    """The seat's legal actions as the taps that make them (issue 45): the game's
    ``picks(action, view, names)`` gives, for an action, the keys tapped in turn (a card
    of the hand, an animal, a button), one list per order that reaches it. A tap on a key
    that ends an action of one step sends it; an action of several steps, or a verb in
    the game's ``CONFIRM`` (a slip that costs much), waits for Confirm. A single legal
    action whose verb is in the game's ``AUTO`` (the rules leave no choice) goes by
    itself.

    Returns ``{"tree": {key: {"a": action, "c": 1} | {"n": subtree}}, "labels": {key:
    words}, "keys": [every key, in order], "auto": action or ""}`` (empty without
    actions)."""
    if not legal:
        return {}
    hook = getattr(module, "picks", None)
    confirm = set(getattr(module, "CONFIRM", ()))
    tree: dict = {}
    labels: dict[str, str] = {}
    for action in legal:
        ways = hook(action, view, names) if hook else default_picks(module, action, view, names)
        for way in ways:
            node = tree
            for depth, (key, label) in enumerate(way):
                labels.setdefault(key, label)
                entry = node.setdefault(key, {})
                if depth == len(way) - 1:
                    entry["a"] = action
                    if len(way) > 1 or action.split(":", 1)[0] in confirm:
                        entry["c"] = 1
                else:
                    node = entry.setdefault("n", {})
    auto = getattr(module, "AUTO", ())
    return {
        "tree": tree,
        "labels": labels,
        "keys": list(labels),
        "auto": legal[0] if len(legal) == 1 and legal[0].split(":", 1)[0] in auto else "",
    }


def on_board(module: WebTable, key: str) -> bool:
    """Whether the game's board draws ``key`` as a button (its ``BOARD`` prefixes); other
    keys are buttons under the board (Stop, Pass, a bid)."""
    return any(key == p or key.startswith(p + ":") for p in getattr(module, "BOARD", ()))


@dataclass
class SeatLine:
    number: int
    name: str
    is_me: bool
    is_computer: bool
    to_act: bool
    rank: int | None = None
    score: str = ""
    rating_delta: int | None = None  # the overall shown rating's change, for a rated game
    level: str | None = None  # a lobby computer's level, which its creator may change
    player_id: int | None = None
    # In a lobby, the player's completion record (issue 26; ``games.play.completion``).
    completion: Completion | None = None


@dataclass
class TableContext:
    game: Game
    kind: catalog.GameKind
    seat: int | None  # the viewer's seat, None for a spectator
    view: dict | None
    seats: list[SeatLine]
    picks: dict  # pick_tree: the seat's taps now ({} when it has nothing to do)
    events: list[str]
    seconds_left: int | None
    template: str
    module: WebTable
    token: str
    not_rated: str = ""  # why a finished game was not rated

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def my_turn(self) -> bool:
        return bool(self.picks)

    @property
    def bar(self) -> list[tuple[str, str, bool]]:
        """The keys tapped under the board, not on it: (key, words, offered now)."""
        if not self.picks:
            return []
        root = self.picks["tree"]
        labels = self.picks["labels"]
        return [
            (k, labels[k], k in root) for k in self.picks["keys"] if not on_board(self.module, k)
        ]

    def pick_attributes(self, key: str) -> str:
        """A board button's attributes for ``key``: its key, the action it sends when one
        tap does, and ``disabled`` when it is not offered now."""
        root = self.picks.get("tree", {}) if self.picks else {}
        entry = root.get(key)
        out = format_html(' data-pick="{}"', key)
        if entry is None:
            return out + mark_safe(" disabled")
        if "a" in entry:
            out += format_html(' data-action="{}"', entry["a"])
        return out

    @property
    def waiting_for(self) -> list[str]:
        return [s.name for s in self.seats if s.to_act]

    @property
    def over(self) -> bool:
        return self.game.status in (GameStatus.FINISHED, GameStatus.ABORTED)


def seat_name(seat: Seat) -> str:
    """A seat's name, with its level when a computer plays it (issue 14)."""
    if seat.player_id is None or seat.player is None:
        name = _("Computer %(number)d") % {"number": seat.number + 1}
    else:
        name = seat.player.display_name
    return levels.with_level(name, seat)


def change_token(game: Game, n_seats: int) -> str:
    """What the page compares to know the table changed (moves, seats, status, timer)."""
    deadline = int(game.deadline.timestamp()) if game.deadline else 0
    token = f"{game.version}.{game.status}.{n_seats}.{deadline}"
    # A lobby computer's level changed (issue 14); a finished game's review was stored
    # (issue 45): neither moves the version.
    if game.status in (GameStatus.LOBBY, GameStatus.FINISHED):
        token += f".{game.updated_at.timestamp():.3f}"
    return token


def shows_clock(token: str) -> bool:
    """Whether the table at ``token`` (``change_token``) shows a turn clock: running, with
    a deadline. Only then does its render change while its token stays."""
    parts = token.split(".")
    return len(parts) < 4 or (parts[1] == GameStatus.RUNNING and parts[3] != "0")


def viewer_seat(seats: list[Seat], player: Player | None) -> Seat | None:
    if player is None:
        return None
    return next((s for s in seats if s.player_id == player.pk), None)


def table_context(game: Game, player: Player | None) -> TableContext:
    seats = list(game.seats.select_related("player").order_by("number"))
    module = web_module(game.game_type)
    mine = viewer_seat(seats, player)
    number = mine.number if mine else None
    table = Table(game)
    view = table.view(number) if table.started else None
    to_act = table.to_act()
    legal = table.legal(mine.number) if mine is not None and not mine.is_computer else []
    result = game.outcome if game.status == GameStatus.FINISHED else None
    lines = []
    for seat in seats:
        line = SeatLine(
            seat.number,
            seat_name(seat),
            is_me=seat.number == number,
            is_computer=seat.is_computer,
            to_act=seat.number in to_act,
            level=levels.level_of(seat.strategy) if seat.player_id is None else None,
            player_id=seat.player_id,
        )
        if result is not None:
            line.rank = result.ranks[seat.number]
            line.score = module.score_text(result, seat.number, view)
        lines.append(line)
    not_rated = ""
    if result is not None:
        not_rated = _rating_changes(game, seats, lines)
    names = [line.name for line in lines]
    events = []
    if view is not None:
        moves = Move.objects.filter(game=game, status=MoveStatus.APPLIED).order_by("-seq")
        recent = [
            ev for m in reversed(list(moves.only("events")[:RECENT_MOVES])) for ev in m.events
        ]
        for ev in seen_by(recent, number):
            text = event_text(game.game_type, ev, names, view)
            if text:
                events.append(text)
    left = None
    if game.deadline is not None and game.status == GameStatus.RUNNING:
        left = max(0, int((game.deadline - timezone.now()).total_seconds()))
    return TableContext(
        game=game,
        kind=game.kind,
        seat=number,
        view=view,
        seats=lines,
        picks=pick_tree(module, legal, view, names),
        events=events[-EVENT_LINES:],
        seconds_left=left,
        template=module.TEMPLATE,
        module=module,
        token=change_token(game, len(seats)),
        not_rated=not_rated,
    )


def _rating_changes(game: Game, seats: list[Seat], lines: list[SeatLine]) -> str:
    """Puts each rated seat's overall rating change on its line; returns why the game was
    not rated, or "" (the decision may still be on its way)."""
    decision = RatedGame.objects.filter(game=game).first()
    if decision is not None and not decision.rated:
        return decision.get_skipped_display()
    changes = RatingChange.objects.filter(game=game, rating__league=None).select_related("rating")
    by_player: dict[int | None, int | None] = {c.rating.player_id: c.shown_change for c in changes}
    for seat, line in zip(seats, lines, strict=True):
        line.rating_delta = by_player.get(seat.player_id)
    return ""
