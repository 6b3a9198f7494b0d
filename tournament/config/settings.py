"""Settings, all from the environment (see .env.example and README.md).

With nothing set, the site runs embedded: SQLite in var/, Celery tasks run eagerly in
the request, DEBUG on, and a random secret key kept in var/secret_key. Production sets
DJANGO_DEBUG=false, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL and
CELERY_BROKER_URL.
"""

import secrets
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("FIFTYSIX_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=True)


def _secret_key() -> str:
    key = env.str("DJANGO_SECRET_KEY", default="")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false"
        )
    # Embedded mode: a random key of this checkout's own, never committed.
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS",
    default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [],
)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# A form whose CSRF check fails gets the site's 403 page saying why, in the visitor's
# language (tournament/web/csrf.py), not Django's bare one.
CSRF_FAILURE_VIEW = "tournament.web.csrf.csrf_failure"

INSTALLED_APPS = [
    # The Django admin, for the site's administrators only (tournament/admin_site.py).
    "tournament.apps.SiteAdministrationConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "tournament",
    "scoring",
    "brackets",
]

MIDDLEWARE = [
    # Outermost: one log line per request, with its id and without its keys.
    "tournament.ops.logs.RequestLog",
    # First: every answer under /api/ is JSON, and what is past the limits below is
    # refused before anything reads it (docs/security.md, "Hostile requests").
    "tournament.web.errors.ApiErrors",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The pages' language: the person's choice, the switcher's cookie, else
    # Accept-Language; the API stays English (docs/glossary.md).
    "tournament.web.language.PagesLanguage",
    # The site's zone around every request, UTC under /api/; a tournament's page
    # turns to the tournament's own (tournament/web/zones.py).
    "tournament.web.zones.TournamentTimeZone",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.web.security.ContentSecurityPolicy",
    "tournament.web.security.NumbersOutOfRange",
    # Last: it turns a locked-out login into its answer (docs/security.md).
    "axes.middleware.AxesMiddleware",
]
# The embedded default (no DATABASE_URL: `make run`, runserver and whitenoise) has no
# proxy in front to compress, so Django does, outside whitenoise so that the static
# files are compressed too. Production compresses in Caddy (deploy/Caddyfile). BREACH
# and the weak ETags it makes: docs/decisions.md, "Compression".
EMBEDDED = not env.str("DATABASE_URL", default="")
if EMBEDDED:
    MIDDLEWARE.insert(
        MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware"),
        "django.middleware.gzip.GZipMiddleware",
    )

ROOT_URLCONF = "tournament.config.urls"
WSGI_APPLICATION = "tournament.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.accounts.context_processors.site",
            ],
        },
    },
]

# Database: DATABASE_URL (postgres://user:pass@host:5432/name), else SQLite in var/.
if not EMBEDDED:
    DATABASES = {"default": env.db("DATABASE_URL")}
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DJANGO_CONN_MAX_AGE", 60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            # Scorers write at the same time: wait for the lock instead of failing at
            # once.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_VALIDATORS = "django.contrib.auth.password_validation."
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": _VALIDATORS + "UserAttributeSimilarityValidator"},
    {"NAME": _VALIDATORS + "MinimumLengthValidator"},
    {"NAME": _VALIDATORS + "CommonPasswordValidator"},
    {"NAME": _VALIDATORS + "NumericPasswordValidator"},
]
# Login attempts are limited (django-axes): after AXES_FAILURE_LIMIT failures for one
# username from one address, that pair waits AXES_COOLOFF_TIME. By username and
# address together, because a venue's phones share one address behind its Wi-Fi, and
# a stranger must not be able to lock an organizer out from elsewhere.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournament.web.security.locked_out"
AXES_VERBOSE = False
# The failures are counted in the database, not the cache: every web instance counts
# the same ones, and the lockout holds while Redis is down (docs/security.md).
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
# Behind a TLS proxy every request comes from the proxy's address: TRUSTED_PROXIES
# (how many proxies stand in front: 1 for the compose file's Caddy or a plain
# server's nginx) makes the lockout take the client's address from the entry of
# X-Forwarded-For that the outermost of them wrote (security.client_address), so
# that one stranger cannot lock an organizer out for everyone (docs/security.md).
# 0: the address is the connection's.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
AXES_CLIENT_IP_CALLABLE = "tournament.web.security.client_address"
# Password reset mails (tournament/web/security.py): at most this many to one address,
# and this many requests from one client (the same address as the lockout's), in the
# window; beyond, no mail is sent and the page says so. Counted in the database.
PASSWORD_RESET_PER_ADDRESS = env.int("PASSWORD_RESET_PER_ADDRESS", default=3)
PASSWORD_RESET_PER_CLIENT = env.int("PASSWORD_RESET_PER_CLIENT", default=10)
PASSWORD_RESET_WINDOW = timedelta(
    minutes=env.int("PASSWORD_RESET_WINDOW_MINUTES", default=60)
)

