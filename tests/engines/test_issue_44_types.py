"""Issue 44 (item 5): each game's view is exactly its TypedDict, and its one action parser
reads back every action the engine offers.

A small checker walks a view against the type's hints: every required key present, no key
the type lacks, each value of its declared type (nested TypedDicts, lists, unions,
``None``). Views of random play states, public and each seat's, from the first move to
the end, so a key the engine adds or renames without its type fails here.
"""

from __future__ import annotations

import importlib
import random
import types
import typing
from typing import Any, Literal, NotRequired, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from games.engines import IllegalAction

GAMES = {
    "bon_appetit": "BonAppetitView",
    "cats_and_dogs": "CatsAndDogsView",
    "felix": "FelixView",
    "smoking_cat": "SmokingCatView",
}
GAMES_PER_KIND = 5
MAX_STEPS = 600


def _problems(value: Any, hint: Any, where: str) -> list[str]:
    """Why ``value`` is not of type ``hint`` (empty when it is)."""
    if hint is Any:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {hint.__name__}"]
        return _typeddict_problems(value, hint, where)
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_problems(value, option, where) for option in get_args(hint)]
        return [] if any(not p for p in options) else [f"{where}: {value!r} is not {hint}"]
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} is not {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        (item,) = get_args(hint)
        return [p for i, v in enumerate(value) for p in _problems(v, item, f"{where}[{i}]")]
    # bool is an int to isinstance; a view's int is never a bool, and the reverse.
    if hint is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]


def _typeddict_problems(value: dict[str, Any], td: Any, where: str) -> list[str]:
    hints = get_type_hints(td, include_extras=True)
    problems = [f"{where}: {key!r} is not in {td.__name__}" for key in value if key not in hints]
    for key, hint in hints.items():
        optional = get_origin(hint) is NotRequired
        if optional:
            (hint,) = get_args(hint)
        if key not in value:
            if not optional:
                problems.append(f"{where}: {td.__name__}'s {key!r} is missing")
            continue
        problems += _problems(value[key], hint, f"{where}.{key}")
    return problems


def check_view(view: Any, td: Any) -> list[str]:
    return _problems(view, td, "view")


def _game(slug: str) -> tuple[Any, Any]:
    rules = importlib.import_module(f"games.kinds.{slug}.engine").RULES
    typed = importlib.import_module(f"games.kinds.{slug}.types")
    return rules, typed


def _random_states(rules: Any, seed: int):
    """Each state of one random game, with the actions legal there (seat, legal)."""
    rng = random.Random(seed)
    n = rng.randint(rules.min_players, rules.max_players)
    state = rules.setup(n, seed)
    for _ in range(MAX_STEPS):
        acting = rules.to_act(state)
        yield state, n, [(seat, rules.legal_actions(state, seat)) for seat in acting]
        if not acting:
            return
        seat = rng.choice(acting)
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_issue_44_views_are_their_typed_dict(slug):
    rules, typed = _game(slug)
    td = getattr(typed, GAMES[slug])
    ended = 0
    for seed in range(GAMES_PER_KIND):
        for state, n, _legal in _random_states(rules, seed):
            for seat in (None, *range(n)):
                problems = check_view(rules.view(state, seat), td)
                assert not problems, (slug, seed, seat, problems[:5])
        ended += rules.outcome(state) is not None
    assert ended, "no random game ended: the final views went unchecked"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_issue_44_one_parser_round_trips_every_legal_action(slug):
    rules, typed = _game(slug)
    seen = set()
    for seed in range(GAMES_PER_KIND):
        for _state, _n, legal in _random_states(rules, seed):
            for _seat, actions in legal:
                seen.update(actions)
    # And the whole action space, where the game has a fixed one (search).
    seen.update(getattr(importlib.import_module(f"games.kinds.{slug}.engine"), "ACTIONS", ()))
    for action in seen:
        assert str(typed.parse_action(action)) == action


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("text", ["", "nonsense", ":", "flip:1", "bid:x", "bid:07", "mark:a"])
def test_issue_44_parser_refuses_what_no_action_is(slug, text):
    _rules, typed = _game(slug)
    legal = set(getattr(importlib.import_module(f"games.kinds.{slug}.engine"), "ACTIONS", ()))
    if text in legal:
        return
    with pytest.raises(IllegalAction):
        typed.parse_action(text)


def test_issue_44_checker_catches_drift():
    """The checker itself: a missing key, an extra key and a wrong type each fail."""
    rules, typed = _game("felix")
    view = dict(rules.view(rules.setup(3, 1), 0))
    assert check_view(view, typed.FelixView) == []
    assert check_view({**view, "extra": 1}, typed.FelixView)
    assert check_view({k: v for k, v in view.items() if k != "bank"}, typed.FelixView)
    assert check_view({**view, "bank": "many"}, typed.FelixView)
    assert check_view({**view, "row": [1]}, typed.FelixView)
