from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A staff account for the admin. Telegram players are ``games.Player``, not users."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
