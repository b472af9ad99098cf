"""The organizer's tournament form: real fields for the settings and, per game, one input per match
option of the game's options schema (the decision clocks first). Rules stay in the service: the form
only turns inputs into the ``tournament_create`` arguments."""

from django import forms

from games.kernel import registry
from games.tournaments.models import FORMATS, GAMES
from games.tournaments.records import TIEBREAKS, Settings, TournamentError

from .option_fields import GameOptions

CLOCK_DEFAULTS = {"turn_seconds": 90, "defense_seconds": 60}
CLOCK_HELP = {"turn_seconds": "Seconds for each decision; a tournament match needs this clock.",
              "defense_seconds": "Seconds to answer during another player's turn (empty: 60)."}
TIEBREAK_CHOICES = (("", "default order"),) + tuple(
    (t, {"buchholz_cut1": "Buchholz cut-1", "sonneborn_berger": "Sonneborn-Berger", "head_to_head": "Head-to-head",
         "omw": "Opponents' match-win %"}[t]) for t in TIEBREAKS if t != "seed_draw")
TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2", "tiebreak_3")
# the tournament's own teams setting (2v2 entrants) stands for these game options; tables have 2 to 4 seats
TEAM_OPTIONS = ("teams", "team_size")
DEFAULT_POD_SCORING = "placement"


