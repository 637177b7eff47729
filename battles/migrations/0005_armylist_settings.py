"""Army lists keep their settings (issue 16, R-ARM-2): battle size, detachment, lores and the
like, read from a roster's configuration selections or a text export's header, apart from the
units. Lists stored before have none."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0004_conquest_roll_as_made'),
    ]

    operations = [
        migrations.AddField(
            model_name='armylist',
            name='settings',
            field=models.JSONField(blank=True, default=list),
        ),
    ]
