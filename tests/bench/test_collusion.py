"""Issue 48: ``python -m bench collusion`` prints its one line."""

import re

from bench import collusion


def test_issue_48_the_bench_prints_false_alarms_and_the_planted_pair(capsys):
    collusion.main(["--honest", "300", "--planted", "60", "--pool", "12"])
    line = capsys.readouterr().out.strip()
    found = re.fullmatch(
        r"collusion honest_games=300 false_alarm_pairs=(\d+) planted_flagged=(yes|no) "
        r"seconds_per_100k=(\d+\.\d\d)",
        line,
    )
    assert found, line
    assert found.group(1) == "0" and found.group(2) == "yes"
