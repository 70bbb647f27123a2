"""Issue 45: a home page that shows the games and lets a browser visitor play at once;
words fixed at their root (player counts, European Portuguese, places and seats, the
chart's dates, the demo's season and description); the web draws its own icons, never
emoji; every public page translated in it and pt."""

from __future__ import annotations

import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import catalog
from games.leagues.models import DEMO_DESCRIPTION, League, Season, year_name
from games.play import services
from games.play.models import Game, GameStatus
from games.play.table import Table
from games.tournaments import rounds
from games.tournaments.models import Status as TournamentStatus
from tests.tourneys import after_commit, tournament
from tests.web.seed import Seeded, played, seed_league
from tests.web.test_every_page import PAGES
from web import icons

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)

# Characters only an emoji font draws (a system without one shows an empty box): every
# pictograph from U+1F000 on, the emoji variation selector, and the BMP characters whose
# default presentation is emoji (Unicode's Emoji_Presentation). Symbols such as ✕ or ▶
# are in ordinary fonts and stay allowed.
EMOJI = re.compile(
    "[\U0001f000-\U0001faff\ufe0f\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe"
    "\u2614\u2615\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce"
    "\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e"
    "\u2753-\u2755\u2757\u2795-\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55]"
)


@pytest.fixture
def site() -> Seeded:
    s = seed_league()
    s.replayed = played("felix", [s.anna, s.bruno], 1, league=s.league)
    s.lobby = services.create_lobby(None, "bon_appetit", s.elena)
    s.tournament, _people = tournament(8, league=s.league)
    after_commit(rounds.advance, s.tournament.pk)
    return s


