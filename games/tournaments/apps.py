from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.application import rematch, watch
        from games.projections import profiles, rebuild  # they import models, which load after the app configs

        from .rebuild import check_all
        from .selectors import tournaments_of
        from .watch import watch_policies

        profiles.section_register("tournaments", tournaments_of)
        watch.policy_provider_register(watch_policies)  # fair play: spectator delay, players barred
        rebuild.add_checker(check_all)  # manage.py rebuild_projections checks tournaments too
        rematch.rematch_guard_register(no_rematch_of_a_table)


def no_rematch_of_a_table(match_id) -> str | None:
    """A tournament schedules its own matches: a table's match has no rematch. While its round is
    paused the next round waits for the organizer (docs/tournaments.md, "A paused tournament does
    not move on"), and the sentence says so."""
    from .clock import round_clock
    from .models import TournamentTable

    table = TournamentTable.objects.filter(match_id=match_id).select_related("tournament").first()
    if table is None:
        return None
    clock = round_clock(table.tournament) if table.round == table.tournament.round else None
    if clock and clock["paused"]:
        reason = clock["paused_reason"]
        return (f"The round is paused{f' ({reason})' if reason else ''}: the next round will be paired when "
                "the organizer resumes it.")
    return "A tournament match has no rematch: the tournament pairs the next round."
