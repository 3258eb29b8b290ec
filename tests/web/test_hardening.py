"""Malformed requests get our 4xx page with the security headers (never a 500), bodies
are refused before they are read, pages answer HEAD, Server-Timing's parts are disjoint, names
keep their grapheme clusters and are isolated where shown."""

import logging
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game.names import NAME_MAX, NAME_POINTS_MAX, clean_name
from game.web.player import PlayerState
from game.web.session import UNREADABLE_NOTICE
from hearts_site.guard import MAX_BODY_BYTES
from tests.support.web import HX, game_of, named_client, parts, post

CHARSETS = ["latin-1", "utf8", "ascii", "utf-16", "UTF-16LE", "iso-8859-1"]
URLS = ["/healthz", "/", "/play", "/name", "/options", "/static/css/hearts.css", "/nowhere"]
SECURITY_HEADERS = [
    "Content-Security-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Resource-Policy",
]


def csrf_client() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32
    return client


def assert_ours(response, status: int) -> None:
    assert response.status_code == status
    for name in SECURITY_HEADERS:
        assert response.headers.get(name), name
    assert b"<title>Hearts - Request refused</title>" in response.content
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("charset", CHARSETS)
@pytest.mark.parametrize("url", URLS)
def test_a_form_in_another_charset_gets_our_400_logged_in_one_line(charset, url, caplog):
    with caplog.at_level(logging.INFO):
        response = csrf_client().post(
            url, "a=b", content_type=f"application/x-www-form-urlencoded; charset={charset}"
        )
    assert_ours(response, 400)
    assert b"forms must be sent as UTF-8" in response.content
    assert len(caplog.records) == 1, [r.getMessage() for r in caplog.records]
    assert caplog.records[0].getMessage().startswith(f"Refused POST {url} with 400: form charset")
    assert caplog.records[0].exc_info is None


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", " utf-8"])
def test_utf8_spelt_as_django_accepts_it_still_reaches_the_csrf_check(charset):
    response = csrf_client().post(
        "/play", "card=2C", content_type=f"application/x-www-form-urlencoded; charset={charset}"
    )
    assert response.status_code == 403  # no token in the form: the CSRF check ran and refused


def test_a_file_upload_is_refused_however_small(tmp_path, settings):
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    upload = SimpleUploadedFile("small.bin", b"x" * 10)
    response = csrf_client().post("/play", {"card": "2C", "file": upload})
    assert_ours(response, 413)
    large = SimpleUploadedFile("large.bin", b"x" * (MAX_BODY_BYTES + 1))
    assert_ours(csrf_client().post("/play", {"file": large}), 413)
    assert not list(tmp_path.iterdir())


def test_a_small_multipart_form_without_a_file_is_read_as_a_form():
    client = named_client()  # the test client posts multipart/form-data
    response = post(client, "/options", name="Bob", speed="fast")
    assert response.status_code == 200


def test_a_large_form_is_refused_and_a_small_one_is_not():
    client = named_client()
    large = post(client, "/name", name="x" * MAX_BODY_BYTES)
    assert_ours(large, 413)
    small = post(client, "/options", name="Bob", speed="fast")
    assert small.status_code == 200


def test_a_body_of_unannounced_length_is_refused():
    response = Client().post(
        "/play", "card=2C", content_type="application/x-www-form-urlencoded",
        HTTP_TRANSFER_ENCODING="chunked",
    )  # fmt: skip
    assert_ours(response, 411)


def test_a_malformed_content_length_is_refused():
    response = Client().generic(
        "POST", "/play", b"", "application/x-www-form-urlencoded", CONTENT_LENGTH="12abc"
    )
    assert_ours(response, 400)


@pytest.mark.parametrize(
    "url", ["/", "/healthz", "/help", "/quote", "/about", "/score", "/stats", "/options",
            "/select-game", "/stats/reset", "/game/617/", "/hint", "/exit"],
)  # fmt: skip
def test_pages_answer_head_as_get_does(url):
    client = named_client()
    got = client.get(url)
    head = client.head(url)
    assert got.status_code == 200
    assert head.status_code == 200
    assert head.headers["Content-Type"] == got.headers["Content-Type"]


