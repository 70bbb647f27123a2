"""catclub settings, read from the environment (and a local ``.env`` file if present).

Defaults give the embedded single-machine setup: SQLite in WAL mode and Celery tasks run
in-process. ``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to a Redis broker,
result backend and cache. Without ``DJANGO_DEBUG`` the settings are production-safe: a
strong secret key is required and hosts must be listed.
"""

import hashlib
import ipaddress
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from games import catalog

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env", overwrite=False)

# --- Core -----------------------------------------------------------------------------
DEBUG = env.bool("DJANGO_DEBUG", default=False)
# The value .env.example ships with: public, so never a key, not even with DEBUG on.
PLACEHOLDER_SECRET_KEY = "change-me-to-a-long-random-string"  # noqa: S105 - refused below
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if SECRET_KEY == PLACEHOLDER_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is still the placeholder from .env.example; set it to a long random"
        " string, e.g. the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off.")
    SECRET_KEY = "insecure-development-key-only-for-debug"  # noqa: S105 - DEBUG only
# Django's own rule for a production key (check --deploy's W009), refused at start rather
# than reported by a check nobody runs: sessions, CSRF tokens and the admin's password
# reset links are only as strong as this key.
if not DEBUG and (
    len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
    or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
    or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)
):
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY is too weak for production: it needs at least"
        f" {SECRET_KEY_MIN_LENGTH} characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them"
        f" different, and no {SECRET_KEY_INSECURE_PREFIX!r} prefix; generate one with:"
        " python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# The public address of the site, for links in Telegram messages (replays, standings).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "games",
    "games.tournaments",
    "bot",
    "admin_ui",
    "web",
    "launch",
]

MIDDLEWARE = [
    "web.request_rate.RequestRateMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "server.static_files.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "admin_ui.User"
LOGIN_URL = "admin:login"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "OPTIONS": {
            # The apps' templates, then each game's own (its package is no app).
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.app_directories.Loader",
                        "web.game_files.TemplateLoader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
SQLITE_PATH = Path(env.str("SQLITE_PATH", default=str(BASE_DIR / "var" / "catclub.sqlite3")))
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}")}
DB_VENDOR = "sqlite" if "sqlite" in DATABASES["default"]["ENGINE"] else "postgresql"
if DB_VENDOR == "sqlite":
    # Django's backend, whose writers in this process take turns in order (server/sqlite):
    # with Django's own, writers met in SQLite's busy handler (issue 44's bench, no hostile
    # clients: 119-136 clicks in 30 s against 500, and games lost to their turn clocks).
    DATABASES["default"]["ENGINE"] = "server.sqlite"
    # WAL lets readers work while a writer commits; IMMEDIATE takes the write lock at
    # BEGIN so that two game processors never interleave (SQLite's "row lock").
    DATABASES["default"]["OPTIONS"] = {
        "timeout": env.int("SQLITE_BUSY_TIMEOUT", default=20),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
elif DATABASE_POOL_MAX_SIZE := env.int("DATABASE_POOL_MAX_SIZE", default=0):
    # A pool of connections per process (Django's psycopg pool; compose sets the size), so
    # that a web process holds at most this many, however many of its threads are busy: a
    # crowd of requests waits up to DATABASE_POOL_TIMEOUT for a connection instead of
    # PostgreSQL refusing the 101st ("too many clients already", issue 25). A thread gives
    # its connection back when its request ends (and a waiting long poll before it waits).
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django requires 0
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 1,
            "max_size": DATABASE_POOL_MAX_SIZE,
            "timeout": env.float("DATABASE_POOL_TIMEOUT", default=20.0),
        }
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# --- Redis, cache and Celery ----------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# Every key and pub/sub channel this site writes in Redis starts with SITE_PREFIX (issue
# 46): the cache's keys (KEY_PREFIX), the Celery broker's queues and results
# (global_keyprefix), the tables' channels (web/live/notify.py), the metrics' hashes and
# the Telegram rate windows. Pub/sub ignores Redis's database number, so two sites on one
# Redis woke each other's pages; and two on one database took each other's tasks and cache
# entries. By default a hash of the site's database name and secret key: the processes
# of one site share both, on every machine (whatever name each gives the database's host),
# two sites do not. Set it to keep a name across a change of either.
_site_identity = f"{DATABASES['default']['ENGINE']}|{DATABASES['default'].get('NAME', '')}"
SITE_PREFIX = env.str(
    "SITE_PREFIX",
    default="catclub:"
    + hashlib.sha256(f"{_site_identity}|{SECRET_KEY}".encode()).hexdigest()[:12]
    + ":",
)
# "shared": what every process must see alike, the Telegram syncs' locks and flags
# (bot/sync.py). With Redis, Redis; on the embedded default, where the site and the bot
# are separate processes, a table of the database they both open (createcachetable).
if REDIS_URL:
    # One connection pool per process, whatever the number of requests (server/cache.py).
    _redis_cache = {
        "BACKEND": "server.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": SITE_PREFIX,
    }
    CACHES = {"default": _redis_cache, "shared": _redis_cache}
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "shared": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "catclub_shared_cache",
        },
    }
