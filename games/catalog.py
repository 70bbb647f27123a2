"""The catalog of games: one entry per game with everything the rest of the code needs.

Nothing outside a game's own modules names a game: the bot, the web pages, the admin,
the settings and the services look a game up here (``get(slug)``, ``all_games()``) and
read its facts. Adding a game is its engine module (plus, if it likes, a computers module
and renderers) and one ``register(GameKind(...))`` below.

An entry names its modules by import path, not by import: the engine is loaded when first
used (one broken engine cannot stop the others from loading), and the front-ends' modules
sit in layers above this one (``docs/architecture.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.capabilities import LeagueOption, ModeratorMove, Progress, Scoring
from games.capabilities import smoking_cat as smoking_cat_capabilities
from games.computers import Strategy, strategies
from games.engines import Rules
from games.narration import Line, Narration

TELEGRAM = "telegram"
WEB = "web"


class UnknownGame(KeyError):
    """A slug that no catalog entry has."""


@dataclass(frozen=True)
class GameKind:
    """One game: its names, its rules engine, its computer players, how it is shown."""

    slug: str
    name: Promise | str  # the full name, translatable
    short_name: Promise | str  # where space is short (the table's header)
    emoji: str
    engine: str  # module exposing ``RULES`` (see ``games.engines.base.Rules``)
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

    def __str__(self) -> str:
        return str(self.name)


@cache
def _load(module: str):
    return import_module(module)


@cache
def _strategies(module: str | None) -> dict[str, Strategy]:
    return strategies(module)


_GAMES: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    _GAMES[kind.slug] = kind
    return kind


def unregister(slug: str) -> None:
    """Take a game out of the catalog (tests register games of their own)."""
    _GAMES.pop(slug, None)


def get(slug: str) -> GameKind:
    try:
        return _GAMES[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all_games() -> tuple[GameKind, ...]:
    return tuple(_GAMES.values())


def slugs() -> tuple[str, ...]:
    return tuple(_GAMES)


def choices() -> list[tuple[str, Any]]:
    """``(slug, name)`` pairs for model fields and forms (a callable, so that a new game
    needs no migration)."""
    return [(kind.slug, kind.name) for kind in _GAMES.values()]


def moderator_moves() -> tuple[ModeratorMove, ...]:
    """Every game's moderator moves, in catalog order, each value once."""
    found: dict[str, ModeratorMove] = {}
    for kind in _GAMES.values():
        for move in kind.moderator_moves:
            found.setdefault(move.value, move)
    return tuple(found.values())


def moderator_move(value: str) -> ModeratorMove | None:
    """The moderator's move some game declares under a stored value, or None."""
    return next((move for move in moderator_moves() if move.value == value), None)


def find(text: str) -> GameKind | None:
    """The game a person means by a slug or an alias (``smoking``, ``cani-e-gatti``)."""
    word = text.strip().lower().replace("-", "_")
    for kind in _GAMES.values():
        if word == kind.slug or word in kind.aliases:
            return kind
    return None


