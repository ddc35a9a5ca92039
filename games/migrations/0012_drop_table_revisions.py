"""The table revisions go: ``games_room.presence_rev`` and ``seats_rev`` and
``games_hand.state_rev`` with the triggers that kept the last two.  They keyed caches a
server process kept of a table between moves; a move now reads what it needs under the
room lock, so nothing reads them and the triggers were work on every seat and snapshot
write for nothing."""

import importlib

from django.db import migrations

DROP = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS games_seat_rev ON games_seat",
        "DROP FUNCTION IF EXISTS games_seat_rev()",
        "DROP TRIGGER IF EXISTS games_hand_state_rev ON games_hand",
        "DROP FUNCTION IF EXISTS games_hand_state_rev()",
        "ALTER TABLE games_room DROP COLUMN seats_rev",
        "ALTER TABLE games_hand DROP COLUMN state_rev",
    ],
    "sqlite": [
        "DROP TRIGGER IF EXISTS games_seat_rev_insert",
        "DROP TRIGGER IF EXISTS games_seat_rev_update",
        "DROP TRIGGER IF EXISTS games_seat_rev_delete",
        "DROP TRIGGER IF EXISTS games_hand_state_rev_insert",
        "DROP TRIGGER IF EXISTS games_hand_state_rev_update",
        "ALTER TABLE games_room DROP COLUMN seats_rev",
        "ALTER TABLE games_hand DROP COLUMN state_rev",
    ],
}


def drop(apps, schema_editor):
    for sql in DROP[schema_editor.connection.vendor]:
        schema_editor.execute(sql)


def restore(apps, schema_editor):
    """Back to 0011: the revision columns and their triggers, as 0009 and 0010 made them."""
    for name in ("0009_room_seats_rev", "0010_hand_state_rev"):
        module = importlib.import_module(f"games.migrations.{name}")
        forward = module._run(module.FORWARD)
        forward(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_hand_state_lz4"),
    ]

    operations = [
        migrations.RunPython(drop, restore),
        migrations.RemoveField(model_name="room", name="presence_rev"),
    ]
