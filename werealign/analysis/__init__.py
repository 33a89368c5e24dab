"""Game metrics over any games, human or self-play (`werealign analyze`)."""
