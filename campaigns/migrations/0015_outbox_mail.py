from django.db import migrations, models


class Migration(migrations.Migration):
    """The mail outbox (campaigns.services.outbox): every mail the site sends."""

    dependencies = [
        ("campaigns", "0014_purchase_grant"),
    ]

    operations = [
        migrations.CreateModel(
            name="OutboxMail",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("to", models.CharField(max_length=254)),
                ("subject", models.CharField(max_length=255)),
                ("body", models.TextField()),
                ("headers", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField()),
                ("due_at", models.DateTimeField()),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("last_error", models.CharField(blank=True, default="", max_length=300)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("gave_up_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "ordering": ["id"],
                "indexes": [models.Index(
                    condition=models.Q(("gave_up_at__isnull", True), ("sent_at__isnull", True)),
                    fields=["due_at"], name="outbox_mail_due")],
            },
        ),
    ]
