from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdminUiConfig(AppConfig):
    name = "admin_ui"
    verbose_name = _("Administration")