def get(client, path: str, language: str = "en"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


# -- the home page ----------------------------------------------------------------------
def test_issue_45_home_shows_each_game_with_its_art_count_and_a_play_button(client, site):
    html = get(client, "/")
    for kind in catalog.all_games():
        block = html.split(f'href="/rules/{kind.slug}/"', 1)
        assert len(block) == 2, f"{kind.slug}: no card for the game"
        if kind.min_players == kind.max_players:
            count = f"{kind.min_players} players"
        else:
            count = f"{kind.min_players}–{kind.max_players} players"
        assert count in html, kind.slug
        # One tap: a form that posts the game with a name and its computers.
        assert f'name="game" value="{kind.slug}"' in html
    assert html.count('class="cover"') == len(catalog.all_games())
    assert "Play against computers" in html and "How to play" in html


def test_issue_45_home_tells_a_browser_visitor_they_can_play_here(client, site):
    html = get(client, "/")
    assert "played in Telegram groups" not in html
    assert "right here in your browser" in html
    assert "Also in Telegram" in html


def test_issue_45_one_tap_sits_a_guest_at_a_table_with_computers(client, site):
    html = get(client, "/")
    name = re.search(r'name="name" value="([^"]+)"', html).group(1)
    assert re.fullmatch(r"Guest \d{4}", name)
    kind = catalog.get("smoking_cat")
    response = client.post(
        reverse("web:play-create"),
        {"game": kind.slug, "name": name, "computers": str(kind.min_players - 1)},
    )
    assert response.status_code == 302
    game = Game.objects.latest("pk")
    assert game.game_type == kind.slug and game.status == GameStatus.RUNNING
    assert [s.is_computer for s in game.seats.order_by("number")].count(False) == 1
    # The name is remembered: the home page offers the same one next time.
    assert f'name="name" value="{name}"' in get(client, "/")


def test_issue_45_home_boards_show_only_what_a_spectator_sees(client, site):
    html = get(client, "/")
    assert 'class="boards"' in html
    board = html.split('class="boards"', 1)[1].split("</ul>", 1)[0]
    table = Table(Game.objects.get(pk=site.match.pk))
    hand = table.view(0).get("hand") or []
    assert hand, "the seeded match deals hands"
    # No seat's hand reaches the page: the board is the public view.
    spectator = table.view(None)
    assert "hand" not in spectator or not spectator["hand"]
    shown = set(re.findall(r'data-code="([^"]+)"', board))
    assert not shown & set(map(str, hand)) - set(map(str, _public_cards(spectator)))


def _public_cards(view) -> list:
    found = []

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        else:
            found.append(node)

    walk(view)
    return found


def test_issue_45_home_lists_upcoming_tournaments(client, site):
    from django.utils import timezone

    soon, _people = tournament(0, league=site.league, name="Autumn cup")
    soon.starts_at = timezone.now() + timezone.timedelta(days=3)
    soon.status = TournamentStatus.SIGNUP
    soon.save()
    html = get(client, "/")
    assert f'href="/tournaments/{soon.pk}/"' in html and "Autumn cup" in html
    assert 'href="/tournaments/"' in html


# -- words ------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_45_a_fixed_player_count_never_reads_as_a_range(client, site, language):
    """ "4–4 players" (pt "4–4 jogadores") on Play now; the same on the home page, the
    rules and a table's lobby."""
    fixed = [k for k in catalog.all_games() if k.min_players == k.max_players]
    assert fixed
    for path in ("/", reverse("web:play"), reverse("web:rules"), f"/play/{site.lobby.pk}/"):
        html = get(client, path, language)
        for kind in fixed:
            n = kind.min_players
            assert f"{n}–{n}" not in html and f"{n} to {n}" not in html, path
            assert f"{n} a {n}" not in html and f"da {n} a {n}" not in html, path


BRAZILIAN = re.compile(
    r"\b(você|vocês|Escolha|Seu nome|compartilh\w*|Envie|Adicione|Coloque|Compre|Aguarde"
    r"|Tente|Use|Peça|Abra|Sua vez|Suas|Seus|Jogando|Esperando|Abrindo|Assistindo|Passando"
    r"|Comendo|Colocando|usuário|registro|porcentagem|pega)\b"
)


def test_issue_45_portuguese_is_european_everywhere():
    """One Portuguese, European with "tu" for the player: Brazilian forms ("Escolha",
    "Seu nome", "compartilhar", "você", gerunds) sat beside European ones."""
    found = []
    for po in sorted(ROOT.glob("*/locale/pt/LC_MESSAGES/django.po")):
        for entry in polib.pofile(str(po)):
            text = " ".join([entry.msgstr, *entry.msgstr_plural.values()])
            found += [
                f"{po.parent.parent.parent.parent.name}: {text}" for _ in BRAZILIAN.findall(text)
            ]
    for md in sorted(ROOT.glob("games/kinds/*/rules/pt.md")):
        found += [f"{md}: {m}" for m in BRAZILIAN.findall(md.read_text())]
    assert not found, "\n".join(sorted(set(found)))


def test_issue_45_portuguese_rules_say_turn_not_once():
    """ "Uma vez" reads "once": a turn is "a tua vez"."""
    for md in ROOT.glob("games/kinds/*/rules/pt.md"):
        headings = [line for line in md.read_text().splitlines() if line.startswith("#")]
        assert not [h for h in headings if re.match(r"#+ Uma vez\b", h)], md


def test_issue_45_seat_and_place_are_different_words_in_portuguese(client, site):
    """A game's table read "Lugar" (seat) beside "Posição" (place) while "lugar" also
    meant a place elsewhere: seats are "lugar", places "posição", everywhere."""
    html = get(client, reverse("web:game", args=[site.g1.pk]), "pt")
    assert ">Lugar<" in html and ">Posição<" in html
    for po in ROOT.glob("*/locale/pt/LC_MESSAGES/django.po"):
        for entry in polib.pofile(str(po)):
            text = " ".join([entry.msgstr, *entry.msgstr_plural.values()]).lower()
            english = entry.msgid.lower()
            if re.search(r"\bplaces?\b", english) and "seat" not in english:
                assert not re.search(r"\blugar(es)?\b", text), (po, entry.msgid)


@pytest.mark.parametrize(
    ("language", "season"), [("it", "Stagione 2026"), ("pt", "Temporada 2026")]
)
def test_issue_45_the_demo_season_and_description_are_translated(client, language, season):
    league = League.objects.create(name="Demo", slug="demo-45", description=DEMO_DESCRIPTION)
    Season.objects.create(league=league, name=year_name(2026), starts_on=date(2026, 1, 1))
    html = get(client, reverse("web:league", args=[league.slug]), language)
    assert season in html and "Season 2026" not in html
    assert DEMO_DESCRIPTION not in html
    with translation.override(language):
        assert league.shown_description != DEMO_DESCRIPTION
    # A league's own words are shown as written.
    own = Season.objects.create(league=league, name="Spring", starts_on=date(2025, 1, 1))
    with translation.override(language):
        assert own.shown_name == "Spring"


def test_issue_45_the_chart_writes_dates_in_the_pages_language():
    """The axis read "11/30/2026" (the browser's own locale) where the page writes
    "30 Nov 2026": the chart formats with the page's language."""
    script = (ROOT / "web/static/web/chart.js").read_text()
    assert "toLocaleDateString()" not in script and "toLocaleString()" not in script
    assert "document.documentElement.lang" in script


# -- icons, not emoji -------------------------------------------------------------------
def public_paths(site) -> dict[str, str]:
    return {name: where(site) for name, where in PAGES.items()}


@pytest.mark.parametrize("language", ["en", "it", "pt"])
def test_issue_45_no_public_page_shows_an_emoji(client, site, language):
    found = []
    for name, path in public_paths(site).items():
        html = get(client, path, language)
        for match in EMOJI.finditer(html):
            start = max(0, match.start() - 40)
            found.append(f"{name} {path}: …{html[start : match.end() + 20]!r}")
    assert not found, "\n".join(found)


def test_issue_45_no_emoji_in_the_webs_scripts_and_styles():
    statics = [*ROOT.glob("web/static/**/*.*"), *ROOT.glob("games/kinds/*/static/**/*.*")]
    found = [
        str(p)
        for p in statics
        if p.suffix in (".js", ".css", ".svg") and EMOJI.search(p.read_text(errors="ignore"))
    ]
    assert not found


def test_issue_45_icons_stand_in_for_every_emoji_a_shared_text_carries():
    """A game's summary is shared with the bot (which keeps its emoji): on a page each of
    its emoji becomes one of the web's icons, and the words around it stay."""
    for kind in catalog.all_games():
        for paragraph in kind.summary:
            shown = str(icons.iconize(paragraph))
            assert not EMOJI.search(shown), (kind.slug, shown)
    assert "<svg" in str(icons.iconize("🐭 a mouse")) and "a mouse" in str(
        icons.iconize("🐭 a mouse")
    )
    assert str(icons.iconize("<b>")) == "&lt;b&gt;"


def test_issue_45_the_icons_sprite_holds_every_icon():
    """The pages draw each icon from one static sprite, written from ``web.icons``."""
    assert (ROOT / "web/static/web" / Path(icons.SPRITE).name).read_text() == icons.sprite()
    shown = str(icons.svg("computer"))
    assert "#computer" in shown and 'aria-hidden="true"' in shown and "<path" not in shown
    named = str(icons.svg("streak", "On a streak"))
    assert 'role="img"' in named and "<title>On a streak</title>" in named


# -- translations -----------------------------------------------------------------------
class Visible(HTMLParser):
    """The text a person sees or hears: text outside scripts and styles, and the
    attributes read aloud or shown on hover."""

    SKIP = {"script", "style", "noscript", "template"}
    READ = ("title", "aria-label", "alt", "placeholder")

    def __init__(self):
        super().__init__()
        self.texts: set[str] = set()
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for key, value in attrs:
            if key in self.READ and value:
                self.texts.add(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        text = " ".join(data.split())
        if text and not self.skipping:
            self.texts.add(text)


def visible(html: str) -> set[str]:
    parser = Visible()
    parser.feed(html)
    return parser.texts


# Words that are the same in every language: names of people, leagues, tournaments and
# games, and the site's own name. The seeded league's description is a league's own text.
NAMES = re.compile(
    r"catclub|Gatti di Roma|Milano|Anna|Bruno|Carla|Dario|Elena|Player \d+|Spring open"
    r"|Spring 2026|April 2026|Tuesday nights at the club\.|Come Cani e Gatti|Smoking Cat"
    r"|Bon Appétit!|Felix|GATTO|MICIO|Elo|Swiss|OK|Telegram|@\w+"
)


DATE = re.compile(r"\d{1,2} \w{3}\.? \d{4}")  # a month's short name is often the same


def english_sentence(text: str) -> bool:
    rest = NAMES.sub(" ", DATE.sub(" ", text))
    return len(re.findall(r"[A-Za-z]{2,}", rest)) >= 2


@pytest.mark.parametrize("language", ["it", "pt"])
def test_issue_45_public_pages_have_no_english_left_in_it_and_pt(client, site, language):
    found = []
    for name, path in public_paths(site).items():
        english = visible(get(client, path, "en"))
        translated = visible(get(client, path, language))
        left = sorted(t for t in translated & english if english_sentence(t))
        found += [f"{name} {path}: {t!r}" for t in left]
    assert not found, "\n".join(found)
