"""Settings for the newsroom CMS, read from the environment.

Embedded default (a laptop, ``make test``): SQLite, local-memory cache, eager tasks.
Production (``DJANGO_MODE=production``): PostgreSQL through ``DATABASE_URL``, Redis through
``REDIS_URL``, a real ``SECRET_KEY``; ``manage.py check --deploy`` is clean.
"""

import ipaddress
import logging
import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from newsroom.ops.logs import LOG_FORMATS, configure_structlog, logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), not {value!r}")


def envint(name: str, default: str) -> int:
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


def envseconds(name: str, default: str) -> float:
    value = os.getenv(name, default)
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number > 0:  # NaN too
        raise ImproperlyConfigured(f"{name} must be a positive number of seconds, not {value!r}")
    return number


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def envrate(name: str, default: str) -> str:
    value = os.getenv(name, default)
    if not re.fullmatch(r"[1-9]\d*/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfigured(f"{name} must look like 120/minute (per s, m, h or d), not {value!r}")
    return value


MODE = os.getenv("DJANGO_MODE", "development")
if MODE not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_MODE must be development or production, not {MODE!r}")
PRODUCTION = MODE == "production"

_DEV_SECRET_KEY = "django-insecure-development-only-never-in-production"
SECRET_KEY = os.getenv("SECRET_KEY", "" if PRODUCTION else _DEV_SECRET_KEY)
if PRODUCTION and (len(SECRET_KEY) < 50 or SECRET_KEY.startswith("django-insecure")):
    # Refuse to start rather than sign sessions with a guessable key.
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of at least 50 characters in production")

DEBUG = envbool("DEBUG", "false" if PRODUCTION else "true")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver")

# The public base URL used in every absolute link (desk/1 url, links, feeds, sitemaps).
SITE_URL = os.getenv("SITE_URL", "http://localhost:8000").rstrip("/")
SITE_NAME = os.getenv("SITE_NAME", "Hanging Context")
# Public pages: how long a browser (max-age) and a CDN (s-maxage) may reuse a response, and how
# long the server keeps a rendered page. A story change empties the server's copies at once; a
# CDN cannot be told, so s-maxage bounds how long a retraction can linger there.
PAGE_MAX_AGE = envint("PAGE_MAX_AGE", "60")
PAGE_S_MAXAGE = envint("PAGE_S_MAXAGE", "300")
PAGE_CACHE_SECONDS = envint("PAGE_CACHE_SECONDS", "600")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.sitemaps",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    # Swagger UI and Redoc as this site's own static files, not from a CDN (api/docs.py).
    "drf_spectacular_sidecar",
    "corsheaders",
    "nested_admin",
    "newsroom",
    "manifests",
    "stories",
    "editions",
    "verification",
    "public",
    "api",
    "webhooks",
    "axes",
    "django_structlog",
    "django_prometheus",
    "newsroom.ops",
]

# What renders a published story's page and twins (the public site), and who tells the CDN
# which cache tags to purge (see newsroom/pagecache.py); both are dotted paths.
STORY_ARTIFACT_RENDERER = "public.artifacts.render_artifacts"
# What renders an editor's preview of a working copy (the admin's "Preview" link).
STORY_PREVIEW_RENDERER = "public.artifacts.render_preview"
# What renders a paragraph's Markdown on the page, for the preview beside each paragraph in admin.
STORY_MARKDOWN_RENDERER = "public.markup.render_markdown"
CACHE_PURGE_HOOK = os.getenv("CACHE_PURGE_HOOK", "newsroom.pagecache.purge_nothing")

