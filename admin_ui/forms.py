"""Forms of the admin: leagues (games counted, the league word) and the reason forms of the
moderation actions."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.leagues.models import League


class LeagueForm(forms.ModelForm):
    game_types = forms.MultipleChoiceField(
        label=_("Games counted"),
        choices=catalog.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Games of these types played in the league's chats count for it."),
    )
    # Longer than the model's 12 so a too-long word gets the clear message below, not
    # the generic "at most 12 characters".
    word = forms.CharField(
        label=_("League word"),
        max_length=40,
        help_text=League._meta.get_field("word").help_text,
    )

    class Meta:
        model = League
        fields = (
            "name",
            "slug",
            "description",
            "is_active",
            "game_types",
            "word",
            "turn_seconds",
            "computer_level",
            "min_completion",
            "review_names",
        )

    def clean_word(self) -> str:
        word = self.cleaned_data["word"].strip()
        others = sorted({ch for ch in word if not ch.isalpha()})
        if others:
            raise forms.ValidationError(
                _("“%(word)s” has characters that are not alphabetic: %(chars)s.")
                % {"word": word, "chars": " ".join(repr(c) for c in others)},
                code="not_alphabetic",
            )
        if not 3 <= len(word) <= 12:
            raise forms.ValidationError(
                _("“%(word)s” has %(n)d characters; the league word needs 3 to 12.")
                % {"word": word, "n": len(word)},
                code="length",
            )
        return word.upper()


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the moderation log."),
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Give a reason."))
        return reason


class PublicReasonForm(ReasonForm):
    """The reason of an action whose reason the game's public page shows: an abort (the
    game's note) and a flag (why it is not rated). One reason, with the form saying
    plainly who reads it, rather than a form that promised the log alone would."""

    reason = forms.CharField(
        label=_("Public reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_(
            "Shown to everyone on the game's public page, and kept in the moderation log. "
            "Write what the players may read."
        ),
    )


class BanForm(ReasonForm):
    until = forms.DateTimeField(
        label=_("Banned until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
        help_text=_("Empty: until a moderator lifts the ban."),
    )

    def clean_until(self):
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("A ban cannot end in the past."))
        return until
