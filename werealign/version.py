"""The package version, in a module of its own: a leaf that any module may import without importing the
package's front door (werealign/__init__.py, which re-exports the Python API)."""

__version__ = "0.1.0"
