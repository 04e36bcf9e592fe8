"""Every games match a tournament made is managed by it: only the tournament's services end it."""

from django.db import migrations


def mark_managed(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    TournamentMatch = apps.get_model("tournaments", "TournamentMatch")
    ids = TournamentMatch.objects.filter(match__isnull=False).values("match_id")
    Match.objects.filter(pk__in=ids).update(managed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_options_help_names_docs_rules"),
        ("games", "0005_match_managed"),
    ]

    operations = [migrations.RunPython(mark_managed, migrations.RunPython.noop)]
