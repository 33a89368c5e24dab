"""Statistics of scores, below both eval and the leaderboards (which share them, never copy them).

- `observation`: one answered sample reduced to its score, game, decode, task, variant, dimension and role;
- `bootstrap`: 95% intervals and paired comparisons by a cluster bootstrap over games and decodes (numpy);
- `gain`: the context gain (base minus no-context) as one such comparison, for results.json and the table.
"""
