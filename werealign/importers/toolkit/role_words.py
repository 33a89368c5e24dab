"""The role words readers of Chinese game text match: the standard role catalogue plus the slips annotators of human
games write for a role name, declared the way any dataset declares roles (a typo becomes a name of the role it
stands for; the original label is kept beside the canonical id as always).

An importer writes the slips its converted configs need (werealign.importers.werebench.text.declarations_used).
"""

from __future__ import annotations

from werealign.schema.roles import RoleDeclaration, catalogue_for

SLIP_DECLARATIONS = [RoleDeclaration(id="hunter", names={"zh": ["阔人"]})]  # 猎 misread as 阔 (one WereBench game)
ROLE_WORDS = catalogue_for(SLIP_DECLARATIONS)
