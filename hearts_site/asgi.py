"""The application gunicorn serves (``gunicorn hearts_site.asgi -c gunicorn.conf.py``): Django's
WSGI handler behind an asyncio front that reads the requests; see hearts_site.bridge."""

import os
import sys

from django.core.wsgi import get_wsgi_application

from hearts_site.bridge import Bridge
from hearts_site.streams import Streams
from hearts_site.warm import warm

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
# A thread that wants the interpreter gets it from a thinking move within 1 ms instead of 5.
sys.setswitchinterval(0.001)
# Threads per process: pages and /healthz, and moves. The computer players' thinking, the CPU work
# of a move, is one at a time per process by its own semaphore (game.seating.Clock); the other
# move threads serve the moves that need no thinking, so a move at one network table does not
# queue behind another table's thinking. Pages get two threads: drawing a table is CPU work under
# the interpreter lock too, so more page threads draw no faster, and each one more that is busy
# takes a share of the lock from the moves (with eight, a move under load waited behind up to
# eight drawn polls; docs/measurements.md gives tools.netload's figures). While a page request
# waits for a thread (HEARTS_POLL_BACKLOG: this many waiting; 0 never), or a move is being worked
# out (HEARTS_POLL_MOVES: this many; 0 never), a poll that would draw the table is answered
# "later" on the event loop instead (hearts_site.streams): htmx asks again in two seconds and one
# drawing then shows all that came meanwhile, so a busy process draws fewer tables and no drawing
# that starts takes the interpreter from a move. A page a trick behind is drawn however busy
# (game.network.quiet.LATER_VERSIONS).
front = Bridge(
    get_wsgi_application(),
    pages=int(os.environ.get("HEARTS_PAGE_THREADS") or 2),
    moves=int(os.environ.get("HEARTS_MOVE_THREADS") or 4),
    backlog=int(os.environ.get("HEARTS_POLL_BACKLOG") or 1),
    moving=int(os.environ.get("HEARTS_POLL_MOVES") or 1),
)
# A network table's event stream: native async Django, no thread held (game.network.stream); a
# poll that the process's listener can tell has nothing new: a 204 without a thread or a query.
application = Streams(front, "game.network.stream.serve", "game.network.quiet.quiet_poll")
# Under gunicorn's preload_app this runs in the master, before the workers fork (hearts_site.warm).
warm()
