from django.db import migrations, models


def carry_dealer(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for room in Room.objects.exclude(next_dealer=None).only("pk", "next_dealer"):
        Room.objects.filter(pk=room.pk).update(match={"dealer": room.next_dealer})


class Migration(migrations.Migration):
    dependencies = [("games", "0003_presence_user")]

    operations = [
        migrations.AddField(
            model_name="room",
            name="match",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="hand",
            name="match",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(carry_dealer, migrations.RunPython.noop),
        migrations.RemoveField(model_name="room", name="next_dealer"),
    ]
