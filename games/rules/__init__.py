"""Each game's full rules, as players read them on the site, in every language.

The rules are documents, not code: ``rules/<language>.md`` in each game's package
(``games.kinds.<slug>``), one per language, in a small subset of Markdown that the parser
below reads:

    # The game's name
    > A one-line summary.
    An introduction: paragraphs until the first section.

    ## A section's title
    - F1. A clause, with its ID first; it may run on
      over indented lines.
      - B9a. A sub-clause, indented by two spaces.

A clause's rule text may end with the rule book's gap filled by catclub, marked
``**Interpretation**`` (in the document's language): what follows the marker is kept apart,
so that a page can show it as an interpretation. The clause IDs are the same in every
language and in the same order (the tests check it): they are what tests, the catalog's
interpretations and links (``/rules/<slug>/#<clause>``) name.

Pure Python: the caller says which language it wants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# Found by the packages' layout: the catalog, which knows the packages, sits above this.
KINDS = Path(__file__).resolve().parent.parent / "kinds"
DEFAULT_LANGUAGE = "en"

_CLAUSE = re.compile(r"^(?P<indent> *)- (?P<id>[A-Z]\d+[a-z]?)\. (?P<text>.*)$")
_MARK = re.compile(r"\*\*(?P<label>[^*]+)\*\*:?\s*")


class MalformedRules(ValueError):
    """A rules document that does not follow the format above."""


@dataclass(frozen=True)
class Clause:
    id: str
    text: str  # the rule book's clause
    interpretation: str = ""  # the gap catclub filled, without its marker
    mark: str = ""  # the marker's word in the document's language ("Interpretation")
    sub: bool = False  # a sub-clause (B9a) of the clause before it


@dataclass(frozen=True)
class Section:
    title: str
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Document:
    slug: str
    language: str
    title: str
    tagline: str  # the game in one line
    intro: tuple[str, ...]
    sections: tuple[Section, ...]

    def clauses(self) -> list[Clause]:
        return [c for s in self.sections for c in s.clauses]

    def ids(self) -> list[str]:
        return [c.id for c in self.clauses()]


def slugs() -> list[str]:
    """The games that have a rules document."""
    return sorted(p.parent.parent.name for p in KINDS.glob(f"*/rules/{DEFAULT_LANGUAGE}.md"))


def languages(slug: str) -> list[str]:
    return sorted(p.stem for p in _folder(slug).glob("*.md"))


def document(slug: str, language: str, package: Path | None = None) -> Document | None:
    """A game's rules in ``language`` (``pt-br`` reads ``pt``), else in English; None for a
    game without rules here. ``package``: the game's folder when it is not under
    ``games/kinds`` (the catalog's ``GameKind.directory``)."""
    base = (language or DEFAULT_LANGUAGE).split("-")[0].lower()
    folder = (package / "rules") if package else _folder(slug)
    for code in (base, DEFAULT_LANGUAGE):
        if (folder / f"{code}.md").is_file():
            return _read(slug, code, folder)
    return None


def _folder(slug: str) -> Path:
    return KINDS / slug / "rules"


@cache
def _read(slug: str, language: str, folder: Path) -> Document:
    # The documents never change while the process runs.
    path = folder / f"{language}.md"
    return parse(path.read_text(encoding="utf-8"), slug=slug, language=language)


def parse(source: str, *, slug: str = "", language: str = "") -> Document:
    title = tagline = ""
    intro: list[str] = []
    sections: list[tuple[str, list[list]]] = []  # title, [[id, text lines, sub]]
    paragraph: list[str] = []

    def end_paragraph():
        if paragraph:
            intro.append(" ".join(paragraph))
            paragraph.clear()

    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if line.startswith("# "):
            title = stripped[2:]
        elif line.startswith("> ") and not sections:
            tagline = stripped[2:]
        elif line.startswith("## "):
            end_paragraph()
            sections.append((stripped[3:], []))
        elif match := _CLAUSE.match(line):
            if not sections:
                raise MalformedRules(f"{slug}/{language} line {number}: a clause before a section")
            sub = len(match["indent"]) >= 2
            sections[-1][1].append([match["id"], [match["text"].strip()], sub])
        elif not stripped:
            end_paragraph()
        elif sections and sections[-1][1] and line.startswith("  "):
            sections[-1][1][-1][1].append(stripped)  # a clause running on
        elif not sections:
            paragraph.append(stripped)
        else:
            raise MalformedRules(f"{slug}/{language} line {number}: {stripped[:40]!r}")
    end_paragraph()
    if not title:
        raise MalformedRules(f"{slug}/{language}: no title")
    return Document(
        slug=slug,
        language=language,
        title=title,
        tagline=tagline,
        intro=tuple(intro),
        sections=tuple(
            Section(name, tuple(_clause(cid, " ".join(lines), sub) for cid, lines, sub in items))
            for name, items in sections
        ),
    )


def _clause(cid: str, text: str, sub: bool) -> Clause:
    match = _MARK.search(text)
    if match is None:
        return Clause(cid, text, sub=sub)
    # The marker is shown as a label of its own, so what follows it starts a sentence.
    rest = text[match.end() :].strip()
    return Clause(
        cid,
        text[: match.start()].rstrip(),
        interpretation=rest[:1].upper() + rest[1:],
        mark=match["label"],
        sub=sub,
    )
