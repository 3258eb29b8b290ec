"""The one way the measuring tools and the production-like tests start the site: the Procfile's
command (`gunicorn hearts_site.asgi -c gunicorn.conf.py`) on a free loopback port, waited for
until /healthz answers 200, and stopped afterwards; and how their simulated browsers speak to it
(``browser_request``, ``browser_answer``)."""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
START_DEADLINE_SECONDS = 60
PROCFILE_APP = "hearts_site.asgi"


def browser_request(
    cookies: dict[str, str], token: str, form: dict | None
) -> tuple[dict[str, str], str | None]:
    """The headers and body a page's htmx request carries: its cookies, and a form (with the
    CSRF token) urlencoded, or no body."""
    headers = {"Host": HOST, "HX-Request": "true"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    body = None
    if form is not None:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **form})
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    return headers, body


# a form's CSRF token; "-" is none: the placeholder in a hand the server drew for a page to
# give its own token (a network table's step, the mover's answer: game.network.public.NO_TOKEN)
TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"-][^"]*)"')


def browser_answer(cookies: dict[str, str], token: str, headers, html: str) -> str:
    """What a browser keeps of an answer: its cookies into ``cookies`` (one set to expire, or to
    nothing, is dropped), and the CSRF token a page's form carries, returned (else ``token``)."""
    for line in headers.get_all("Set-Cookie") or []:
        pair, *attributes = line.split(";")
        name, _, value = pair.strip().partition("=")
        if any(a.strip().lower() == "max-age=0" for a in attributes) or value in ("", '""'):
            cookies.pop(name, None)
        else:
            cookies[name] = value
    found = TOKEN_FIELD.search(html)
    return found.group(1) if found else token


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def healthy(port: int) -> bool:
    """/healthz answers 200 (False while nothing listens yet)."""
    with contextlib.suppress(OSError):
        conn = http.client.HTTPConnection(HOST, port, timeout=5)
        try:
            conn.request("GET", "/healthz", headers={"Host": HOST})
            status = conn.getresponse().status
        finally:
            conn.close()
        if status != 200:
            raise RuntimeError(f"/healthz answered {status}")
        return True
    return False


def spawn(
    env: dict[str, str],
    stdout: Path,
    stderr: Path | None = None,
    app: str = PROCFILE_APP,
    extra: tuple = (),
    loopback: bool = True,
) -> tuple[subprocess.Popen, int]:
    """Start the Procfile's command on a free PORT, with its output in ``stdout`` (and
    ``stderr``, else the same file), without waiting for it. ``loopback``: bound to 127.0.0.1
    only (gunicorn.conf.py binds 0.0.0.0, which the deployment tests keep); ``app`` and ``extra``
    arguments only to compare arrangements. Returns the process and its port."""
    port = free_port()
    bind = ["--bind", f"{HOST}:{port}"] if loopback else []
    with contextlib.ExitStack() as files:
        out = files.enter_context(stdout.open("wb"))
        err = files.enter_context(stderr.open("wb")) if stderr else subprocess.STDOUT
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", app, "-c", "gunicorn.conf.py", *bind, *extra],
            cwd=REPO,
            env={**env, "PORT": str(port)},
            stdout=out,
            stderr=err,
        )
    return process, port


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], stdout: Path, stderr: Path | None = None, **options
) -> Iterator[tuple[subprocess.Popen, int]]:
    """``spawn``, then wait until /healthz answers 200; the server is stopped afterwards."""
    process, port = spawn(env, stdout, stderr, **options)

    def output() -> str:
        return "\n".join(path.read_text() for path in (stdout, stderr) if path)

    try:
        deadline = time.monotonic() + START_DEADLINE_SECONDS
        while not healthy(port):
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {process.returncode}:\n{output()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /healthz:\n{output()}")
            time.sleep(0.1)
        yield process, port
    finally:
        stop(process)


def stop(process: subprocess.Popen) -> None:
    """Ask a server to stop, and make sure it has."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
