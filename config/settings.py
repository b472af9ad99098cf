"""One settings module, driven by the environment.

Embedded default (nothing set): SQLite, Channels' in-memory layer, Celery tasks run eagerly,
a generated dev secret key. DEBUG is opt-in for development only (DJANGO_DEBUG=1, which
``python3 dev.py serve`` sets; refused with DJANGO_ENV=production). Distributed: DATABASE_URL (PostgreSQL) and REDIS_URL set:
channels_redis fan-out, Celery broker on Redis, real worker and beat processes.
Production: DJANGO_ENV=production (DEBUG off, secure cookies/HSTS, SECRET_KEY required).
"""

import os
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

PRODUCTION = env.str("DJANGO_ENV", default="development") == "production"
DEBUG = env.bool("DJANGO_DEBUG", default=False)
if PRODUCTION and DEBUG:
    raise RuntimeError("DJANGO_DEBUG must not be set with DJANGO_ENV=production")


def _dev_secret_key() -> str:
    """A per-checkout random key kept in var/, so sessions survive restarts in development."""
    from django.core.management.utils import get_random_secret_key

    path = VAR_DIR / "dev-secret-key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".dev-secret-key.{os.getpid()}")
        tmp.write_text(get_random_secret_key())
        os.replace(tmp, path)  # atomic: parallel test workers never read a half-written key
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY") if PRODUCTION else env.str("SECRET_KEY", default="") or _dev_secret_key()

# Also the WebSocket Origin allow-list: never "*" by default, even in development, so another
# site cannot open a socket with a developer's session cookie.
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "accounts",  # before django.contrib.auth: its createsuperuser adds the lookalike-username check
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "csp",
    "games",
    "games.eventstore",
    "games.projections",
    "games.tournaments",
    "games.ratings",
    "workers",
    "campaigns",
    "frontend",
]

MIDDLEWARE = [
    # First: an oversized body gets 413 before anything reads it (config.middleware).
    "config.middleware.BodySizeLimitMiddleware",
    # An unreachable database or Redis in a view: 503 {code: "unavailable"} / a plain page (config.middleware).
    "config.middleware.ServiceUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "frontend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database --------------------------------------------------------------------------
DATABASE_URL = env.str("DATABASE_URL", default="")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # The statements the store prepares on the server (games.eventstore.sql, prepare=True) are
        # planned once per connection: PostgreSQL's default re-plans one that takes an array on
        # every call (a custom plan for an array of known length always looks cheaper), which cost
        # more than running it. Each of them is written so that its generic plan is the index
        # plan (tests/eventstore/test_store_contract.py checks). Django's own queries bind on the
        # client and prepare nothing, so this setting does not touch them.
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["options"] = f"{options.get('options', '')} -c plan_cache_mode=force_generic_plan".strip()
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and env.bool("DB_POOL", default=True):
        # Under ASGI every request runs in a thread of its own, so a persistent connection
        # (CONN_MAX_AGE) dies with its thread: each request opened a new connection. A pool per
        # process lends connections to whichever thread asks (psycopg_pool). While the database is
        # down a request waits DB_POOL_TIMEOUT for a connection, then gets 503: short, so clients
        # (and socket handshakes) hear "unavailable" quickly and retry.
        # The pool checks a connection before lending it unless it was lent a moment ago
        # (config.postgresql: Django's own check costs a round trip every time).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", default=2), "max_size": env.int("DB_POOL_MAX_SIZE", default=10),
            "timeout": env.float("DB_POOL_TIMEOUT", default=3.0)}
    else:
        DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.str("SQLITE_PATH", default=str(VAR_DIR / "kamiza.sqlite3")),
            # IMMEDIATE takes SQLite's write lock at BEGIN, so concurrent writers queue instead
            # of failing mid-transaction: the store's "lock the match row" on SQLite.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
                # WAL lets readers run beside the writer; NORMAL sync is durable across app crashes.
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file (not :memory:) so threaded store tests share one database.
            # Per process, so parallel test runs on one checkout never share a file.
            "TEST": {"NAME": env.str("SQLITE_TEST_PATH", default=str(VAR_DIR / f"test-{os.getpid()}.sqlite3"))},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- redis: channels, celery, cache ----------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
DISTRIBUTED = bool(REDIS_URL)

