"""What a game log means beyond its shape: what a seat knows at a cut-off (visibility) and the items derived from it (derive)."""
