"""How every page of the site answers, stated once: rendered for htmx (a fragment) or for a
plain request (a whole page), varied on HX-Request and never stored; and the 303 that sends a
plain form post back to a page (post/redirect/get)."""

from __future__ import annotations

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


def see_other(to: str) -> HttpResponse:
    """The 303 to ``to`` (a URL or a URL's name)."""
    response = redirect(to)
    response.status_code = 303
    return response


def htmx(request: HttpRequest) -> dict:
    """Context processor: the htmx version every page's script tag and the About box name."""
    return {"htmx_version": HTMX_VERSION}
