"""The abuse bench's short form, as CI runs it (issue 25): twenty people play while twenty
hostile clients abuse the site for 20 s, on the embedded default and on PostgreSQL + Redis,
with no server error and no hostile success (``bench/abuse.py`` judges each by its effects;
this test holds it to its word)."""

import io
import re
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import abuse
from tests import services


def short_form(backend: str) -> str:
    out = io.StringIO()
    try:
        call_command(abuse.Command(stdout=out), "--backend", backend, "--seconds", "20")
    except CommandError as exc:
        pytest.fail(f"{exc}\n{out.getvalue()}")
    finally:
        print(out.getvalue())  # the figures, for the CI log
    return out.getvalue()


def check(report: str, backend: str) -> None:
    assert report.rstrip().endswith("abuse: OK"), report
    line = re.search(rf"abuse backend={backend} (.*)", report).group(1)
    figures = dict(re.findall(r"(\w+)=(\d+)", line))
    assert int(figures["clicks"]) > 0, line  # the people played
    assert figures["server_errors"] == "0" and figures["hostile_successes"] == "0", line
    hostile = re.search(rf"abuse backend={backend} requests .* hostile (.*)", report).group(1)
    assert set(dict(re.findall(r"(\w+)=(\d+)", hostile))) == set(abuse.HOSTILE_KINDS), hostile


# The bench reads the server's database through a connection of its own: database access
# must be allowed.
@pytest.mark.django_db(transaction=True)
def test_abuse_short_form_on_the_embedded_default():
    check(short_form("embedded"), "embedded")


@pytest.mark.django_db(transaction=True)
def test_abuse_short_form_with_postgresql_and_redis(postgres, redis_url):
    if shutil.which("redis-server") is None:
        services.unavailable("the bench runs its own Redis: needs the redis-server binary")
    check(short_form("services"), "services")