# Scripts, styles, images and requests from this site only (htmx is served from our
# static files), no frames, no plugins; forms post here only. Enforced when DEBUG is
# off; report-only while DEBUG (Django's debug pages inline their scripts).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
CONTENT_SECURITY_POLICY_REPORT_ONLY = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:home"
LOGOUT_REDIRECT_URL = "tournament:home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ml", "മലയാളം")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# The limits of a request (docs/security.md, "Hostile requests"). Under /api/, a body
# declared larger is refused with 413 before it is read; the pages keep Django's checks.
API_JSON_MAX_BYTES = env.int("API_JSON_MAX_BYTES", default=1024 * 1024)
API_JSON_MAX_DEPTH = env.int("API_JSON_MAX_DEPTH", default=32)  # arrays and objects
# An upload: the workbook (at most XLSX_IMPORT_LIMITS' 5 MB) and its form around it.
API_UPLOAD_MAX_BYTES = env.int("API_UPLOAD_MAX_BYTES", default=5 * 1024 * 1024 + 65536)
API_HEADERS_MAX_BYTES = env.int("API_HEADERS_MAX_BYTES", default=32 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = API_JSON_MAX_BYTES  # a body's non-file part, pages too
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000  # form fields, and query parameters
DATA_UPLOAD_MAX_NUMBER_FILES = 10
# An uploaded file is held in memory up to the upload limit.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024 + 65536
# An uploaded workbook (a team list, filled score sheets) is checked before openpyxl
# parses it: its size, what it unpacks to, its parts, worksheets, rows, columns, cells
# and XML (tournament/xlsx/read.py: XlsxLimits, whose defaults suit the largest real
# files). Any of them can be changed here, for example {"upload": 10 * 1024 * 1024}.
XLSX_IMPORT_LIMITS: dict[str, int] = {}

REST_FRAMEWORK = {
    # Token first, so that an anonymous call gets 401 with WWW-Authenticate, not 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        # Before the session: a table link's page sends its key, and it is the link
        # that writes, even when someone has signed in in another tab of the same
        # browser (docs/links.md). After the token, so that a 401 still asks for a
        # token.
        "tournament.web.links.LinkAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PAGINATION_CLASS": "tournament.web.api.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "tournament.web.schema.Schema",
    "EXCEPTION_HANDLER": "tournament.web.api.exception_handler",
    # Request bodies are JSON, nesting checked before parsing; the views that take
    # an upload name MultiPartParser instead. One media type per body, so that the
    # schema offers one and a client generated from it works (docs/api.md, "Errors");
    # any other is 415. The pages keep their forms: they are Django views.
    "DEFAULT_PARSER_CLASSES": ["tournament.web.parsers.JSONParser"],
    # The tests' APIClient sends JSON unless told otherwise, as every client does.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}
SPECTACULAR_SETTINGS = {
    # The title names a generated client: openapi-python-client makes the package
    # `fiftysix_api_client` of it (a name starting with a digit cannot be imported).
    "TITLE": "Fiftysix API",
    "DESCRIPTION": (
        "Tournaments of 56 as the international championship plays them: sections, "
        "teams, "
        "the league draw, score sheets, standings and the knockout."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # The error answers, the headers and PATCH bodies without defaults:
    # tournament/web/schema.py (docs/api.md); operation ids are on each view.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournament.web.schema.postprocess",
    ],
    # An id in a path (tournament/web/converters.py) is a number to a client.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}
    },
    # Served from our own static files: a venue's Wi-Fi may not reach a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: an operation's path would be a link inside its toggle button, a
    # control inside a control for a screen reader (axe's nested-interactive).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    # One name per choice set shared by several fields.
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": "scoring.models.SIDE_CHOICES",
        "MatchStageEnum": "scoring.models.STAGE_CHOICES",
        "MatchStatusEnum": "scoring.models.MATCH_STATUS_CHOICES",
        "TournamentStatusEnum": "tournament.models.STATUS_CHOICES",
        "PenaltyKindEnum": "scoring.sheets.apis.PENALTY_KIND_CHOICES",
        "KnockoutFeedEnum": "brackets.apis.FEED_CHOICES",
        "KnockoutKindEnum": "brackets.apis.KIND_CHOICES",
        "RoleEnum": "tournament.models.ROLE_CHOICES",
        "SiteRoleEnum": "tournament.models.SiteRole",
    },
}

