"""Match.current_game: the game being played (or the last one), filled in for existing matches."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def current_games_fill(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    Game = apps.get_model("games", "Game")
    last = Game.objects.filter(match=OuterRef("pk")).order_by("-number").values("pk")[:1]
    Match.objects.update(current_game=Subquery(last))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_merge_0008_bot_push_0009_game_luck"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="current_game",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="games.game",
            ),
        ),
        migrations.RunPython(current_games_fill, migrations.RunPython.noop),
    ]
