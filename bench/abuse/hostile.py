"""The hostile clients: each of ``HOSTILE_KINDS`` by index, with its own session and address."""

from __future__ import annotations

import random
import threading

from bench.abuse.client import Client
from bench.abuse.common import Run
from bench.abuse.floods import Floods
from bench.abuse.forged import Forged
from bench.abuse.takeover import Takeover


class Hostile(Floods, Forged, Takeover):
    """The hostile clients: ``kind`` by index, each with its own session and address; each
    kind is a method of one of the classes it is made of, one module per kind."""

    def __init__(self, run: Run, count: int, kinds: list[str]):
        self.run = run
        self.count = count
        self.kinds = kinds
        # The odd long polls each malformed client left running, by client.
        self.tails: dict[int, list[threading.Thread]] = {}
        self.tails_lock = threading.Lock()

    def threads(self) -> list[threading.Thread]:
        return [
            threading.Thread(target=self.live, args=(h,), name=f"hostile-{h}", daemon=True)
            for h in range(self.count)
        ]

    def live(self, h: int) -> None:
        kind = self.kinds[h % len(self.kinds)]
        client = Client(self.run, "hostile", f"10.66.{h // 250}.{h % 250 + 1}")
        rng = random.Random(1000 + h)
        getattr(self, kind)(h, client, rng)

    def pause(self, seconds: float) -> None:
        self.run.stop.wait(seconds)
