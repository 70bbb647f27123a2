"""Fixtures of the web tests: a seeded league, staff accounts with and without the
moderation permissions."""

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache

from tests.web.browser import chromium, page  # noqa: F401  (fixtures for every web test)
from tests.web.seed import seed_league
from web.live import renders

MODERATION_PERMISSIONS = ["ban_player", "abort_game", "replace_seat", "flag_game", "adjust_letters"]
# What a staff account needs to see the lists the actions run from.
VIEW_PERMISSIONS = ["view_player", "view_game", "view_seat", "view_moderationaction"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Replays and tables are cached; every test starts without them (query counts,
    contents: a flushed database gives its next game an id an earlier test's had)."""
    cache.clear()
    renders.forget()
    yield
    cache.clear()
    renders.forget()


@pytest.fixture
def seeded(db):
    return seed_league()


def staff_user(django_user_model, username, codenames):
    user = django_user_model.objects.create_user(username, password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    )
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def moderator(db, django_user_model):
    return staff_user(django_user_model, "mod", MODERATION_PERMISSIONS + VIEW_PERMISSIONS)


@pytest.fixture
def viewer(db, django_user_model):
    """Staff that may look at everything but not moderate."""
    return staff_user(django_user_model, "viewer", VIEW_PERMISSIONS)