if DISTRIBUTED:
    CHANNEL_LAYER = env.str("CHANNEL_LAYER", default="pubsub")
    CHANNELS_PREFIX = env.str("CHANNELS_PREFIX", default="kamiza")
    if CHANNEL_LAYER == "pubsub":
        CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 5}], "prefix": CHANNELS_PREFIX},
        }}
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # redis-py 8 defaults socket_timeout to 5 s, the same as channels_redis's BRPOP wait:
                # an idle socket's receive loop then times out and the connection is dropped. Give
                # reads head-room over the 5 s poll; a dead Redis is still noticed.
                "CONFIG": {
                    "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}],
                    "prefix": CHANNELS_PREFIX,
                },
            }
        }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_PREFIX", default="kamiza"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not DISTRIBUTED
# Eager retries re-apply without the caller's throw flag, so propagating would turn the first retry
# into an exception; failures are logged and dead-lettered like in a worker instead.
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A task taken by a worker that then died is delivered again once visibility_timeout has passed, but
# only when a worker looks for such tasks: kombu's default looks every 10 x 10 s. Look every
# CELERY_RESTORE_INTERVAL seconds instead (one cheap Redis read per worker).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=60),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": 1,
}
CELERY_BEAT_SCHEDULE = {
    "sweep-match-timers": {"task": "workers.tasks.sweep_timers", "schedule": env.float("TIMER_SWEEP_SECONDS", default=2.0)},
    # Automated steps whose task was lost (a worker killed, a broker restarted without its data):
    # matches awaiting SYSTEM or a bot for STALLED_AFTER_SECONDS are enqueued again.
    "sweep-stalled-matches": {"task": "workers.tasks.sweep_stalled",
                              "schedule": env.float("STALLED_SWEEP_SECONDS", default=30.0)},
    # tournaments: starts_at, round time limits, and the backstop for a lost MatchFinished reaction
    "sweep-tournaments": {"task": "workers.tasks.sweep_tournaments",
                          "schedule": env.float("TOURNAMENT_SWEEP_SECONDS", default=10.0)},
    "sweep-campaigns": {"task": "campaigns.tasks.sweep_campaigns",
                        "schedule": env.float("CAMPAIGN_SWEEP_SECONDS", default=60.0)},
    # "your turn" e-mails for decisions waiting TURN_EMAIL_AFTER_MINUTES (accounts.turn_emails)
    "sweep-turn-emails": {"task": "workers.tasks.sweep_turn_emails",
                          "schedule": env.float("TURN_EMAIL_SWEEP_SECONDS", default=60.0)},
}
STALLED_AFTER_SECONDS = env.float("STALLED_AFTER_SECONDS", default=20.0)
TASK_MAX_RETRIES = env.int("TASK_MAX_RETRIES", default=5)

