"""gunicorn's settings, read from the environment the platform provides.

Start with: gunicorn hearts_site.wsgi -c gunicorn.conf.py  (the Procfile does).
"""

import os


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this container may use, not the host's
    except AttributeError:
        return os.cpu_count() or 1


# A move is a short piece of CPU work, so plain sync workers, about two per core. The cap keeps a
# small container with many visible cores inside its memory (each worker is a whole Django).
MAX_DEFAULT_WORKERS = 12

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * _cores() + 1, MAX_DEFAULT_WORKERS))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
keepalive = 5
# Import Django once in the master: a missing DJANGO_SECRET_KEY stops the start with its message
# instead of a loop of failing workers, and the workers share the imported code's memory.
preload_app = True
# gunicorn 25+ opens a control socket in ~/.gunicorn by default: no use on a platform, and two
# instances on one machine (the two-instance test) would fight over it. Older versions ignore this.
control_socket_disable = True
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # the workers' heartbeat files; a slow disk can stall them

# Both logs to standard output, where the platform collects them.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
logconfig_dict = {
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
}