def tiebreak_order(chosen: list, defaults: tuple) -> list[str]:
    """The form's tiebreaks as its help text says: a chosen tiebreak goes in its position, and every
    position left empty keeps the defaults, in their order (those not chosen elsewhere), the rest of
    the defaults following. [None, "omw", None] with the 2-player defaults: Buchholz cut-1, OMW,
    Sonneborn-Berger, head-to-head. A tiebreak chosen twice stays twice: the service refuses it."""
    spare = [t for t in defaults if t not in chosen]
    out = [c if c else (spare.pop(0) if spare else None) for c in chosen]
    return [t for t in out if t] + spare


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=GAMES)
    format = forms.ChoiceField(choices=FORMATS)
    table_size = forms.TypedChoiceField(label="Players per table", coerce=int,
                                        choices=((2, "2"), (3, "3 (pod)"), (4, "4 (pod or 2v2)")))
    teams = forms.BooleanField(label="2v2 teams (a team registers as one entrant)", required=False)
    rounds = forms.IntegerField(required=False, min_value=1, max_value=99,
                                help_text="Swiss rounds (Swiss, and Swiss with top cut before the cut); leave empty "
                                          "for enough rounds for the field. A round robin and a single elimination "
                                          "play as many rounds as their field needs.")
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
    # one option per scoring; empty (an older form, a script) is the default too
    pod_scoring = forms.ChoiceField(required=False, label="Pod scoring", initial=DEFAULT_POD_SCORING,
                                    choices=((DEFAULT_POD_SCORING, "by placement: 3 to 0 (default)"),
                                             ("shared_win", "shared win: a sole winner 3, a shared win 1 each")),
                                    help_text="Pods of 3 or 4. A 2-player or 2v2 table scores win 3, draw 1, loss 0; "
                                              "a draw (nobody won) is 1 each at every table.")
    bye_points = forms.IntegerField(required=False, min_value=0, max_value=3, label="Points for a bye",
                                    help_text="empty: 3, a win")
    tiebreak_1 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="First tiebreak",
                                   help_text="A chosen tiebreak takes that place; empty places keep the defaults in "
                                             "their order: Buchholz cut-1, Sonneborn-Berger, head-to-head (2 per "
                                             "table), opponents' match-win % (pods). The seed draw always comes last.")
    tiebreak_2 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="Second tiebreak")
    tiebreak_3 = forms.ChoiceField(required=False, choices=TIEBREAK_CHOICES, label="Third tiebreak")

    GENERAL = ("name", "game", "format", "table_size", "teams", "rounds", "top_cut", "round_minutes", "max_entrants",
               "starts_at", "rated", "spectator_delay_seconds", "spectator_delay_turns")
    SCORING = ("pod_scoring", "bye_points", *TIEBREAK_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the tournament's own teams setting replaces the games' option; the clocks come first
        self.options = {game: GameOptions(registry.get(game), skip=TEAM_OPTIONS, first=tuple(CLOCK_DEFAULTS),
                                          tri_state=True, initial=CLOCK_DEFAULTS, help_texts=CLOCK_HELP)
                        for game, _ in GAMES}
        for group in self.options.values():
            self.fields.update(group.fields)

    def general_fields(self):
        return [self[name] for name in self.GENERAL]

    def scoring_fields(self):
        return [self[name] for name in self.SCORING]

    def scoring(self) -> dict:
        """The chosen scoring settings only (the service keeps the defaults for the rest)."""
        out = {}
        if self.cleaned_data.get("pod_scoring") and self.cleaned_data["pod_scoring"] != DEFAULT_POD_SCORING:
            out["pod_scoring"] = self.cleaned_data["pod_scoring"]
        if self.cleaned_data.get("bye_points") is not None:
            out["bye_points"] = self.cleaned_data["bye_points"]
        chosen = [self.cleaned_data.get(f) or None for f in TIEBREAK_FIELDS]
        if any(chosen):
            out["tiebreaks"] = tiebreak_order(chosen, self._default_tiebreaks())
        return out

    def _default_tiebreaks(self) -> tuple[str, ...]:
        """The default tiebreaks of the table shape chosen (2-entrant tables or pods)."""
        try:
            settings = Settings(format=self.cleaned_data.get("format") or "swiss",
                                table_size=self.cleaned_data.get("table_size") or 2,
                                teams=bool(self.cleaned_data.get("teams")),
                                top_cut=self.cleaned_data.get("top_cut"))
        except TournamentError:  # settings that do not fit: the service refuses them with its own words
            return ()
        return tuple(t for t in settings.tiebreak_order if t != "seed_draw")

    def option_groups(self):
        """``[(game, game name, [bound fields])]`` - one fieldset per game."""
        return [(game, label, self.options[game].bound_fields(self)) for game, label in GAMES]

    def match_options(self) -> dict:
        game = self.cleaned_data["game"]
        return self.options[game].value(self.cleaned_data, seats=self.cleaned_data.get("table_size"))

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


EDIT_FIELDS = ("name", "starts_at", "round_minutes", "max_entrants", "rated", "rounds")


class TournamentEditForm(forms.Form):
    """The organizer's changes before the start (``services.tournament_update``): shown filled with the
    tournament's values, so an empty start time clears it, an empty cap removes it, and an empty
    number of rounds leaves it to the field."""

    name = forms.CharField(max_length=120)
    starts_at = forms.DateTimeField(required=False, label="Starts at (UTC)",
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                               format="%Y-%m-%dT%H:%M"),
                                    input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
                                    help_text="empty: no start time (you start the tournament yourself)")
    round_minutes = forms.IntegerField(label="Round time limit (minutes)", min_value=1, max_value=24 * 60)
    max_entrants = forms.IntegerField(required=False, min_value=2, max_value=100000, label="Most entrants",
                                      help_text="empty: no cap")
    rated = forms.BooleanField(required=False, label="Rated")
    rounds = forms.IntegerField(required=False, min_value=1, max_value=99, label="Swiss rounds",
                                help_text="empty: enough rounds for the field")

    def __init__(self, *args, tournament, **kwargs):
        self.tournament = tournament
        initial = {name: getattr(tournament, name) for name in EDIT_FIELDS}
        super().__init__(*args, initial=initial, auto_id="edit-%s", **kwargs)
        if tournament.format not in ("swiss", "swiss_top_cut"):
            del self.fields["rounds"]  # the field decides a round robin's and a bracket's rounds

    def changes(self) -> dict:
        """What differs from the tournament (a start time shown to the minute and sent back unchanged
        is not a change)."""
        out = {}
        for name in self.fields:
            value, now = self.cleaned_data.get(name), getattr(self.tournament, name)
            if name == "starts_at" and value is not None and now is not None and \
                    value.replace(second=0, microsecond=0) == now.replace(second=0, microsecond=0):
                continue
            if value != now:
                out[name] = value
        return out