MIDDLEWARE = [
    # First, so that every request, however early it is answered, has its id, its log line and
    # its metrics, timed over the whole stack; in one cheap step (newsroom/ops/observe.py).
    "newsroom.ops.observe.RequestObservabilityMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Answers for pages kept in the page cache, right after the security headers and before
    # everything else (see its module): what the middleware between here and sessions does is
    # for the API and for requests that read the database, and a stored page is neither.
    "newsroom.pagecache.PageCacheMiddleware",
    # Before anything reads the path or the query: a NUL there is a 404 or a 400, never a 500.
    "newsroom.unstorable.UnstorableInputMiddleware",
    # For /api/ and /mcp/ alone (api/edge.py): CORS (api/cors.py), high up so that preflights and
    # the 503 below carry it too; RateLimit-* headers on every API answer, the throttles' and any
    # other (api/throttling.py); a chunked request body read like one sent with its length
    # (api/parsers.py).
    "api.edge.api_middleware",
    # Above everything that queries: the database away is a 503, never a 500.
    "newsroom.ops.unavailable.DatabaseUnavailableMiddleware",
    # Live story pages and twins from their stored artifact, before sessions and users too.
    "public.middleware.LiveStoryMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # For the admin alone (newsroom/scoped.py): its messages ("was changed successfully"; no
    # public page or API answer shows any), its pages in the editor's chosen time zone
    # (newsroom/usertime.py), and its Content-Security-Policy (newsroom/ops/csp.py).
    "newsroom.scoped.admin_middleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a refused sign-in into the lockout page (check ops.E002).
    "axes.middleware.AxesMiddleware",
]
if PRODUCTION:
    # WhiteNoise serves the collected static files behind gunicorn; runserver does it in development.
    _security = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware")
    MIDDLEWARE.insert(_security + 1, "whitenoise.middleware.WhiteNoiseMiddleware")

# The admin's check for the messages middleware looks for an entry of its own; the admin's
# scoped middleware carries it (newsroom/scoped.py), and ops.E003 checks that one instead.
SILENCED_SYSTEM_CHECKS = ["admin.E409"]

ROOT_URLCONF = "newsroom.urls"
WSGI_APPLICATION = "newsroom.wsgi.application"

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
                "newsroom.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.getenv("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", "60" if PRODUCTION else "0"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers (the site) and a writer (an import) work at once.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and envbool(
    "DATABASE_PREPARED_STATEMENTS", "true"
):
    # Server-side binding lets psycopg prepare a statement after its fifth run, so PostgreSQL
    # stops planning it anew each time: the story page's statements took longer to plan
    # than to run. Django leaves this off for transaction-mode poolers that lose prepared
    # statements between transactions (PgBouncer before 1.21): set this to false behind one.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.getenv("REDIS_URL", "")
# Pages are rendered anew when the cache cannot be reached (newsroom.pagecache): an
# unreachable server must cost a request this long at most, not the OS's minutes. Rendering a
# page anew costs 5-70 ms, so a cache that has not answered in 100 ms saves nothing: the first
# reader to meet a hung Redis waits this long (0.5 s put the SIGSTOP drill's p99 at 500 ms)...
CACHE_TIMEOUT_SECONDS = envseconds("CACHE_TIMEOUT_SECONDS", "0.1")
# ...and once: after a cache error the cache is skipped until it answers a PING, sent this often
# by a thread of each process, never by a reader (the circuit breaker in newsroom/cache.py).
CACHE_BREAKER_SECONDS = envseconds("CACHE_BREAKER_SECONDS", "5")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis backend, keeping one client per connection pool (see its module).
            "BACKEND": "newsroom.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.getenv("CACHE_KEY_PREFIX", "newsroom"),
            "OPTIONS": {"socket_connect_timeout": CACHE_TIMEOUT_SECONDS, "socket_timeout": CACHE_TIMEOUT_SECONDS},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# With Redis: pages each serving process keeps in its own memory, dropped when Redis announces
# a change (newsroom/localpages.py); 0 turns the copies off. A stored page is about 40 KB.
PAGE_CACHE_LOCAL_ENTRIES = envint("PAGE_CACHE_LOCAL_ENTRIES", "500")