# Telegram's flood limits are counted in Redis, or without it in this file, locked by each
# process in turn (bot/ratelimit.py).
TELEGRAM_RATE_FILE = Path(
    env.str("TELEGRAM_RATE_FILE", default=str(SQLITE_PATH.parent / "telegram-rate.json"))
)
# So are the operational metrics (server/metrics.py).
METRICS_FILE = Path(env.str("METRICS_FILE", default=str(SQLITE_PATH.parent / "metrics.json")))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# The results' keys under SITE_PREFIX (the broker's: CELERY_BROKER_TRANSPORT_OPTIONS).
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": SITE_PREFIX} if REDIS_URL else {}
# Without a broker, tasks run in-process (the embedded default): "background" hands each
# to a thread of its queue (server/background.py), so that no bot handler and no request
# waits for a game step or a Telegram sync; "eager" runs it at the call site (the tests).
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
# Redis writes nothing waits on (change markers, metrics) are sent by a thread of each
# process (server/background_writes.py); off, they are made at the call site.
BACKGROUND_WRITES = env.bool("BACKGROUND_WRITES", default=True)
TASKS_IN_PROCESS = env.str("TASKS_IN_PROCESS", default="background")
if TASKS_IN_PROCESS not in ("background", "eager"):
    raise ImproperlyConfigured("TASKS_IN_PROCESS must be background or eager.")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = timedelta(hours=1)
CELERY_TIMEZONE = "UTC"
# A task is acknowledged after it ran, one at a time: a killed worker's task is delivered
# again. The database stays the source of truth either way (pending moves are swept).
# Two queues, each with its own workers, so that neither starves the other: game work
# (moves, the sweep, ratings) and the Telegram syncs, which may wait on Telegram's limits.
# Routed by task name. CELERY_QUEUE names the game queue; the sync queue is named after it
# (a test run sets its own CELERY_QUEUE and so owns both).
GAMES_QUEUE = env.str("CELERY_QUEUE", default="celery")
TELEGRAM_QUEUE = f"{GAMES_QUEUE}.telegram"
# The searching computers' decisions (up to half a second of CPU each): a queue of their
# own, so that a crowd of hard computers never delays a person's move (issue 25).
COMPUTERS_QUEUE = f"{GAMES_QUEUE}.computers"
# The post-game reviews (issue 27): half a minute of CPU per game, after the game, so a
# queue of their own that neither moves nor the hard computers ever wait behind.
REVIEWS_QUEUE = f"{GAMES_QUEUE}.reviews"
CELERY_TASK_DEFAULT_QUEUE = GAMES_QUEUE
# Declared, so that a worker started without -Q consumes them all (one process on a laptop).
CELERY_TASK_QUEUES: dict[str, dict[str, object]] = {
    GAMES_QUEUE: {},
    TELEGRAM_QUEUE: {},
    COMPUTERS_QUEUE: {},
    REVIEWS_QUEUE: {},
}
# In order: the first pattern that matches routes a task (the exact name before its glob).
CELERY_TASK_ROUTES = {
    "games.tasks.decide_game": {"queue": COMPUTERS_QUEUE},
    "games.tasks.continue_game": {"queue": COMPUTERS_QUEUE},
    "games.tasks.review_game": {"queue": REVIEWS_QUEUE},
    "games.tasks.*": {"queue": GAMES_QUEUE},
    "bot.tasks.*": {"queue": TELEGRAM_QUEUE},
}
# In-process tasks in the background (TASKS_IN_PROCESS): the threads of each queue. Game
# work has one (one step at a time, in order, as SQLite takes one writer anyway), and the
# computers' searches one beside it; the syncs a few, as they wait for their chats' send
# windows.
TASKS_IN_PROCESS_THREADS = {
    GAMES_QUEUE: 1,
    COMPUTERS_QUEUE: 1,
    REVIEWS_QUEUE: 1,
    TELEGRAM_QUEUE: env.int("TASKS_IN_PROCESS_SYNC_THREADS", default=4),
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=60)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=50)
# The game workers' solo pool cannot enforce those limits, and their tasks call nothing
# but the database: there, on PostgreSQL, no statement may run (or wait for a lock) longer
# than this many seconds. The task fails; its moves stay pending and the sweep re-queues
# them (config/celery.py).
WORKER_STATEMENT_TIMEOUT = env.float("WORKER_STATEMENT_TIMEOUT", default=10.0)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery closes the database connections around every task unless told to reuse them; a
# new PostgreSQL connection per move cost more than the move. Connections that are
# obsolete (DATABASE_CONN_MAX_AGE) or broken are dropped before each task (config/celery.py).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
# Results are not needed for game work (the database has them); tasks that are awaited
# (the health ping) ask for theirs.
CELERY_TASK_IGNORE_RESULT = True
# With Redis down, a submission must not hang: give up quickly, the sweep re-queues.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": 300}
if REDIS_URL:
    # The queues' lists, the unacked tasks and the fanout channels under SITE_PREFIX.
    CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = SITE_PREFIX
