"""Organized play. The pure core (no Django) is a one-way stack:
records -> scoring -> state -> standings -> swiss -> pods -> roundrobin/elimination -> rounds.
See docs/tournaments.md for the pairing, scoring and tiebreak policy."""
