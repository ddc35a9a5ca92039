"""Provably fair deals (commit–reveal with client seeds) and the spectator delay.

The 62-bit ``Hand.seed`` goes: a hand is dealt from a 32-byte server seed and four
client seeds.  Hands stored before this have no seeds (empty strings) and cannot be
re-dealt; every room gets its own committed seed for its next hand."""

import secrets

from django.db import migrations, models

import games.models


def seed_rooms(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for room in Room.objects.all().only("pk"):
        Room.objects.filter(pk=room.pk).update(next_server_seed=secrets.token_hex(32))


class Migration(migrations.Migration):
    dependencies = [("games", "0006_seat_auto_play")]

    operations = [
        migrations.RemoveField(model_name="hand", name="seed"),
        migrations.AddField(
            model_name="hand",
            name="server_seed",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="hand",
            name="commitment",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="hand",
            name="client_seeds",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="room",
            name="next_server_seed",
            field=models.CharField(default=games.models.new_server_seed, max_length=64),
        ),
        migrations.RunPython(seed_rooms, migrations.RunPython.noop),
        migrations.AddField(
            model_name="room",
            name="spectator_delay",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="client_seed",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
    ]
