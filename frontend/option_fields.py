"""A game's match options as real form fields, generated from its engine's ``options_schema``.

Used by the lobby's "Create a match" form and the organizer's tournament form. An option is shown
to players when its schema has a ``title`` (the others - a campaign's hand-over, say - are set by
other pages or the API); the form reads the schema's top-level ``properties`` and those of its
``else`` branch (the branch a match without the discriminating option takes, e.g. Harakiri's
Exploration Phase). Presentation annotations, ignored by validation (docs/engines.md, "Options"):

- ``title`` the label, ``description`` the help under it, ``default`` the game's default;
- ``x-labels`` ``{value: label}`` for an enum's values (or an array of enum items);
- ``x-seat`` an integer that names a seat, offered as "Player 1", "Player 2"...;
- ``x-keys-from`` on an object whose values are seats: one seat choice per item chosen in the
  named array option (Harakiri's ``control``: who plays each hero in play).

Kinds: integer (number input; empty keeps the default), boolean (a checkbox starting at the
default; or, with ``tri_state``, "game default / yes / no"), enum (a select), array of enum with a
fixed size (checkboxes: "choose 4"), seat (a select of players), seat map (one select per key).
``GameOptions.value`` turns the cleaned fields back into an options object holding only what
differs from the defaults; the write path still validates everything.
"""

from django import forms

AUTOMATIC = "Automatic"
TRI_STATE = (("", "game default"), ("yes", "yes"), ("no", "no"))


def player_label(seat: int) -> str:
    """Seats are numbered from 1 for people."""
    return f"Player {seat + 1}"


def titled_options(schema: dict) -> list[tuple[str, dict]]:
    """``[(name, spec)]``: the player-facing options, in schema order (top level, then ``else``)."""
    out: dict[str, dict] = {}
    for part in (schema, schema.get("else") or {}):
        for name, spec in (part.get("properties") or {}).items():
            if isinstance(spec, dict) and spec.get("title") and name not in out:
                out[name] = spec
    return list(out.items())


def _types(spec: dict) -> set:
    kinds = spec.get("type")
    return set(kinds if isinstance(kinds, list) else [kinds]) if kinds else set()


def _labelled(values, labels: dict) -> list[tuple]:
    return [(v, labels.get(str(v), str(v))) for v in values]


def _seat_choices(players: int) -> list[tuple]:
    return [(str(s), player_label(s)) for s in range(players)]


class SeatSelect(forms.Select):
    """A choice of player; match_form.js hides the players beyond the table's size."""

    def __init__(self, attrs=None):
        super().__init__({"data-seat-select": "", **(attrs or {})})


def option_field(spec: dict, *, players: int, tri_state: bool = False, initial=None,
                 help_text: str | None = None) -> forms.Field | None:
    """One option's field, or None when its kind has no field (objects, free strings)."""
    label = spec["title"] if spec.get("title") else ""
    help_text = spec.get("description", "") if help_text is None else help_text
    default = spec.get("default")
    kinds = _types(spec)
    common = {"label": label, "help_text": help_text, "required": False}
    if spec.get("x-seat") and "integer" in kinds:
        start = initial if initial is not None else default if default is not None else 0
        return forms.TypedChoiceField(coerce=int, empty_value=None, choices=_seat_choices(players), widget=SeatSelect(),
                                      initial=str(start), **common)
    if "integer" in kinds:
        start = initial if initial is not None else default
        return forms.IntegerField(min_value=spec.get("minimum"), max_value=spec.get("maximum"), initial=start,
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}), **common)
    if "boolean" in kinds:
        if tri_state:
            yes_no = "yes" if default else "no"
            choices = ((("", f"game default ({yes_no})"),) if default is not None else TRI_STATE[:1]) + TRI_STATE[1:]
            return forms.ChoiceField(choices=choices, **common)
        return forms.BooleanField(initial=bool(default if initial is None else initial), **common)
    if "enum" in spec:
        choices = _labelled(spec["enum"], spec.get("x-labels") or {})
        if default is None:
            choices = [("", "game default")] + choices
        return forms.TypedChoiceField(choices=choices, initial=default if initial is None else initial,
                                      coerce=lambda v, allowed=tuple(spec["enum"]): next(x for x in allowed if str(x) == v),
                                      **common)
    items = spec.get("items") or {}
    if "array" in kinds and "enum" in items and spec.get("uniqueItems"):
        size = (spec.get("minItems"), spec.get("maxItems"))
        hint = f"Choose {size[0]}." if size[0] is not None and size[0] == size[1] else ""
        return forms.MultipleChoiceField(
            choices=_labelled(items["enum"], spec.get("x-labels") or {}), widget=forms.CheckboxSelectMultiple,
            initial=list(default or []), **{**common, "help_text": " ".join(x for x in (help_text, hint) if x)})
    return None


