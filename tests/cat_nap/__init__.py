"""A fifth game that exists only in the tests: "Cat Nap", a whole game in one package, laid
out as the real games' packages are (``games.kinds``): this entry, its engine and computer
player (``engine``), card art (``art``), Telegram renderer (``telegram``), web table
(``web`` with its template and style), rules document (``rules/en.md``) and capabilities
(``capabilities``). The test
installs it the way the catalog installs a real game (``catalog.install``); no file
outside this package and its test names it."""

from __future__ import annotations

from games.kinds import GameKind

KIND = GameKind(
    slug="cat_nap",
    package=__name__,
    name="Cat Nap",
    short_name="Nap",
    emoji="💤",
    computers=f"{__name__}.engine",  # its computer player is in its engine's module
    aliases=("nap",),
    turn_seconds=20,
    summary=("Nap or purr; the sleepiest cat wins.",),
    interpretations=(("N1", "Purring is allowed at any time."),),
    private_hands=False,
    cover="nap",
    pictures={"N1": ("purr",)},
)
