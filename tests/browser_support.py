"""What the browser tests share: where things are on the page and how to wait for the server."""

from playwright.sync_api import Page

STATUS = "#status .status-line"
CARDS = "#table .hand .card"
LIT = '#table .hand .card:not([aria-disabled="true"])'
TITLE = "#titlebar #title"


def seq(page: Page) -> str:
    return page.locator("#table").get_attribute("data-seq")


def after(page: Page, before: str) -> None:
    """Wait for a new table, swapped and settled (hearts.js has put the focus back)."""
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && t.dataset.seq !== before"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }",
        arg=before,
    )
