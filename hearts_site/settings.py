"""Settings read from the environment; the local run needs no variables at all."""

import os
from pathlib import Path

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


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off: "
            "every instance signs the players' cookies with it."
        )
    SECRET_KEY = "insecure-local-development-key-only-for-runserver-0123456789"
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "django_ratelimit",
    "game",
]

# The header middleware sit above WhiteNoise so that static files carry the same headers as pages.
MIDDLEWARE = [
    "hearts_site.middleware.ServerTimingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "hearts_site.middleware.CrossOriginResourcePolicyMiddleware",
    "hearts_site.middleware.CSPMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A network table's poll that finds nothing new is answered here, with the headers above
    # and nothing below: most requests to the site are such polls.
    "game.network.quiet.QuietPollMiddleware",
    # Refuses what the site will not read (a charset, a large or multipart body) before any
    # middleware below touches request.POST; the middleware above add their headers to it.
    "hearts_site.guard.RequestGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

# Bodies are bounded before they are read (hearts_site.guard); these bound what Django parses.
DATA_UPLOAD_MAX_MEMORY_SIZE = 8 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
FILE_UPLOAD_HANDLERS: list[str] = []  # the site takes no uploads

ROOT_URLCONF = "hearts_site.urls"
WSGI_APPLICATION = "hearts_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csrf",
                "game.web.respond.htmx",
            ],
            # {% action "play" %}: a form's address, the solo game's or a network table's
            "builtins": ["game.templatetags.table_actions"],
        },
    },
]

# The solo game needs no database: the game, the options and the statistics live in the signed
# cookie. Only the network tables live in the database: SQLite in the project folder
# by default (one instance only: its file is on one machine), PostgreSQL through DATABASE_URL
# wherever more than one instance serves (a PaaS add-on sets it).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A move reads and then writes the table's row: take the write lock at BEGIN, so that two
    # moves queue for it instead of failing to upgrade a read lock; WAL lets polls read meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE", timeout=20, init_command="PRAGMA journal_mode=WAL;"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Creating network tables is limited (game.network.views.creation_refused, django-ratelimit): per
# browser cookie, per IP address and in total, counted in the database that every instance
# shares (Django's database cache, its table made by the game's migrations), so every instance
# sees the same counts. The database cache's increment is a read and a write, not atomic: a
# burst of simultaneous creations may count a few short, which bounds abuse all the same.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "shared": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "hearts_shared_cache",
    },
}
RATELIMIT_USE_CACHE = "shared"
# The address a limit counts by: REMOTE_ADDR, or (behind a platform's router, which sets it)
# the header named here, such as HTTP_X_FORWARDED_FOR's first address.
RATELIMIT_IP_META_KEY = os.environ.get("HEARTS_CLIENT_IP_HEADER") or None
HEARTS_TABLES_PER_BROWSER = os.environ.get("HEARTS_TABLES_PER_BROWSER") or "10/h"
HEARTS_TABLES_PER_ADDRESS = os.environ.get("HEARTS_TABLES_PER_ADDRESS") or "30/h"
HEARTS_TABLES_IN_ALL = os.environ.get("HEARTS_TABLES_IN_ALL") or "2000/h"
# Today's Deal: results written an hour from one address and in all, and days kept.
HEARTS_TODAY_PER_ADDRESS = os.environ.get("HEARTS_TODAY_PER_ADDRESS") or "30/h"
HEARTS_TODAY_IN_ALL = os.environ.get("HEARTS_TODAY_IN_ALL") or "20000/h"
HEARTS_TODAY_KEEP_DAYS = int(os.environ.get("HEARTS_TODAY_KEEP_DAYS") or 90)
# What draws each day's deal (game.today.day); empty: the secret key.
HEARTS_TODAY_SECRET = os.environ.get("HEARTS_TODAY_SECRET", "")
# Seconds a network table waits for a person before anyone may let a computer play for them.
HEARTS_IDLE_SECONDS = int(os.environ.get("HEARTS_IDLE_SECONDS") or 60)
# ... and at the score sheet, while their page is open: reading the score is not being away.
HEARTS_SHEET_IDLE_SECONDS = int(os.environ.get("HEARTS_SHEET_IDLE_SECONDS") or 300)
# Seconds after a person's page closed (its event stream ended) before the others read that
# they have left, and may let a computer play for them at once.
HEARTS_LEFT_SECONDS = int(os.environ.get("HEARTS_LEFT_SECONDS") or 5)
# Without JavaScript, a network page waiting for others reloads itself this often (seconds).
HEARTS_REFRESH_SECONDS = int(os.environ.get("HEARTS_REFRESH_SECONDS") or 3)
# django-ratelimit warns of the database cache's non-atomic increment; see above for why it is
# the right cache here all the same (the only thing the instances share is the database).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Django's signed-cookie sessions, telling the game when a cookie came but could not be read.
SESSION_ENGINE = "game.web.session"
SESSION_SERIALIZER = "django.contrib.sessions.serializers.JSONSerializer"
SESSION_COOKIE_NAME = "hearts"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# The token reaches the pages through {% csrf_token %} (and hx-headers), never through JavaScript
# reading the cookie, so the CSRF cookie can be HttpOnly too.
CSRF_COOKIE_HTTPONLY = True

# --- HTTPS and security headers -------------------------------------------------------------
# The platform's router ends TLS and tells us the original scheme in X-Forwarded-Proto. Django
# reads that header only through this setting; a client talking to an instance directly can at
# most spoof "https" for itself, which only spares it the redirect.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# On by default in production; "0" for a production-like run on plain http://127.0.0.1.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# The platform's health check reaches an instance over plain HTTP, past the router: no redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# Cookies marked Secure are never sent over plain HTTP, so a production-like run on loopback sets
# DJANGO_SECURE_COOKIES=0 as well; on the real internet leave it alone.
SECURE_COOKIES = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
# HSTS is sent on HTTPS responses only (Django checks request.is_secure()). A smaller value, such
# as 300, is the careful first step for a new domain; 0 turns it off.
SECURE_HSTS_SECONDS = int(
    os.environ.get("DJANGO_SECURE_HSTS_SECONDS") or (0 if DEBUG else 60 * 60 * 24 * 365)
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CROSS_ORIGIN_RESOURCE_POLICY = "same-origin"  # sent by hearts_site.middleware

# Only what the pages need, all from this origin: no inline script or style, no eval. htmx 2 is
# told by its htmx-config meta tag not to inject its indicator styles and not to eval.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
    },
}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# static/ is optional: a checkout without it still passes "check --deploy" (staticfiles.W004).
STATICFILES_DIRS = [path for path in [BASE_DIR / "static"] if path.is_dir()]
# In production WhiteNoise serves the files collectstatic wrote: names carry a content hash (served
# with a ten-year, immutable Cache-Control) and each has a Brotli and a gzip twin.
STORAGES = {
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}
# WhiteNoise follows the environment's DEBUG rather than the test runner's (which forces DEBUG off):
# in development and in tests it serves the source files through the finders, with no
# collectstatic; in production only what collectstatic wrote. (Its defaults, but fixed here.)
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# Everything to standard output, where the platform collects it (gunicorn.conf.py does the same).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout"},
        "null": {"class": "logging.NullHandler"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # The internet sends requests for other hosts all day: the 400 in gunicorn's access log is
    # enough, without a traceback for each.
    "loggers": {"django.security.DisallowedHost": {"handlers": ["null"], "propagate": False}},
}
