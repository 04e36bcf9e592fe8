"""Tournament points become exact: stored as fraction texts ("1/3") instead of floats rounded to six
decimals per table (issue 17). Every stored value is a multiple of 1/120 (halves of 1/(n - 1) for
tables of 3 to 6, and 0, 1/2, 1 for matches), so the nearest fraction with that denominator is the exact
value the float stood for."""

from fractions import Fraction

from django.db import migrations

DENOMINATOR = 120


def _exact(value):
    if isinstance(value, str):
        return value
    return str(Fraction(value).limit_denominator(DENOMINATOR))


def forwards(apps, schema_editor):
    TournamentMatch = apps.get_model("tournaments", "TournamentMatch")
    Tournament = apps.get_model("tournaments", "Tournament")
    for tm in TournamentMatch.objects.exclude(points=None).only("pk", "points").iterator():
        TournamentMatch.objects.filter(pk=tm.pk).update(points=[_exact(p) for p in tm.points])
    for t in Tournament.objects.exclude(final_standings=None).only("pk", "final_standings").iterator():
        rows = [
            {**row, "points": _exact(row["points"]), "tie_breaks": [_exact(v) for v in row["tie_breaks"]]}
            for row in t.final_standings
        ]
        Tournament.objects.filter(pk=t.pk).update(final_standings=rows)


def backwards(apps, schema_editor):
    TournamentMatch = apps.get_model("tournaments", "TournamentMatch")
    for tm in TournamentMatch.objects.exclude(points=None).only("pk", "points").iterator():
        TournamentMatch.objects.filter(pk=tm.pk).update(
            points=[round(float(Fraction(p)), 6) for p in tm.points]
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
