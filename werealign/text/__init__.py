"""Text as werealign compares it: one normalisation (`norm`), TF-IDF similarity (`similarity`) and Chinese
numerals (`zh_numbers`) and seat numbers in digits (`seat_numbers`), shared by validate, the audit, the tasks, generation, the baselines and the importers."""
