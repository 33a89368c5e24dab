"""Leaderboards: run directories -> tables with their intervals (the statistics are werealign.stats), plots.
The Hugging Face release is werealign.release (built) and werealign.dataset (read back)."""
