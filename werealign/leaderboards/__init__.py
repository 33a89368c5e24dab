"""Leaderboards: run directories -> tables with their intervals (the statistics are werealign.stats), plots;
release/ builds the Hugging Face folder and reads one back for eval."""
