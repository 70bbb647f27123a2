"""``python -m bench abuse``: both backends, one after the other; the report."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from bench.abuse.common import BACKENDS, HOSTILE_KINDS, OVERRUN, Run
from bench.abuse.hostile import Hostile
from bench.abuse.people import People
from bench.abuse.report import (
    applied_after,
    click_parts,
    counts,
    hostile_costs,
    judge,
    seed_telegram_lobbies,
)
from bench.abuse.sites import Embedded, Probe, Production, connect, disconnect
from bench.harness.stats import interpolated as percentile


class Command(BaseCommand):
    help = "People play while hostile clients abuse the site; report what got through."

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=60, help="time the clients run")
        parser.add_argument("--people", type=int, default=20, help="people playing normally")
        parser.add_argument("--hostile", type=int, default=20, help="hostile clients")
        parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
        parser.add_argument(
            "--kinds",
            default=",".join(HOSTILE_KINDS),
            help="the hostile clients' kinds, comma-separated (to see which one hurts)",
        )

    def handle(self, *args, **opts):
        backends = BACKENDS if opts["backend"] == "both" else (opts["backend"],)
        opts["kinds"] = [k for k in opts["kinds"].split(",") if k]
        unknown = set(opts["kinds"]) - set(HOSTILE_KINDS)
        if unknown or not opts["kinds"]:
            raise CommandError(f"--kinds: choose among {', '.join(HOSTILE_KINDS)}")
        if "services" in backends and (
            connection.vendor != "postgresql" or shutil.which("redis-server") is None
        ):
            raise CommandError(
                "the services backend needs PostgreSQL (DATABASE_URL, e.g. postgres://"
                "postgres@127.0.0.1:5432/catclub) and redis-server on the PATH;"
                " --backend embedded runs without them."
            )
        failed = []
        for backend in backends:
            if not self.run_backend(backend, opts):
                failed.append(backend)
        if failed:
            raise CommandError(f"abuse: FAILED on {', '.join(failed)}")
        self.stdout.write("abuse: OK")

    def run_backend(self, backend: str, opts) -> bool:
        log_dir = Path(tempfile.mkdtemp(prefix=f"catclub-abuse-{backend}-"))
        site = Embedded(log_dir) if backend == "embedded" else Production(log_dir)
        try:
            site.start()
            connect(site.database_url)
            try:
                run = Run(backend, site.base, time.monotonic() + opts["seconds"], site.live)
                seed_telegram_lobbies(run)
                ok = self.play(run, site, opts)
            finally:
                disconnect()
        finally:
            site.stop()
        if ok:
            shutil.rmtree(log_dir, ignore_errors=True)
        else:
            self.stdout.write(f"abuse backend={backend} logs in {log_dir}")
        return ok

    def play(self, run: Run, site, opts) -> bool:
        hostile = Hostile(run, opts["hostile"], opts["kinds"])
        threads = People(run, opts["people"]).threads() + hostile.threads()
        probe = Probe(run, site).thread()
        cpu = time.process_time()  # the bench's own, to keep it modest beside the server's
        for thread in [probe, *threads]:
            thread.start()
        while run.playing():
            time.sleep(0.5)
        run.stop.set()
        run.bench_cpu = time.process_time() - cpu
        # In-flight requests end within their timeouts; none is longer than this.
        finish = time.monotonic() + OVERRUN + 10
        for thread in [probe, *threads, *hostile.all_tails()]:
            thread.join(max(0.1, finish - time.monotonic()))
        dead = site.dead()
        judge(run)
        return self.report(run, dead)

    def report(self, run: Run, dead: list[str]) -> bool:
        tally = run.tally
        clicks, waits = tally.clicks, run.lock_waits
        errors = sum(tally.server_errors.values())
        successes = sum(tally.successes.values())
        out = self.stdout.write
        prefix = f"abuse backend={run.backend}"
        out(
            f"{prefix} normal_p50_ms={percentile(clicks, 50):.0f}"
            f" normal_p95_ms={percentile(clicks, 95):.0f} clicks={len(clicks)}"
            f" server_errors={errors} refused={sum(tally.refused.values())}"
            f" hostile_successes={successes}"
            f" lock_wait_max_ms={max(waits, default=0):.0f}"
            f" lock_wait_p95_ms={percentile(waits, 95):.0f}"
        )
        normal = sum(n for (side, _k), n in tally.requests.items() if side == "normal")
        hostile = Counter({k: n for (side, k), n in tally.requests.items() if side == "hostile"})
        out(f"{prefix} requests normal={normal} hostile {counts(hostile)}")
        out(f"{prefix} server_errors_by_path {counts(tally.server_errors)}")
        out(f"{prefix} refused_by_kind {counts(tally.refused)}")
        out(f"{prefix} hostile_successes_by_kind {counts(tally.successes)}")
        for example in tally.examples:
            out(f"{prefix} hostile_success {example}")
        no_answer = Counter({f"{side}:{path}": n for (side, path), n in tally.no_answer.items()})
        out(f"{prefix} no_answer {counts(no_answer)}")
        out(f"{prefix} normal_refused_by_path {counts(tally.normal_refused)}")
        # Where a person's time goes: the server's answers, by path (a stream: until its
        # headers; a long poll: its whole wait).
        answers = " ".join(
            f"{path}={percentile([t * 1000 for t in times], 95):.0f}"
            for path, times in sorted(tally.normal_seconds.items())
        )
        out(f"{prefix} normal_answer_p95_ms_by_path {answers or '-'}")
        waited = applied_after(run)
        out(
            f"{prefix} normal_move_applied_after_ms p50={percentile(waited, 50):.0f}"
            f" p95={percentile(waited, 95):.0f} moves={len(waited)}"
        )
        parts = " ".join(
            f"{part}={percentile(ms, 50):.0f}/{percentile(ms, 95):.0f}"
            for part, ms in click_parts(run).items()
        )
        out(f"{prefix} normal_click_parts_ms_p50/p95 {parts}")
        out(
            f"{prefix} {hostile_costs(run)} normal_tables={len(run.normal_tables)}"
            f" lock_probe_samples={len(waits)} lock_probe_failures={run.probe_failures}"
            f" bench_cpu_s={run.bench_cpu:.1f}"
        )
        if dead:
            out(f"{prefix} died: {', '.join(dead)}")
        return not errors and not successes and bool(clicks) and not dead
