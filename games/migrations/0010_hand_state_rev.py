"""``games_hand.state_rev``: a revision of the hand's snapshot, kept honest by the database.

The table server keeps the state of a hand it recorded, keyed by this revision, and
uses it only while the revision read under the room lock is the same
(``services._hand_state``).  ``services._record`` writes a new random revision with
every snapshot it writes; a trigger gives the row a new random revision whenever the
``state`` column is written without one (an admin, a script, a test rigging a deal),
and on insert.  So no write of a snapshot, by whatever code, can leave a process using
the state from before it.  Not a model field: no ``save()`` can write an old value back.
"""

from django.db import migrations

FORWARD = {
    "postgresql": [
        "ALTER TABLE games_hand ADD COLUMN state_rev bigint NOT NULL DEFAULT 0",
        """
        CREATE OR REPLACE FUNCTION games_hand_state_rev() RETURNS trigger AS $$
        BEGIN
            IF TG_OP = 'INSERT' OR NEW.state_rev = OLD.state_rev THEN
                NEW.state_rev := floor(random() * 9.2e18)::bigint;
            END IF;
            RETURN NEW;
        END
        $$ LANGUAGE plpgsql
        """,
        """
        CREATE TRIGGER games_hand_state_rev BEFORE INSERT OR UPDATE OF state ON games_hand
        FOR EACH ROW EXECUTE FUNCTION games_hand_state_rev()
        """,
    ],
    "sqlite": [
        "ALTER TABLE games_hand ADD COLUMN state_rev integer NOT NULL DEFAULT 0",
        # SQLite's triggers cannot change NEW: they write the row again (only state_rev,
        # which fires no trigger of its own).
        """
        CREATE TRIGGER games_hand_state_rev_insert AFTER INSERT ON games_hand BEGIN
            UPDATE games_hand SET state_rev = random() WHERE id = NEW.id;
        END
        """,
        """
        CREATE TRIGGER games_hand_state_rev_update AFTER UPDATE OF state ON games_hand
        WHEN NEW.state_rev = OLD.state_rev BEGIN
            UPDATE games_hand SET state_rev = random() WHERE id = NEW.id;
        END
        """,
    ],
}

BACKWARD = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS games_hand_state_rev ON games_hand",
        "DROP FUNCTION IF EXISTS games_hand_state_rev()",
        "ALTER TABLE games_hand DROP COLUMN state_rev",
    ],
    "sqlite": [
        "DROP TRIGGER IF EXISTS games_hand_state_rev_insert",
        "DROP TRIGGER IF EXISTS games_hand_state_rev_update",
        "ALTER TABLE games_hand DROP COLUMN state_rev",
    ],
}


def _run(statements):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise RuntimeError(f"games.0010: no snapshot-revision triggers for {vendor}")
        for sql in statements[vendor]:
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_room_seats_rev"),
    ]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
