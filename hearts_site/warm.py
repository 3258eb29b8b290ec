"""What an instance does once, in gunicorn's master before its workers fork (``preload_app``),
so that no worker's first requests pay for it and the workers share it instead of copying it.

- Every template is compiled into Django's cached loader: a worker forked afterwards finds them
  compiled (otherwise each worker compiles each template at its first use of it, inside a
  person's request).
- The objects made so far (the imported code, the compiled templates, the players' machine
  code's wrappers) are moved out of the garbage collector's reach (``gc.freeze``): a collection
  in a worker would otherwise write to every one of them, and each page of the master's memory
  so written is copied into that worker (copy-on-write), once per worker.
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.template import engines
from django.template.utils import get_app_template_dirs


def template_names() -> list[str]:
    """The name of every template the site's engine can load: its folders' and its apps'."""
    engine = engines["django"].engine
    folders = [*map(Path, engine.dirs), *get_app_template_dirs("templates")]
    names = set()
    for folder in folders:
        names.update(
            path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()
        )
    return sorted(names)


def warm() -> int:
    """Compile every template and freeze what the master holds; how many templates."""
    engine = engines["django"]
    names = template_names()
    for name in names:
        engine.get_template(name)
    gc.collect()
    gc.freeze()
    return len(names)
