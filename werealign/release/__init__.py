"""`werealign release`: a dataset directory as a Hugging Face dataset folder (parquet + dataset card)."""
