"""The context-gain table: each model's base score minus its no-context score, with a 95% interval.

A model whose score does not drop when the game is taken away (the interval's lower bound at or below 0)
has not shown that it uses the game: its row is flagged (†) and a footnote names the columns. The gain is
estimated by `werealign.stats.gain.gain` (the estimate results.json reports; paired on items under
the paired protocol, unpaired by items over the same game clusters under the randomized one), with the
leaderboard's own seed and resamples.
"""

from __future__ import annotations

from collections.abc import Sequence

from werealign.stats import bootstrap as stats
from werealign.stats.gain import AGAINST, BASE, gain
from werealign.leaderboards.collect import ModelEntry
from werealign.leaderboards.table_model import Cell, Row, Table, main_columns

FLAG = " †"


def context_gain_table(entries: Sequence[ModelEntry], seed: int, resamples: int) -> Table | None:
    """None unless some model ran both base and no-context."""
    having = [e for e in entries if BASE in e.scores and AGAINST in e.scores]
    if not having:
        return None
    columns = main_columns(entries)
    rows, flagged = [], []
    for entry in having:
        row = Row(entry.model, entry.model, entry.partial, entry.baseline)
        not_above = []
        for c in columns:
            found = gain(c.observations(entry, BASE), c.observations(entry, AGAINST), resamples=resamples,
                         group_of=c.group_of(), seed=stats.derived_seed(seed, "context-gain", entry.model, c.name))
            if found is None:
                row.cells[c.name] = Cell(None)
                continue
            cmp, _design = found
            above = cmp.low > 0 and cmp.significant  # significant needs stats.MIN_GAMES games
            row.cells[c.name] = Cell(cmp.difference, cmp.low, cmp.high, significant=above, games=cmp.games)
            if not above:
                not_above.append(c.name)
        if not_above:
            row.label += FLAG
            flagged.append(f"{entry.model} ({', '.join(not_above)})")
        rows.append(row)
    notes = ["gain = base − no-context of the same model (no transcript, no public events), with its 95% interval "
             "(cluster bootstrap over games; paired on items asked both ways); * the interval is above 0"]
    if flagged:
        notes.append("† gain not above zero (interval lower bound ≤ 0, or too few games to tell): no evidence that the score needs the game: "
                     + "; ".join(flagged))
    return Table("context-gain", "Context gain: base minus no-context", columns, rows, notes)
