"""Random and hostile requests to every network address (read from game.network.urls, so a new
address is covered the day it is added): whatever the method, query string or form, the answer
is a 4xx, a redirect or a page with a sentence, never a 5xx."""

from __future__ import annotations

import urllib.parse

import pytest
from hypothesis import HealthCheck, given, note
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from game.network import urls as network_urls
from tests.support.network import HX, Person

pytestmark = pytest.mark.django_db

NAMES = [pattern.name for pattern in network_urls.urlpatterns]
KEYS = ["v", "i", "seq", "card", "seat", "name", "role", "number", "link", "csrfmiddlewaretoken"]
HOSTILE = [
    "",
    "²",
    "١٢",  # Arabic-Indic digits: str.isdigit() says yes, int() agrees, the site must not care
    "߀",
    "𝟗",
    "9" * 400,
    "-1",
    "+1",
    " 1",
    "1e9",
    "0x10",
    "NaN",
    "\x00",
    "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
    "%",
    "%ff",
    "<script>",
    "2C",
    "QS",
    "10H",
    "4294967296",
    str(2**63),
    "🂡" * 30,
]
value = st.sampled_from(HOSTILE) | st.text(max_size=30) | st.integers(-(2**70), 2**70).map(str)
pairs = st.lists(st.tuples(st.sampled_from(KEYS) | st.text(max_size=8), value), max_size=6)
METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"]


def url_of(name: str, code: str) -> str:
    pattern = str(next(p.pattern for p in network_urls.urlpatterns if p.name == name))
    return "/" + pattern.replace("<str:code>", urllib.parse.quote(code, safe=""))


@hypothesis_settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(NAMES),
    method=st.sampled_from(METHODS),
    which=st.sampled_from(["seated", "stranger", "other code", "hostile code"]),
    hostile_code=st.sampled_from(HOSTILE) | st.text(min_size=1, max_size=30),
    query=pairs,
    form=pairs,
    htmx=st.booleans(),
)
def test_no_request_to_a_network_address_is_answered_with_a_server_error(
    table, name, method, which, hostile_code, query, form, htmx
):
    seated, stranger = table
    client = stranger.client if which == "stranger" else seated.client
    code = {
        "other code": "A" * 22,
        "hostile code": hostile_code.replace("/", "") or "x",
    }.get(which, seated.code)
    path = url_of(name, code)
    query_string = urllib.parse.urlencode(query)
    body = urllib.parse.urlencode([*form, ("seq", str(seated_seq(seated)))])
    note(f"{method} {path}?{query_string} body={body!r}")
    response = client.generic(
        method,
        f"{path}?{query_string}",
        data=body,
        content_type="application/x-www-form-urlencoded",
        **(HX if htmx else {}),
    )
    assert response.status_code < 500, (method, path, query_string, body)
    if response.status_code in (200, 286) and method in ("GET", "POST"):
        assert response.content.strip()  # a page or a sentence, never an empty answer


def seated_seq(person: Person) -> int:
    try:
        return int(person.seq())
    except Exception:  # noqa: BLE001 - the table may have been left mid-example; any seq will do
        return 0


@pytest.fixture
def table():
    """A started table with a person seated (whose cookie is sent) and a stranger."""
    ada, bea = Person("Ada"), Person("Bea")
    code = ada.deal(617)
    bea.join(code)
    ada.post("start")
    return ada, Person("Cy", code)


def test_the_poll_of_a_superscript_version_is_a_page_not_a_server_error(table):
    ada, _ = table
    response = ada.client.get(f"/t/{ada.code}/poll?v=%C2%B2", **HX)
    assert response.status_code == 200
    assert b'class="net-poll"' in response.content


def test_the_quiet_poll_is_never_stored_by_a_cache(table):
    ada, _ = table
    page = ada.client.get(f"/t/{ada.code}/", **HX)
    version = int(page.content.decode().split('data-version="')[1].split('"')[0])
    response = ada.poll(version, 0)
    assert response.status_code == 204
    assert response["Cache-Control"] == "no-store"
