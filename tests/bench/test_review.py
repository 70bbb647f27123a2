"""The post-game review's bench (issues 27, 47): one line of cost per game kind."""

import pytest

from bench import review


def test_the_bench_prints_the_review_time_per_game(capsys):
    """Issue 27: ``python -m bench review`` prints p50/p95 review seconds per game."""
    review.main(["felix", "--games", "1", "--scale", "0.02"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("review felix players=4 games=1 decisions/game=")
    assert " p50_s=" in lines[0] and " p95_s=" in lines[0]
    assert lines[1].startswith("review felix graded/game inaccuracy=")


def test_issue_47_the_line_names_the_goal_and_whether_the_p95_meets_it():
    line = review.lines("felix", [(12.0, ["", "blunder"]), (31.5, ["mistake"])])[0]
    assert line == (
        "review felix players=4 games=2 decisions/game=2"
        " p50_s=12.0 p95_s=31.5 max_s=31.5 goal_s=30 over"
    )
    assert review.lines("felix", [(29.9, [""])])[0].endswith(" goal_s=30 ok")


def test_issue_47_games_reviewed_in_processes_give_the_serial_lines(capsys):
    """``--jobs``: the same games and grades whichever process reviewed them (the
    seconds differ, the rest does not)."""
    args = ["felix", "--games", "2", "--scale", "0.01", "--max-decisions", "3"]
    review.main([*args, "--jobs", "1"])
    serial = capsys.readouterr().out.splitlines()
    review.main([*args, "--jobs", "2"])
    parallel = capsys.readouterr().out.splitlines()

    def shape(line):
        return [w for w in line.split() if not w.split("=")[0].endswith("_s")][:5]

    assert [shape(x) for x in parallel] == [shape(x) for x in serial]
    assert parallel[1] == serial[1]


def test_issue_47_an_unknown_game_is_refused():
    with pytest.raises(SystemExit):
        review.main(["no_such_game"])