# How often the standings and a team's page ask for news while matches are played
# (htmx polling; docs/standings.md says why not server-sent events).
STANDINGS_POLL_SECONDS = env.int("STANDINGS_POLL_SECONDS", default=20)
# The desk asks for its tables this often; the venue screen turns to its next view
# (docs/desk.md).
DESK_POLL_SECONDS = env.int("DESK_POLL_SECONDS", default=15)
SCREEN_SECONDS = env.int("SCREEN_SECONDS", default=15)

# The tournament workbook is built in the request up to this many deals; above it
# (with a real broker) in the background, with progress (docs/exports.md).
EXPORT_INLINE_MAX_DEALS = env.int("EXPORT_INLINE_MAX_DEALS", default=10000)
# A build in the background marks its job alive every EXPORT_BEAT_SECONDS; a job
# queued or running whose mark is older than EXPORT_STALE_SECONDS (its worker died, its
# task was lost) is sent again by a worker that is alive (docs/exports.md, "When a
# worker dies"). The stale age must hold several beats.
EXPORT_BEAT_SECONDS = env.int("EXPORT_BEAT_SECONDS", default=2)
EXPORT_STALE_SECONDS = env.int("EXPORT_STALE_SECONDS", default=15)

# Backups (docs/backups.md): of the whole site by hand to BACKUP_DIR (`manage.py
# backup` and `restore`); of a tournament, kept in the database, automatically before
# its draw, its knockout seeding and every reopening of a sheet, where the newest
# BACKUPS_KEPT automatic ones of each tournament are kept.
BACKUP_DIR = Path(env.str("BACKUP_DIR", default=str(VAR_DIR / "backups")))
BACKUP_AUTOMATIC = env.bool("BACKUP_AUTOMATIC", default=True)
# Players' ratings (docs/ratings.md): refreshed by the worker when a sheet is confirmed
# or reopened, and rebuilt after a merge, a split, a restore or an import. Off, they
# change only by `manage.py ratings_rebuild`.
RATINGS_AUTOMATIC = env.bool("RATINGS_AUTOMATIC", default=True)
BACKUPS_KEPT = env.int("BACKUPS_KEPT", default=50)  # automatic, per tournament
# A backup file taken in (docs/backups.md, "Hostile files"): at most this many bytes as
# uploaded; once inflated, at most BACKUP_IMPORT_MAX_BYTES on the pages (the import, a
# restore; a 500-team tournament's file inflates to 24 MB, a 2,000-team one's to about
# 100 MB; a bomb is refused in about 0.2 s holding 1 MB), BACKUP_MAX_BYTES for a
# tournament's file on the command line (`manage.py restore --tournament`) and
# BACKUP_SITE_MAX_BYTES for the whole site's (`manage.py restore`); nested at most
# BACKUP_MAX_DEPTH deep (a backup nests about 6 deep).
BACKUP_UPLOAD_MAX_BYTES = env.int("BACKUP_UPLOAD_MAX_BYTES", default=64 * 1024 * 1024)
BACKUP_IMPORT_MAX_BYTES = env.int("BACKUP_IMPORT_MAX_BYTES", default=128 * 1024 * 1024)
BACKUP_MAX_BYTES = env.int("BACKUP_MAX_BYTES", default=512 * 1024 * 1024)
BACKUP_SITE_MAX_BYTES = env.int("BACKUP_SITE_MAX_BYTES", default=4 * 1024**3)
BACKUP_MAX_DEPTH = env.int("BACKUP_MAX_DEPTH", default=64)

# Celery: eager in the embedded default; a real broker (Redis) in production.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str(
    "CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None
)
CELERY_TASK_ACKS_LATE = True
# Redis gone must not hold a request (docs/deploy.md, "When Redis or the worker
# dies"): a connection to it, and each command, is given REDIS_TIMEOUT_SECONDS, and
# a task that cannot be sent is retried once, at once, then given up (the caller
# logs it: tournament/ops/queue.py). A send to a Redis that refuses connections
# fails in a few milliseconds; to one that accepts and never answers (frozen), in
# about three seconds. The worker's wait for tasks (BRPOP) is read only once Redis
# has answered, so the timeout does not cut it.
REDIS_TIMEOUT_SECONDS = 1.0
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT_SECONDS
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT_SECONDS

