"""``manage.py start`` (the README's run command) creates the first admin, once."""

import pytest
from django.contrib.auth import get_user_model

from launch.management.commands.start import Command

pytestmark = pytest.mark.django_db


def test_the_first_admin_is_created_once_with_a_printed_password(capsys):
    Command().ensure_admin()
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    printed = capsys.readouterr().out
    password = printed.split("password '")[1].split("'")[0]
    assert admin.check_password(password)
    # A second start leaves the account (and its password) alone.
    Command().ensure_admin()
    assert get_user_model().objects.filter(is_superuser=True).count() == 1
    assert "password" not in capsys.readouterr().out
