"""The shared cache's table (Django's database cache), where the limits on creating network
tables are counted, made with the other tables so that ``migrate`` on a fresh database (and the
test database) has it."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("game", "0001_network_table")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
