"""What the table tells the apps above it, which connect in their ``AppConfig.ready``
(the table imports none of them)."""

from django.dispatch import Signal

#: A hand ended a room's match, or a vote did: ``room_id``.  Sent inside the transaction
#: that wrote it; a receiver acts after its commit (``transaction.on_commit``).
match_may_have_ended = Signal()
