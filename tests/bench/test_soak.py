"""The fault soak's short form, as CI runs it (issue 16): twenty games played through the
bot while every kind of fault strikes at least once, with nothing lost, nothing applied
twice and every tap answered (``bench/soak.py`` checks; this test holds it to its word)."""

import io
import re
import shutil

import pytest
from django.core.management import call_command

from bench import soak
from tests import services


@pytest.mark.django_db(transaction=True)  # the soak's processes must see the committed rows
def test_soak_short_form_loses_no_move_applies_none_twice_and_answers_every_tap(postgres):
    if shutil.which("redis-server") is None:
        services.unavailable("the soak runs its own Redis: needs the redis-server binary")
    out = io.StringIO()
    try:
        call_command(soak.Command(stdout=out), "--games", "20", "--minutes", "1.5", "--seed", "16")
    finally:
        print(out.getvalue())  # the figures (and any violation), for the CI log
    report = out.getvalue()
    assert report.rstrip().endswith("soak: OK"), report
    games = int(re.search(r"soak games=(\d+)", report).group(1))
    assert games >= 20
    faults = dict(re.findall(r"(\w+)=(\d+)", re.search(r"soak faults (.*)", report).group(1)))
    assert set(faults) == set(soak.FAULTS) and all(int(n) >= 1 for n in faults.values())
    for figure in ("tap_to_answer_ms", "tap_to_table_edit_ms"):
        assert re.search(rf"soak {figure} p50=\d+ p95=\d+ p99=\d+", report), figure
    assert int(re.search(r"human_applied=(\d+)", report).group(1)) > 0
    assert int(re.search(r"429_sent=(\d+)", report).group(1)) > 0
