"""Issue 46, clause 7: the restore drill. The database is dumped as the nightly backup
does (deploy/backup.sh: pg_dump's custom format), restored with pg_restore into a fresh
database, and there every finished game replays from its move log to its stored state and
result, and a running game goes on from where it was."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.db import connection

from games import catalog
from games.play import services
from games.play.models import Game, GameStatus
from games.play.replay import matches_stored_state, replay
from tests import services as real_services
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.services]

BACKUP = Path(__file__).resolve().parents[2] / "deploy" / "backup.sh"


def libpq_env(name: str) -> dict[str, str]:
    db = connection.settings_dict
    return {
        **os.environ,
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"] or "postgres",
        "PGPASSWORD": db["PASSWORD"] or "",
        "PGDATABASE": name,
    }


def game_with_computers(game_type: str, moves: int | None):
    """A table of one person and two computers, the person playing their first legal
    action ``moves`` times (None: to the end)."""
    anna = PlayerFactory()
    game = services.create_lobby(-100, game_type, anna)
    for _ in range(2):
        services.add_computer(game, by=services.SYSTEM)
    services.start(game, anna)
    rules = catalog.get(game_type).rules
    seat = game.seats.get(player=anna).number
    made = 0
    for i in range(400):
        game.refresh_from_db()
        state = rules.load(game.state)
        if rules.outcome(state) or (moves is not None and made >= moves):
            break
        legal = rules.legal_actions(state, seat)
        if legal:
            services.submit_move(game.pk, anna, legal[0], f"k{i}", game.version)
            made += 1
    game.refresh_from_db()
    return game, anna


@contextlib.contextmanager
def using(name: str):
    """The default connection on database ``name`` for the block."""
    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original


def test_issue_46_restore_drill_replays_finished_games_and_a_running_one_goes_on(
    transactional_db, settings, tmp_path
):
    real_services.require_postgres()
    for tool in ("pg_dump", "pg_restore", "createdb", "dropdb"):
        assert shutil.which(tool), f"needs {tool} (apt-get install postgresql-client)"
    settings.AUTO_PLAY_SECONDS = 0
    finished = [game_with_computers(t, None)[0] for t in ("cats_and_dogs", "felix")]
    assert all(g.status == GameStatus.FINISHED for g in finished)
    running, anna = game_with_computers("cats_and_dogs", 2)
    assert running.status == GameStatus.RUNNING

    # The backup service's own script, once.
    source = connection.settings_dict["NAME"]
    env = {**libpq_env(source), "BACKUP_DIR": str(tmp_path), "BACKUP_ONCE": "1"}
    subprocess.run(["sh", str(BACKUP)], env=env, check=True, timeout=120)
    (dump,) = tmp_path.glob("*.dump")

    restored = f"{source}_restored"
    env = libpq_env("postgres")
    subprocess.run(["dropdb", "--if-exists", restored], env=env, check=True)
    subprocess.run(["createdb", restored], env=env, check=True)
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(dump)],
            env=env,
            check=True,
            timeout=300,
        )
        with using(restored):
            done = Game.objects.filter(status=GameStatus.FINISHED)
            assert done.count() == len(finished)
            for game in done:
                rules = game.kind.rules
                assert matches_stored_state(game), game.pk
                outcome = rules.outcome(replay(game))
                assert outcome, game.pk
                assert game.result["ranks"], game.pk

            game = Game.objects.get(pk=running.pk)
            assert game.version == running.version
            assert matches_stored_state(game)
            rules = game.kind.rules
            seat = game.seats.get(player=anna).number
            before = game.version
            for i in range(50):
                game.refresh_from_db()
                state = rules.load(game.state)
                legal = rules.legal_actions(state, seat)
                if legal:
                    services.submit_move(game.pk, anna, legal[0], f"after-{i}", game.version)
                    break
            game.refresh_from_db()
            assert game.version > before, "the running game did not go on after the restore"
            assert matches_stored_state(game)
    finally:
        subprocess.run(["dropdb", "--if-exists", restored], env=env, check=False)
