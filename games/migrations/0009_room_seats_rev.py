"""``games_room.seats_rev``: a revision of the room's seats, kept by the database.

Triggers on ``games_seat`` give the room a new random revision whenever one of its seat
rows is inserted, updated or deleted, by whatever code.  The column is not a model
field, so no ``save()`` can write an old value back; ``services`` reads it in the
statement that locks the room and reuses seats it read at that revision
(``services._play_seats``).  Random rather than counted: a room id that SQLite hands
out again starts from another revision.
"""

from django.db import migrations

# The same three triggers on each database: a seat row changed, its room moves on.
NEW_REV = {
    "postgresql": "floor(random() * 9.2e18)::bigint",
    "sqlite": "random()",
}

FORWARD = {
    "postgresql": [
        "ALTER TABLE games_room ADD COLUMN seats_rev bigint NOT NULL DEFAULT 0",
        """
        CREATE OR REPLACE FUNCTION games_seat_rev() RETURNS trigger AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                UPDATE games_room SET seats_rev = {rev} WHERE id = OLD.room_id;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                UPDATE games_room SET seats_rev = {rev} WHERE id = NEW.room_id;
                RETURN NEW;
            END IF;
            RETURN OLD;
        END
        $$ LANGUAGE plpgsql
        """,
        """
        CREATE TRIGGER games_seat_rev AFTER INSERT OR UPDATE OR DELETE ON games_seat
        FOR EACH ROW EXECUTE FUNCTION games_seat_rev()
        """,
    ],
    "sqlite": [
        "ALTER TABLE games_room ADD COLUMN seats_rev integer NOT NULL DEFAULT 0",
        """
        CREATE TRIGGER games_seat_rev_insert AFTER INSERT ON games_seat BEGIN
            UPDATE games_room SET seats_rev = {rev} WHERE id = NEW.room_id;
        END
        """,
        """
        CREATE TRIGGER games_seat_rev_update AFTER UPDATE ON games_seat BEGIN
            UPDATE games_room SET seats_rev = {rev} WHERE id IN (OLD.room_id, NEW.room_id);
        END
        """,
        """
        CREATE TRIGGER games_seat_rev_delete AFTER DELETE ON games_seat BEGIN
            UPDATE games_room SET seats_rev = {rev} WHERE id = OLD.room_id;
        END
        """,
    ],
}

BACKWARD = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS games_seat_rev ON games_seat",
        "DROP FUNCTION IF EXISTS games_seat_rev()",
        "ALTER TABLE games_room DROP COLUMN seats_rev",
    ],
    "sqlite": [
        "DROP TRIGGER IF EXISTS games_seat_rev_insert",
        "DROP TRIGGER IF EXISTS games_seat_rev_update",
        "DROP TRIGGER IF EXISTS games_seat_rev_delete",
        "ALTER TABLE games_room DROP COLUMN seats_rev",
    ],
}


def _run(statements):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise RuntimeError(f"games.0009: no seat-revision triggers for {vendor}")
        for sql in statements[vendor]:
            schema_editor.execute(sql.format(rev=NEW_REV[vendor]))

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_room_presence_rev"),
    ]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
