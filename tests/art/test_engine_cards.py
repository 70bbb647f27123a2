"""The art covers every card an engine can show: random games are played with each
engine's ``RULES`` and every card code found in any seat's view must have art."""

from __future__ import annotations

import random

import pytest

from games import art, catalog

SEEDS = range(6)
MAX_STEPS = 1500  # enough to see every card; Smoking Cat's match word runs much longer


def felix_cards(view: dict) -> set[str]:
    cards = {c for c in view["row"] if c is not None} | set(view["discarded"])
    cards |= {f"mouse:{number}" for number, _on in view["mouse_cards"]}
    cards.add("sack")  # the table always shows the cat-in-the-sack card
    if "hand" in view:
        cards |= set(view["hand"]) | set(view["score_pile"]) | {view["missing"]}
        if view["my_card"] is not None:
            cards.add(view["my_card"])
    return cards


def smoking_cat_cards(view: dict) -> set[str]:
    cards = {c for _seat, c in view["trick"]} | {c for _seat, c in view["last_trick"]}
    if "hand" in view:
        cards |= set(view["hand"]) | set(view["passed_cards"]) | set(view["received"] or ())
    return cards


def bon_appetit_cards(view: dict) -> set[str]:
    return set(view["common"])


def cats_and_dogs_cards(view: dict) -> set[str]:
    cards = set(view["discard"]) | ({view["drawn"]} if view["drawn"] else set())
    for animal in view["animals"]:
        cards.add(f"animal:{animal['id']}")
        cards |= set(animal["food"])
    return cards | set(view.get("hand", ()))


SEEN = {
    "felix": felix_cards,
    "smoking_cat": smoking_cat_cards,
    "bon_appetit": bon_appetit_cards,
    "cats_and_dogs": cats_and_dogs_cards,
}


def play(slug: str, seed: int, n_players: int) -> set[str]:
    rules = catalog.get(slug).rules
    rng = random.Random(seed)
    state = rules.setup(n_players, seed)
    seen: set[str] = set()
    for _step in range(MAX_STEPS):
        for seat in [None, *range(n_players)]:
            seen |= SEEN[slug](rules.view(state, seat))
        acting = rules.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    return seen


@pytest.mark.parametrize("slug", art.GAMES)
def test_every_card_an_engine_shows_has_art(slug):
    rules = catalog.get(slug).rules
    seen: set[str] = set()
    for seed in SEEDS:
        for n in range(rules.min_players, rules.max_players + 1):
            seen |= play(slug, seed, n)
    missing = seen - set(art.codes(slug))
    assert not missing, f"{slug}: no art for {sorted(missing)}"
    # And the other way round: the deck draws no card that the games never show.
    unused = set(art.codes(slug)) - seen
    assert not unused, f"{slug}: art for cards no view showed: {sorted(unused)}"


def test_the_decks_match_the_engines_card_lists():
    from games.kinds.bon_appetit import engine as bon_appetit
    from games.kinds.cats_and_dogs.data import ACTION_CARDS, ANIMALS, food_deck
    from games.kinds.felix import engine as felix
    from games.kinds.smoking_cat import engine as smoking_cat

    assert set(felix.SET) <= set(art.codes("felix"))
    assert art.codes("smoking_cat") == list(smoking_cat.CODES)  # 32 cards, engine order
    assert set(art.codes("bon_appetit")) == set(bon_appetit.CARD_NAMES.values())
    expected = {f"animal:{i}" for i in range(len(ANIMALS))} | set(food_deck())
    expected |= {card.code for card in ACTION_CARDS}
    assert set(art.codes("cats_and_dogs")) == expected


def test_cats_and_dogs_animals_show_their_names():
    from games.kinds.cats_and_dogs.data import ANIMALS

    for i, animal in enumerate(ANIMALS):
        assert f">{animal.name}</text>" in art.card_svg("cats_and_dogs", f"animal:{i}", "x")
