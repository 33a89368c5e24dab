"""The role words readers of Chinese game text match: the role catalogue's names. A seat's own label is matched
beside its role's names where a reader asks for that seat (nights.nights), so a label a game spells its own way is
read as that seat's role in the seat's own clauses.

An importer's slips in role labels (a typo standing for a role) are its own: it declares them into the configs it
writes and reads its labels with them (werealign.importers.werebench.text.LABEL_SLIPS); they are no role words of
text, where a typo that happens to be a word ("阔人" is also "a rich man") would name a role wherever it is written.
"""

from __future__ import annotations

from werealign.schema.roles import builtin_catalogue

ROLE_WORDS = builtin_catalogue()
