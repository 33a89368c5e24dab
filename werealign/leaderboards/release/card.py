"""The dataset card (README.md) of a release: YAML header for the Hub and `load_dataset`, then prose.

The header lists every config with its data files and features, the licence, languages, task
categories and size. The prose says what the data is, how the items were made (from their
provenance), how to evaluate, and the artifacts measured on the items themselves.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import yaml
from pydantic import BaseModel

from werealign.dataset import Dataset as WereDataset
from werealign.leaderboards.release.tables import SPLIT, features_for, json_columns

ITEM_CONFIGS = ("speech", "vote", "opponent")
CONFIG_TEXT = {
    "speech": "9-way multiple-choice questions in five dimensions (RI SJ DR PS CT), one key each",
    "vote": "VA: the seat the winning side's MVP voted for, at the cut-off before the vote",
    "opponent": "OI: the seats of the opposing faction, as seen from the viewpoint seat",
    "games": "the annotated game logs every item is cut from (hidden roles, events, transcript)",
    "osr": "objective rewrites of every utterance, for the OSR ablation",
}


def data_path(config: str) -> str:
    return f"data/{config}/{SPLIT}.parquet"


def _licence(text: str) -> dict[str, str]:
    spdx = text.strip().lower()
    if re.fullmatch(r"[a-z0-9][a-z0-9.\-+]*", spdx):
        return {"license": spdx}
    return {"license": "other", "license_name": text.strip()}


def size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def header(ds: WereDataset, configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], num_bytes: dict[str, int]) -> dict[str, Any]:
    items = sum(len(rows) for name, (_, rows) in configs.items() if name in ITEM_CONFIGS)
    return {
        "pretty_name": ds.manifest.name,
        **_licence(ds.manifest.licence),
        "language": list(ds.manifest.languages),
        "task_categories": ["multiple-choice", "question-answering"],
        "size_categories": [size_category(items)],
        "tags": ["werewolf", "social-deduction", "human-aligned", "strategic-reasoning", "benchmark"],
        "configs": [{"config_name": name, "data_files": [{"split": SPLIT, "path": data_path(name)}]} for name in configs],
        "dataset_info": [{"config_name": name, "features": features_for(model)._to_yaml_list(),
                          "splits": [{"name": SPLIT, "num_bytes": num_bytes[name], "num_examples": len(rows)}]}
                         for name, (model, rows) in configs.items()],
    }


def _cell(check: Any) -> str:
    # A skipped check says only that (too few items to tell); the others keep the audit's own sentence.
    return "skip" if check.verdict == "skip" else f"{check.verdict}: {check.detail}"


def speech_artifacts(ds: WereDataset) -> list[str]:
    """The audit's checks (`werealign audit`, one implementation) as a table: one row per dimension."""
    if not ds.speech:
        return []
    from werealign.audit import audit_items

    report = audit_items(ds)
    names = list(dict.fromkeys(c.name for c in report.checks))
    scopes = list(dict.fromkeys(c.scope for c in report.checks))
    lines = ["| dimension | items | " + " | ".join(names) + " |", "| --- | ---: |" + " --- |" * len(names)]
    for scope in [*(s for s in scopes if s != "all"), "all"]:
        row = {c.name: c for c in report.checks if c.scope == scope}
        n = next(iter(row.values())).n
        lines.append(f"| {scope} | {n} | " + " | ".join(_cell(row[name]) for name in names) + " |")
    lines += ["", f"Overall audit verdict: **{report.verdict}** (`werealign audit DATASET_DIR` prints the same checks)."]
    return lines


def _tally(values: list[Any], shown: int = 5) -> str:
    """'a (10), b (3), 4 others (5)': the most frequent values, the long tail (one source file per game) summed."""
    counts = sorted(Counter("unknown" if v is None else str(v) for v in values).items(), key=lambda kv: (-kv[1], kv[0]))
    head = [f"{k} ({n})" for k, n in counts[:shown]]
    rest = counts[shown:]
    return ", ".join(head + ([f"{len(rest)} others ({sum(n for _, n in rest)})"] if rest else []))


