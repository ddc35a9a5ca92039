"""What clubs tells the apps above it, which connect in their ``AppConfig.ready``."""

from django.dispatch import Signal

#: ``user`` is no longer a member of ``club_id`` (removed, or left): sent inside the
#: transaction that wrote it.
member_gone = Signal()
