from django.urls import path

from bot import views

app_name = "bot"

urlpatterns = [
    path("webhook", views.webhook, name="webhook"),
]
