"""Hand pages and replays: a finished hand's record and frames, on a page and over REST."""
