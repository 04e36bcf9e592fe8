# The ladder's models moved to the ladder app (ladder/migrations/0001_initial.py takes them over): they
# leave the games app's state only. Their tables keep their names and their rows (Meta.db_table).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_boards'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='LadderMatch'),
                migrations.DeleteModel(name='Validation'),
                migrations.DeleteModel(name='BotIncident'),
                migrations.DeleteModel(name='BotProfile'),
            ],
            database_operations=[],
        ),
    ]
