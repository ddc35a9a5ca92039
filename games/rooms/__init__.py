"""Rooms and the lobby: the pages and the REST API for creating, listing, joining
and playing in rooms; below them is the live table (``games.table``)."""
