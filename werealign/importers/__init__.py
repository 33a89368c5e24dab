"""Importers: convert an existing benchmark release into a werealign dataset directory.

Each importer keeps what is sound, repairs what it can (saying how), and lists everything it
dropped with a reason, in an import report written into the dataset itself.
"""
