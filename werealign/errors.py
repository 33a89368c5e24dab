"""The one exception type that user-facing commands turn into a clear message and exit code 1."""


class UserError(Exception):
    """Bad input or environment a user can fix. The message names the file, game/item and field."""
