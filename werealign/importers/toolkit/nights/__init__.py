"""The night-fact readers: night actions read from a game's Chinese-language texts (the annotator log and the host's
recap, passed in as strings, and the table's own speech), settled against the host's announcements
(`night_facts.read_night_facts` runs them all). The table in werealign.importers.toolkit lists each step."""
