"""Deployment: settings from the environment, the deploy checks, gunicorn, static files, keys."""

import base64
import gzip
import json
import re
import time
import zlib

import brotli
import pytest
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import override_settings

from tests.support.production import (
    clean_env,
    gunicorn,
    make_secret_key,
    production_env,
    request,
    run,
    settings_under,
)

# --- settings and checks -----------------------------------------------------------------------


def test_deploy_checks_pass_with_production_variables():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = run(["manage.py", "check"], clean_env(DJANGO_DEBUG="0"))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


def test_the_local_run_needs_no_variables():
    result = run(["manage.py", "check"], clean_env())
    assert result.returncode == 0, result.stderr
    local = settings_under(clean_env())
    assert local["DEBUG"] is True
    assert "127.0.0.1" in local["ALLOWED_HOSTS"]
    assert local["SECURE_SSL_REDIRECT"] is False
    assert local["SESSION_COOKIE_SECURE"] is False  # runserver speaks plain HTTP
    assert local["SECURE_HSTS_SECONDS"] == 0


def test_production_defaults_are_the_safe_ones():
    prod = settings_under(
        production_env(
            DJANGO_ALLOWED_HOSTS="hearts.example.com, .example.org",
            DJANGO_CSRF_TRUSTED_ORIGINS="https://hearts.example.com",
            DJANGO_SECRET_KEY_FALLBACKS="old-key-one,old-key-two",
        )
    )
    assert prod["DEBUG"] is False
    assert prod["ALLOWED_HOSTS"] == ["hearts.example.com", ".example.org"]
    assert prod["CSRF_TRUSTED_ORIGINS"] == ["https://hearts.example.com"]
    assert prod["SECRET_KEY_FALLBACKS"] == ["old-key-one", "old-key-two"]
    assert prod["SECURE_SSL_REDIRECT"] is True
    assert prod["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert prod["SECURE_HSTS_SECONDS"] == 365 * 24 * 60 * 60
    assert prod["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert prod["SECURE_HSTS_PRELOAD"] is True
    assert prod["SESSION_COOKIE_SECURE"] is True
    assert prod["CSRF_COOKIE_SECURE"] is True
    assert prod["SESSION_COOKIE_HTTPONLY"] is True
    assert prod["CSRF_COOKIE_HTTPONLY"] is True
    assert prod["SESSION_COOKIE_SAMESITE"] == prod["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert prod["STORAGES"]["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


def test_turning_the_redirect_off_keeps_the_cookies_secure():
    no_redirect = settings_under(production_env(DJANGO_SECURE_SSL_REDIRECT="0"))
    assert no_redirect["SECURE_SSL_REDIRECT"] is False
    assert no_redirect["SESSION_COOKIE_SECURE"] is True
    assert no_redirect["CSRF_COOKIE_SECURE"] is True

    loopback = settings_under(
        production_env(DJANGO_SECURE_SSL_REDIRECT="0", DJANGO_SECURE_COOKIES="0")
    )
    assert loopback["SESSION_COOKIE_SECURE"] is False
    assert loopback["CSRF_COOKIE_SECURE"] is False
    assert loopback["SECURE_HSTS_SECONDS"] == 365 * 24 * 60 * 60  # sent on HTTPS only anyway


def test_hsts_can_be_shortened_for_a_first_deployment():
    assert (
        settings_under(production_env(DJANGO_SECURE_HSTS_SECONDS="300"))["SECURE_HSTS_SECONDS"]
        == 300
    )


def test_gunicorn_reads_port_and_web_concurrency():
    printed = run(
        ["-m", "gunicorn", "hearts_site.asgi", "-c", "gunicorn.conf.py", "--print-config"],
        clean_env(PORT="5123", WEB_CONCURRENCY="3"),
    )
    assert printed.returncode == 0, printed.stderr
    config = dict(re.findall(r"^(\w+)\s+= (.*)$", printed.stdout, re.M))
    assert config["bind"] == "['0.0.0.0:5123']"
    assert config["workers"] == "3"
    assert config["accesslog"] == "-"

    default = run(
        ["-m", "gunicorn", "hearts_site.asgi", "-c", "gunicorn.conf.py", "--print-config"],
        clean_env(),
    )
    config = dict(re.findall(r"^(\w+)\s+= (.*)$", default.stdout, re.M))
    assert config["bind"] == "['0.0.0.0:8000']"
    assert 1 <= int(config["workers"]) <= 12  # one per core, capped
    assert config["worker_class"] == "asgi"


# --- key rotation and what the cookie reveals ----------------------------------------------------

OLD_KEY, NEW_KEY = make_secret_key(), make_secret_key()


def signed_cookie_with(key: str, data: dict) -> str:
    with override_settings(SECRET_KEY=key, SECRET_KEY_FALLBACKS=[]):
        session = SessionStore()
        session.update(data)
        session.save()
        return session.session_key


def load_with(cookie: str, key: str, fallbacks: list[str]) -> dict:
    with override_settings(SECRET_KEY=key, SECRET_KEY_FALLBACKS=fallbacks):
        return dict(SessionStore(session_key=cookie).load())


def test_a_cookie_signed_with_the_old_key_verifies_through_the_fallbacks():
    cookie = signed_cookie_with(OLD_KEY, {"game": 617})
    assert load_with(cookie, NEW_KEY, [OLD_KEY]) == {"game": 617}


def test_without_the_fallback_an_old_cookie_is_an_empty_session():
    cookie = signed_cookie_with(OLD_KEY, {"game": 617})
    assert load_with(cookie, NEW_KEY, []) == {}


def test_after_rotation_cookies_are_signed_with_the_new_key():
    old_cookie = signed_cookie_with(OLD_KEY, {"game": 617})
    with override_settings(SECRET_KEY=NEW_KEY, SECRET_KEY_FALLBACKS=[OLD_KEY]):
        session = SessionStore(session_key=old_cookie)
        session["game"] = 618
        session.save()
        new_cookie = session.session_key
    # Once every player has been back, the fallback can go.
    assert load_with(new_cookie, NEW_KEY, []) == {"game": 618}


def test_the_owner_can_read_the_cookie_without_the_key():
    """Django signs the session cookie; it does not encrypt it (docs/deploy.md)."""
    cookie = signed_cookie_with(NEW_KEY, {"game": 617, "note": "visible"})
    payload = cookie.split(":")[0]
    compressed = payload.startswith(".")
    raw = base64.urlsafe_b64decode(payload.lstrip(".") + "=" * (-len(payload.lstrip(".")) % 4))
    data = json.loads(zlib.decompress(raw) if compressed else raw)
    assert data == {"game": 617, "note": "visible"}


# --- the real server -----------------------------------------------------------------------------


def loopback_env(static_root, workers: int) -> dict[str, str]:
    """Production settings on plain http://127.0.0.1, as docs/deploy.md describes."""
    return production_env(
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_STATIC_ROOT=str(static_root),
        WEB_CONCURRENCY=str(workers),
    )


@pytest.fixture(scope="module")
def loopback_server(static_root, tmp_path_factory):
    """A production-like run on plain http://127.0.0.1, as docs/deploy.md describes."""
    env = loopback_env(static_root, workers=2)
    with gunicorn(env, tmp_path_factory.mktemp("loopback")) as server:
        yield server


def test_gunicorn_serves_healthz(loopback_server):
    response = loopback_server.get("/healthz")
    assert response.status == 200
    assert response.body == b"ok"
    assert response.headers["Content-Type"].startswith("text/plain")
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers


def test_gunicorn_runs_web_concurrency_workers(loopback_server):
    # /healthz answered as soon as one worker was up; the other may still be booting.
    deadline = time.monotonic() + 30
    while len(loopback_server.worker_pids()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(loopback_server.worker_pids()) == 2


def test_hosts_outside_allowed_hosts_are_refused(loopback_server):
    assert loopback_server.get("/healthz", Host="evil.example").status == 400


def largest_collected_asset(static_root) -> tuple[str, str]:
    """(original name, hashed name) of the biggest .js or .css file collectstatic wrote."""
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    assets = [(name, hashed) for name, hashed in manifest.items() if name.endswith((".js", ".css"))]
    assert assets, "collectstatic found no script or style sheet"
    return max(assets, key=lambda pair: (static_root / pair[1]).stat().st_size)


@pytest.mark.parametrize(
    ("encoding", "decode"), [("br", brotli.decompress), ("gzip", gzip.decompress)]
)
def test_whitenoise_serves_hashed_files_compressed_and_cached_for_ever(
    loopback_server, static_root, encoding, decode
):
    _, hashed = largest_collected_asset(static_root)
    response = loopback_server.get(f"/static/{hashed}", Accept_Encoding=encoding)
    assert response.status == 200
    assert response.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    original = (static_root / hashed).read_bytes()
    assert len(response.body) < len(original)
    assert decode(response.body) == original
    cache_control = response.headers["Cache-Control"]
    assert "immutable" in cache_control
    assert int(re.search(r"max-age=(\d+)", cache_control)[1]) >= 365 * 24 * 60 * 60


def test_unhashed_static_names_are_not_cached_for_ever(loopback_server, static_root):
    name, _ = largest_collected_asset(static_root)
    response = loopback_server.get(f"/static/{name}")
    assert response.status == 200
    assert "immutable" not in response.headers["Cache-Control"]


def test_gunicorn_and_django_log_to_standard_output(static_root, tmp_path):
    env = loopback_env(static_root, workers=1)
    with gunicorn(env, tmp_path) as server:
        assert server.get("/no-such-page").status == 404
    stdout, stderr = server.stdout.read_text(), server.stderr.read_text()
    assert "Listening at: http://0.0.0.0:" in stdout  # gunicorn's error log
    assert '"GET /no-such-page HTTP/1.1" 404' in stdout  # gunicorn's access log
    assert "Not Found: /no-such-page" in stdout  # Django's own log
    for line in ("Listening at", "GET /no-such-page", "Not Found"):
        assert line not in stderr


@pytest.mark.parametrize("charset", ["latin-1", "utf8", "ascii", "utf-16"])
@pytest.mark.parametrize("path", ["/healthz", "/", "/play", "/static/css/hearts.css"])
def test_gunicorn_answers_a_form_in_another_charset_with_our_400(loopback_server, charset, path):
    response = request(
        loopback_server.port,
        path,
        "POST",
        {
            "Host": "127.0.0.1",
            "Cookie": "csrftoken=" + "a" * 32,
            "Content-Type": f"application/x-www-form-urlencoded; charset={charset}",
            "Content-Length": "3",
        },
        body=b"a=b",
    )
    assert response.status == 400
    assert b"forms must be sent as UTF-8" in response.body
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"):
        assert response.headers[name], name
    assert "Traceback" not in loopback_server.stdout.read_text()


def test_gunicorn_answers_head_on_the_pages(loopback_server):
    for path in ("/", "/healthz", "/help", "/stats"):
        response = request(loopback_server.port, path, "HEAD", {"Host": "127.0.0.1"})
        assert response.status == 200, path
        assert response.body == b""


@pytest.mark.parametrize("app", ["hearts_site.wsgi", "hearts_site.wsgi:application"])
def test_gunicorn_started_on_the_wsgi_module_refuses_and_names_the_procfile_command(app):
    """Django's documented `gunicorn hearts_site.wsgi`, from the project root, would read
    gunicorn.conf.py and serve every request a 500: it stops at once, saying what to run."""
    result = run(["-m", "gunicorn", app], production_env(PORT="0"))
    assert result.returncode != 0
    assert "`gunicorn hearts_site.asgi -c gunicorn.conf.py`" in result.stderr
    assert "Listening at" not in result.stdout + result.stderr
