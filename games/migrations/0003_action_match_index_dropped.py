"""Action.match loses its own index: the unique (match, ply) index leads with the same column.

Only the index is dropped. Django's AlterField would also drop and re-add the foreign key, which
re-checks every row of the largest table while holding its lock.
"""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "games_action_match_id_fcb64f40"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_match_rateable_finished"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{INDEX}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "games_action" ("match_id")',
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="action",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="actions",
                        to="games.match",
                    ),
                ),
            ],
        ),
    ]
