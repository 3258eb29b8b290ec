from hearts_site.settings import *  # noqa: F403

# pytest-django's live_server needs a database fixture even though the site has none.
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
