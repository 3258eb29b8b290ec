"""The application gunicorn serves (see gunicorn.conf.py for why ASGI)."""

import os

from django.core.asgi import get_asgi_application

from hearts_site.guard import bounded_body

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
application = bounded_body(get_asgi_application())
