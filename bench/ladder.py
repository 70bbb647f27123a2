"""The computers' ladder on the rating scale: ``python -m bench ladder [options] [slug ...]``.

For each game and table size it plays new pairings, each level against a table of the
level below alone (``bench.arena``: the hero's seat rotates, every game its own seed),
appends them to the measured data (``games/computers/ladder/pairings.jsonl``: command,
seeds, games, result, decision times, CPU seconds), refits every level's rating from all
the data so far with the site's own rating model (``games.computers.ladder.fit``; normal
anchored at a newcomer's 1500), writes the fit (``ratings.json``, which the site shows) and
prints one line per level::

    ladder <slug> players=<n> level=<k> rating=<x> ci95=<lo>-<hi> beats_below=<pct>% \
        name=<level> games=<N>
    ladder <slug> players=<n> time <level> decisions=<N> p50_ms=<x> p95_ms=<y> cap_ms=<z>

``beats_below`` is the win share against the level below at a table of that level alone
(fair: 1/n); the time lines are CPU time of one core per decision, from the data.
A pairing's seeds continue from the games already recorded for it, so runs add up.
``--short`` (CI) plays one game per pairing at the usual table size and records nothing;
``--fit`` only refits and prints; ``--ismcts`` also seats OpenSpiel's IS-MCTS (optional)
at hard's measured CPU time per decision against hard, as an outside anchor.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from datetime import UTC, datetime

from bench import arena
from games import catalog
from games.computers import LADDER
from games.computers import ladder as data
from games.computers.ladder.fit import Scale, beats_below, fit
from games.computers.search import DEFAULT_BUDGET
from games.ratings.display import CENTRE, POINTS_PER_UNIT
from games.ratings.maths import MODEL

SUMMARY = "the computers' levels on the rating scale: rating, ci95, share against the one below"
SCALE = Scale(beta=MODEL.beta, centre=CENTRE, points_per_unit=POINTS_PER_UNIT)


def laddered() -> list[str]:
    """The games whose computers have the whole ladder."""
    return [k.slug for k in catalog.all_games() if set(LADDER) <= set(k.strategies())]


def load() -> list[dict]:
    if not data.PAIRINGS.exists():
        return []
    return [json.loads(line) for line in data.PAIRINGS.read_text().splitlines() if line]


def next_first(records: list[dict], slug: str, n: int, hero: str, opponent: str) -> int:
    """The first game number after every recorded game of this pairing (fresh seeds)."""
    return max(
        (
            r["first"] + r["games"]
            for r in records
            if (r["game"], r["players"], r["hero"], r["opponent"]) == (slug, n, hero, opponent)
        ),
        default=0,
    )


def measure(
    slug: str, n: int, hero: str, opponent: str, games: int, first: int, jobs: int, command: str
):
    """Play one pairing; its record."""
    start = time.process_time(), time.time()
    t = arena.table(slug, n, hero, opponent, games, jobs, first)
    cpu = time.process_time() - start[0]
    times = {
        kind: {
            "decisions": len(ts),
            "p50_ms": round(arena.percentile(ts, 50) * 1e3, 2),
            "p95_ms": round(arena.percentile(ts, 95) * 1e3, 2),
            "max_ms": round(max(ts, default=0) * 1e3, 2),
        }
        for kind, ts in t["times"].items()
    }
    return {
        "game": slug,
        "players": n,
        "hero": hero,
        "opponent": opponent,
        "first": first,
        "games": t["games"],
        # arena: game i is seeded 10_000 + i, the hero at seat i % n
        "seeds": [10_000 + first, 10_000 + first + t["games"] - 1],
        "wins": round(t["win"] * t["games"], 4),
        # the search levels' playouts at this size: a level redefined later is told apart
        "playouts": playouts(slug, n, (hero, opponent)),
        "times": times,
        # the arena's own processes' CPU (jobs > 1: the wall time times the jobs, at most)
        "cpu_s": round(cpu if jobs == 1 else (time.time() - start[1]) * jobs, 1),
        "command": command,
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def playouts(slug: str, n: int, kinds: tuple[str, ...]) -> dict[str, int]:
    """Each searching kind's playouts per decision at a table of ``n``."""
    found = catalog.get(slug).strategies()
    counts = {}
    for kind in kinds:
        player = found.get(kind)
        if hasattr(player, "playouts"):
            counts[kind] = int(player.playouts({"n_players": n}))
    return counts


