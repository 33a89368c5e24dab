"""The WereBench importer (`werealign import werebench`): `importer.py` runs it; each other module is one step
of reading the release (its configs, segments, seats, timeline, events, nights, items) or checking what it read.
The steps any human-game importer needs (tallies, candidacy, the exit cross-check, the gate, ...) are in
werealign.importers.toolkit, which never imports this package."""