# --- The games ------------------------------------------------------------------------
register(
    GameKind(
        slug="felix",
        name=_("Felix: The Cat in the Sack"),
        short_name=pgettext_lazy("short game name", "Felix"),
        emoji="🐱",
        engine="games.engines.felix",
        narration="games.narration.felix",
        computers="games.computers.felix",
        renderers={
            TELEGRAM: "bot.render.felix",
            WEB: "admin_ui.public.tables.felix",
        },
        aliases=(),
        turn_seconds=90,
        summary=(
            _(
                "3 to 5 players, 9 rounds. Everyone has the same 9 cards: cats worth -8 to 15,"
                " a rabbit and two dogs."
            ),
            _(
                "Each round everyone places a card face down; the first card of the row turns"
                " up. Then bid mice for the whole row, or pass: a pass takes back your bid plus"
                " the mice on the lowest mouse card, and turns the next card up."
            ),
            _(
                "The last bidder pays and takes the row. A lone dog chases a cat away (the big"
                " dog the best, the small dog the worst); two dogs chase each other."
            ),
            _("Score: your cats plus your mice. Your mice are secret: only you see them."),
        ),
        interpretations=(
            (
                "F10",
                _(
                    "Everyone chooses their card at the same time; the row is laid out by seat, "
                    "starting with the first player."
                ),
            ),
            (
                "F21",
                _(
                    "After an auction each mouse card is topped up to its printed number; mice "
                    "still on a card stay there."
                ),
            ),
        ),
    )
)
register(
    GameKind(
        slug="smoking_cat",
        name=_("Smoking Cat"),
        short_name=pgettext_lazy("short game name", "Smoking Cat"),
        emoji="🚬",
        engine="games.engines.smoking_cat",
        narration="games.narration.smoking_cat",
        computers="games.computers.smoking_cat",
        renderers={
            TELEGRAM: "bot.render.smoking_cat",
            WEB: "admin_ui.public.tables.smoking_cat",
        },
        aliases=("smokingcat", "smoking"),
        turn_seconds=60,
        # S15-S17: played for the letters of the league's word, fewer is better, and
        # moderators may award and remove letters.
        league_options=smoking_cat_capabilities.LEAGUE_OPTIONS,
        moderator_moves=smoking_cat_capabilities.MODERATOR_MOVES,
        scoring=smoking_cat_capabilities.SCORING,
        progress=smoking_cat_capabilities.PROGRESS,
        summary=(
            _(
                "4 players, 32 cards in four suits (🍃 leaves, ❤️ hearts, 🔔 bells, 🌰 acorns),"
                " ranked 7 8 9 10 U O K A."
            ),
            _(
                "Each deal: pass 3 cards to your left, then play 8 tricks; follow suit when you"
                " can. Hearts and the Ober of Leaves (🍃O, 10) are penalty points; the last trick"
                " adds 5."
            ),
            _(
                "The deal ends when the cards run out or someone reaches 17 points; a player may"
                " throw down to concede it. The loser gets the next letter of the word."
            ),
            _("Whoever spells the whole word loses the match."),
        ),
        interpretations=(
            (
                "S2",
                _(
                    "Inside a suit the cards rank 7, 8, 9, 10, Unter, Ober, King, Ace. There are "
                    "no trumps."
                ),
            ),
            (
                "S12",
                _(
                    "Throwing down concedes the deal: the thrower takes every card still to be "
                    "played, the trick on the table and the 5 points of the last trick, and "
                    "receives the letter."
                ),
            ),
            (
                "S14",
                _(
                    "When players tie for the most points and none of them took the Ober of "
                    "Leaves, all of them lose the deal; the first of them clockwise after the "
                    "previous dealer deals next."
                ),
            ),
            (
                "S17",
                _(
                    "Reneges cannot happen here, so the table's penalty letter becomes a "
                    "moderator's power: a moderator may award or remove a letter, with a reason "
                    "that is recorded."
                ),
            ),
        ),
    )
)
register(
    GameKind(
        slug="bon_appetit",
        name=_("Bon Appétit!"),
        short_name=pgettext_lazy("short game name", "Bon Appétit!"),
        emoji="🐭",
        engine="games.engines.bon_appetit",
        narration="games.narration.bon_appetit",
        computers="games.computers.bon_appetit",
        renderers={
            TELEGRAM: "bot.render.bon_appetit",
            WEB: "admin_ui.public.tables.bon_appetit",
        },
        aliases=("bonappetit", "bon"),
        turn_seconds=30,
        private_hands=False,  # B15: nothing is hidden but the order of the piles
        auto_play=True,  # B15: there are no decisions, a flip is all a seat can do
        summary=(
            _(
                "2 to 6 players. Everyone has a face-down pile; in turn, flip your top card onto"
                " the common pile."
            ),
            _(
                "A mouse (🐭1–3 paws) must be caught: the next player flips that many cards. A cat"
                " 🐱 catches it and wins the pile and a 🏅; only cheese 🧀 and the mouse's owner"
                " wins the pile. Another mouse passes the chase on."
            ),
            _("The game ends with the last 🏅 or when someone cannot flip. Most cards wins."),
        ),
        interpretations=(
            (
                "B13a",
                _(
                    "A hand-stacked table can flip forever: when the position repeats one seen"
                    " earlier in the game (every pile, the common pile, the tokens, whose turn"
                    " it is and any chase), the game ends at once, the common pile belongs to"
                    " nobody and the players are ranked as usual. A game also ends after"
                    " 2,000 flips, which no shuffled deal has come near."
                ),
            ),
            (
                "B2",
                _("The 18 mouse cards: six each with 1, 2 and 3 paw prints."),
            ),
            (
                "B3",
                _(
                    "With 2 or 3 players the red-backed deck is used: 29 cheese, 9 mice (three of"
                    " each paw count) and 7 cats, with 5 tokens."
                ),
            ),
            (
                "B5",
                _("A random player starts."),
            ),
            (
                "B10",
                _(
                    "A won pile goes under the winner's own pile as a whole, so its bottom card "
                    "is the first of them to come up again."
                ),
            ),
            (
                "B12",
                _(
                    "If the card that starts the game is a mouse, the starting player chases it; "
                    "if that chase ends in cheese, nobody wins the pile."
                ),
            ),
        ),
    )
)
register(
    GameKind(
        slug="cats_and_dogs",
        name=_("Come Cani e Gatti"),
        short_name=pgettext_lazy("short game name", "Come Cani e Gatti"),
        emoji="🐶",
        engine="games.engines.cats_and_dogs",
        narration="games.narration.cats_and_dogs",
        computers="games.computers.cats_and_dogs",
        renderers={
            TELEGRAM: "bot.render.cats_and_dogs",
            WEB: "admin_ui.public.tables.cats_and_dogs",
        },
        aliases=("catsanddogs", "cani", "canigatti", "cani_e_gatti"),
        turn_seconds=90,
        summary=(
            _("2 to 6 players, twice as many animals on the table."),
            _(
                "Your turn: place a marker on an animal (if you can), then feed — draw food and"
                " put it on any animal, draw more for the same one, or stop — or play one of your"
                " 3 secret action cards."
            ),
            _(
                "Dogs like bones 🦴, cats like fish 🐟: the favourite food adds, the other"
                " subtracts. An animal with 5 cards is sated."
            ),
            _("At the end each of your markers scores its animal's total. Highest total wins."),
        ),
        interpretations=(
            (
                "C1",
                _(
                    "Each species has three animals with 1 marker square, three with 2 and three "
                    "with 3."
                ),
            ),
            (
                "C19",
                _("Players tied for the highest total share the victory."),
            ),
            (
                "C20",
                _(
                    "The nine action cards, two of each: Shoo (remove any marker), Wander (move "
                    "your marker to another animal), Switch seats (swap your marker with another "
                    "player's), Snatch (discard one food card), Pass the bowl (move a food card "
                    "to another animal), Trade a bite (swap two food cards), Swap dinners (swap "
                    "all food of two animals), Clean the bowl (discard all food of an animal) and"
                    " Second helping (feed twice this turn)."
                ),
            ),
        ),
    )
)