# --- auth -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.validators.NotOnlyWhitespaceValidator"},
]
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
# Login lockout (accounts.lockout, docs/security.md "Login lockout"): failed attempts per window.
LOGIN_RATE_LIMIT = env.int("LOGIN_RATE_LIMIT", default=10)  # one account from one IP
LOGIN_RATE_LIMIT_PER_ACCOUNT = env.int("LOGIN_RATE_LIMIT_PER_ACCOUNT", default=2 * LOGIN_RATE_LIMIT)  # from all IPs
LOGIN_RATE_LIMIT_PER_IP = env.int("LOGIN_RATE_LIMIT_PER_IP", default=10 * LOGIN_RATE_LIMIT)  # all accounts
LOGIN_RATE_WINDOW = env.int("LOGIN_RATE_WINDOW", default=300)  # seconds
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3600)  # seconds a reset link works
# E-mail (password resets): the console in the embedded default; EMAIL_URL (smtp://user:pass@host:587,
# smtp+tls://...) in a deployment.
if env.str("EMAIL_URL", default=""):
    globals().update(env.email_url("EMAIL_URL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Kamiza <noreply@localhost>")
# Links in e-mails sent outside a request (the "your turn" e-mails): the site's public address.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# "Your turn" e-mails (opt-in per user): sent once a decision has waited this long, for decisions
# that started waiting at most TURN_EMAIL_MAX_AGE_HOURS before that.
TURN_EMAIL_AFTER_MINUTES = env.int("TURN_EMAIL_AFTER_MINUTES", default=15)
TURN_EMAIL_MAX_AGE_HOURS = env.int("TURN_EMAIL_MAX_AGE_HOURS", default=48)
SOCKET_AUTH_RECHECK_SECONDS = env.float("SOCKET_AUTH_RECHECK_SECONDS", default=2.0)
# API tokens expire this long after they were issued (POST /api/auth/token/rotate/ issues a fresh one).
API_TOKEN_TTL_SECONDS = env.int("API_TOKEN_TTL_SECONDS", default=30 * 24 * 3600)
# POST /api/auth/socket-ticket/: a single-use ticket for ``ws ...?ticket=``, kept in the cache
# (Redis in distributed mode, so any server can redeem it).
SOCKET_TICKET_TTL_SECONDS = env.int("SOCKET_TICKET_TTL_SECONDS", default=30)
# Deprecated: ``ws ...?token=<API token>`` puts a long-lived credential in the URL. Accepted
# during the 1.x API (documented deprecation period); set False to refuse it now.
SOCKET_QUERY_TOKEN_ALLOWED = env.bool("SOCKET_QUERY_TOKEN_ALLOWED", default=True)
# Browser sockets: the exact origins (scheme://host[:port]) allowed besides the page's own origin.
SOCKET_ALLOWED_ORIGINS = env.list("SOCKET_ALLOWED_ORIGINS", default=[])
# Per-socket message rate: more than SOCKET_RATE_MESSAGES within SOCKET_RATE_SECONDS closes the
# socket with 4429; ``sync`` answers at most SOCKET_SYNC_PAGE events per message.
SOCKET_RATE_MESSAGES = env.int("SOCKET_RATE_MESSAGES", default=60)
SOCKET_RATE_SECONDS = env.float("SOCKET_RATE_SECONDS", default=10.0)
SOCKET_SYNC_PAGE = env.int("SOCKET_SYNC_PAGE", default=100)
# Threads per server process for the sockets' database work (pushes, commands, syncs). More
# threads than cores only contend for the GIL: under `manage.py bench load` on 2 cores, 2 threads
# gave a lower p95 than 4 in 5 of 6 alternating runs, at 5 % less CPU (docs/performance.md).
SOCKET_DB_THREADS = env.int("SOCKET_DB_THREADS", default=2)
# Folded match states kept per process (games.application.selectors): at least the number of
# matches live at once, or commands and pushes read snapshots and tails again. A state takes 2 KB
# (Yashima) to about 90 KB (a Harakiri table) of memory, so at most about 90 MB.
FOLD_CACHE_MATCHES = env.int("FOLD_CACHE_MATCHES", default=1024)
# Spectator counts (games.application.presence): each server reports its own every this many
# seconds; a report expires after three intervals (a killed server's counts go with it).
SPECTATOR_REPORT_SECONDS = env.float("SPECTATOR_REPORT_SECONDS", default=5.0)
PRESENCE_PREFIX = env.str("PRESENCE_PREFIX", default=env.str("CACHE_PREFIX", default="kamiza"))
# The largest WebSocket frame a server hands to the application: uvicorn's own default (--ws-max-size),
# given to the embedded mode's server (daphne, through runserver) too, whose default (1 MiB) would
# drop a larger frame without a word. Up to it, the sockets answer a message over their own limit
# with the error `frame_too_large` in both run modes (games.realtime.consumers); beyond it the server
# refuses the frame: uvicorn closes the socket with 1009, daphne drops the connection without a close
# frame (docs/platform.md, "Frames over 16 MiB").
SOCKET_TRANSPORT_MAX_BYTES = 16 * 1024 * 1024
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = SOCKET_TRANSPORT_MAX_BYTES
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = SOCKET_TRANSPORT_MAX_BYTES

# --- i18n / static ------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"
# Production serves collected files; development (any ASGI server) serves straight from the finders.
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]

# --- request bodies ----------------------------------------------------------------------------
# Larger bodies get 413 {code: "payload_too_large"} (config.middleware.BodySizeLimitMiddleware).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)  # 2.5 MiB
COMMAND_BODY_MAX_BYTES = env.int("COMMAND_BODY_MAX_BYTES", default=64 * 1024)  # POST .../commands/

