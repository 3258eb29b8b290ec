import os
import shutil

import pytest
from playwright.sync_api import expect

# Playwright's sync API keeps an event loop running in the test thread; Django would refuse
# its synchronous database calls (live_server's setup) without this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS

# An expectation ends as soon as the page shows what it expects; its ceiling (Playwright's is
# 5 s) only decides how long a busy machine (three test workers on two cores, or a benchmark
# beside them) may take before the test fails: a slow machine makes a test slower, never red.
expect.set_options(timeout=20_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: bin/test installs Debian's chromium package.")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    """Browser tests run without animation, as a player with reduced motion would see them;
    the test of the animation itself makes its own contexts."""
    return {**browser_context_args, "reduced_motion": "reduce"}


# The files whose tests bin/test's --durations showed slowest (a whole network game in two
# browsers, two challenges played through, pages at gunicorn instances).
LONGEST_FIRST = (
    "tests/browser/test_network.py",
    "tests/browser/test_network_push.py",
    "tests/browser/test_challenge.py",
    "tests/browser/test_realtime.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (bin/pytest-parallel hands tests out one by one, in this order) the
    browser tests start first, the longest files before the rest: a long test begun last would
    leave the other workers idle while it ends. Within each group the order is pytest-django's
    (the database's tests, then the transactional ones, then the rest); a plain run keeps it."""
    if not getattr(config.option, "numprocesses", None):
        return

    def group(item) -> int:
        if item.nodeid.split("::")[0] in LONGEST_FIRST:
            return 0
        return 1 if item.get_closest_marker("browser") else 2

    items.sort(key=group)


FIXED_NUMBERS_FROM = 4242


@pytest.fixture(autouse=True)
def fixed_new_game_numbers(request, monkeypatch):
    """Browser tests replay: a game the server would number at random (a first visit, New
    Game, OK on a final sheet) is numbered 4242, 4243, ... instead. The live server runs in
    this process, so it draws from here."""
    if request.node.get_closest_marker("browser") is None:
        return
    numbers = iter(range(FIXED_NUMBERS_FROM, FIXED_NUMBERS_FROM + 1000))
    draw = lambda: next(numbers)  # noqa: E731
    monkeypatch.setattr("game.solo.views.new_number", draw)
    monkeypatch.setattr("game.solo.actions.new_number", draw)


@pytest.fixture
def fresh_context(browser):
    """Browser contexts made by a test, closed when it ends, even when it fails (an open one
    would keep connections to the live server after it has stopped)."""
    made = []

    def make(**kwargs):
        context = browser.new_context(**kwargs)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture(scope="session")
def browser(live_server, launch_browser):
    """pytest-playwright's browser, started after the live server and so closed before it:
    the browser's last connections end while the server can still close them cleanly."""
    browser = launch_browser()
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    """The static files collected once (once a worker under pytest-xdist) for the
    production-like servers."""
    from tests.support.production import production_env, run

    root = tmp_path_factory.mktemp("static")
    env = production_env(DJANGO_STATIC_ROOT=str(root))
    result = run(["-m", "django", "collectstatic", "--noinput", "-v", "0"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    return root
