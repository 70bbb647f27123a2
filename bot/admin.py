"""The bot's chat settings in the Django admin (administrators may fix a group's choices)."""

from django.contrib import admin

from bot.models import ChatSettings


@admin.register(ChatSettings)
class ChatSettingsAdmin(admin.ModelAdmin):
    list_display = ("chat_id", "title", "language", "turn_seconds", "auto_play", "updated_at")
    list_filter = ("language", "auto_play")
    search_fields = ("title", "chat_id")
