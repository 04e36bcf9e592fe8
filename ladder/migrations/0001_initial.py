# The ladder's models, until now the games app's (games/migrations/0005_ladder.py, 0008_bot_push.py),
# taken over in the state only: their tables exist and keep their names (Meta.db_table) and their rows.
# games/migrations/0013_ladder_models_moved.py removes them from the games app's state first. The
# content types follow them (their permissions and admin log entries with them); on a new database
# there are none yet.

import django.db.models.deletion
from django.db import migrations, models

MODELS = ('botincident', 'botprofile', 'validation', 'laddermatch')


def content_types_follow(apps, schema_editor, old='games', new='ladder'):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    taken = set(ContentType.objects.filter(app_label=new, model__in=MODELS).values_list('model', flat=True))
    ContentType.objects.filter(app_label=old, model__in=set(MODELS) - taken).update(app_label=new)


def content_types_back(apps, schema_editor):
    content_types_follow(apps, schema_editor, old='ladder', new='games')


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0013_ladder_models_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='BotIncident',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField()),
                        ('ply', models.PositiveIntegerField()),
                        ('kind', models.CharField(choices=[('illegal', 'Refused action'), ('timeout', 'Move played on timeout')], max_length=8)),
                        ('payload', models.JSONField(blank=True, null=True)),
                        ('sent', models.JSONField(blank=True, null=True)),
                        ('answer', models.JSONField(blank=True, null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='incidents', to='games.match')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='incidents', to='games.player')),
                    ],
                    options={
                        'db_table': 'games_botincident',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='BotProfile',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('ladder_games', models.JSONField(blank=True, default=list, help_text='Games the bot plays on the ladder.')),
                        ('last_seen_at', models.DateTimeField(blank=True, null=True)),
                        ('push_url', models.URLField(blank=True, help_text="A push bot's HTTPS endpoint: each your_turn is POSTed there.")),
                        ('push_secret', models.CharField(blank=True, help_text="The key of the pushes' HMAC signature.", max_length=64)),
                        ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='ladder', to='games.player')),
                    ],
                    options={
                        'db_table': 'games_botprofile',
                    },
                ),
                migrations.CreateModel(
                    name='Validation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=8)),
                        ('status', models.CharField(choices=[('pending', 'Waiting for the bot to be online'), ('running', 'Validation matches under way'), ('passed', 'Passed'), ('failed', 'Failed')], default='pending', max_length=8)),
                        ('required', models.PositiveSmallIntegerField()),
                        ('passed', models.PositiveSmallIntegerField(default=0)),
                        ('failure_reason', models.CharField(blank=True, max_length=200)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('failure', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='ladder.botincident')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='validations', to='games.player')),
                    ],
                    options={
                        'db_table': 'games_validation',
                    },
                ),
                migrations.CreateModel(
                    name='LadderMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('validation', 'Validation'), ('ladder', 'Ladder')], max_length=10)),
                        ('game', models.CharField(max_length=8)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('finished', models.BooleanField(default=False)),
                        ('bots', models.ManyToManyField(related_name='ladder_matches', to='games.player')),
                        ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='ladder', to='games.match')),
                        ('validation', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='ladder.validation')),
                    ],
                    options={
                        'db_table': 'games_laddermatch',
                    },
                ),
                migrations.AddIndex(
                    model_name='botincident',
                    index=models.Index(fields=['player', '-created_at'], name='games_botin_player__2c1e33_idx'),
                ),
                migrations.AddIndex(
                    model_name='botincident',
                    index=models.Index(fields=['match', 'seat'], name='games_botin_match_i_010897_idx'),
                ),
                migrations.AddConstraint(
                    model_name='validation',
                    constraint=models.UniqueConstraint(fields=('player', 'game'), name='validation_once_per_game'),
                ),
                migrations.AddConstraint(
                    model_name='validation',
                    constraint=models.CheckConstraint(condition=models.Q(('game__in', ('tute2', 'tute4', 'pocha'))), name='validation_known_game'),
                ),
                migrations.AddIndex(
                    model_name='laddermatch',
                    index=models.Index(fields=['finished', 'kind'], name='games_ladde_finishe_4c45d1_idx'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
