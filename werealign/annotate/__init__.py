"""Annotation toolkit: transcript + annotator config -> game log, and quality measures (issue 4)."""
