from django.db import migrations, models


def mark_settled(apps, schema_editor):
    """Hands settled before the marker existed are done; an ended hand without a
    settlement is left unmarked, so the sweeper settles it now."""
    Hand = apps.get_model("games", "Hand")
    Settlement = apps.get_model("games", "Settlement")
    created = Settlement.objects.filter(hand=models.OuterRef("pk")).values("created_at")[:1]
    Hand.objects.filter(status="ended", settlement__isnull=False).update(
        settled_at=models.Subquery(created)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_drop_table_revisions"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="settled_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(mark_settled, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(
                condition=models.Q(("settled_at__isnull", True), ("status", "ended")),
                fields=["ended_at"],
                name="hand_unsettled",
            ),
        ),
    ]
