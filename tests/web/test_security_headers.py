"""Security headers and cookie flags, in-process and from the real production server."""

import pytest
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import override_settings
from django.urls import include, path

from tests.support.production import gunicorn, production_env, run, settings_under

EXPECTED_CSP = {
    "default-src": ["'none'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "manifest-src": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'none'"],
}
ONE_YEAR = 365 * 24 * 60 * 60


def parse_csp(header: str) -> dict[str, list[str]]:
    policy = {}
    for directive in header.split(";"):
        name, *sources = directive.split()
        assert name not in policy, f"{name} appears twice"
        policy[name] = sources
    return policy


def assert_security_headers(headers) -> None:
    """The headers every response carries, whatever its status or content."""
    assert parse_csp(headers["Content-Security-Policy"]) == EXPECTED_CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"


def test_the_policy_allows_nothing_inline_and_no_eval():
    sources = [source for sources in EXPECTED_CSP.values() for source in sources]
    assert all(source in {"'self'", "'none'"} for source in sources)


# --- in-process, through the whole middleware stack ---------------------------------------------


def session_writer(request):
    """Stands for a game view: it writes the session and renders a CSRF token."""
    request.session["game"] = 617
    get_token(request)
    return HttpResponse("<!doctype html><title>Hearts</title><p>Your turn.</p>")


urlpatterns = [
    path("test-session", session_writer),
    path("", include("hearts_site.urls")),
]


@pytest.fixture
def web(client):
    client.defaults["HTTP_HOST"] = "localhost"
    return client


def test_healthz_answers_ok_in_plain_text_and_is_never_cached(web):
    response = web.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Cache-Control"] == "no-store"
    assert_security_headers(response.headers)
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.urls(__name__)
def test_healthz_sets_no_cookie_even_for_a_player_with_a_game(web):
    web.get("/test-session")  # the client now holds a session and a CSRF cookie
    assert {"hearts", "csrftoken"} <= set(web.cookies)
    response = web.get("/healthz")
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert not response.cookies


def test_healthz_answers_head_and_refuses_writes(web):
    assert web.head("/healthz").status_code == 200
    assert web.post("/healthz").status_code == 405


def test_a_missing_page_carries_the_same_headers(web):
    response = web.get("/no-such-page")
    assert response.status_code == 404
    assert_security_headers(response.headers)
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.urls(__name__)
def test_a_page_carries_the_security_headers(web):
    response = web.get("/test-session")
    assert response.status_code == 200
    assert_security_headers(response.headers)
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.urls(__name__)
def test_cookies_under_the_production_settings_are_secure_httponly_and_lax(web):
    prod = settings_under(production_env())
    cookie_settings = {
        name: prod[name]
        for name in (
            "SESSION_COOKIE_SECURE",
            "SESSION_COOKIE_HTTPONLY",
            "SESSION_COOKIE_SAMESITE",
            "CSRF_COOKIE_SECURE",
            "CSRF_COOKIE_HTTPONLY",
            "CSRF_COOKIE_SAMESITE",
        )
    }
    with override_settings(**cookie_settings):
        response = web.get("/test-session")
    for name in ("hearts", "csrftoken"):
        cookie = response.cookies[name]
        assert cookie["secure"] is True, name
        assert cookie["httponly"] is True, name
        assert cookie["samesite"] == "Lax", name


# --- the production server, as the router reaches it ---------------------------------------------


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    """gunicorn with the production defaults: HTTPS redirect on, Secure cookies, HSTS."""
    root = tmp_path_factory.mktemp("static")
    env = production_env(
        DJANGO_ALLOWED_HOSTS="127.0.0.1", WEB_CONCURRENCY="1", DJANGO_STATIC_ROOT=str(root)
    )
    collected = run(["manage.py", "collectstatic", "--noinput"], env)
    assert collected.returncode == 0, collected.stderr
    with gunicorn(env, tmp_path_factory.mktemp("production")) as server:
        yield server


def test_plain_http_is_redirected_to_https(production_server):
    response = production_server.get("/?game=617")
    assert response.status == 301
    assert response.headers["Location"] == f"https://127.0.0.1:{production_server.port}/?game=617"
    assert "Strict-Transport-Security" not in response.headers  # never over plain HTTP


def test_the_router_s_forwarded_proto_is_trusted_and_hsts_sent(production_server):
    response = production_server.get("/", X_Forwarded_Proto="https")
    assert response.status != 301
    assert response.status < 500
    assert response.headers["Strict-Transport-Security"] == (
        f"max-age={ONE_YEAR}; includeSubDomains; preload"
    )
    assert_security_headers(response.headers)
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_platform_health_check_over_plain_http_is_not_redirected(production_server):
    response = production_server.get("/healthz")
    assert response.status == 200
    assert response.body == b"ok"
    assert_security_headers(response.headers)


def test_healthz_behind_the_router_carries_every_header(production_server):
    response = production_server.get("/healthz", X_Forwarded_Proto="https")
    assert response.status == 200
    assert "Set-Cookie" not in response.headers
    assert response.headers["Strict-Transport-Security"].startswith(f"max-age={ONE_YEAR};")
    assert_security_headers(response.headers)
    assert response.headers["X-Frame-Options"] == "DENY"
