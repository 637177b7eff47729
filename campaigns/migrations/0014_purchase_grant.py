from django.db import migrations, models


class Migration(migrations.Migration):
    """The organiser's army corrections are purchase rows of kind "grant" (signed count)."""

    dependencies = [
        ("campaigns", "0013_site_settings_clock_reason"),
    ]

    operations = [
        migrations.AlterField(
            model_name="purchase",
            name="attack_armies",
            field=models.IntegerField(),
        ),
        migrations.AddField(
            model_name="purchase",
            name="kind",
            field=models.CharField(choices=[("buy", "bought"),
                                            ("grant", "correction by the organiser")],
                                   default="buy", max_length=5),
        ),
    ]