class GameOptions:
    """The option fields of one game, named ``<prefix><option>`` (``yashima__round_cap``), and the
    options object they make. ``groups(form)`` lays them out for a template: one entry per option,
    ``{"name", "label", "help", "kind": "field" | "choices" | "map", "fields": [bound fields],
    "keys_from": field name or "", "items": [{"key", "field"}] (a map's fields by key)}``."""

    def __init__(self, engine, *, prefix: str | None = None, skip=(), first=(), tri_state: bool = False,
                 initial: dict | None = None, help_texts: dict | None = None):
        self.slug, self.name = engine.slug, engine.name
        self.prefix = f"{engine.slug}__" if prefix is None else prefix
        self.players = engine.max_seats
        self.tri_state = tri_state
        options = [(n, s) for n, s in titled_options(engine.options_schema) if n not in skip]
        options.sort(key=lambda item: (item[0] not in first, first.index(item[0]) if item[0] in first else 0))
        self.specs = dict(options)
        self.fields: dict[str, forms.Field] = {}
        self.layout: list[dict] = []
        for name, spec in options:
            if spec.get("x-keys-from"):
                self._map(name, spec)
                continue
            field = option_field(spec, players=self.players, tri_state=tri_state, initial=(initial or {}).get(name),
                                 help_text=(help_texts or {}).get(name))
            if field is None:
                continue
            self.fields[self.prefix + name] = field
            kind = "choices" if isinstance(field, forms.MultipleChoiceField) else "field"
            self.layout.append({"name": name, "kind": kind, "field_names": [self.prefix + name],
                                "label": field.label, "help": field.help_text, "keys_from": ""})

    def _map(self, name: str, spec: dict) -> None:
        source = self.specs.get(spec["x-keys-from"]) or {}
        keys = (source.get("items") or {}).get("enum") or []
        labels = source.get("x-labels") or {}
        names = []
        for key in keys:
            field_name = f"{self.prefix}{name}__{key}"
            self.fields[field_name] = forms.TypedChoiceField(
                label=labels.get(key, key), required=False, coerce=int, empty_value=None,
                choices=[("", AUTOMATIC)] + _seat_choices(self.players),
                widget=SeatSelect())
            names.append(field_name)
        if names:
            self.layout.append({"name": name, "kind": "map", "field_names": names, "keys": list(keys),
                                "label": spec["title"],
                                "help": spec.get("description", ""),
                                "keys_from": self.prefix + spec["x-keys-from"]})

    def names(self) -> list[str]:
        return list(self.fields)

    def groups(self, form) -> list[dict]:
        out = []
        for entry in self.layout:
            fields = [form[n] for n in entry["field_names"]]
            out.append({**entry, "fields": fields,
                        "items": [{"key": k, "field": f} for k, f in zip(entry.get("keys") or [], fields)]})
        return out

    def bound_fields(self, form) -> list:
        return [form[n] for n in self.fields]

    # -- the options object --------------------------------------------------------------------

    def value(self, cleaned: dict, *, seats: int | None = None, add_error=None) -> dict:
        """The options the chosen fields make (defaults left out). ``seats``: the table's size, to
        refuse a player beyond it; ``add_error(field_name, message)`` reports what is wrong."""
        add_error = add_error or (lambda field, message: None)
        out: dict = {}
        for entry in self.layout:
            name, spec = entry["name"], self.specs[entry["name"]]
            if entry["kind"] == "map":
                chosen = self._map_value(entry, cleaned, out, seats, add_error)
                if chosen:
                    out[name] = chosen
                continue
            field_name = entry["field_names"][0]
            value = cleaned.get(field_name)
            default = spec.get("default")
            if entry["kind"] == "choices":
                size = spec.get("minItems")
                if not value or sorted(value) == sorted(default or []):
                    continue
                if size is not None and spec.get("maxItems") == size and len(value) != size:
                    add_error(field_name, f"Choose exactly {size} (you chose {len(value)}).")
                    continue
                order = [str(v) for v in (spec.get("items") or {}).get("enum", [])]
                out[name] = sorted(value, key=order.index)
                continue
            if self.tri_state and "boolean" in _types(spec):
                if value in ("yes", "no"):
                    out[name] = value == "yes"
                continue
            if "boolean" in _types(spec):
                if bool(value) != bool(default):
                    out[name] = bool(value)
                continue
            if value in (None, "") or value == default:
                continue
            if spec.get("x-seat") and seats is not None and value >= seats:
                add_error(field_name, f"{player_label(value)} is not at this table ({seats} players).")
                continue
            out[name] = value
        return out

    def _map_value(self, entry: dict, cleaned: dict, out: dict, seats, add_error) -> dict:
        source_name = entry["keys_from"][len(self.prefix):]
        in_play = out.get(source_name) or (self.specs.get(source_name) or {}).get("default") or []
        picks = {key: cleaned.get(f"{self.prefix}{entry['name']}__{key}") for key in in_play}
        if all(v is None for v in picks.values()):
            return {}
        missing = [k for k, v in picks.items() if v is None]
        if missing:
            add_error(f"{self.prefix}{entry['name']}__{missing[0]}",
                      f"{entry['label']}: choose a player for every one in play, or leave them all on {AUTOMATIC}.")
            return {}
        beyond = [k for k, v in picks.items() if seats is not None and v >= seats]
        if beyond:
            add_error(f"{self.prefix}{entry['name']}__{beyond[0]}",
                      f"{player_label(picks[beyond[0]])} is not at this table ({seats} players).")
            return {}
        return picks