# Celery: Redis as broker when REDIS_URL is set; otherwise tasks run in-process, eagerly.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
# CELERY_TASK_ALWAYS_EAGER=true keeps tasks in-process even with Redis, for a test suite that
# runs against Redis as cache but has no worker; real-worker tests start their own workers.
CELERY_TASK_ALWAYS_EAGER = envbool("CELERY_TASK_ALWAYS_EAGER", "false" if REDIS_URL else "true")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# On losing the broker connection a worker stops its late-ack tasks: the broker hands them out
# again anyway, and finishing them too would run them twice.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Longer than the longest task's hard time limit (system check verification.E001), so Redis
    # never redelivers a task that is still running on a live worker.
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", "3600"),
    # How often a worker looks for tasks whose worker died (unacked past the visibility timeout)
    # and puts them back on their queue; every look is one cheap sorted-set query.
    "unacked_restore_interval": envint("CELERY_UNACKED_RESTORE_INTERVAL", "10"),
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = "UTC"
# Each kind of work on its own queue, so a slow provider never holds up the checks' workers:
# run workers with -Q verification,manifests,webhooks (or one pool per queue).
CELERY_TASK_ROUTES = {
    "verification.tasks.refresh_live_versions_task": {"queue": "verification"},
    "verification.tasks.verify_story_task": {"queue": "verification"},
    "verification.tasks.requeue_pending_runs": {"queue": "verification"},
    "verification.tasks.publish_scheduled_task": {"queue": "verification"},
    "verification.tasks.fetch_manifests_task": {"queue": "manifests"},
    "webhooks.tasks.deliver_webhook_task": {"queue": "webhooks"},
    "webhooks.tasks.requeue_webhook_deliveries": {"queue": "webhooks"},
}
# Time limits in seconds: the soft one raises inside the task, the hard one kills its process.
# A verify task may fetch every cited manifest from the provider (timeouts and retries included).
VERIFY_TASK_SOFT_TIME_LIMIT = envint("VERIFY_TASK_SOFT_TIME_LIMIT", "600")
VERIFY_TASK_TIME_LIMIT = envint("VERIFY_TASK_TIME_LIMIT", "660")
FETCH_TASK_SOFT_TIME_LIMIT = envint("FETCH_TASK_SOFT_TIME_LIMIT", "300")
FETCH_TASK_TIME_LIMIT = envint("FETCH_TASK_TIME_LIMIT", "330")
# Re-rendering (and re-checking) the live stories that show a source that changed.
REFRESH_TASK_SOFT_TIME_LIMIT = envint("REFRESH_TASK_SOFT_TIME_LIMIT", "240")
REFRESH_TASK_TIME_LIMIT = envint("REFRESH_TASK_TIME_LIMIT", "300")
# Publishing the stories whose scheduled time has come (verification.schedule), a batch a minute.
SCHEDULE_TASK_SOFT_TIME_LIMIT = envint("SCHEDULE_TASK_SOFT_TIME_LIMIT", "120")
SCHEDULE_TASK_TIME_LIMIT = envint("SCHEDULE_TASK_TIME_LIMIT", "150")
# Without beat (eager tasks, make run) a thread of the serving process (runserver, gunicorn) runs
# that task instead, this often (verification/embedded_scheduler.py). Off by default with a broker:
# production runs celery beat.
EMBEDDED_SCHEDULER = envbool("EMBEDDED_SCHEDULER", "true" if CELERY_TASK_ALWAYS_EAGER else "false")
EMBEDDED_SCHEDULER_SECONDS = envseconds("EMBEDDED_SCHEDULER_SECONDS", "30")
SWEEP_TASK_SOFT_TIME_LIMIT = envint("SWEEP_TASK_SOFT_TIME_LIMIT", "50")
SWEEP_TASK_TIME_LIMIT = envint("SWEEP_TASK_TIME_LIMIT", "60")
# One webhook delivery: one HTTP request of at most WEBHOOK_TIMEOUT_SECONDS.
WEBHOOK_TASK_SOFT_TIME_LIMIT = envint("WEBHOOK_TASK_SOFT_TIME_LIMIT", "50")
WEBHOOK_TASK_TIME_LIMIT = envint("WEBHOOK_TASK_TIME_LIMIT", "60")
# The beat sweep (verification.tasks.requeue_pending_runs) queues again a run left pending this
# long (e.g. submitted while the broker was down), and one left running past its lease (its
# worker died); after VERIFY_RUN_MAX_ATTEMPTS claims a run is given up as "unknown".
VERIFY_REQUEUE_AFTER_SECONDS = envint("VERIFY_REQUEUE_AFTER_SECONDS", "120")
VERIFY_RUN_MAX_ATTEMPTS = envint("VERIFY_RUN_MAX_ATTEMPTS", "3")
# A run that ends "unknown" (the provider down, a claim's text not known) leaves its story
# submitted; the same sweep asks for a new run this long after it, the wait doubling with each
# run of the same content that could not decide, up to VERIFY_UNKNOWN_RETRY_MAX_SECONDS.
VERIFY_UNKNOWN_RETRY_SECONDS = envint("VERIFY_UNKNOWN_RETRY_SECONDS", "300")
VERIFY_UNKNOWN_RETRY_MAX_SECONDS = envint("VERIFY_UNKNOWN_RETRY_MAX_SECONDS", "21600")
CELERY_BEAT_SCHEDULE = {
    "requeue-pending-runs": {
        "task": "verification.tasks.requeue_pending_runs",
        "schedule": float(envint("VERIFY_REQUEUE_EVERY_SECONDS", "60")),
        # A sweep not started within a minute is superseded by the next one.
        "options": {"expires": 60},
    },
    "publish-scheduled-stories": {
        "task": "verification.tasks.publish_scheduled_task",
        "schedule": float(envint("SCHEDULE_EVERY_SECONDS", "60")),
        "options": {"expires": 60},
    },
    # Webhook deliveries recorded while the broker was down (webhooks.tasks).
    "requeue-webhook-deliveries": {
        "task": "webhooks.tasks.requeue_webhook_deliveries",
        "schedule": float(envint("WEBHOOK_REQUEUE_EVERY_SECONDS", "60")),
        "options": {"expires": 60},
    },
}
# The worker heartbeat (newsroom.ops): beat sends a tiny task to every queue this often, and
# /readyz fails when a queue's last one ran more than READY_HEARTBEAT_MAX_AGE_SECONDS ago. It
# waits behind the tasks queued before it, so a queue whose workers are all busy for longer
# also shows as not ready: readiness means the work is being taken up.
CELERY_HEARTBEAT_QUEUES = sorted({route["queue"] for route in CELERY_TASK_ROUTES.values()})
HEARTBEAT_EVERY_SECONDS = envint("HEARTBEAT_EVERY_SECONDS", "15")
READY_HEARTBEAT_MAX_AGE_SECONDS = envint("READY_HEARTBEAT_MAX_AGE_SECONDS", "60")
for _queue in CELERY_HEARTBEAT_QUEUES:
    CELERY_BEAT_SCHEDULE[f"worker-heartbeat-{_queue}"] = {
        "task": "newsroom.ops.tasks.worker_heartbeat",
        "schedule": float(HEARTBEAT_EVERY_SECONDS),
        "args": (_queue,),
        # A heartbeat not taken before the next one is sent says nothing the next will not.
        "options": {"queue": _queue, "expires": HEARTBEAT_EVERY_SECONDS},
    }
