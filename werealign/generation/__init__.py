"""Drafting items with an LLM, filtering them, and the annotators' review page."""