def lines(records: list[dict], slug: str, n: int) -> list[str]:
    records = [r for r in records if r["game"] == slug]
    rated = fit(records, n, LADDER, SCALE)
    out = []
    for k, level in enumerate(LADDER, 1):
        r = rated.get(level)
        below = LADDER[k - 2] if k > 1 else None
        share, games = beats_below(records, n, level, below) if below else (float("nan"), 0)
        shown = "-" if share != share else f"{share:.1%}"  # nan: not measured
        if r is None:
            out.append(
                f"ladder {slug} players={n} level={k} rating=- ci95=- beats_below={shown}"
                f" name={level} games={games}"
            )
            continue
        out.append(
            f"ladder {slug} players={n} level={k} rating={r.rating} ci95={r.lo}-{r.hi}"
            f" beats_below={shown} name={level} games={games}"
        )
    for level in ("strong", "hard"):
        ts = [
            r["times"][level]
            for r in records
            if r["game"] == slug and r["players"] == n and level in r["times"]
        ]
        if ts:
            big = max(ts, key=lambda t: t["decisions"])
            decisions = sum(t["decisions"] for t in ts)
            out.append(
                f"ladder {slug} players={n} time {level} decisions={decisions}"
                f" p50_ms={big['p50_ms']} p95_ms={max(t['p95_ms'] for t in ts)}"
                f" cap_ms={DEFAULT_BUDGET * 1e3:.0f}"
            )
    return out


def refit(records: list[dict]) -> dict:
    """Every game's and table size's fit, as ``ratings.json`` keeps it."""
    out: dict = {}
    for slug, n in sorted({(r["game"], r["players"]) for r in records}):
        rated = fit([r for r in records if r["game"] == slug], n, LADDER, SCALE)
        if rated:
            out.setdefault(slug, {})[str(n)] = {
                lv: [rated[lv].rating, rated[lv].lo, rated[lv].hi] for lv in LADDER if lv in rated
            }
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench ladder", description=__doc__.splitlines()[0]
    )
    parser.add_argument("slugs", nargs="*", help="default: every game with the whole ladder")
    parser.add_argument("--players", type=int, nargs="*", default=[], help="table sizes")
    parser.add_argument("--games", type=int, default=20, help="new games per pairing")
    parser.add_argument(
        "--levels",
        nargs="*",
        default=list(LADDER[1:]),
        help="the heroes to measure (each against the level below)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="1 game a pairing, nothing kept")
    parser.add_argument("--fit", action="store_true", help="refit and print, play nothing")
    parser.add_argument("--ismcts", action="store_true", help="hard against OpenSpiel's IS-MCTS")
    args = parser.parse_args(argv)
    slugs = args.slugs or laddered()
    records = load()
    new: list[dict] = []
    command = "python -m bench ladder " + shlex.join(argv)
    if not args.fit:
        for slug in slugs:
            sizes = args.players or (
                [catalog.get(slug).table_players] if args.short else default_sizes(slug)
            )
            for n in sizes:
                pairs = [(h, LADDER[LADDER.index(h) - 1]) for h in args.levels if LADDER.index(h)]
                if args.ismcts:
                    pairs.append(("hard", f"openspiel_ismcts@{ismcts_budget(records, slug, n)}"))
                for hero, opponent in pairs:
                    games = 1 if args.short else args.games
                    first = next_first(records + new, slug, n, hero, opponent)
                    record = measure(slug, n, hero, opponent, games, first, args.jobs, command)
                    new.append(record)
                    if not args.short:
                        with data.PAIRINGS.open("a") as f:
                            f.write(json.dumps(record, sort_keys=True) + "\n")
                    print(
                        f"ladder {slug} players={n} pairing {hero} vs {opponent}"
                        f" games={record['games']} wins={record['wins']}"
                        f" cpu_s={record['cpu_s']}",
                        flush=True,
                    )
    everything = records + new
    if not args.short:
        data.RATINGS.write_text(json.dumps(refit(everything), indent=1, sort_keys=True) + "\n")
    for slug in slugs:
        for n in sorted({r["players"] for r in everything if r["game"] == slug}):
            for line in lines(everything, slug, n):
                print(line, flush=True)
    cpu = sum(r["cpu_s"] for r in everything)
    print(
        f"ladder cpu_hours={cpu / 3600:.2f} pairings={len(everything)}"
        f" games={sum(r['games'] for r in everything)}"
    )


def default_sizes(slug: str) -> list[int]:
    """The smallest, the usual and the largest table of a game (the catalog's)."""
    kind = catalog.get(slug)
    return sorted({kind.rules.min_players, kind.table_players, kind.rules.max_players})


def ismcts_budget(records: list[dict], slug: str, n: int) -> float:
    """IS-MCTS gets hard's median CPU time per decision (as measured), or 0.05 s."""
    ts = [
        r["times"]["hard"]["p50_ms"]
        for r in records
        if r["game"] == slug and r["players"] == n and "hard" in r["times"]
    ]
    return round(max(ts) / 1e3, 3) if ts else arena.OPENSPIEL_BUDGET


if __name__ == "__main__":
    main(sys.argv[1:])
