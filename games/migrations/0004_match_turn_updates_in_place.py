"""Every move rewrites its match row (ply, turn seat, deadline): let PostgreSQL do it in place.

An update that changes no indexed column and finds room on the row's page is a heap-only (HOT) update:
no new entry in any of the match table's indexes. ``turn_deadline`` was indexed, so each move added an
entry to the table's indexes (and left as many dead ones for vacuum). Without that index and with
a fifth of each page kept free, moves update the row in place. The sweeper's overdue-turn query reads
the in-progress matches through the status index instead."""

from typing import Any

from django.db import migrations, models

FILLFACTOR = 80


def fillfactor_set(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_match SET (fillfactor = {FILLFACTOR})")


def fillfactor_reset(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_match RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_action_match_index_dropped"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="turn_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fillfactor_set, fillfactor_reset),
    ]
