app_name = "bot"

# The webhook view is added by the Telegram front-end.
urlpatterns: list = []
