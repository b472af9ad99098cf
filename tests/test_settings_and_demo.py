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


# -- issue #14: DEBUG opt-in, seed_demo, the browsable API, log lines ------------------------------------

PRODUCTION_ENV = {"DJANGO_ENV": "production", "SECRET_KEY": "x" * 20 + "-production-grade-secret-key-for-check-0123456789",
                  "ALLOWED_HOSTS": "kamiza.example"}


def _settings_value(expr: str, **env) -> str:
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_ENV")}
    code = f"import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup(); from django.conf import settings; print({expr})"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_is_off_unless_asked_for():
    assert _settings_value("settings.DEBUG") == "False"  # before: on unless DJANGO_ENV=production
    assert _settings_value("settings.DEBUG", DJANGO_DEBUG="1") == "True"


def test_debug_is_refused_in_production():
    result = _manage("check", env={**os.environ, **PRODUCTION_ENV, "DJANGO_DEBUG": "1"})
    assert result.returncode != 0 and "DJANGO_DEBUG" in result.stderr


def test_dev_serve_turns_debug_on_for_development_only():
    sys.path.insert(0, str(ROOT))
    import dev

    env = dev.serve_env({"DATABASE_URL": "postgres://x", "PATH": "/bin"})
    assert env == {"PATH": "/bin", "DJANGO_DEBUG": "1"}
    assert dev.serve_env({"DJANGO_DEBUG": "0"})["DJANGO_DEBUG"] == "0"  # an explicit choice wins


def test_seed_demo_refuses_to_run_in_production():
    result = _manage("seed_demo", env={**os.environ, **PRODUCTION_ENV})
    assert result.returncode != 0 and "production" in result.stderr


def test_the_browsable_api_is_off_in_production():
    renderers = "settings.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']"
    assert _settings_value(renderers, **PRODUCTION_ENV) == "['rest_framework.renderers.JSONRenderer']"
    assert "BrowsableAPIRenderer" in _settings_value(renderers)


def test_every_log_line_is_written_once():
    """Django's default config gave the "django" logger a console handler of its own (with DEBUG)
    that also propagated to our root handler: every django.* line came out twice."""
    code = ("import django, logging, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup(); "
            "logging.getLogger('django.request').warning('line-from-django'); logging.getLogger('games.x').warning('line-from-games')")
    for debug in ("1", "0"):
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ENV"} | {"DJANGO_DEBUG": debug}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        lines = result.stderr.splitlines()
        assert lines.count("line-from-django") == 1 and lines.count("line-from-games") == 1, (debug, lines)


def test_dev_py_help_lists_the_commands_and_exits_0():
    result = subprocess.run([sys.executable, str(ROOT / "dev.py"), "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "serve [HOST:PORT]" in result.stdout and "test" in result.stdout
