"""Settings for the mahjong platform, read from the environment.

With no variables set this is the *embedded* profile: SQLite, in-memory channel layer, eager
Celery and console e-mail, so `make run` needs nothing but Python. Setting DATABASE_URL and
REDIS_URL selects the *services* profile (PostgreSQL, Redis, real Celery workers), where no
state may live in a single process's memory. DJANGO_DEBUG=0 turns on the production switches
that `manage.py check --deploy` asks for.
"""

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for: a deploy that forgets a variable runs with the production switches.
# `make run` and the test settings turn it on.
DEBUG = env_bool("DJANGO_DEBUG", False)

EMBEDDED = not os.environ.get("DATABASE_URL") and not os.environ.get("REDIS_URL")


def secret_key_from_file(path: Path) -> str:
    """The key kept in ``path``, made on first use: a machine's own site (the embedded
    profile, or a debug run) needs no configuration and shares no key with anybody.  Made
    with O_EXCL, so processes started together agree on one key."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_urlsafe(64))
    return path.read_text().strip()


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or EMBEDDED):
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DATABASE_URL or REDIS_URL is set and "
            "DJANGO_DEBUG is not 1 (every server process of a deployment needs the same key)"
        )
    SECRET_KEY = secret_key_from_file(
        Path(os.environ.get("DJANGO_SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "accounts",
    "clubs",
    "games",
    "leaderboards",
    "records",
    "reviews",
    "ranked",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context_processors.club_requests",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"

# --- Data stores -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections: a table action should not pay for a new connection.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        # Off in the socket server (``config.serve``): its calls retry on a dead
        # connection themselves, and a ``SELECT 1`` before each would cost every move.
        conn_health_checks=os.environ.get("DB_CONN_HEALTH_CHECKS", "1") == "1",
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock at BEGIN: concurrent table services queue up instead of failing
    # half-way (on PostgreSQL the room row lock does this job).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
    # A file, not memory, for the test database: concurrency tests use several threads and
    # the integration tests a Daphne subprocess, which must all see the same database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-output" / "test-db.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server and a statement prepared once it has run five times
    # on a connection: PostgreSQL stops planning the table server's few hot statements
    # afresh at every action.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )

REDIS_URL = os.environ.get("REDIS_URL", "")
# The cache gets its own Redis database where possible: clearing it (tests do, between
# cases) must not wipe the Celery broker's queues and bindings.
REDIS_CACHE_URL = os.environ.get("REDIS_CACHE_URL", REDIS_URL)

if REDIS_CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "KEY_PREFIX": "mahjong",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Redis pub/sub ignores database numbers: every subscriber on the server hears every
# publish of the same channel name.  The layer's prefix is what keeps two deployments (or
# test runs) on one Redis apart; by default it names the database, so deployments given
# different database numbers are apart already, and ones sharing a database set their own.
CHANNEL_LAYER_PREFIX = os.environ.get(
    "CHANNEL_LAYER_PREFIX", "mahjong" + (urlsplit(REDIS_URL).path.strip("/") or "0")
)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: every process reads its messages from one subscription instead of
            # one BRPOP per message.  It may drop a message (at-most-once); clients
            # notice the version gap and resync.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Celery (read by config/celery.py with the CELERY_ namespace) ------------------------------

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
# Without a broker the embedded profile runs tasks inline, in the caller's process.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Settlement tasks are idempotent, so a task is acknowledged only once it has run and is
# redelivered if its worker dies; one task at a time per worker process keeps that fair.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task taken by a worker that died unacknowledged goes back to the queue after this many
# seconds (Redis' default is an hour).  Longer than any task runs (a settlement takes
# milliseconds), or a slow one would be handed to a second worker while the first works.
# A broker that does not answer is given up on after a few seconds, not the system's TCP
# timeout (the send after a hand's end waits on it).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300")),
    "socket_connect_timeout": 2,
}
# A send to a broker that is down fails fast rather than holding up the move that ended a
# hand: the hand stays owed its settlement and the sweeper resends it (games.table.settling).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.1}
# Seconds after a hand's end (and between resends) before the sweeper sends its settlement
# task again while the hand is not marked settled.
GAME_SETTLE_RESEND_SECONDS = float(os.environ.get("GAME_SETTLE_RESEND_SECONDS", "5"))
# Seconds a review request may stay pending before asking again sends its task again.
REVIEW_RESEND_SECONDS = float(os.environ.get("REVIEW_RESEND_SECONDS", "60"))
CELERY_TIMEZONE = "UTC"
# A worker keeps its database connection from task to task, as a server process does
# (``config.celery.close_old_connections_around_task``).  Celery's Django fixup otherwise
# closes every connection before and after every task, and each settlement paid for a new
# PostgreSQL backend (a fork, its authentication and cold catalog caches) and Django's
# connection setup.  The fixup closes only after twice this many tasks: never, in practice.
CELERY_DB_REUSE_MAX = 10**9

# --- Authentication ----------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
# Failed logins are limited per client address and per (address, account): allauth's "key"
# is the account qualified by the address (accounts.adapter), so guesses from one address
# never lock the owner out from another. Each tier is a longer wait once its count is
# reached (the delay grows). allauth counts them in the cache, which is Redis (shared by
# every process) in the services profile; refusals answer 429.
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,30/h/ip,100/d/ip,5/m/key,10/15m/key,20/d/key"}
# The client's address is REMOTE_ADDR unless this many proxies of ours (nginx: 1, see
# deploy/nginx.conf) stand in front; then it is the address the outermost of them saw, the
# X-Forwarded-For entries a client wrote itself being ignored. DRF's throttles read the same.
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"

# --- E-mail ------------------------------------------------------------------------------------

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "mahjong@localhost")

# --- Internationalisation ----------------------------------------------------------------------

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In the embedded profile WhiteNoise serves straight from the source folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic`; only production pays for that.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- API ---------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.api.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api.api_exception_handler",
    # The browser's session only: HTTP Basic would take a password guess per request with
    # no login limit (allauth's limits guard the login form).
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    # Throttles count in the cache (Redis with the services profile, so every process
    # shares the counts). Views opt in with ``throttle_scope``.
    "DEFAULT_THROTTLE_RATES": {
        "room_create": os.environ.get("GAME_ROOM_CREATE_RATE", "10/min"),
        "room_join": os.environ.get("GAME_ROOM_JOIN_RATE", "20/min"),
        "club_join": os.environ.get("CLUB_JOIN_RATE", "10/min"),
        "records_read": os.environ.get("RECORDS_READ_RATE", "120/min"),
        "records_export": os.environ.get("RECORDS_EXPORT_RATE", "10/min"),
        "invite_qr": os.environ.get("INVITE_QR_RATE", "30/min"),
        "review_request": os.environ.get("REVIEW_REQUEST_RATE", "10/min"),
        "table_talk": os.environ.get("TABLE_TALK_RATE", "60/min"),
    },
}
# Rooms one user may have waiting for players (not yet started) at once.
GAME_MAX_OPEN_ROOMS = int(os.environ.get("GAME_MAX_OPEN_ROOMS", "3"))
# Tables one user may sit at while their games are not over (waiting or playing, bot
# tables included), and table sockets one user may hold open at once (every server
# process counted): one account cannot weigh on everyone else's tables.
GAME_MAX_TABLES = int(os.environ.get("GAME_MAX_TABLES", "3"))
GAME_MAX_SOCKETS = int(os.environ.get("GAME_MAX_SOCKETS", "8"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong platform API",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/ serves Swagger UI from our own static files, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Production switches -----------------------------------------------------------------------

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# --- Live tables -------------------------------------------------------------------------------

# Seconds a bot (or a seat left by its player) waits before it acts: long enough to follow.
GAME_BOT_DELAY = float(os.environ.get("GAME_BOT_DELAY", "0.8"))
# Seconds every claim window stays open at least, after every discard and added kong,
# whether anybody can claim or not: how long the table pauses must not tell.
GAME_CLAIM_WINDOW = float(os.environ.get("GAME_CLAIM_WINDOW", "1.0"))
# At a table without timers, the clock a disconnected player gets before the bot plays for them.
GAME_AWAY_SECONDS = int(os.environ.get("GAME_AWAY_SECONDS", "30"))
# A socket's presence lapses this many seconds after its server's last heartbeat (a third
# of it apart), so a crashed server's players count as away within this time.
GAME_PRESENCE_TTL = int(os.environ.get("GAME_PRESENCE_TTL", "30"))
# Seconds between the end of a hand and the next one when not everyone readies.
GAME_NEXT_HAND_SECONDS = int(os.environ.get("GAME_NEXT_HAND_SECONDS", "20"))
# Each server process sweeps due deadlines; tests drive the sweep themselves.
GAME_SWEEPER = env_bool("GAME_SWEEPER", True)

# --- Ranked play -------------------------------------------------------------------------------

# Hands in a ranked match (the same for every variant).
RANKED_HANDS = int(os.environ.get("RANKED_HANDS", "8"))
# Seconds a matched player has to come to the table and ready; then they never came.
RANKED_ARRIVE_SECONDS = int(os.environ.get("RANKED_ARRIVE_SECONDS", "60"))
# A queued player who neither polls nor holds the play page for this long leaves the queue.
RANKED_QUEUE_GRACE = int(os.environ.get("RANKED_QUEUE_GRACE", "20"))
# Play-page sockets a player may open a minute (ranked.consumers): a page reconnecting
# after a dropped line opens a few; a loop opening hundreds is refused.
RANKED_PLAY_CONNECTS_PER_MINUTE = int(os.environ.get("RANKED_PLAY_CONNECTS_PER_MINUTE", "30"))
# Matching: players within this many 段位 steps meet at once; the band widens by one step
# for every RANKED_BAND_WIDEN seconds the longest-waiting of them has waited.
RANKED_BAND = int(os.environ.get("RANKED_BAND", "1"))
RANKED_BAND_WIDEN = int(os.environ.get("RANKED_BAND_WIDEN", "10"))
# Seconds between two matching passes across the processes sharing the cache.
RANKED_MATCH_INTERVAL = int(os.environ.get("RANKED_MATCH_INTERVAL", "1"))
# A matched player who never came: points lost and minutes kept out of the queue.
RANKED_NOSHOW_POINTS = int(os.environ.get("RANKED_NOSHOW_POINTS", "20"))
RANKED_NOSHOW_MINUTES = int(os.environ.get("RANKED_NOSHOW_MINUTES", "5"))
# Queue joins a user may make (DRF rate).
RANKED_QUEUE_RATE = os.environ.get("RANKED_QUEUE_RATE", "12/min")