# How long /readyz waits for the broker to answer.
READY_CHECK_TIMEOUT_SECONDS = envseconds("READY_CHECK_TIMEOUT_SECONDS", "2")

# Sign-in lockout (django-axes). The lockout backend comes first, so that no backend can sign in
# a locked-out user (check ops.E001); it only refuses, ModelBackend does the signing in.
AUTHENTICATION_BACKENDS = [
    "newsroom.ops.auth.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# LOGIN_FAILURE_LIMIT failed sign-ins for one username (from anywhere), or from one client address
# (for any usernames), lock that username or address out for LOGIN_LOCKOUT_MINUTES, counted
# from the last failure. Tries during a lockout are refused without counting, so the time a
# locked-out user is told stays true. `manage.py axes_reset_username NAME` (or axes_reset_ip,
# or deleting the access attempt in admin) unlocks at once.
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", "5")
LOGIN_LOCKOUT_MINUTES = envint("LOGIN_LOCKOUT_MINUTES", "15")
# How many reverse proxies of ours stand before gunicorn, each appending to X-Forwarded-For: the
# client's address is the entry that many places from the right. 0 trusts no header (REMOTE_ADDR).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
# The pair: failures lock one username at one client address. Locking a username alone would let
# anyone lock a colleague out from anywhere (a denial of service); an address alone, an office
# behind one NAT. A guesser spreading over many addresses is slowed by TRUSTED_PROXY_COUNT
# reading the true address, and by strong passwords.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "newsroom.ops.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "newsroom.ops.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# Its start-up banner on every manage.py command is noise; lockouts are still logged.
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# The API (api/). Anonymous clients are throttled by address (as TRUSTED_PROXY_COUNT finds it),
# token holders by token; both counted in the default cache (Redis in production):
# API_ANON_RATE and API_TOKEN_RATE requests per second, minute, hour or day.
API_ANON_RATE = envrate("API_ANON_RATE", "120/minute")
API_TOKEN_RATE = envrate("API_TOKEN_RATE", "600/minute")
# The largest request body the API reads (a desk/1 document and a little room); more is a 413.
API_MAX_BODY_BYTES = envint("API_MAX_BODY_BYTES", str(5 * 1024 * 1024 + 64 * 1024))
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.schema.SiteAutoSchema",
    # Tokens only: the API never reads the admin's session cookie, so no request of it can be
    # forged from a page an editor has open (no CSRF to get wrong).
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.BearerTokenAuthentication"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Cursor",
    "PAGE_SIZE": 20,
    # JSON only: the docs pages (Swagger UI, Redoc) are the human view of the API.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.AnonRateThrottle", "api.throttling.TokenRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": API_ANON_RATE, "token": API_TOKEN_RATE},
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# The changes feed (/api/v1/changes/) lists a change once it is this old, so that one committing
# late (its transaction began before another's) is never passed over by a mirror's cursor.
API_CHANGES_SETTLE_SECONDS = envint("API_CHANGES_SETTLE_SECONDS", "2")
# CORS (api/cors.py): any origin may read /api/ without credentials; the origins listed in
# API_CORS_WRITE_ORIGINS (comma-separated, like https://desk.example.com) may also write, with
# the Authorization header and credentials. Within api/edge.py's API_PREFIXES, the only paths its
# middleware sees (with any other a check_request_enabled receiver opens).
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOWED_ORIGINS = envlist("API_CORS_WRITE_ORIGINS", "")
# A POST's Idempotency-Key (api/idempotency.py) replays its first answer for this long.
API_IDEMPOTENCY_SECONDS = envint("API_IDEMPOTENCY_SECONDS", "86400")
# API tokens (django-rest-knox): only a SHA-512 digest of each token is stored. A token expires
# API_TOKEN_TTL_DAYS after it is made (0: never), unless made with its own expiry.
API_TOKEN_TTL_DAYS = envint("API_TOKEN_TTL_DAYS", "90")
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_TTL": timedelta(days=API_TOKEN_TTL_DAYS) if API_TOKEN_TTL_DAYS else None,
    "AUTO_REFRESH": False,
}
# Webhooks (webhooks/): a delivery is tried WEBHOOK_MAX_RETRIES more times after a failure, with
# exponential backoff from WEBHOOK_RETRY_BACKOFF_SECONDS up to WEBHOOK_RETRY_BACKOFF_MAX_SECONDS.
# WEBHOOKS_ALLOW_LOOPBACK lets tests register http:// URLs on 127.0.0.1; never in production.
WEBHOOK_TIMEOUT_SECONDS = envint("WEBHOOK_TIMEOUT_SECONDS", "10")
WEBHOOK_MAX_RETRIES = envint("WEBHOOK_MAX_RETRIES", "8")
WEBHOOK_RETRY_BACKOFF_SECONDS = envint("WEBHOOK_RETRY_BACKOFF_SECONDS", "30")
WEBHOOK_RETRY_BACKOFF_MAX_SECONDS = envint("WEBHOOK_RETRY_BACKOFF_MAX_SECONDS", "3600")
# A delivery recorded this long ago that no queued task holds (the broker was down) is queued
# again by the beat sweep webhooks.tasks.requeue_webhook_deliveries.
WEBHOOK_REQUEUE_AFTER_SECONDS = envint("WEBHOOK_REQUEUE_AFTER_SECONDS", "60")
WEBHOOKS_ALLOW_LOOPBACK = envbool("WEBHOOKS_ALLOW_LOOPBACK", "false")
if PRODUCTION and WEBHOOKS_ALLOW_LOOPBACK:
    raise ImproperlyConfigured("WEBHOOKS_ALLOW_LOOPBACK is for tests: it lets webhooks reach this machine")