def test_head_changes_nothing_a_get_would_not():
    client = named_client()
    before = game_of(client).to_dict()
    assert client.head("/options").status_code == 200
    assert client.head("/select-game").status_code == 200
    assert game_of(client).to_dict() == before


def test_server_timing_parts_are_disjoint_and_add_up_to_the_total():
    client = named_client()
    for code in game_of(client).hand(0)[:3]:
        post(client, "/select", card=code)
    responses = [post(client, "/pass"), post(client, "/accept")]
    responses.append(post(client, "/play", card=game_of(client).legal_plays(0)[0]))
    responses.append(client.get("/", **HX))
    for response in responses:
        timing = parts(response)
        total = timing.pop("total")
        assert all(ms >= 0 for ms in timing.values())
        # each part is rounded to 0.1 ms
        assert abs(sum(timing.values()) - total) <= 0.05 * (len(timing) + 1)
    thinking = [parts(r) for r in responses if parts(r)["think"] > 0]
    assert thinking  # the computer players moved after the pass or the play
    for timing in thinking:
        assert timing["engine"] + timing["think"] <= timing["total"] + 0.2


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
FLAG = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        (FAMILY + " Ada", FAMILY + " Ada"),
        (FLAG + "x", FLAG + "x"),
        ("\U0001f44d\U0001f3fd", "\U0001f44d\U0001f3fd"),  # skin tone
        ("e\u0301" * 25, "e\u0301" * NAME_MAX),  # a combining accent stays on its letter
        ("\u0915\u094d\u0937" * 25, "\u0915\u094d\u0937" * NAME_MAX),  # a Devanagari conjunct
        ("a" * 19 + FAMILY, "a" * 19 + FAMILY),  # the twentieth character is the whole family
        ("\u202eevil\u202c  Ada\u200b\x00", "evil Ada"),  # overrides, zero width, control
        ("\u05e9\u05dc\u05d5\u05dd", "\u05e9\u05dc\u05d5\u05dd"),
        (FAMILY * 25, FAMILY * 11),  # 80 code points at most, clusters whole
    ],
)
def test_names_keep_grapheme_clusters_whole(typed, kept):
    assert clean_name(typed) == kept


def test_names_are_isolated_wherever_they_are_shown():
    name = "\u05e9\u05dc\u05d5\u05dd " + FAMILY
    client = Client()
    client.post("/name", {"name": name})
    page = client.get("/").content.decode()
    assert page.count(f"<bdi>{name}</bdi>") >= 1  # under your hand
    sheet = client.get("/score").content.decode()
    assert f"<bdi>{name}</bdi>" in sheet
    options = client.get("/options").content.decode()
    assert re.search(r'<input id="option-name"[^>]* dir="auto"', options)
    shown = re.sub(r"<bdi>[^<]*</bdi>|value=\"[^\"]*\"", "", page + sheet)
    assert name not in shown  # nowhere outside an isolate


@pytest.mark.parametrize("htmx", [True, False])
def test_stats_keeps_the_unreadable_cookie_notice(htmx):
    client = Client()
    client.cookies["hearts"] = "not-a-signed-cookie"
    response = client.get("/stats", **(HX if htmx else {}))
    assert response.status_code == 200
    assert UNREADABLE_NOTICE in response.content.decode()


def test_the_longest_name_still_leaves_the_cookie_room():
    from tests.support.web import BIG_STATS, LIMIT, longest_random_game, set_cookie_length

    # 20 clusters of 4 code points each, none alike: what compresses worst
    clusters = [
        chr(0x1F466 + i) + "\U0001f3fd\u200d" + chr(0x1F300 + 7 * i) for i in range(NAME_MAX)
    ]
    name = clean_name("".join(clusters))
    assert NAME_POINTS_MAX - 8 < len(name) <= NAME_POINTS_MAX
    states = longest_random_game(10)
    largest = 0
    for before, game in zip(states, states[1:], strict=False):
        state = PlayerState(game=game, undo=before.to_dict(), seq=10**6, fresh_from=51)
        state.options.name = name
        state.stats = BIG_STATS
        state.notice = "That was already done. The table shows where the game is now."
        largest = max(largest, set_cookie_length(state))
    assert largest < LIMIT


