from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from admin_ui.login_throttle import ThrottledAdminAuthenticationForm
from server.health import healthz
from server.metrics_page import metrics_view

# The admin's own login (admin.site, mounted below, the site's only login) counts and
# throttles failed attempts.
admin.site.login_form = ThrottledAdminAuthenticationForm


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: the cat."""
    return redirect(static("web/cat.svg"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("telegram/", include("bot.urls")),
    path("", include("web.urls")),
]
