"""The web table bench's tap count (issue 45): a tap is each click a person makes, a
decision each choice among what the page offers; a forced move and a step with one way on
take none, and Confirm counts with the choice it confirms."""

import random

from bench.table import tap_through


def test_issue_45_the_bench_counts_the_taps_a_person_makes():
    decisions: list[int] = []
    one_tap = {"tree": {"animal:0": {"a": "mark:0"}, "animal:2": {"a": "mark:2"}}, "auto": ""}
    assert tap_through(one_tap, random.Random(1), decisions) in ("mark:0", "mark:2")
    assert decisions == [1]
    forced = {"tree": {"pile": {"a": "draw"}}, "auto": "draw"}
    assert tap_through(forced, random.Random(1), decisions) == "draw"
    assert decisions == [1]
    # A card, then its only target (taken by the page), then Confirm: one decision, 2 taps.
    card = {"hand:clean": {"n": {"animal:3": {"a": "clean:3", "c": 1}}}}
    assert tap_through({"tree": card, "auto": ""}, random.Random(1), decisions) == "clean:3"
    assert decisions == [1, 2]
    # A card, then one of two targets, then Confirm: two decisions, 1 and 2 taps.
    two = {
        "hand:clean": {
            "n": {"animal:3": {"a": "clean:3", "c": 1}, "animal:1": {"a": "clean:1", "c": 1}}
        }
    }
    tap_through({"tree": two, "auto": ""}, random.Random(1), decisions)
    assert decisions == [1, 2, 1, 2]
