"""Security headers: a Content-Security-Policy on every page that allows the site's own
files only, and framing by Telegram's web clients for the web table and the Mini App only
(CSP frame-ancestors), never for the rest of the site or the admin (also X-Frame-Options)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.play import services

TELEGRAM = ["https://web.telegram.org", "https://webk.telegram.org"]
ROOT = Path(settings.BASE_DIR)
# The admin's templates, the public site's and each game's own.
TEMPLATES = [
    *(ROOT / "admin_ui" / "templates").rglob("*.html"),
    *(ROOT / "web" / "templates").rglob("*.html"),
    *(ROOT / "games" / "kinds").glob("*/templates/**/*.html"),
]
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.fixture
def table(db):
    anna = services.browser_player("Anna", "en")
    return services.create_lobby(None, "felix", anna)


def assert_own_files_only(csp: dict[str, list[str]]) -> None:
    assert csp["default-src"] == ["'none'"]
    for directive in ("script-src", "style-src", "img-src", "connect-src", "form-action"):
        assert csp[directive] == ["'self'"], directive
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]


@pytest.mark.parametrize("page", ["table", "miniapp"])
def test_telegrams_web_clients_may_frame_the_table_and_the_mini_app(client, table, page):
    url = reverse("web:table", args=[table.pk]) if page == "table" else reverse("web:miniapp")
    response = client.get(url)
    assert response.status_code == 200
    csp = policy(response)
    assert_own_files_only(csp)
    assert set(TELEGRAM) <= set(csp["frame-ancestors"])
    assert all(origin.startswith("https://") for origin in csp["frame-ancestors"])
    assert "*" not in " ".join(csp["frame-ancestors"])
    # X-Frame-Options cannot name Telegram: it is left out, frame-ancestors decides.
    assert "X-Frame-Options" not in response.headers


@pytest.mark.parametrize("url", ["/", "/play/", "/rules/", "/admin/login/"])
def test_every_other_page_and_the_admin_may_not_be_framed(client, db, url):
    response = client.get(url)
    assert response.status_code == 200
    assert_own_files_only(policy(response))
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_admin_itself_is_not_framed(admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    assert policy(response)["frame-ancestors"] == ["'none'"]
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES), ids=lambda path: str(path.relative_to(ROOT))
)
def test_no_template_has_inline_script_style_or_handler(template):
    """What the policy would block: every script and style is a file of the site's."""
    assert not INLINE.findall(template.read_text())


def test_the_table_page_as_served_has_no_inline_code(client, table):
    html = client.get(reverse("web:table", args=[table.pk])).content.decode()
    assert "<script" in html and not INLINE.findall(html)
