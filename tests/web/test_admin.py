"""Every model's admin pages render for staff and refuse anonymous visitors."""

from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.factories import MoveFactory, PlayerFactory, SeatFactory

SUPERUSER_REQUEST = SimpleNamespace(user=SimpleNamespace(has_perm=lambda perm: True))
MODELS = sorted(admin.site._registry, key=lambda m: m._meta.label)


@pytest.fixture
def populated(db):
    seat = SeatFactory()
    MoveFactory(game=seat.game)
    PlayerFactory(is_banned=True)


def urls_for(model, obj):
    info = (model._meta.app_label, model._meta.model_name)
    yield reverse("admin:{}_{}_changelist".format(*info))
    yield reverse("admin:{}_{}_changelist".format(*info)) + "?q=1"
    if obj is not None:
        yield reverse("admin:{}_{}_change".format(*info), args=[obj.pk])
    if admin.site._registry[model].has_add_permission(request=SUPERUSER_REQUEST):
        yield reverse("admin:{}_{}_add".format(*info))


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.label)
def test_admin_pages_render_for_staff(model, admin_client, populated):
    obj = model.objects.first()
    for url in urls_for(model, obj):
        response = admin_client.get(url)
        assert response.status_code == 200, url


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m._meta.label)
def test_admin_pages_refuse_anonymous(model, client, populated):
    for url in urls_for(model, model.objects.first()):
        response = client.get(url)
        assert response.status_code == 302, url
        assert reverse("admin:login") in response["Location"]


def test_move_log_is_read_only(admin_client, populated):
    from games.play.models import Move

    move = Move.objects.get()
    url = reverse("admin:games_move_change", args=[move.pk])
    response = admin_client.post(url, {"action": "bid:99"})
    assert response.status_code == 403
    move.refresh_from_db()
    assert move.action == "pass"
