"""Counted words for the sentences the site writes: "1 point", "2 points", "no points". Plain
Python, no Django; every sentence with a number in it says its noun through ``counted``."""


def counted(count: int, noun: str, plural: str = "", zero: str = "") -> str:
    """ "1 point", "2 points"; 0 is "no points" (or ``zero`` in its place: "0 points"). The
    plural is the noun and an s unless ``plural`` says otherwise."""
    many = plural or f"{noun}s"
    if count == 0:
        return zero or f"no {many}"
    return f"{count} {noun if count == 1 else many}"
