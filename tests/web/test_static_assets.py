"""Checks on the static assets: card art, the icon and vendored htmx. No Django needed."""

import gzip
import re
import xml.etree.ElementTree as ET

import pytest

from game.web.respond import HTMX_VERSION
from tests.support import REPO

STATIC = REPO / "static"
CARDS = STATIC / "cards"
VENDOR = STATIC / "vendor"
ICON = STATIC / "img" / "hearts-icon.svg"

RANKS = "23456789TJQKA"
SUITS = "CDSH"
CODES = [rank + suit for suit in SUITS for rank in RANKS]
CARD_VIEWBOX = "-120 -168 240 336"

# The 52 optimised faces measured 124,041 bytes gzipped (level 9) when added; allow 10% more.
FACES_GZIP_MEASURED = 124_041
FACES_GZIP_BUDGET = FACES_GZIP_MEASURED * 110 // 100

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"

FACE_FILES = [CARDS / f"{code}.svg" for code in CODES]
ALL_SVGS = [*FACE_FILES, CARDS / "back.svg", ICON]


def local(name: str) -> str:
    """Tag or attribute name without its {namespace} prefix."""
    return name.rsplit("}", 1)[-1]


def test_exactly_the_52_faces_and_the_back_are_there():
    assert len(set(CODES)) == 52
    on_disk = {path.stem for path in CARDS.glob("*.svg")}
    assert on_disk == set(CODES) | {"back"}


@pytest.mark.parametrize("path", ALL_SVGS, ids=lambda path: path.name)
def test_svg_is_well_formed_self_contained_and_scalable(path):
    text = path.read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.tag == f"{{{SVG_NS}}}svg"
    expected_viewbox = "0 0 32 32" if path == ICON else CARD_VIEWBOX
    assert root.get("viewBox") == expected_viewbox
    # CSS sizes the picture; fixed dimensions or a stretching aspect ratio would fight it.
    assert root.get("width") is None
    assert root.get("height") is None
    assert root.get("preserveAspectRatio") is None

    for element in root.iter():
        tag = local(element.tag)
        assert tag not in {"script", "style", "foreignObject", "image"}, tag
        for name, value in element.attrib.items():
            attr = local(name)
            assert not attr.lower().startswith("on"), f"event handler {attr} on <{tag}>"
            assert attr != "style", f"style attribute on <{tag}>"
            if attr == "href":
                assert value.startswith("#"), f"reference outside the file: {value}"
            assert "url(" not in value or re.fullmatch(r"url\(#[\w-]+\)", value), value

    # No address anywhere in the file other than the SVG and XLink namespace names.
    addresses = set(re.findall(r"https?://[^\s\"'<>)]*", text))
    assert addresses <= {SVG_NS, XLINK_NS}, addresses


def test_faces_fit_the_gzip_budget():
    total = sum(len(gzip.compress(path.read_bytes(), 9)) for path in FACE_FILES)
    assert total <= FACES_GZIP_BUDGET, f"{total} bytes gzipped, budget {FACES_GZIP_BUDGET}"


def test_card_back_and_icon_stay_small():
    assert (CARDS / "back.svg").stat().st_size < 4_000
    assert ICON.stat().st_size < 4_000


def test_cards_notice_names_source_and_licence():
    notice = (CARDS / "NOTICE").read_text(encoding="utf-8")
    assert "Adrian Kennard" in notice
    assert "@heruka_urgyen/react-playing-cards" in notice
    assert "CC0" in notice
    assert "back.svg" in notice


def test_htmx_is_vendored_at_the_pinned_version_with_its_licence():
    script = (VENDOR / f"htmx-{HTMX_VERSION}.min.js").read_text(encoding="utf-8")
    assert f'version:"{HTMX_VERSION}"' in script
    assert [path.name for path in VENDOR.glob("htmx-*.min.js")] == [f"htmx-{HTMX_VERSION}.min.js"]
    licence = (VENDOR / "htmx-LICENSE").read_text(encoding="utf-8")
    assert "Zero-Clause BSD" in licence
    readme = (VENDOR / "README").read_text(encoding="utf-8")
    assert f"htmx.org@{HTMX_VERSION}" in readme
    assert "0BSD" in readme
