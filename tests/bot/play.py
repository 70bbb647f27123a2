"""Driving whole games through the simulated Telegram: users tap what the bot shows them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.callbacks import decode
from games import catalog
from games.play import tasks
from games.play.models import Game, GameStatus
from tests.bot.telegram_fake import FakeTelegram, FakeUser, Recorder, Shown


@dataclass
class Table:
    telegram: FakeTelegram
    recorder: Recorder
    group: dict
    users: list[FakeUser]
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    taps: int = 0
    queries: list[str] = field(default_factory=list)

    @property
    def chat_id(self) -> int:
        return self.group["id"]

    def game(self) -> Game:
        return Game.objects.filter(chat_id=self.chat_id).order_by("-pk").first()

    def lobby(self) -> Shown:
        game = self.game()
        shown = self.recorder.with_button(self.chat_id, f"l{game.pk}:")
        assert shown is not None, "no lobby message with buttons"
        return shown

    def open_lobby(self, slug: str, creator: FakeUser, joiners: list[FakeUser], computers=0):
        """/new <slug>, the others join, computers are added, the creator starts."""
        creator.say(self.group, f"/new {slug}")
        game_id = self.game().pk
        for user in joiners:
            self.tap(user, self.lobby(), data=f"l{game_id}:j")
        for _ in range(computers):
            self.add_computer(creator)
        self.tap(creator, self.lobby(), data=f"l{game_id}:s")
        game = self.game()
        assert game.status == GameStatus.RUNNING, game.status
        return game

    def add_computer(self, creator: FakeUser) -> str:
        """The lobby's "Add computer" at the everyday level (normal, or the only one)."""
        game_id, lobby = self.game().pk, self.lobby()
        wanted = (f"l{game_id}:cn", f"l{game_id}:c")
        data = next(b["callback_data"] for b in lobby.buttons if b.get("callback_data") in wanted)
        return self.tap(creator, lobby, data=data)

    def tap(self, user: FakeUser, message: Shown, label=None, data=None) -> str:
        query = user.tap(message, label, data)
        self.taps += 1
        self.queries.append(query)
        return query

    def seat_of(self, user: FakeUser) -> int:
        return self.game().seats.get(player__telegram_id=user.id).number

    def to_act(self) -> list[int]:
        game = self.game()
        rules = catalog.get(game.game_type).rules
        return rules.to_act(rules.load(game.state)) if game.status == GameStatus.RUNNING else []

    def private(self, user: FakeUser) -> Shown:
        """The user's live private message of this game (the one the bot keeps editing)."""
        from bot.models import SeatMessage

        row = SeatMessage.objects.get(game=self.game(), player__telegram_id=user.id)
        shown = self.recorder.messages[(user.id, row.message_id)]
        assert not shown.deleted
        return shown

    def buttons(self, message: Shown, kind: str | None = None) -> list[dict]:
        out = []
        for b in message.buttons:
            data = b.get("callback_data")
            if data and (kind is None or data.startswith(kind)):
                out.append(b)
        return out

    def actions(self, message: Shown) -> list[str]:
        return [decode(b["callback_data"]).arg for b in self.buttons(message, "g")]

    def play(self, choose, max_taps: int = 3000) -> Game:
        """Let each human whose turn it is tap what ``choose(table, user, message)`` picks,
        until the game ends."""
        humans = {self.seat_of(u): u for u in self.users}
        while self.taps < max_taps:
            game = self.game()
            if game.status != GameStatus.RUNNING:
                return game
            waiting = [humans[s] for s in self.to_act() if s in humans]
            assert waiting, f"nobody to act in a running game: {self.to_act()}"
            for user in waiting:
                choose(self, user)
        raise AssertionError(f"the game did not end within {max_taps} taps")


def answered_once(table: Table) -> None:
    for query in table.queries:
        table.telegram.answer_to(query)


def felix_table(telegram: FakeTelegram, recorder: Recorder, group: dict | None = None):
    """Anna, Bruno and Carla, each with a private chat open, start a Felix game in
    ``group`` (a new supergroup by default). Returns the table, the game and the users."""
    group = group or telegram.group()
    users = [telegram.user(name) for name in ("Anna", "Bruno", "Carla")]
    for user in users:
        user.start_bot()
    table = Table(telegram, recorder, group, users)
    game = table.open_lobby("felix", users[0], users[1:])
    return table, game, users


def play_out_automatic_moves(table: Table, limit: int = 5000) -> None:
    """Run the timers until the game is over: each sweep plays the forced move whose short
    deadline passed (a table with automatic moves; AUTO_PLAY_SECONDS is 0 in the tests)."""
    for _ in range(limit):
        if table.game().status != GameStatus.RUNNING:
            return
        tasks.sweep()
