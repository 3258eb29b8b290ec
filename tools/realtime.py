"""Two real browsers at one more table of a running site: ``python -m tools.realtime --port N``.

What the realtime figures test measures (``tests/browser/test_realtime.py``, ``measure``), aimed
at a site that is already running, such as one of ``tools.netload``'s instances while its tables
play (``tools.netload --browsers``): Anna deals through the Game menu, Bea opens the link and
types her name at the prompt, and both play a hand as fast as their pages let them in Debian's
Chromium, default animation. Prints each card's time from its send in one page until it is in
the other's, each way and both, and until it shows on the other's table.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import expect, sync_playwright

    from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
    from tests.support.realtime import measure

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True, help="the site's port on 127.0.0.1")
    parser.add_argument("--label", default="two browsers", help="the printed lines' label")
    args = parser.parse_args(argv)
    expect.set_options(timeout=60_000)  # a site under load: slower, never a failure
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            measure(browser, args.port, args.label)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
