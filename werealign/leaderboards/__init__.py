"""Leaderboards: run directories -> tables with statistics, plots; release/ builds the Hugging Face folder."""
