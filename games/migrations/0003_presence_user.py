from django.conf import settings
from django.db import migrations, models


def forget_presence(apps, schema_editor):
    # Rows are heartbeats of open sockets, rebuilt within seconds by their servers; the
    # old ones name a seat, not a user, and cannot be carried over.
    apps.get_model("games", "Presence").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_presence"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(forget_presence, migrations.RunPython.noop),
        migrations.RemoveField(model_name="presence", name="seat"),
        migrations.AddField(
            model_name="presence",
            name="user",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="presences",
                to=settings.AUTH_USER_MODEL,
            ),
            preserve_default=False,
        ),
    ]
