"""The post-game review's bench (issue 27): one line of cost per game kind."""

from bench import review


def test_the_bench_prints_the_review_time_per_game(capsys):
    """Issue 27: ``python -m bench review`` prints p50/p95 review seconds per game."""
    review.main(["felix", "--games", "1", "--scale", "0.02"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("felix players=4 games=1 decisions/game=")
    assert "review_s/game p50=" in lines[0] and " p95=" in lines[0]
    assert lines[1].startswith("felix graded/game inaccuracy=")
