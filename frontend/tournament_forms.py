"""The organizer's tournament form: real fields for the settings and, per game, one input per match
option of the game's options schema (the decision clocks first). Rules stay in the service: the form
only turns inputs into the ``tournament_create`` arguments."""

from django import forms

from games.kernel import registry
from games.tournaments.models import FORMATS, GAMES
from games.tournaments.records import TIEBREAKS

CLOCK_DEFAULTS = {"turn_seconds": 90, "defense_seconds": 60}
TRI_STATE = (("", "game default"), ("yes", "yes"), ("no", "no"))
TIEBREAK_CHOICES = (("", "default order"),) + tuple(
    (t, {"buchholz_cut1": "Buchholz cut-1", "sonneborn_berger": "Sonneborn-Berger", "head_to_head": "Head-to-head",
         "omw": "Opponents' match-win %"}[t]) for t in TIEBREAKS if t != "seed_draw")
TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2", "tiebreak_3")


def _option_field(name: str, spec: dict) -> forms.Field | None:
    kinds = spec.get("type")
    kinds = set(kinds if isinstance(kinds, list) else [kinds])
    help_text = spec.get("description", "")
    label = name.replace("_", " ").capitalize()
    if "integer" in kinds:
        return forms.IntegerField(label=label, required=False, min_value=spec.get("minimum"),
                                  max_value=spec.get("maximum"), initial=CLOCK_DEFAULTS.get(name), help_text=help_text)
    if "boolean" in kinds:
        return forms.ChoiceField(label=label, required=False, choices=TRI_STATE, help_text=help_text)
    return None


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=GAMES)
    format = forms.ChoiceField(choices=FORMATS)
    table_size = forms.TypedChoiceField(label="Players per table", coerce=int,
                                        choices=((2, "2"), (3, "3 (pod)"), (4, "4 (pod or 2v2)")))
    teams = forms.BooleanField(label="2v2 teams (a team registers as one entrant)", required=False)
    rounds = forms.IntegerField(required=False, min_value=1, max_value=99,
                                help_text="Swiss rounds; leave empty for enough rounds for the field")
    top_cut = forms.TypedChoiceField(required=False, coerce=int, empty_value=None,
                                     choices=(("", "none"), (4, "top 4"), (8, "top 8")),
                                     help_text="Swiss with top cut only")
    round_minutes = forms.IntegerField(label="Round time limit (minutes)", min_value=1, max_value=24 * 60, initial=50)
    max_entrants = forms.IntegerField(required=False, min_value=2, max_value=100000, help_text="empty: no cap")
    starts_at = forms.DateTimeField(required=False, label="Starts at (UTC)",
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                    input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    rated = forms.BooleanField(required=False, initial=True, label="Rated")
    spectator_delay_seconds = forms.IntegerField(label="Spectator delay (seconds)", min_value=60, max_value=3600,
                                                 initial=60, required=False,
                                                 help_text="spectators see each match this far behind: at least 60 "
                                                           "(empty: 60)")
    spectator_delay_turns = forms.IntegerField(label="Spectator delay (turns)", min_value=0, max_value=10, initial=1,
                                               required=False, help_text="…and this many turns behind, so nobody "
                                                                         "can coach a player (empty: 1)")

    # the provisional scoring settings (docs/tournaments.md, "Settings"): empty keeps the default
    pod_scoring = forms.ChoiceField(required=False, label="Pod and team scoring",
                                    choices=(("", "by placement (default)"), ("placement", "by placement: 3 to 0"),
                                             ("shared_win", "shared win: a sole winner 3, a shared win 1 each")))
    bye_points = forms.IntegerField(required=False, min_value=0, max_value=3, label="Points for a bye",
                                    help_text="empty: 3, a win")
    tiebreak_1 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="First tiebreak",
                                   help_text="empty: Buchholz cut-1, Sonneborn-Berger, head-to-head (2 per table); "
                                             "opponents' match-win % (pods). The seed draw always comes last.")
    tiebreak_2 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="Second tiebreak")
    tiebreak_3 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="Third tiebreak")

    GENERAL = ("name", "game", "format", "table_size", "teams", "rounds", "top_cut", "round_minutes", "max_entrants",
               "starts_at", "rated", "spectator_delay_seconds", "spectator_delay_turns")
    SCORING = ("pod_scoring", "bye_points", *TIEBREAK_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_names: dict[str, list[str]] = {}
        for game, _ in GAMES:
            props = registry.get(game).options_schema.get("properties", {})
            order = sorted(props, key=lambda p: (p not in CLOCK_DEFAULTS, list(props).index(p)))
            names = []
            for prop in order:
                if prop == "teams":  # the tournament's own teams setting
                    continue
                field = _option_field(prop, props[prop])
                if field is not None:
                    self.fields[f"{game}__{prop}"] = field
                    names.append(prop)
            self.option_names[game] = names

    def general_fields(self):
        return [self[name] for name in self.GENERAL]

    def scoring_fields(self):
        return [self[name] for name in self.SCORING]

    def scoring(self) -> dict:
        """The chosen scoring settings only (the service keeps the defaults for the rest)."""
        out = {}
        if self.cleaned_data.get("pod_scoring"):
            out["pod_scoring"] = self.cleaned_data["pod_scoring"]
        if self.cleaned_data.get("bye_points") is not None:
            out["bye_points"] = self.cleaned_data["bye_points"]
        chosen = [self.cleaned_data[f] for f in TIEBREAK_FIELDS if self.cleaned_data.get(f)]
        if chosen:
            out["tiebreaks"] = chosen
        return out

    def option_groups(self):
        """``[(game, game name, [bound fields])]`` - one fieldset per game."""
        return [(game, label, [self[f"{game}__{p}"] for p in self.option_names[game]]) for game, label in GAMES]

    def match_options(self) -> dict:
        game = self.cleaned_data["game"]
        out = {}
        for prop in self.option_names.get(game, []):
            value = self.cleaned_data.get(f"{game}__{prop}")
            if value in (None, ""):
                continue
            out[prop] = {"yes": True, "no": False}.get(value, value)
        return out

    def service_arguments(self) -> dict:
        data = {name: self.cleaned_data.get(name) for name in self.GENERAL}
        data["teams"] = bool(data["teams"])
        data["rated"] = bool(data["rated"])
        for name, default in (("spectator_delay_seconds", 60), ("spectator_delay_turns", 1)):
            if data[name] is None:
                data[name] = default
        data["match_options"] = self.match_options()
        data["scoring"] = self.scoring()
        return data
