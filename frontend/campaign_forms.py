"""The new-campaign form: the act, the number of players and who plays which character (the rulebook:
four players each play their own character; fewer divide the four between them; solo, one player
plays all four). Only turns inputs into ``campaigns.services.campaign_create`` arguments; the service
checks them again."""

from django import forms

from campaigns import selectors

MAX_SEATS = 4


def dealt(seats: int) -> dict:
    """The default: the characters dealt round the table (Akira to player 1, Hattori to player 2...)."""
    return {c["id"]: i % seats for i, c in enumerate(selectors.create_choices()["characters"])}


class CampaignCreateForm(forms.Form):
    act = forms.TypedChoiceField(coerce=int, label="Act")
    seats = forms.TypedChoiceField(coerce=int, label="Players", initial=2,
                                   choices=[(n, f"{n} player{'s' if n > 1 else ''}") for n in range(1, MAX_SEATS + 1)],
                                   help_text="You take the first seat; the others join from the campaign list.")

    yomi_mode = forms.BooleanField(required=False, label="Yomi Mode (Shinigami expansion)",
                                   help_text="Each phase marks a box of the Yomi track for every character "
                                             "defeated in it; at a bold square the party faces the Shinigami.")
    blue_die = forms.BooleanField(required=False, label="Blue die instead of red (optional rule, Souls of Yomi)",
                                  help_text="Every phase rolls the blue attack die (1 to 3) wherever a red die "
                                            "(0 to 4) is called for: the same average, less luck.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = selectors.create_choices()
        self.fields["act"].choices = [(a["number"], f"{a['name']} ({len(a['chapters'])} chapters)") for a in choices["acts"]]
        self.characters = choices["characters"]
        initial = dealt(int(self.fields["seats"].initial))
        for c in self.characters:
            self.fields[c["id"]] = forms.TypedChoiceField(
                coerce=int, label=f"{c['name']} ({c['class']}) is played by", initial=initial[c["id"]],
                choices=[(i, "Player 1 (you)" if i == 0 else f"Player {i + 1}") for i in range(MAX_SEATS)],
                widget=forms.Select(attrs={"data-character": c["id"]}))
        self.fields["seats"].widget.attrs["data-seats"] = "1"

    def clean(self):
        data = super().clean()
        seats = data.get("seats")
        if seats is None or any(c["id"] not in data for c in self.characters):
            return data
        control = {c["id"]: data[c["id"]] for c in self.characters}
        for c in self.characters:
            if control[c["id"]] >= seats:
                self.add_error(c["id"], f"There is no player {control[c['id']] + 1} in a campaign for {seats}.")
        idle = [i + 1 for i in range(seats) if i not in control.values()]
        if idle and not self.errors:
            who = ", ".join(f"player {n}" for n in idle)
            raise forms.ValidationError(f"Every player needs at least one character: {who} has none.")
        data["control"] = control
        return data

    def character_fields(self):
        return [self[c["id"]] for c in self.characters]
