"""Conquest rolls keep what they were made with (issue 15): the rule that set the threshold and
the multi-conquest count k (R-CON-1/2/4/6). Rolls made before this keep a blank rule; their k
is read back from the multi-conquest modifier they stored (R-CON-3: -(k-1); none means k = 1),
chain rolls (``immediate``) have none."""

from django.db import migrations, models


def k_from_modifiers(apps, schema_editor):
    ConquestRoll = apps.get_model("battles", "ConquestRoll")
    rows = list(ConquestRoll.objects.filter(immediate=False, k__isnull=True))
    for row in rows:
        multi = [m.get("value", 0) for m in row.modifiers or ()
                 if m.get("name") == "multi_conquest"]
        row.k = 1 - multi[0] if multi else 1
    ConquestRoll.objects.bulk_update(rows, ["k"])


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0003_choice_labels'),
    ]

    operations = [
        migrations.AddField(
            model_name='conquestroll',
            name='k',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='conquestroll',
            name='threshold_rule',
            field=models.CharField(blank=True, max_length=10),
        ),
        migrations.RunPython(k_from_modifiers, migrations.RunPython.noop),
    ]
