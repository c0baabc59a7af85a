"""Settings shared by every environment; dev, test and production refine them."""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

# The repository root: django-cotton finds templates/cotton/ through BASE_DIR.
BASE_DIR = Path(__file__).resolve().parents[3]
CONTENT_DIR = BASE_DIR / "content"

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS: list[str] = []

INSTALLED_APPS = [
    # First: runserver then serves WebSockets too (Channels' ASGI runserver).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.messages",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django_cotton.apps.SimpleAppConfig",
    "django_htmx",
    "axes",
    "core",
    "rules",
    "examples",
    "houserules",
    "play",
    "teach",
    "tables",
    "live",
]

MIDDLEWARE = [
    "core.requestlog.RequestIdMiddleware",
    "core.methods.EmptyHeadMiddleware",
    # Outside every middleware that may answer early (the HTTPS redirect) or raise (a wrong
    # Host: DisallowedHost, answered 400 where it is raised): those answers carry the headers.
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.compression.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "core.middleware.NorwegianLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "core.methods.MethodNotAllowedMiddleware",
    "core.charset.FormCharsetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Innermost: it sees the view's exception before Django turns it into a 500.
    "core.dbwrite.ReadOnlyMiddleware",
    "core.logincost.LoginCostMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

# Admin logins (#25): django-axes locks a username out at one address after
# AXES_FAILURE_LIMIT failed passwords, for AXES_COOLOFF_TIME, before any password is hashed
# (its backend comes first); core.logincost bounds the hashing all guessers may cause.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = 0.25  # hours
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "core.clientip.client_ip"
AXES_USERNAME_CALLABLE = "core.logincost.axes_username"
AXES_LOCKOUT_TEMPLATE = "login_limited.html"

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django_cotton.cotton_loader.Loader",
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                )
            ],
            "builtins": [
                "django_cotton.templatetags.cotton",
                "django.templatetags.i18n",
                "django.templatetags.static",
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.site",
                # After csrf and csp: cached pages are rendered with placeholders for both.
                "core.pagecache.render_placeholders",
            ],
        },
    }
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"


#: how long a command to the channel layer's Redis may wait for its answer (a busy server
#: reads it late; redis-py 8's default of 5 s closed pages' sockets then, #21)
REDIS_READ_TIMEOUT_S = 30


def channel_layers_from_env() -> dict:
    """Redis when REDIS_URL is set (several app servers share the groups); otherwise the
    in-memory layer, which reaches the sockets of this one process only.

    Redis through its publish/subscribe: a notice is one PUBLISH, and each process
    subscribed to the game's group gets it once and hands it to its own sockets. Channels'
    queue-based Redis layer made four round trips to send a notice and four more for each
    process to take it, about a millisecond of CPU per change (docs/live.md). A notice is
    worth little later: the row is the truth, and a page that missed one (its process's
    Redis connection was down) is brought up to date by the game's next change or when it
    reconnects; the queues' delivery after such a gap is not worth its cost."""
    url = os.environ.get("REDIS_URL")
    if url:
        host = {"address": url, "socket_timeout": REDIS_READ_TIMEOUT_S}
        return {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                            "CONFIG": {"hosts": [host], "prefix": "stress"}}}
    return {"default": {"BACKEND": "live.layers.InMemoryChannelLayer"}}


CHANNEL_LAYERS = channel_layers_from_env()


#: what every SQLite database of the site gets, however it is configured: concurrent readers
#: beside one writer (WAL), writers that queue instead of failing (IMMEDIATE, busy timeout).
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 5,
}


def database_from_env() -> dict:
    """DATABASE_URL when set (PostgreSQL, or SQLite as sqlite:///path), else the SQLite file
    db.sqlite3 (SQLITE_PATH); SQLite is tuned for concurrent readers whichever way it came."""
    url = os.environ.get("DATABASE_URL")
    if url:
        database = dj_database_url.parse(url, conn_max_age=600, conn_health_checks=True)
    else:
        database = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Opening an SQLite connection (Django registers its SQL functions on each) cost
            # the demo's requests about a quarter of their CPU time (docs/demo.md).
            "CONN_MAX_AGE": 600,
        }
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = {**SQLITE_OPTIONS, **database.get("OPTIONS", {})}
    return database


DATABASES = {"default": database_from_env()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Languages: the four Nordic/German audiences plus English, each with a URL prefix.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("sv", _("Swedish")),
    ("nb", _("Norwegian Bokmål")),
    ("de", _("German")),
    ("fi", _("Finnish")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = "config.formats"
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_HTTPONLY = True

# No inline script or style anywhere: scripts carry the per-request nonce or come from 'self'.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
# The site uses none of these browser features; nothing embedded in it may either.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
        "geolocation", "gyroscope", "hid", "idle-detection", "magnetometer", "microphone",
        "midi", "payment", "publickey-credentials-get", "screen-wake-lock", "serial", "usb",
        "xr-spatial-tracking",
    )
}
# A load balancer probes /healthz over plain HTTP inside the network: no HTTPS redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# Set (e.g. "X-Request-ID") only behind a proxy that writes that header on every request;
# otherwise each request gets a fresh id (core.requestlog).
REQUEST_ID_HEADER = ""
# The header a trusted proxy writes the client's address in (e.g. "X-Real-IP"); empty:
# REMOTE_ADDR. Limits on joining a class and on admin logins count by it (core.clientip).
CLIENT_IP_HEADER = ""
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "stress",
    },
    # Rendered pages (core.pagecache), per process: a few hundred pages of 10-80 KB.
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "stress-pages",
        "OPTIONS": {"MAX_ENTRIES": 600},
    },
}

# A server process freezes what it loaded and collects cycles rarely (config.garbage).
SETTLE_GC = True

# The playable demo (play app). The game clock runs at PLAY_CLOCK_SPEED times real time for
# new games (tests may speed it up); a page asks again when the next bot action is due and,
# while nothing is due, no more often than every PLAY_IDLE_POLL_MS; a game whose player made
# no move for PLAY_IDLE_PAUSE_MS of game time pauses until they resume it.
PLAY_CLOCK_SPEED = 1.0
PLAY_IDLE_POLL_MS = 1000
PLAY_IDLE_PAUSE_MS = 120_000
# Presence (play.presence, issue #22), for games started with an away limit (friends' and
# class tables): each seat's socket answers a ping every PLAY_PING_MS (its round trip is the
# delay the table shows); a seat with no open socket for PLAY_AWAY_GRACE_MS (a page reload
# takes less) pauses the game; PLAY_AWAY_LIMIT_MS is the limit a table offers by default
# before a bot takes the seat.
PLAY_PING_MS = 4000
PLAY_AWAY_GRACE_MS = 5000
PLAY_AWAY_LIMIT_MS = 60_000
# Every game, and every restart within it (new cards turned, a new deal), starts after a
# countdown of this many ms of game time ("3, 2, 1, go!"): nobody, bots included, plays
# before the signal (rules_engine.driver, issue #26).
PLAY_SIGNAL_MS = 3000
# manage.py prune_games: finished games are kept this many days, unfinished ones (abandoned)
# this many days after their last change.
PLAY_KEEP_FINISHED_DAYS = 30
PLAY_KEEP_ABANDONED_DAYS = 2
# How often the page cache looks for changed content files (they change on deploy).
PAGE_CACHE_RECHECK_SECONDS = 5.0
