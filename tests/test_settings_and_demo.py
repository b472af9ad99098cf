"""The two run modes' settings and the demo data the README promises."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.kernel import registry
from games.projections.models import MatchSummary

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args, env):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def test_production_settings_pass_the_deploy_check():
    env = {**os.environ, "DJANGO_ENV": "production", "SECRET_KEY": "x" * 20 + "-production-grade-secret-key-for-check-0123456789",
           "ALLOWED_HOSTS": "kamiza.example"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | {"DJANGO_ENV": "production"}
    result = _manage("check", env=env)
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_embedded_default_uses_sqlite_in_memory_layer_and_eager_celery(settings):
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert settings.CELERY_TASK_ALWAYS_EAGER is True


@pytest.mark.django_db(transaction=True)
def test_seed_demo_creates_users_and_a_running_match_of_each_game_once():
    call_command("seed_demo")
    call_command("seed_demo")  # idempotent
    User = get_user_model()
    assert {"alice", "bob", "admin"} <= set(User.objects.values_list("username", flat=True))
    assert User.objects.get(username="admin").is_staff
    assert User.objects.get(username="alice").check_password("kamiza-demo-1")
    games = set(MatchSummary.objects.values_list("match__game", flat=True))
    catalog = {engine.slug for engine in registry.all_engines()}  # every listed game
    assert catalog <= games
    assert MatchSummary.objects.filter(status="open").count() == len(catalog)
    assert MatchSummary.objects.exclude(status="open").count() == len(catalog)


@pytest.mark.django_db
def test_api_docs_are_served_without_a_cdn(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "cdn." not in body and "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in body
