"""Organized play (see docs/tournaments.md for the pairing, scoring and tiebreak policy).

A one-way stack. Pure core (no Django): records -> scoring -> state -> standings -> swiss -> pods ->
roundrobin, elimination -> rounds; outcomes. Django parts above it: models -> errors -> services ->
matches -> policies; reports (disputes) -> reports_api -> reports_urls; selectors, rebuild and admin read the
models and services."""
