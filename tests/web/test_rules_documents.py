"""The rules documents: every language has the same clauses, in the same order, and every
interpretation in the catalog belongs to a clause that exists."""

import pytest

from games import art, catalog
from games import rules as documents

LANGUAGES = ("en", "it", "pt")
SLUGS = [kind.slug for kind in catalog.all_games()]


def test_every_game_has_its_rules_in_every_language():
    for slug in SLUGS:
        assert documents.languages(slug) == sorted(LANGUAGES), slug


@pytest.mark.parametrize("slug", SLUGS)
def test_every_language_has_the_same_clause_ids_in_the_same_order(slug):
    english = documents.document(slug, "en")
    assert len(english.ids()) == len(set(english.ids())), "a clause ID twice"
    for language in LANGUAGES:
        doc = documents.document(slug, language)
        assert doc.language == language
        assert doc.ids() == english.ids(), language
        assert [c.sub for c in doc.clauses()] == [c.sub for c in english.clauses()]
        assert len(doc.sections) == len(english.sections)
        assert doc.title and doc.tagline and doc.intro


@pytest.mark.parametrize("slug", SLUGS)
def test_the_interpretations_are_marked_on_the_same_clauses_in_every_language(slug):
    marked = {
        language: [c.id for c in documents.document(slug, language).clauses() if c.mark]
        for language in LANGUAGES
    }
    assert marked["it"] == marked["en"] and marked["pt"] == marked["en"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_interpretation_in_the_catalog_sits_beside_an_existing_clause(slug):
    ids = documents.document(slug, "en").ids()
    for clause, _text in catalog.get(slug).interpretations:
        assert clause in ids, (
            f"{slug}: the catalog interprets {clause}, the rules have no such clause"
        )


def test_the_pictures_name_existing_clauses_and_cards():
    for kind in catalog.all_games():
        ids = documents.document(kind.slug, "en").ids()
        for clause, codes in kind.pictures.items():
            assert clause in ids, (kind.slug, clause)
            assert set(codes) <= set(art.codes(kind.slug)), (kind.slug, clause)
        assert kind.cover in art.codes(kind.slug)


def test_a_language_without_a_document_reads_english_and_a_game_without_one_has_none():
    assert documents.document("felix", "de").language == "en"
    assert documents.document("felix", "pt-br").language == "pt"
    assert documents.document("no_such_game", "en") is None


def test_a_clause_outside_a_section_is_refused():
    with pytest.raises(documents.MalformedRules):
        documents.parse("# Game\n- X1. A clause before any section.\n")


def test_an_interpretation_is_kept_apart_from_the_rule_it_fills():
    doc = documents.parse(
        "# Game\n> In one line.\n\n## Part\n- X1. The rule.\n  **Interpretation**: what we"
        " decided.\n  - X1a. A sub-clause.\n"
    )
    first, second = doc.clauses()
    assert (first.text, first.mark, first.interpretation) == (
        "The rule.",
        "Interpretation",
        "What we decided.",
    )
    assert second.id == "X1a" and second.sub and not second.mark
    assert doc.tagline == "In one line."