SPECTACULAR_SETTINGS = {
    "TITLE": "Newsroom CMS API",
    "DESCRIPTION": (
        "Provenance-checked stories in the hangingcontext.desk/1 format. Reading is anonymous and "
        "shows published content only. Writing (submitting desk/1 documents, reading their "
        "verification runs, publishing, correcting, retracting, managing webhooks) needs a token: "
        "Authorization: Bearer <token>, from manage.py create_api_token; it acts with its user's "
        "roles in each newsroom, within its scopes (read: runs, webhooks; submit: submissions; "
        "publish: publishing, corrections, retractions, managing webhooks): a scope it lacks is a 403 "
        "insufficient_scope naming it. Every POST takes an Idempotency-Key. Every error has one shape: "
        '{"error": code, "message": text, "problems": [{"at": parameter or desk/1 path, "message": text}]}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI and Redoc from this site's static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The desk/1 JSON Schema as the story's type (api/schema.py), beside the enum names' hook.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.add_desk1_components"],
    "ENUM_NAME_OVERRIDES": {
        "StoryStatusEnum": "stories.models.Story.Status",
        "RunStatusEnum": "verification.models.VerificationRun.Status",
        "CheckStatusEnum": "verification.models.CheckStatus",
    },
}

# The trust level suggested for a story, first matching rule wins; an editor may override it.
TRUST_RULES = [
    {"level": "confirmed", "min_sources": 5, "min_publishers": 3},
    {"level": "reported", "min_sources": 0, "min_publishers": 0},
]

# The server-side checks (verification/). Manifests must be published within this many days
# before the story; a story must not repeat one already out and dated within this many days of it.
VERIFY_RECENT_DAYS = envint("VERIFY_RECENT_DAYS", "7")
REPEAT_WINDOW_DAYS = envint("REPEAT_WINDOW_DAYS", "14")
# not_repeat fails when the text similarity (estimated Jaccard of word features, 0-1) reaches
# REPEAT_TEXT_THRESHOLD, or when the combined score (text and cited-manifest overlap) reaches
# REPEAT_SCORE_THRESHOLD; both in percent.
REPEAT_TEXT_THRESHOLD = envint("REPEAT_TEXT_THRESHOLD", "70")
REPEAT_SCORE_THRESHOLD = envint("REPEAT_SCORE_THRESHOLD", "55")
# A running verification run whose worker has been silent this long may be taken over; keep it
# longer than the verify task's hard time limit.
VERIFY_RUN_LEASE_SECONDS = envint("VERIFY_RUN_LEASE_SECONDS", "900")

# A desk/1 document larger than this is refused before it is parsed.
DESK_MAX_DOCUMENT_BYTES = envint("DESK_MAX_DOCUMENT_BYTES", str(5 * 1024 * 1024))

# The manifest provider (Synorb REST shape). No URL means "not configured": nothing is called.
MANIFEST_PROVIDER_URL = os.getenv("MANIFEST_PROVIDER_URL", "").rstrip("/")
MANIFEST_PROVIDER_KEY = os.getenv("MANIFEST_PROVIDER_KEY", "")
MANIFEST_PROVIDER_CONNECT_TIMEOUT = envint("MANIFEST_PROVIDER_CONNECT_TIMEOUT", "5")  # seconds
MANIFEST_PROVIDER_READ_TIMEOUT = envint("MANIFEST_PROVIDER_READ_TIMEOUT", "20")  # seconds for the whole reply
MANIFEST_PROVIDER_MAX_RETRIES = envint("MANIFEST_PROVIDER_MAX_RETRIES", "3")
MANIFEST_PROVIDER_MAX_REPLY_BYTES = envint("MANIFEST_PROVIDER_MAX_REPLY_BYTES", str(2 * 1024 * 1024))
MANIFEST_PROVIDER_BACKOFF_BASE = envint("MANIFEST_PROVIDER_BACKOFF_BASE_MS", "500") / 1000  # seconds
# The longest the client sleeps between attempts; a longer Retry-After ends the fetch instead.
MANIFEST_PROVIDER_MAX_WAIT = envint("MANIFEST_PROVIDER_MAX_WAIT", "30")  # seconds

# Logs (newsroom/ops/logs.py): one JSON object a line (LOG_FORMAT=json, the production default)
# or human-readable lines (console, the development default), each with the request's id.
LOG_FORMAT = os.getenv("LOG_FORMAT", "json" if PRODUCTION else "console")
if LOG_FORMAT not in LOG_FORMATS:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or console, not {LOG_FORMAT!r}")
LOGGING = logging_config(log_format=LOG_FORMAT, level=os.getenv("LOG_LEVEL", "INFO"))
configure_structlog()
# django-structlog: the request id is ours (a well-formed X-Request-ID, else a UUID), so is the
# client address (TRUSTED_PROXY_COUNT, not ipware's left-most X-Forwarded-For), and the user id
# is bound only once the request looked the user up (never a session read just for the log).
DJANGO_STRUCTLOG_CELERY_ENABLED = True
DJANGO_STRUCTLOG_IP_LOGGING_ENABLED = False
DJANGO_STRUCTLOG_USER_ID_FIELD = None
DJANGO_STRUCTLOG_STATUS_START_LOG_LEVEL = logging.DEBUG
# Its defaults, spelled out: django-structlog reads these on every request, and a setting left
# unset is a failed lookup (an AttributeError caught) each time.
DJANGO_STRUCTLOG_TRUST_UPSTREAM_REQUEST_ID = False
DJANGO_STRUCTLOG_TRUST_UPSTREAM_CORRELATION_ID = False
DJANGO_STRUCTLOG_STATUS_DEFAULT_LOG_LEVEL = logging.INFO
DJANGO_STRUCTLOG_STATUS_2XX_LOG_LEVEL = logging.INFO
DJANGO_STRUCTLOG_STATUS_4XX_LOG_LEVEL = logging.WARNING
DJANGO_STRUCTLOG_STATUS_5XX_LOG_LEVEL = logging.ERROR
# Celery keeps the logging configured here (JSON in production) rather than its own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# /metrics (newsroom/ops/metrics.py): answered to these client addresses (CIDR ranges allowed)
# or to a request carrying "Authorization: Bearer METRICS_TOKEN"; 403 to anyone else.
METRICS_ALLOWED_IPS = envlist("METRICS_ALLOWED_IPS", "127.0.0.1,::1")
for _network in METRICS_ALLOWED_IPS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"METRICS_ALLOWED_IPS: {_network!r} is not an address or a network") from None
METRICS_TOKEN = os.getenv("METRICS_TOKEN", "")

# The database away (newsroom/ops/unavailable.py): pages not in the page cache answer 503 with
# this Retry-After.
DATABASE_RETRY_AFTER_SECONDS = envint("DATABASE_RETRY_AFTER_SECONDS", "5")

# The admin's Content-Security-Policy (newsroom/ops/csp.py): its scripts and styles are this
# site's static files (django-nested-admin's too); style attributes in admin templates need
# 'unsafe-inline' for styles, never for scripts.
ADMIN_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)

# The API's docs pages (api/docs.py): every script and style sheet is a static file of this site.
# Swagger UI and Redoc set styles from script ('unsafe-inline' for styles only), and Redoc's
# search runs in a worker it makes from a blob: URL.
API_DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)

# Probes and the metrics scraper call over plain HTTP on the machine itself: no redirect to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "true")
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "31536000")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", SITE_URL)
