"""The README stays one screen that gets a newcomer going, and every link in it and in docs/
leads somewhere: a file that exists, a heading that exists."""

import re
from pathlib import Path

from tests.support import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the page's headings: lower case, punctuation gone, spaces to dashes."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def test_the_readme_is_one_screen_with_the_two_commands_first():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    first_screen = "\n".join(lines[:25])
    assert "bash bin/serve" in first_screen
    assert "bash bin/test" in first_screen


def test_the_readme_says_how_to_serve_on_another_address_as_bin_serve_takes_it():
    """Issue 50: only a comment inside bin/serve said that an argument is the address."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"bash bin/serve (\d+\.\d+\.\d+\.\d+:\d+)", readme)
    assert found, "the README shows bin/serve with an address and port"
    found = re.search(r"bash bin/serve runserver (\d+\.\d+\.\d+\.\d+:\d+)", readme)
    assert found, "and the development server likewise"
    script = (REPO / "bin" / "serve").read_text(encoding="utf-8")
    assert '--bind "${1:-127.0.0.1:8000}"' in script  # the address the README's example gives
    assert 'runserver "${@:-127.0.0.1:8000}"' in script


def test_every_link_leads_to_a_file_and_a_heading_that_exist():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and anchor not in anchors(linked):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken
