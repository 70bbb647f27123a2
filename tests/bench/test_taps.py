"""The taps bench's short form, as CI runs it (issue 25): on the embedded default (SQLite,
tasks in the process), four people tapping as fast as they can in each of the four games
are all answered, within a second at the 99th percentile (``bench/taps.py`` checks)."""

import io
import re

from django.core.management import call_command

from bench import taps


def test_every_tap_is_answered_within_a_second_on_the_embedded_default():
    out = io.StringIO()
    try:
        call_command(taps.Command(stdout=out), "--minutes", "0.34", "--seed", "25")
    finally:
        print(out.getvalue())  # the figures, for the CI log
    report = out.getvalue()
    assert report.rstrip().endswith("taps: OK"), report
    for slug in (*taps.SLUGS, "overall"):
        line = re.search(rf"taps {slug} taps=(\d+) .* unanswered=(\d+)", report)
        assert line and int(line.group(1)) > 0 and line.group(2) == "0", slug
