"""How every page of the site answers, stated once: rendered for htmx (a fragment) or for a
plain request (a whole page), varied on HX-Request and never stored; and the 303 that sends a
plain form post back to a page (post/redirect/get). ``table_or_page`` and ``dialog_or_page``
make the fragment-or-page choice for the solo game and the network alike."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers

HTMX_VERSION = "2.0.11"  # static/vendor/htmx-<version>.min.js


def fresh(response: HttpResponse) -> HttpResponse:
    """An answer that depends on HX-Request and on the cookies: varied, never stored."""
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "no-store"
    return response


def render_fresh(
    request: HttpRequest, template: str, context: dict | None = None, status: int = 200
) -> HttpResponse:
    return fresh(render(request, template, context, status=status))


TABLE = "game/table.html"  # the table alone: what htmx swaps in


def table_or_page(
    request: HttpRequest, page: str, context: dict, status: int = 200
) -> HttpResponse:
    """The table fragment for htmx, else the whole ``page`` around it."""
    return render_fresh(request, TABLE if request.htmx else page, context, status)


def dialog_or_page(
    request: HttpRequest,
    dialog: str,
    context: dict,
    page: Callable[[], HttpResponse],
    status: int = 200,
) -> HttpResponse:
    """The ``dialog`` alone for htmx, which shows it over the page it has; else ``page()``,
    the whole page with the dialog open over it."""
    if request.htmx:
        return render_fresh(request, dialog, context, status)
    return page()


def see_other(to: str) -> HttpResponse:
    """The 303 to ``to`` (a URL or a URL's name)."""
    response = redirect(to)
    response.status_code = 303
    return response


def htmx(request: HttpRequest) -> dict:
    """Context processor: the htmx version every page's script tag and the About box name."""
    return {"htmx_version": HTMX_VERSION}
