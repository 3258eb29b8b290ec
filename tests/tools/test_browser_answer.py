"""The simulated browsers of the tools and the production-like tests keep an answer's cookies
and CSRF token as a browser does (tools.server.browser_answer, their one reading of it)."""

from __future__ import annotations

import email.parser
import http.client

from tools.server import browser_answer


def headers_of(*lines: str) -> http.client.HTTPMessage:
    text = "".join(f"{line}\r\n" for line in lines) + "\r\n"
    return email.parser.Parser(_class=http.client.HTTPMessage).parsestr(text)


def test_cookies_are_kept_replaced_and_dropped_when_expired():
    cookies = {"csrftoken": "old", "sessionid": "abc", "hearts_seats": "x"}
    headers = headers_of(
        "Set-Cookie: csrftoken=new; Path=/; SameSite=Lax",
        'Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/',
        "Set-Cookie: hearts_seats=y; Max-Age=0; Path=/t/",
        "Set-Cookie: hearts=signed:value; HttpOnly",
    )
    browser_answer(cookies, "", headers, "")
    assert cookies == {"csrftoken": "new", "hearts": "signed:value"}


def test_the_token_is_the_page_form_s_else_the_one_held():
    form = '<form><input type="hidden" name="csrfmiddlewaretoken" value="T0K3N"></form>'
    assert browser_answer({}, "held", headers_of(), form) == "T0K3N"
    assert browser_answer({}, "held", headers_of(), "<p>no form</p>") == "held"


def test_a_placeholder_token_leaves_the_one_held():
    """A hand the server drew for the page to give its own token (a network table's mover's
    answer, its stream's lit hand) carries "-": the browser keeps the token it holds."""
    form = '<form><input type="hidden" name="csrfmiddlewaretoken" value="-"></form>'
    assert browser_answer({}, "held", headers_of(), form) == "held"
