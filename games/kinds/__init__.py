"""What a game is (``GameKind``), and one package per game beside this module.

A game's package (``games.kinds.<slug>``) holds everything about that game: its catalog
entry as ``KIND`` in its ``__init__``, its rules engine (``engine``), computer players
(``computers``), card art (``art``), narration (``narration``), Telegram renderer
(``telegram``), web table (``web``) with its template and style (``templates/``,
``static/``), its rules documents (``rules/<language>.md``) and, optionally, its deals as
chance steps for OpenSpiel (``openspiel``, a ``games.engines.deals.Deal``). The catalog
(``games.catalog``) installs the packages; the rest of the code asks the catalog.

An entry names its modules by import path, not by import: the engine is loaded when first
used (one broken engine cannot stop the others from loading), and the front-ends' modules
(``telegram``, ``web``) import the front-ends, which sit in layers above the catalog
(``docs/architecture.md``); only the front-ends load them, through ``renderer()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from pkgutil import iter_modules
from typing import Any

from django.utils.functional import Promise

from games.capabilities import LeagueOption, ModeratorMove, Progress, Scoring
from games.computers import Strategy, strategies
from games.engines import Rules
from games.engines.deals import Deal
from games.narration import Line, Narration

TELEGRAM = "telegram"
WEB = "web"


@dataclass(frozen=True)
class GameKind:
    """One game: its names, its rules engine, its computer players, how it is shown."""

    slug: str
    name: Promise | str  # the full name, translatable
    short_name: Promise | str  # where space is short (the table's header)
    emoji: str
    # Module exposing ``RULES`` (see ``games.engines.base.Rules``); "": the package's
    # ``engine``.
    engine: str = ""
    computers: str | None = None  # module exposing ``STRATEGIES``; None: random only
    # Front-end -> module of that front-end's renderer for this game.
    renderers: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()  # what people type after /new or /rules
    turn_seconds: int = 60  # a seat's time per turn unless a chat or league says otherwise
    table_players: int = 4  # the usual table: benchmarks, the arena, demo games
    # Whether seats hold anything the others may not see (a hand, secret mice).
    private_hands: bool = True
    # Whether a table may let the server play a human's move when it is the only one (B15).
    auto_play: bool = False
    # What the game adds to the generic code (``games.capabilities``): options taken from
    # the league a game is played in, the moves moderators may make, how scores read,
    # what a league's page shows of a running match.
    league_options: tuple[LeagueOption, ...] = ()
    moderator_moves: tuple[ModeratorMove, ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    progress: Progress | None = None
    summary: tuple[Promise | str, ...] = ()  # the rules in short, a paragraph each
    # Where the rule book is silent, what we decided: (clause ID, text).
    interpretations: tuple[tuple[str, Promise | str], ...] = ()
    # Module exposing ``narrate(event) -> Line | None`` (``games.narration``); None: the
    # game's events are not told.
    narration: str | None = None
    # Module drawing the cards (``games.art``: ``codes``, ``face``, ``back``, ``legend``,
    # ``BACK_VARIANTS``); None: the game shows no card art.
    art: str | None = None
    # Module exposing ``DEAL`` (``games.engines.deals.Deal``: the deals drawn card by card,
    # which ``games.openspiel`` needs); None: the game is not offered to OpenSpiel.
    openspiel: str | None = None
    # The game's package (``games.kinds.<slug>``, or a test's). The modules it holds under
    # the usual names (``engine``, ``computers``, ``narration``, ``art``, ``openspiel``,
    # ``telegram``, ``web``) are
    # the entry's unless the entry names others; the web front-end finds the table's
    # template and style in its ``templates/`` and ``static/`` folders.
    package: str | None = None
    # The cards that illustrate the rules page (``games.art`` codes): the one standing for
    # the game in the index, and those drawn beside a clause, by clause ID.
    cover: str | None = None
    pictures: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.package is None:
            return
        # Frozen: the defaults taken from the package are set once, here.
        found = _modules(self.package)
        for name in ("engine", "computers", "narration", "art", "openspiel"):
            if not getattr(self, name) and name in found:
                object.__setattr__(self, name, f"{self.package}.{name}")
        if not self.renderers:
            front_ends = {front_end: f"{self.package}.{front_end}" for front_end in (TELEGRAM, WEB)}
            renderers = {key: path for key, path in front_ends.items() if key in found}
            object.__setattr__(self, "renderers", renderers)

    @property
    def rules(self) -> Rules:
        # ``Rules``, which keeps ``Engine``: the computers need its search half too.
        rules: Rules = _load(self.engine).RULES
        return rules

    def narrate(self, event: Mapping[str, Any]) -> Line | None:
        """One event as a ``games.narration.Line``, or None when the game does not tell it."""
        if not self.narration:
            return None
        told: Narration = _load(self.narration)
        return told.narrate(event)

    @property
    def deal(self) -> Deal | None:
        """The game's deals as chance steps (``games.engines.deals``), or None."""
        if not self.openspiel:
            return None
        deal: Deal = _load(self.openspiel).DEAL
        return deal

    @property
    def min_players(self) -> int:
        return self.rules.min_players

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    def moderator_move(self, value: str) -> ModeratorMove | None:
        """The moderator's move this game declares under a stored value, or None."""
        return next((move for move in self.moderator_moves if move.value == value), None)

    def strategies(self) -> dict[str, Strategy]:
        return _strategies(self.computers)

    def strategy(self, name: str) -> Strategy:
        found = self.strategies().get(name)
        if found is None:
            raise KeyError(f"{self.slug} has no computer strategy {name!r}")
        return found

    @property
    def default_strategy(self) -> str:
        """The strongest everyday computer player: the game's own, else the random one."""
        names = list(self.strategies())
        return "heuristic" if "heuristic" in names else names[0]

    def renderer(self, front_end: str):
        # Imported by path: front-ends sit above the catalog, which never imports them.
        return _load(self.renderers[front_end])

    @property
    def directory(self) -> Path | None:
        """The folder of the game's package, or None for an entry without one."""
        if self.package is None:
            return None
        return Path(_load(self.package).__file__).parent

    def __str__(self) -> str:
        return str(self.name)


def _modules(package: str) -> set[str]:
    """The names of a package's modules (without importing them)."""
    return {info.name for info in iter_modules(_load(package).__path__)}


@cache
def _load(module: str):
    return import_module(module)


@cache
def _strategies(module: str | None) -> dict[str, Strategy]:
    return strategies(module)
