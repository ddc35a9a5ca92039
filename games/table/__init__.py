"""The live table: the socket, the move path (services), publishing to the seats,
clocks and the sweeper, and the end of a hand."""
