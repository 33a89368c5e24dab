"""The WereBench importer (`werealign import werebench`): `importer.py` runs it; each other module is one step
of reading the release (its configs, segments, seats, timeline, events, nights, items) or checking what it read."""
