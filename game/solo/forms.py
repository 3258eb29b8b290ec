"""The forms of the menus, validated by Django rather than read from the POST by hand."""

from __future__ import annotations

from django import forms

from game.names import TOO_LONG, clean_name, too_long
from game.seating import TYPE_YOUR_NAME
from game.web.player import SPEEDS, Options


class OptionsForm(forms.Form):
    """The Options dialog. Its refusals are the sentences the dialog shows, name first."""

    name = forms.CharField(required=False, strip=False)
    speed = forms.ChoiceField(
        choices=[(speed, speed) for speed in SPEEDS],
        required=False,
        error_messages={"invalid_choice": "Choose one of the animation speeds."},
    )
    message_boxes = forms.BooleanField(required=False)
    sheet_after_hand = forms.BooleanField(required=False)
    moon_off_shooter = forms.BooleanField(required=False)
    finish_dead_hands = forms.BooleanField(required=False)

    def clean_name(self) -> str:
        typed = self.cleaned_data["name"]
        name = clean_name(typed)
        if not name:
            raise forms.ValidationError(TYPE_YOUR_NAME)
        if too_long(typed):  # told, never cut without a word (as a network table's prompt)
            raise forms.ValidationError(TOO_LONG)
        return name

    def typed_name(self) -> str:
        """The name to show again in a refused form: as typed when it was too long (to be
        shortened by its owner), else as it would be kept."""
        typed = self.data.get("name", "")
        return typed[:100] if too_long(typed) else clean_name(typed)

    def refusal(self) -> str:
        """The first sentence to show, or "" when the form is valid."""
        if self.is_valid():
            return ""
        return next(iter(self.errors.values()))[0]

    def options(self, current: Options) -> Options:
        """The options as sent, to save or to show again; an omitted speed keeps the current."""
        data = self.cleaned_data
        return Options(
            name=data.get("name", self.typed_name()),
            speed=data.get("speed") or current.speed,
            message_boxes=data.get("message_boxes", False),
            sheet_after_hand=data.get("sheet_after_hand", False),
            moon_off_shooter=data.get("moon_off_shooter", False),
            finish_dead_hands=data.get("finish_dead_hands", False),
        )