def provenance_lines(ds: WereDataset) -> list[str]:
    items = [*ds.speech, *ds.vote, *ds.opponent]
    if not items:
        return ["No items."]
    origins = [o.origin for i in ds.speech for o in i.options]
    return [
        f"- sources: {_tally([i.provenance.source for i in items])}",
        f"- generator models: {_tally([i.provenance.generator_model for i in items])}",
        f"- review decisions: {_tally([i.provenance.review for i in items])}",
        *([f"- speech option origins: {_tally(origins)}"] if origins else []),
        "- VA and OI items are derived from the game logs without a model: the MVP's recorded vote, and the true "
        "opposing faction of the viewpoint seat.",
    ]


def dataset_card(ds: WereDataset, configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], num_bytes: dict[str, int]) -> str:
    """`num_bytes`: config -> size of its Arrow table, as `datasets` records a split's size."""
    m = ds.manifest
    yaml_text = yaml.safe_dump(header(ds, configs, num_bytes), sort_keys=False, allow_unicode=True, width=1000)
    table = ["| config | rows | what |", "| --- | ---: | --- |"]
    table += [f"| `{name}` | {len(rows)} | {CONFIG_TEXT.get(name, '')} |" for name, (_, rows) in configs.items()]
    json_notes = [f"`{name}`: {', '.join(f'`{c}`' for c in json_columns(model))}" for name, (model, _) in configs.items()
                  if json_columns(model)]
    first = next(iter(configs), "speech")
    artifacts = speech_artifacts(ds)
    body = [
        f"# {m.name} {m.version}", "", m.description or "", "",
        "Werewolf games played by skilled humans, and questions asked at a decisive moment from the point of view "
        "of the winning side's MVP: what should they think, say or do? A model's choice is compared with what the "
        "human did (werealign / WereAlign).", "",
        "## Configs", "", *table, "",
        f"One split, `{SPLIT}`. Nested fields are `datasets.Json` columns — stored as JSON text in the parquet files "
        "(pandas and other parquet readers see a string: `json.loads` it), decoded to the same lists and dicts by "
        f"`datasets`, so every row validates back into the werealign schema unchanged. Json columns: {'; '.join(json_notes)}.", "",
        "```python", "from datasets import load_dataset", "",
        f'items = load_dataset("path/or/repo", "{first}", split="{SPLIT}")', "```", "",
        "## How the items were made", "", *provenance_lines(ds), "",
        "## How to evaluate", "",
        "With werealign (any model litellm reaches; N decodes per item, option order permuted per decode):", "",
        "```bash", "pip install werealign", "werealign eval --model openai/gpt-4o-mini --dataset DATASET_DIR --decodes 5",
        "werealign leaderboard runs/* --format md", "```", "",
        "`DATASET_DIR` is the werealign dataset directory this release was built from (`werealign release` "
        "writes this folder from it). Scores: accuracy per dimension and their macro average; VA exact match; "
        "OI mean Jaccard against the true opposing faction. Intervals: bootstrap over games.", "",
        "## Known artifacts", "",
        "Measured on the items of this release. Chance for a 9-way item is 11%: a key that is the longest option "
        "far more often than that lets a model score without reading the game (compare with the built-in "
        "`werealign/longest` and `werealign/lexical` baselines, the shortcut floors of the leaderboard).", "",
        *(artifacts or ["No speech items."]), "",
        "Items are asked from one viewpoint seat at a cut-off; everything after the cut-off, other seats' hidden "
        "roles, the host's recap and the annotator's log are never shown to the model (they are in `games` for analysis).", "",
        "## Licence", "", f"{m.licence}." + (f" Source: {m.source}." if m.source else ""), "",
    ]
    return f"---\n{yaml_text}---\n\n" + "\n".join(body).rstrip("\n") + "\n"
