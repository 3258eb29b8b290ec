"""gunicorn's settings, read from the environment the platform provides.

Start with: gunicorn hearts_site.asgi -c gunicorn.conf.py  (the Procfile does).
"""

import os
import sys

PROCFILE_COMMAND = "gunicorn hearts_site.asgi -c gunicorn.conf.py"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this container may use, not the host's
    except AttributeError:
        return os.cpu_count() or 1


# gunicorn's own ASGI worker (asyncio) reads the requests: a slow client costs an idle socket,
# not a worker or a thread, so slow clients cannot hold the site (sync workers, and gthread's
# threads once a request has begun, wait on each client's bytes). hearts_site.asgi then runs
# Django's WSGI handler in two thread pools per process: moves (POST; the computer players'
# thinking among them is one at a time per process) have a few threads; pages, /healthz and
# static files have threads of their own and are never queued behind a move. One process per
# core does the CPU work; the cap keeps a small container with many visible cores inside its
# memory (each worker is a whole Django).
MAX_DEFAULT_WORKERS = 12


def _names_the_wsgi_app(args: list[str]) -> bool:
    """Whether gunicorn was asked for hearts_site.wsgi (Django's documented start), which this
    file would put on the ASGI worker, where every request would fail."""
    return any(arg.partition(":")[0] == "hearts_site.wsgi" for arg in args)


# gunicorn reads this file from the project root even without -c: refuse plainly, at the start,
# rather than answer every request with a 500.
if _names_the_wsgi_app([*sys.argv[1:], *os.environ.get("GUNICORN_CMD_ARGS", "").split()]):
    sys.exit(
        "This site is started with the Procfile's command, "
        f"`{PROCFILE_COMMAND}` (hearts_site.asgi: the requests are read by gunicorn's ASGI "
        "worker); `gunicorn hearts_site.wsgi` is not supported."
    )

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or min(_cores(), MAX_DEFAULT_WORKERS))
worker_class = "asgi"
asgi_loop = "asyncio"
worker_connections = 1000  # open connections per worker, slow ones included
timeout = 30
graceful_timeout = 20
keepalive = 5
# Import Django once in the master: a missing DJANGO_SECRET_KEY stops the start with its message
# instead of a loop of failing workers, and the workers share the imported code's memory.
preload_app = True
# bin/serve (development): restart the workers when a Python file changes; each worker then
# imports the site itself, as a worker forked from a master that imported it keeps the old code.
if os.environ.get("HEARTS_RELOAD") == "1":
    reload = True
    preload_app = False
# gunicorn 25+ opens a control socket in ~/.gunicorn by default: no use on a platform, and two
# instances on one machine (the two-instance test) would fight over it. Older versions ignore this.
control_socket_disable = True
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # the workers' heartbeat files; a slow disk can stall them

# Both logs to standard output, where the platform collects them. A request whose client went
# away before its answer is logged 499, not the 500 gunicorn's ASGI worker would say
# (hearts_site.accesslog).
logger_class = "hearts_site.accesslog.AccessLogger"
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
logconfig_dict = {
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
}