# --- the ASGI front gunicorn serves (hearts_site.bridge), driven with real ASGI messages ---------


def serve(method: str, path: str, headers: list[tuple[bytes, bytes]], chunks: list[bytes]):
    """One request through the Bridge over Django's WSGI handler; what it sent, and how many
    body messages it asked for."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from django.core.wsgi import get_wsgi_application

    from hearts_site.bridge import Bridge

    bridge = Bridge(get_wsgi_application(), pages=2, moves=1)
    sent: list[dict] = []
    asked = 0

    async def receive():
        nonlocal asked
        asked += 1
        if asked <= len(chunks):
            return {"type": "http.request", "body": chunks[asked - 1],
                    "more_body": asked < len(chunks)}  # fmt: skip
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http", "method": method, "path": path, "query_string": b"", "headers": headers,
        "http_version": "1.1", "scheme": "http", "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000), "root_path": "",
    }  # fmt: skip
    # in a thread of its own: the browser tests leave Playwright's event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, bridge(scope, receive, send)).result()
    start, body = sent
    return start["status"], dict(start["headers"]), body["body"], asked


HOST = [(b"host", b"testserver")]


def test_the_front_serves_django_and_keeps_the_body_of_head_answers_empty():
    status, headers, body, _ = serve("GET", "/healthz", HOST, [])
    assert (status, body) == (200, b"ok")
    assert headers[b"x-frame-options"] == b"DENY"
    status, headers, body, _ = serve("HEAD", "/healthz", HOST, [])
    assert (status, body, headers[b"content-length"]) == (200, b"", b"2")


def test_the_front_passes_a_form_body_in_pieces():
    token = b"b" * 32
    form = b"name=Ada+Lovelace&csrfmiddlewaretoken=" + token
    headers = HOST + [
        (b"cookie", b"csrftoken=" + token),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"content-length", str(len(form)).encode()),
    ]
    status, response_headers, _, asked = serve("POST", "/name", headers, [form[:5], form[5:]])
    assert status == 303  # the name was taken, past the CSRF check
    assert asked == 2
    assert b"hearts=" in response_headers[b"set-cookie"]


def test_the_front_never_reads_a_refused_body():
    headers = HOST + [
        (b"content-type", b"multipart/form-data; boundary=x"),
        (b"content-length", str(300 * 1024 * 1024).encode()),
    ]
    status, response_headers, body, asked = serve("POST", "/play", headers, [b"x" * 65536])
    assert (status, asked) == (413, 0)
    assert b"Request refused" in body
    assert response_headers[b"content-security-policy"]


def test_the_front_drops_header_names_with_underscores():
    from hearts_site.bridge import build_environ, header_map

    headers = [(b"x_forwarded_proto", b"https"), (b"x-forwarded-proto", b"http"), *HOST]
    scope = {"method": "GET", "path": "/", "headers": headers}
    environ = build_environ(scope, header_map(scope), b"")
    assert environ["HTTP_X_FORWARDED_PROTO"] == "http"


@pytest.mark.parametrize("boundary", ["", "; boundary=", "; boundary=" + "x" * 300])
def test_a_multipart_form_without_a_valid_boundary_gets_our_400(boundary):
    response = csrf_client().generic(
        "POST", "/play", b"a=b", content_type="multipart/form-data" + boundary
    )
    assert_ours(response, 400)


def test_a_failed_csrf_check_and_an_unknown_host_get_our_pages():
    refused = csrf_client().post("/play", {"card": "2C"})
    assert refused.status_code == 403
    assert b"This form has expired or came from another site." in refused.content
    assert b"<title>Hearts - Request refused</title>" in refused.content
    stranger = Client(HTTP_HOST="evil.example").get("/")
    assert stranger.status_code == 400
    assert b"This request could not be read." in stranger.content
