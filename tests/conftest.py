import os
import shutil

import pytest

# Playwright's sync API keeps an event loop running in the test thread; Django would refuse
# its synchronous database calls (live_server's setup) without this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: bin/test installs Debian's chromium package.")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    """Browser tests run without animation, as a player with reduced motion would see them;
    the test of the animation itself makes its own contexts."""
    return {**browser_context_args, "reduced_motion": "reduce"}
