"""What a game log means beyond its shape: items derived from it (derive)."""
