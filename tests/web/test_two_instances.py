"""Two gunicorn instances sharing only the secret key serve one game between them, request by
request, from the name prompt through the end of the game: no state lives in a process."""

import http.client
import re
import sqlite3
import urllib.parse

from tests.support.production import Response, gunicorn, make_secret_key, production_env, run
from tools.server import browser_answer, browser_request

HOST = "127.0.0.1"


class Browser:
    """Cookies and the CSRF token, sent to whichever instance is next."""

    def __init__(self, servers):
        self.servers = servers
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.sent = 0
        self.served_by: list[int] = []

    def send(self, method: str, path: str, form: dict | None = None) -> str:
        server = self.servers[self.sent % len(self.servers)]
        self.sent += 1
        self.served_by.append(server.port)
        headers, body = browser_request(self.cookies, self.token, form)
        response = send(server.port, path, method, headers, body)
        assert response.status == 200, (method, path, response.status, response.body[:500])
        html = response.body.decode()
        self.token = browser_answer(self.cookies, self.token, response.headers, html)
        refusal = re.search(r'class="status-line refusal">([^<]*)<', html)
        assert not refusal, f"{path} {form} refused: {refusal.group(1)}"
        return html


def send(port: int, path: str, method: str, headers: dict, body: str | None) -> Response:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        return Response(answer.status, answer.headers, answer.read())
    finally:
        conn.close()


def next_move(html: str) -> tuple[str, dict]:
    """The first legal move the table offers, read from its HTML as a person reads the table."""
    seq = re.search(r'data-seq="(\d+)"', html).group(1)
    hand = re.search(r'class="hand-form"(?: action="/(\w+)")?', html)
    action = hand.group(1) if hand else None
    cards = re.findall(r'name="card" value="(\w\w)" class="([^"]*)"( aria-disabled="true")?', html)
    button = re.search(r'class="button-form" action="/(\w+)"[^>]*>.*?id="pass-button"( disabled)?',
                       html, re.S)  # fmt: skip
    if action == "select":
        raised = [code for code, classes, _ in cards if "raised" in classes]
        if len(raised) < 3:
            down = [code for code, classes, _ in cards if "raised" not in classes]
            return "/select", {"seq": seq, "card": down[0]}
        return "/pass", {"seq": seq}
    if button and not button.group(2):
        return "/" + button.group(1), {"seq": seq}
    if action == "play":
        lit = [code for code, _, disabled in cards if not disabled]
        return "/play", {"seq": seq, "card": lit[-1]}
    assert 'action="/next"' in html, html
    return "/next", {"seq": seq}


def test_one_game_alternating_between_two_instances_is_played_to_the_end(static_root, tmp_path):
    key = make_secret_key()
    env = production_env(
        DJANGO_SECRET_KEY=key,
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_STATIC_ROOT=str(static_root),
        WEB_CONCURRENCY="1",
    )
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with gunicorn(env, tmp_path / "a") as first, gunicorn(env, tmp_path / "b") as second:
        assert first.port != second.port
        assert first.process.pid != second.process.pid
        browser = Browser([first, second])
        browser.send("GET", "/")
        html = browser.send("POST", "/name", {"name": "Ada"})
        while "phase-game_over" not in html:
            path, form = next_move(html)
            html = browser.send("POST", path, form)
            assert browser.sent < 2000
        assert 'class="result"' in html
        # One more: OK on the final sheet deals the next game, on the other instance.
        path, form = next_move(html)
        assert path == "/next"
        html = browser.send("POST", path, form)
        assert "phase-passing" in html or "phase-playing" in html
    assert set(browser.served_by) == {first.port, second.port}
    assert browser.served_by[::2] == [first.port] * len(browser.served_by[::2])
    assert browser.served_by[1::2] == [second.port] * len(browser.served_by[1::2])
    print(f"{browser.sent} requests, alternating between ports {first.port} and {second.port}")


def test_table_creation_beyond_the_limits_is_refused_whichever_instance_counts(
    static_root, tmp_path
):
    """Two instances share one database (its shared cache holds the counts), each request to
    the next: a browser is refused past its own limit, a second browser from the same address
    past the address's, a third from another address past the total. Every attempt counts; a
    refusal is a sentence and a 429, on either instance, and creates nothing."""
    database = tmp_path / "shared.sqlite3"
    env = production_env(
        DJANGO_SECRET_KEY=make_secret_key(),
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_STATIC_ROOT=str(static_root),
        DATABASE_URL=f"sqlite:///{database}",
        WEB_CONCURRENCY="1",
        HEARTS_TABLES_PER_BROWSER="3/h",
        HEARTS_TABLES_PER_ADDRESS="5/h",
        HEARTS_TABLES_IN_ALL="8/h",
    )
    migrate = run(["-m", "django", "migrate", "--noinput", "-v", "0"], env)
    assert migrate.returncode == 0, migrate.stderr
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with gunicorn(env, tmp_path / "a") as first, gunicorn(env, tmp_path / "b") as second:
        servers = [first, second]

        def arrive(address: str) -> Browser:
            browser = Browser(servers)
            browser.address = address
            browser.send("GET", "/")
            browser.send("GET", "/network")
            return browser

        def deal(browser: Browser) -> tuple[int, str, int]:
            """Deal a table from this browser's address; (status, sentence, instance's port)."""
            port = servers[browser.sent % 2].port
            browser.sent += 1
            cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
            body = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": browser.token, "role": "dealer", "name": "Ada"}
            )
            headers = {"Host": HOST, "Cookie": cookies}
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn = http.client.HTTPConnection(
                HOST, port, timeout=30, source_address=(browser.address, 0)
            )
            try:
                conn.request("POST", "/network", body=body, headers=headers)
                answer = conn.getresponse()
                html = answer.read().decode()
            finally:
                conn.close()
            found = re.search(r'class="[^"]*refusal[^"]*"[^>]*>([^<]*)<', html)
            return answer.status, found.group(1) if found else "", port

        ada = arrive("127.0.0.1")
        answers = [deal(ada) for _ in range(4)]
        assert [status for status, _, _ in answers] == [303, 303, 303, 429]
        assert {port for _, _, port in answers} == {first.port, second.port}
        assert answers[-1][1].startswith("You have dealt many tables in the last hour")

        bea = arrive("127.0.0.1")  # another browser, the same address: one more makes 5
        answers = [deal(bea) for _ in range(2)]
        assert [status for status, _, _ in answers] == [303, 429]
        assert answers[-1][1].startswith("You have dealt many tables in the last hour")

        cy = arrive("127.0.0.2")  # another address: two more make 8 attempts in all
        answers = [deal(cy) for _ in range(3)]
        assert [status for status, _, _ in answers] == [303, 303, 429]
        assert answers[-1][1].startswith("So many tables are being dealt just now")

        with sqlite3.connect(database) as db:
            assert db.execute("select count(*) from game_table").fetchone()[0] == 3 + 1 + 2