CELERY_BEAT_SCHEDULE = {
    # Acts on overdue turn deadlines (so a turn runs at most this much over) and re-queues
    # moves a lost task left pending.
    # Each entry expires: while the workers are down, sweeps must not pile up in the queue
    # (one that finally runs does all the work any number of them would).
    "sweep": {
        "task": "games.tasks.sweep",
        "schedule": env.float("SWEEP_SECONDS", default=2.0),
        "options": {"expires": env.float("SWEEP_SECONDS", default=2.0)},
    },
    # Issue 26: starts due tournaments and their next rounds, seats arenas' waiting players.
    "tournaments": {
        "task": "games.tourneys.advance_all",
        "schedule": env.float("TOURNAMENT_SECONDS", default=10.0),
        "options": {"expires": env.float("TOURNAMENT_SECONDS", default=10.0)},
    },
    # Re-queues the Telegram syncs a dead worker or a restarted Redis lost.
    "recover-syncs": {
        "task": "bot.tasks.recover_syncs",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Issue 48: collusion signals over the finished rated games, as cases for moderators.
    "collusion": {
        "task": "games.moderation.collusion_scan",
        "schedule": env.float("COLLUSION_SECONDS", default=6 * 3600.0),
        "options": {"expires": env.float("COLLUSION_SECONDS", default=6 * 3600.0)},
    },
}

# A tournament's round starts: the seat of a player not seen in this many seconds (the
# tournament's page open, a sign-up), and who did not play their previous table, goes to a
# computer at once (a no-show's forfeit, issue 45), instead of holding the table for
# TIMEOUTS_BEFORE_COMPUTER turn clocks.
TOURNAMENT_PRESENT_SECONDS = env.float("TOURNAMENT_PRESENT_SECONDS", default=180.0)
# Issue 46: tournament sign-ups per hour from one client network (0: no limit), and the
# most players a tournament takes (games/tournaments/entry_guard.py).
TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS = env.int(
    "TOURNAMENT_SIGNUPS_PER_HOUR_PER_ADDRESS", default=10
)
TOURNAMENT_MAX_ENTRIES = env.int("TOURNAMENT_MAX_ENTRIES", default=256)

# --- Telegram -------------------------------------------------------------------------
TELEGRAM_BOT_TOKEN = env.str("TELEGRAM_BOT_TOKEN", default="")
TELEGRAM_API_URL = env.str("TELEGRAM_API_URL", default="https://api.telegram.org/bot")
TELEGRAM_WEBHOOK_SECRET = env.str("TELEGRAM_WEBHOOK_SECRET", default="")
TELEGRAM_BOT_USERNAME = env.str("TELEGRAM_BOT_USERNAME", default="")
# The Mini App's short name (BotFather: /newapp); set, the group's table message gets an
# "Open table" button to https://t.me/<bot username>/<short name>?startapp=<game id>.
TELEGRAM_MINIAPP_SHORT_NAME = env.str("TELEGRAM_MINIAPP_SHORT_NAME", default="")
# Issue 45: the sign-in page offers Telegram's Login Widget (a script and a frame from
# telegram.org, let in on that page only) when this is on and the bot's domain is set with
# BotFather's /setdomain; off, the page links to the Mini App and the browser tables.
TELEGRAM_LOGIN_WIDGET = env.bool("TELEGRAM_LOGIN_WIDGET", default=False)
# How old a Mini App's initData may be before the server refuses it (seconds).
MINIAPP_MAX_AGE = env.int("MINIAPP_MAX_AGE", default=24 * 3600)

# --- The web table ----------------------------------------------------------------------
# How long a page's long poll waits for its table to change before it asks again.
TABLE_WAIT_SECONDS = env.float("TABLE_WAIT_SECONDS", default=20.0)
if not 0 <= TABLE_WAIT_SECONDS <= 60:
    raise ImproperlyConfigured("TABLE_WAIT_SECONDS must be between 0 and 60.")
# The push (web/live/stream.py): a stream ends after this long, and the page's
# EventSource reconnects with the last table's token (a place for a proxy or a process to
# shed connections, and a per-address slot that never outlives its stream by much). A
# comment line every LIVE_HEARTBEAT_SECONDS keeps idle proxies from closing it.
LIVE_STREAM_SECONDS = env.float("LIVE_STREAM_SECONDS", default=300.0)
LIVE_HEARTBEAT_SECONDS = env.float("LIVE_HEARTBEAT_SECONDS", default=15.0)
# A page whose stream or poll answer is not taken (read) in this long is dropped: the server
# keeps at most one event and its write buffer for a reader that stalls.
LIVE_SEND_SECONDS = env.float("LIVE_SEND_SECONDS", default=30.0)
# Streams and waiting long polls at once in one ASGI process of the site: each costs a
# little memory and a socket, no thread; past it the page follows by long polling (a poll
# is answered at once and asks again).
LIVE_STREAMS_PER_PROCESS = env.int("LIVE_STREAMS_PER_PROCESS", default=10000)

# --- Limits of the public site (web/limits.py, web/live/slots.py, README "Limits") ------
# Defaults a person playing never meets; 0 turns a rate or connection limit off.
# Tables created per hour by one session, and by one client address (a household or an
# office behind one address counts together).
TABLES_PER_HOUR_PER_SESSION = env.int("TABLES_PER_HOUR_PER_SESSION", default=30)
TABLES_PER_HOUR_PER_ADDRESS = env.int("TABLES_PER_HOUR_PER_ADDRESS", default=120)
# And per minute per address: a person sets up a table and plays it; a script's hour of
# tables at once is an hour of writes and of computers playing abandoned tables at once.
TABLES_PER_MINUTE_PER_ADDRESS = env.int("TABLES_PER_MINUTE_PER_ADDRESS", default=4)
# Table pages following their game (each holds one long poll or one stream open) at once
# per address:
# a household's few players with a few tabs each; one address cannot take all the places
# of LONG_POLLS_PER_PROCESS either.
LIVE_CONNECTIONS_PER_ADDRESS = env.int("LIVE_CONNECTIONS_PER_ADDRESS", default=8)
# Seconds a stream or long poll refused for its address's limits waits before its 429
# (under ASGI, on the event loop: web/live/slots.py hold_refusal), so that a script ignoring
# Retry-After asks once per wait; 0 answers at once.
LIVE_REFUSAL_SECONDS = env.float("LIVE_REFUSAL_SECONDS", default=2.0)
if not 0 <= LIVE_REFUSAL_SECONDS <= 60:
    raise ImproperlyConfigured("LIVE_REFUSAL_SECONDS must be between 0 and 60.")
# Requests per second per client address, with a burst for a page that loads its files at
# once (web/request_rate.py): a person's pages ask a few times a second at most.
REQUESTS_PER_SECOND_PER_ADDRESS = env.float("REQUESTS_PER_SECOND_PER_ADDRESS", default=20)
REQUEST_BURST_PER_ADDRESS = env.int("REQUEST_BURST_PER_ADDRESS", default=120)
# What a refused request (400, 403, 404, 405) costs its client, in requests: a person is
# hardly ever refused; a script probing other people's tables, at every other request.
# By default only on the embedded server. With production's front-ends
# (gunicorn's threads) it only brought the 429 sooner, and the abuse
# bench's people waited longer: click -> screen p95 0.94-1.21 s at 10, 0.79-0.90 s at 0
# (three pairs in alternating order); on the embedded server 0.70-0.80 s at 10,
# 0.77-0.82 s at 0.
REQUEST_COST_OF_REFUSAL = env.int("REQUEST_COST_OF_REFUSAL", default=0 if REDIS_URL else 10)
# Long polls waiting at once in one WSGI process of the site (web/live/slots.py), where
# each holds a thread while it waits (under ASGI a waiting poll holds none and counts in
# LIVE_STREAMS_PER_PROCESS): few with Redis (production's WSGI processes serve the
# webhook, moves and the admin; the proxy sends long polls to the ASGI service); more
# without. A poll past the limit is answered at once (429 with "retry_ms"), and its page
# asks again a moment later.
LONG_POLLS_PER_PROCESS = env.int("LONG_POLLS_PER_PROCESS", default=16 if REDIS_URL else 256)
# Hard computers at a table whose creator is not signed in through Telegram (a browser
# visitor): a hard computer searches at each decision, and an abandoned table is played on
# by its computers. One still gives a visitor a strong opponent.
HARD_COMPUTERS_UNSIGNED = env.int("HARD_COMPUTERS_UNSIGNED", default=1)
# The proxies in front of the site whose X-Forwarded-For is believed (networks, comma
# separated: "127.0.0.1/32,172.16.0.0/12"); empty, the client is REMOTE_ADDR
# (web/clients.py). Behind a proxy, name it: otherwise every visitor has its address.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
try:
    [ipaddress.ip_network(n, strict=False) for n in TRUSTED_PROXIES]
except ValueError as exc:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {exc}") from exc

# --- Games ----------------------------------------------------------------------------
# Seconds a seat has to act, per game: the catalog's figure unless TURN_SECONDS_<GAME> says
# otherwise (TURN_SECONDS_<SLUG>=120, the slug in capitals); chats and leagues may override both.
TURN_SECONDS = {
    kind.slug: env.int(f"TURN_SECONDS_{kind.slug.upper()}", default=kind.turn_seconds)
    for kind in catalog.all_games()
}
TIMEOUTS_BEFORE_COMPUTER = env.int("TIMEOUTS_BEFORE_COMPUTER", default=2)
# The pause before a table with automatic moves plays a forced one (GameKind.auto_play).
AUTO_PLAY_SECONDS = env.float("AUTO_PLAY_SECONDS", default=2.0)
LOBBY_TTL = timedelta(minutes=env.int("LOBBY_TTL_MINUTES", default=30))
PENDING_MOVE_GRACE = timedelta(seconds=env.float("PENDING_MOVE_GRACE_SECONDS", default=3))
# The post-game review (issue 27, ``games.play.reviews``): whether finished games with a
# person at the table are reviewed; each decision gets REVIEW_SCALE times the hard
# computer's playouts (sized to about 0.3 s on one core), and a game at most as many
# playouts as REVIEW_MAX_DECISIONS full decisions (about half a minute of one core),
# shared evenly: counts, not seconds, so a review is the same whenever it is made.
REVIEWS = env.bool("REVIEWS", default=True)
# Without a broker, these queues' tasks run in a child process each, at a lower priority
# (server/background.py): in the site's own process a review held Python's interpreter
# lock for half a minute from every request and step of everyone else.
TASKS_IN_CHILD_PROCESS = env.list("TASKS_IN_CHILD_PROCESS", default=[REVIEWS_QUEUE])
# Likewise the searching computers' decisions, in one child process kept for them
# (games/play/search_process.py): the step that applies a decision stays here.
SEARCH_IN_CHILD_PROCESS = env.bool(
    "SEARCH_IN_CHILD_PROCESS",
    default=CELERY_TASK_ALWAYS_EAGER and TASKS_IN_PROCESS == "background",
)
# Likewise the tables' renders, in one child process (web/live/renders.py): a fifth of the
# site's interpreter lock under load; the renders made there are shared and kept here.
RENDER_IN_CHILD_PROCESS = env.bool(
    "RENDER_IN_CHILD_PROCESS",
    default=CELERY_TASK_ALWAYS_EAGER and TASKS_IN_PROCESS == "background",
)
REVIEW_SCALE = env.float("REVIEW_SCALE", default=1.0)
REVIEW_MAX_DECISIONS = env.int("REVIEW_MAX_DECISIONS", default=90)
# What one processing task spends on computers before it queues the rest (issue 25): each
# batch of cheap moves holds the game's lock (on SQLite, the database's) for no longer than
# this; a searching computer decides outside the lock, one decision a task at the most.
COMPUTER_STEP_SECONDS = env.float("COMPUTER_STEP_SECONDS", default=0.05)
COMPUTER_STEP_MOVES = env.int("COMPUTER_STEP_MOVES", default=50)

# --- Languages ------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("pt", _("Portuguese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "/static/"
# Each game's table style lives in its package (web/game_files.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "web.game_files.StaticFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Security -------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# HTTPS_ONLY: set when the site is served over HTTPS (behind a TLS-terminating proxy that
# sets X-Forwarded-Proto). Everything below follows from it unless the environment says
# otherwise, so an https SITE_URL alone gives a `check --deploy` without warnings.
HTTPS_ONLY = env.bool("DJANGO_HTTPS", default=not DEBUG and SITE_URL.startswith("https://"))
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_SSL_REDIRECT = env.bool("DJANGO_SSL_REDIRECT", default=HTTPS_ONLY)
# The container health check asks gunicorn directly, over plain HTTP.
# So is Prometheus scraping /metrics on the internal network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS_ONLY else None
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS_ONLY else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
# Preloading asks browsers to hard-code HTTPS for the domain and all its subdomains, and
# is slow to undo: the domain's owner opts in (DJANGO_HSTS_PRELOAD=1), so until then
# Django's reminder that it is off (W021) is not a warning about this site.
SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# Failed admin logins slow the next attempt down, per client address and per username
# (admin_ui/login_throttle.py): the first failure makes it wait BASE seconds, each further
# one twice as long, up to MAX; failures are forgotten SECONDS after the last one.
LOGIN_THROTTLE_BASE_SECONDS = env.float("LOGIN_THROTTLE_BASE_SECONDS", default=1.0)
LOGIN_THROTTLE_MAX_SECONDS = env.float("LOGIN_THROTTLE_MAX_SECONDS", default=5 * 60)
LOGIN_THROTTLE_SECONDS = env.int("LOGIN_THROTTLE_SECONDS", default=15 * 60)
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
# Every page's request reads its session: from the cache (Redis, or this process's memory
# on the embedded default), the database only on a miss. Writes go to both.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# No page may be framed (clickjacking), except the web table and the Mini App's entry:
# Telegram's web clients open a Mini App in an iframe of theirs, so those two pages let
# these origins frame them (CSP frame-ancestors; web/framing.py) and nobody else.
# Web K and Web A live at web.telegram.org/k/ and /a/; the other hosts are the names they
# were, and are still, served under.
X_FRAME_OPTIONS = "DENY"
TELEGRAM_FRAME_ANCESTORS = env.list(
    "TELEGRAM_FRAME_ANCESTORS",
    default=[
        "https://web.telegram.org",
        "https://webk.telegram.org",
        "https://webz.telegram.org",
        "https://weba.telegram.org",
    ],
)
# Content-Security-Policy (django-csp): the pages load their scripts, styles and images
# from the site only, with no inline script, style or event handler anywhere, so an
# injected tag runs nothing; their requests go back to the site only, and no form posts
# elsewhere. The table's script talks to Telegram by postMessage and needs nothing of it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [NONE],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "form-action": [SELF],
        "base-uri": [NONE],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
    },
}

# --- Logging --------------------------------------------------------------------------
# json: one object per line with the game and the Telegram update being handled, for a
# log collector (server/logformat.py); plain: for people. Production defaults to json.
LOG_FORMAT = env.str("LOG_FORMAT", default="plain" if DEBUG else "json")
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured("LOG_FORMAT must be plain or json.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "server.logformat.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"httpx": {"level": "WARNING"}},
}
# Celery's workers log through the same handlers instead of replacing them with their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- Metrics ----------------------------------------------------------------------------
# /metrics (Prometheus) answers only with "Authorization: Bearer <METRICS_TOKEN>"; without
# a token set it does not exist. The counts are kept in Redis, or without it in METRICS_FILE
# (server/metrics.py).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
