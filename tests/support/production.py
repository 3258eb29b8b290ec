"""Run the site as production does (gunicorn, gunicorn.conf.py, environment variables) for tests.

Every helper starts real processes with a clean environment: the DJANGO_* variables of the
machine running the tests, and pytest-django's settings module, never leak into them.
"""

import contextlib
import http.client
import json
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support import REPO
from tools import server


def make_secret_key() -> str:
    """A key like `get_random_secret_key()` makes: 50+ characters, no commas."""
    return secrets.token_urlsafe(50)


def clean_env(**variables: str) -> dict[str, str]:
    """The current environment without anything that configures the site, plus `variables`."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "GUNICORN_")) and name not in {"PORT", "WEB_CONCURRENCY"}
    }
    env["DJANGO_SETTINGS_MODULE"] = "hearts_site.settings"
    env.update(variables)
    return env


def production_env(**variables: str) -> dict[str, str]:
    """The variables a PaaS would set, overridable one by one."""
    production = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": make_secret_key(),
        "DJANGO_ALLOWED_HOSTS": "example.com",
    }
    return clean_env(**{**production, **variables})


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


SETTINGS_DUMP = """
import json
from django.conf import settings
names = [
    "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SAMESITE", "STATIC_ROOT", "STORAGES",
]
values = {name: getattr(settings, name) for name in names}
values["SECRET_KEY_FALLBACKS"] = list(settings.SECRET_KEY_FALLBACKS)
print(json.dumps(values, default=str))
"""


def settings_under(env: dict[str, str]) -> dict:
    """The settings a fresh process computes from `env`."""
    result = run(["-c", "import django; django.setup()\n" + SETTINGS_DUMP], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def request(
    port: int, path: str, method: str = "GET", headers: dict | None = None, body: bytes = b""
) -> Response:
    """One plain HTTP/1.1 request: no redirect followed, no body decoded."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body or None, headers=headers or {})
        response = conn.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        conn.close()


@dataclass
class Server:
    process: subprocess.Popen
    port: int
    stdout: Path
    stderr: Path

    def get(self, path: str, **headers: str) -> Response:
        """GET `path`; keyword names are headers with "_" for "-" (Accept_Encoding="br")."""
        named = {name.replace("_", "-"): value for name, value in headers.items()}
        return request(self.port, path, headers=named)

    def worker_pids(self) -> set[int]:
        """The processes whose parent is gunicorn's master (Linux /proc)."""
        pids = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                # pid (comm) state ppid ...; comm may hold spaces, so split after the last ")".
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.process.pid:
                    pids.add(int(stat.parent.name))
        return pids


@contextlib.contextmanager
def gunicorn(env: dict[str, str], log_dir: Path):
    """Start `gunicorn hearts_site.asgi -c gunicorn.conf.py` (the Procfile's command as it is,
    through tools.server, the launcher the load tools use too) on a free PORT, wait until /healthz
    answers 200, and stop it afterwards."""
    stdout, stderr = log_dir / "gunicorn.stdout", log_dir / "gunicorn.stderr"
    with server.gunicorn(env, stdout, stderr, loopback=False) as (process, port):
        yield Server(process, port, stdout, stderr)