# --- content security policy (django-csp): no inline script or style anywhere -------------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],  # CSP3: 'self' covers ws(s):// to the same host
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- api -----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    # Per user (per IP for anonymous callers): 429 {code: "throttled"} with Retry-After.
    "DEFAULT_THROTTLE_RATES": {
        "register": env.str("REGISTER_RATE", default="200/hour"),
        "password_reset": env.str("PASSWORD_RESET_RATE", default="20/hour"),  # per client IP
        "match_create": env.str("MATCH_CREATE_RATE", default="10/minute"),
        "match_join": env.str("MATCH_JOIN_RATE", default="30/minute"),
        "chat": env.str("CHAT_RATE", default="20/minute"),
        "invitation": env.str("INVITATION_RATE", default="10/minute"),  # POST /api/matches/{id}/invitations/
        "socket_ticket": env.str("SOCKET_TICKET_RATE", default="60/minute"),
        # a tournament match report (API and pages): a record, a judges' queue entry, a push to watchers
        "tournament_report": env.str("TOURNAMENT_REPORT_RATE", default="5/minute"),
        # entering or leaving a tournament (register, withdraw, a team invitation's accept or decline)
        "tournament_entry": env.str("TOURNAMENT_ENTRY_RATE", default="10/minute"),
        # an organizer changing the settings, pausing or resuming the round: records in the logs, pushes
        "tournament_manage": env.str("TOURNAMENT_MANAGE_RATE", default="60/hour"),
        "campaign_create": env.str("CAMPAIGN_CREATE_RATE", default="10/minute"),  # starting one: match_create
        # renaming an account (API and account page): every name given up stays reserved for it
        "username_change": env.str("USERNAME_CHANGE_RATE", default="5/hour"),
    },
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The browsable HTML renderer is a development aid only.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + ([] if PRODUCTION else ["rest_framework.renderers.BrowsableAPIRenderer"]),
}
SPECTACULAR_SETTINGS = {
    "ENUM_NAME_OVERRIDES": {"TournamentStatusEnum": "games.tournaments.serializers.TOURNAMENT_STATUSES",
                            "StatusEnum": "games.api.serializers.MATCH_STATUSES",
                            "ReportStatusEnum": "games.tournaments.serializers.REPORT_STATUSES",
                            "InvitationStatusEnum": "games.api.invitation_serializers.INVITATION_STATUSES"},
    "TITLE": "Kamiza API",
    "DESCRIPTION": "Event-sourced matches of Yashima, Harakiri: Blades of Honor and Yokai Battle. "
                   "On every endpoint a request body over 2.5 MiB is answered 413 {code: payload_too_large}, and "
                   "while the database or Redis is unreachable 503 {code: unavailable} with Retry-After "
                   "(resending a command with the same command_id is safe).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "config.openapi.document_unsupported_media_type"],
    # Swagger UI served from our own static files (no CDN: works offline, pinned version).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": STATIC_URL + "img/kamiza.svg",  # the tab shows Kamiza's icon, as on every page
    "REDOC_DIST": "SIDECAR",
}

# --- the game platform -----------------------------------------------------------------
SNAPSHOT_EVERY = env.int("SNAPSHOT_EVERY", default=50)
# Extra engine modules to register (tests register their test-only engine this way).
KAMIZA_EXTRA_ENGINES = env.list("KAMIZA_EXTRA_ENGINES", default=[])
SEED_DEMO_DATA = env.bool("SEED_DEMO_DATA", default=False)
# Lobby flooding: a user may have at most this many open (not yet started) matches they created.
MAX_OPEN_MATCHES_PER_USER = env.int("MAX_OPEN_MATCHES_PER_USER", default=5)
# ... and at most this many open (not yet started) campaigns they created and still sit in.
MAX_OPEN_CAMPAIGNS_PER_USER = env.int("MAX_OPEN_CAMPAIGNS_PER_USER", default=5)
# Match chat (games.application.chat): the longest message, in characters (posting is throttled
# per user by the "chat" scope, CHAT_RATE).
CHAT_MAX_CHARS = env.int("CHAT_MAX_CHARS", default=500)

# --- production hardening ------------------------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# Every line is written once, by the root handler. Django's own default config gives the "django"
# logger a console handler of its own (active with DEBUG) while it still propagates to the root, so
# each django.* line came out twice: here "django" keeps no handler and only propagates.
# ("django.server", runserver's access log, keeps its own handler and does not propagate.)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
# The catalog: every engine package under games/engines/ is registered unless KAMIZA_ENGINES names
# the ones to register (module paths, e.g. "games.engines.yokai,games.engines.yashima").
KAMIZA_ENGINES = env.list("KAMIZA_ENGINES", default=[])
# Chaos hook for the distributed suite (workers.chaos): a directory where a test arms points at which
# tasks pause mid-work (and say so), so that it can SIGKILL the worker right there. Unset outside it.
WORKER_CHAOS_DIR = env.str("WORKER_CHAOS_DIR", default="")
