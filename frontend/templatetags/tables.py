"""``{% table_teams_of match as teams %}``: a team table's format and who partners whom, in words
(``frontend.listings.table_teams``), for the match page's seats (``_table_teams.html``)."""

from django import template

from frontend.listings import table_teams

register = template.Library()


@register.simple_tag
def table_teams_of(match):
    return table_teams(match.game, match.options, match.seat_count)
