"""Hostile clients that send what no page sends: non-finite waits, odd digits, huge numbers, a
forged Mini App signature, names with control characters or a computer's name."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.parse

from bench.abuse.client import Client
from bench.abuse.common import BAD_NAMES, GAME, ODD_NUMBERS, TELEGRAM_BASE


class Forged:
    """The ``malformed`` kind of ``Hostile``."""

    # c) malformed parameters and names
    def malformed(self, h: int, client: Client, rng: random.Random) -> None:
        cases = self.malformed_cases()
        rng.shuffle(cases)  # each client its own order: a slow server still sees every kind
        for n in range(100_000):
            if not self.run.playing():
                return
            cases[n % len(cases)](client, rng)
            self.pause(0.1)

    def malformed_cases(self) -> list:
        cases = []
        for wait in ("nan", "NaN", "inf", "-inf", "-1", "1e309"):
            cases.append(lambda c, rng, wait=wait: self.odd_wait(c, rng, wait))
        for number in ODD_NUMBERS:
            for page, name in (("/games/", "after"), ("/players/", "before")):
                cases.append(lambda c, rng, p=page, q={name: number}: self.odd_page(c, p, q))
            cases.append(
                lambda c, rng, p="/leaderboard/", q={"after": number}: self.odd_page(c, p, q)
            )
            cases.append(lambda c, rng, n=number: self.odd_since(c, rng, n))
        cases += [self.odd_signin, self.odd_header]
        for name in BAD_NAMES:
            cases.append(lambda c, rng, name=name: self.odd_name(c, rng, name))
        return cases

    def odd_wait(self, client: Client, rng: random.Random, wait: str) -> None:
        """A long poll with a wait that is no number of seconds: it must end in time (it
        runs on a thread of its own, two at most per client, so the others go on)."""
        table = self.run.live_tables(rng)
        if table is None:
            return
        token = client.get("malformed", f"/play/{table}/state/").json().get("token", "")
        query = urllib.parse.urlencode({"token": token, "wait": wait})
        with self.tails_lock:
            mine = self.tails.setdefault(id(client), [])
            if sum(t.is_alive() for t in mine) >= 2:
                return
            path = f"/play/{table}/state/?{query}"
            tail = threading.Thread(
                target=self.timed_poll, args=(client, "malformed", path), daemon=True
            )
            mine.append(tail)
        tail.start()

    def all_tails(self) -> list[threading.Thread]:
        with self.tails_lock:
            return [t for mine in self.tails.values() for t in mine]

    def odd_page(self, client: Client, page: str, query: dict) -> None:
        client.get("malformed", f"{page}?{urllib.parse.urlencode(query)}")

    def odd_since(self, client: Client, rng: random.Random, number: str) -> None:
        table = self.run.live_tables(rng)
        if table is not None:
            query = urllib.parse.urlencode({"format": "json", "since": number})
            client.get("malformed", f"/games/{table}/?{query}")

    @staticmethod
    def init_data_with_odd_hash() -> str:
        user = json.dumps({"id": TELEGRAM_BASE + 999, "first_name": "Mallory"})
        fields = {"user": user, "auth_date": str(int(time.time()))}
        return urllib.parse.urlencode({**fields, "hash": "é" * 64})

    def odd_signin(self, client: Client, rng: random.Random) -> None:
        client.post("malformed", "/play/tg/signin/", {"init_data": self.init_data_with_odd_hash()})

    def odd_header(self, client: Client, rng: random.Random) -> None:
        table = self.run.live_tables(rng)
        if table is not None:
            headers = {"X-Telegram-Init-Data": self.init_data_with_odd_hash()}
            client.get("malformed", f"/play/{table}/state/?wait=0", headers=headers)

    def odd_name(self, client: Client, rng: random.Random, name: str) -> None:
        client.fresh()  # a new player each time (a session's player is renamed instead)
        fields = {"game": GAME, "name": name, "computers": 0, "friends": "1"}
        client.post("malformed", "/play/new/", fields)