# The cache, shared by every worker of the site (docs/statistics.md: what is computed
# from the sheets is kept under their fingerprint): Redis in production (CACHE_URL, a
# Redis of its own that evicts when full: docs/deploy.md, "Redis"; else the broker's,
# for a test), local memory in the embedded default, bounded by MAX_ENTRIES. Nothing in
# it is needed: a cache that is down or empty means computing again.
CACHE_URL = env.str("CACHE_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="fiftysix"),
            "TIMEOUT": 6 * 3600,
            "OPTIONS": {
                "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
                "socket_timeout": REDIS_TIMEOUT_SECONDS,
            },
        }
        if CACHE_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "TIMEOUT": 6 * 3600,
            # The statistics keep a part per team (scoring/statistics/selectors.py):
            # a 500-team tournament's parts and renders fit, at about 1 KB each.
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    )
}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 600
# A task whose worker died unacknowledged (acks late) goes back on the Redis queue
# after this long: longer than any task may run, so a slow build is never doubled.
# A workbook's job does not wait for it: a live worker sends it again once its beat
# is stale (EXPORT_STALE_SECONDS), and the late copy finds the job done.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 60,
    "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
    "socket_timeout": REDIS_TIMEOUT_SECONDS,
}
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker's lines go through the site's handler (JSON in production, keys cut),
# not a root logger of Celery's own; nor any handler of Celery's own
# (tournament/config/celery.py, _site_logging).
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Production hardening, on whenever DEBUG is off (`manage.py check --deploy` is clean).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# DJANGO_LOG_LEVEL is the least a record must be to be printed, from any logger (a
# 409's "Conflict" is a WARNING of django.request; ERROR keeps a busy day quiet).
LOG_LEVEL = env.str("DJANGO_LOG_LEVEL", default="INFO")
# LOG_FORMAT: "json" (one JSON line per request and per error, the production default)
# or "text" (development). Either way every key is cut from what is logged
# (tournament/ops/logs.py, docs/security.md), whatever logger wrote it: Django's loggers
# and the development server's, gunicorn's (deploy/gunicorn.conf.py gives it this
# same configuration), Celery's and billiard's are routed through the same handler,
# and an uncaught exception is logged, its traceback in one line (logs.configure).
LOG_FORMAT = env.str("LOG_FORMAT", default="text" if DEBUG else "json")
LOGGING_CONFIG = "tournament.ops.logs.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_keys": {"()": "tournament.ops.logs.RedactKeys"},
        # Celery's routine lines about the periodic tasks, every few seconds.
        "periodic_quiet": {"()": "tournament.config.celery.PeriodicQuiet"},
    },
    "formatters": {
        "json": {"()": "tournament.ops.logs.JsonLines"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "level": LOG_LEVEL,
            "filters": ["periodic_quiet", "redact_keys"],
            "formatter": "json" if LOG_FORMAT == "json" else "text",
        }
    },
    "loggers": {
        # Django's own loggers and the development server's, through our handler
        # (Django's default handlers would print paths with their keys).
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # At DEBUG it prints a page's whole context for each variable it misses (a
        # link's key, a person's address): a development aid, never written.
        "django.template": {"level": "INFO"},
        # The requests' lines: the development server prints its own.
        "fiftysix.request": {"level": "INFO" if LOG_FORMAT == "json" else "WARNING"},
        # gunicorn's own lines: its master's (a worker's timeout, its start) and a
        # worker's "Error handling request <path>", through our handler (gunicorn's
        # would print the path whole). Its access lines are left to the site's
        # (fiftysix.request) and the proxy's: INFO, so not written.
        "gunicorn.error": {
            "handlers": ["console"],
            "level": LOG_LEVEL,
            "propagate": False,
        },
        "gunicorn.access": {
            "handlers": ["console"],
            "level": "WARNING",
            "propagate": False,
        },
        # billiard's (the Celery worker's pool), which never propagates: without a
        # handler of its own, Python's last resort would print its errors plain.
        "multiprocessing": {
            "handlers": ["console"],
            "level": "WARNING",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}

# People (docs/people.md): an invitation link works this many days unless the
# organizer says otherwise. Mail (invitations, password resets; tournament/ops/mail.py):
# production sets EMAIL_URL (smtp+tls://user:password@host:587 for STARTTLS,
# smtp+ssl://…:465 for TLS) and DEFAULT_FROM_EMAIL, and the worker sends it. Unset,
# the embedded default (DEBUG on) prints mail whole on the console, its link to
# follow; with DEBUG off there is no mail (NotSent: one log line a message, without
# its body), never the console, which would write every link whole into the log.
INVITATION_DAYS = env.int("INVITATION_DAYS", default=7)
_EMAIL = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = (
    _EMAIL["EMAIL_BACKEND"]
    if DEBUG or env.str("EMAIL_URL", default="")
    else "tournament.ops.mail.NotSent"
)
EMAIL_HOST = _EMAIL.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _EMAIL.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_EMAIL.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_EMAIL.get("EMAIL_USE_SSL"))
DEFAULT_FROM_EMAIL = env.str(
    "DEFAULT_FROM_EMAIL", default="56 tournaments <noreply@localhost>"
)
