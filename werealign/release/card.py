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

from werealign.release.decision_card import decision_lines
from werealign.dataset import Dataset as WereDataset
from werealign.dataset.release_layout import FAITHFUL_SUFFIX, SPLIT, item_configs
from werealign.release.tables import features_for, json_columns
from werealign.render.phrases import DEFAULT_FAMILY, families, terms

# What each config beside the item kinds holds (an item kind's config is described by its scorer's card text,
# else its task's description).
CONFIG_TEXT = {
    "games": "the annotated game logs every item is cut from (hidden roles, events, transcript)",
    "osr": "objective rewrites of every utterance, for the OSR ablation",
    "manifest": "one row: the name, version, licence and counts of the dataset directory",
}


def _config_text(name: str, words: list[dict[str, str]], who: str = "the winning side's MVP") -> str:
    """What a config holds, a decision kind's in the words of the dataset's game families (`words`); `who`: whom
    the items ask (asked())."""
    from werealign.tasks import TASKS
    from werealign.tasks.decisions import DESCRIPTIONS, describe

    if name.endswith(FAITHFUL_SUFFIX) and name[: -len(FAITHFUL_SUFFIX)] in TASKS:
        kind = name[: -len(FAITHFUL_SUFFIX)]
        return (f"the {kind} items of the faithful split (what `werealign eval --split faithful`, the default, evaluates): "
                "items whose viewpoint lacks a night fact the rules require (`knowledge_missing`) or whose stem names a hidden role are left out; "
                f"the `{kind}` config holds every item")
    if name in DESCRIPTIONS:
        return describe(name, words)
    if name in TASKS:
        return (TASKS[name].scorer.card_text or TASKS[name].description).replace("{asked}", who)
    return CONFIG_TEXT.get(name, "")


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


CITATION = """@article{song2025beyond,
  title   = {Beyond Survival: Evaluating {LLMs} in Social Deduction Games with
             Human-Aligned Strategies},
  author  = {Song, Zirui and Huang, Yuan and Liu, Junchang and Luo, Haozhe and
             Wang, Chenxi and Gao, Lang and Xu, Zixiang and Han, Mingfei and
             Chang, Xiaojun and Chen, Xiuying},
  journal = {arXiv preprint arXiv:2510.11389},
  year    = {2025}
}"""


def annotations_creators(ds: WereDataset) -> list[str]:
    """The Hub's vocabulary: games annotated by people; items drafted by a model where provenance says so."""
    drafted = any(i.provenance.generator_model for i in ds.speech)
    return ["expert-generated", *(["machine-generated"] if drafted else [])]


def family_words(ds: WereDataset) -> list[dict[str, str]]:
    """The English words of the games' families, one set per family in the games' order (werealign.render.phrases)."""
    words = {w["game"]: w for w in (terms(g, "en") for g in ds.games.values())}
    return list(words.values()) or [families()[DEFAULT_FAMILY]["en"]]


def game_names(ds: WereDataset) -> list[str]:
    """The games' families by name ("Werewolf", "Mafia")."""
    return [w["game"] for w in family_words(ds)]


def asked(ds: WereDataset, short: bool = False) -> str:
    """Whom the items ask, as the games say: the winning side's MVP where every game names one, else the player
    deciding (a game without an MVP: its deciders, `werealign derive --deciders`). `short`: without the count."""
    n = len(ds.games)
    named = sum(g.mvp is not None for g in ds.games.values())
    if n and named == n:
        return "the winning side's MVP"
    if named == 0:
        return "the player deciding" if short else "the player deciding (no game names an MVP)"
    return "the MVP, else the player deciding" if short else \
        f"the winning side's MVP where the game names one ({named} of {n} games), else the player deciding"


def header(ds: WereDataset, configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], num_bytes: dict[str, int]) -> dict[str, Any]:
    items = sum(len(rows) for name, (_, rows) in configs.items() if name in item_configs())
    return {
        "pretty_name": ds.manifest.name,
        **_licence(ds.manifest.licence),
        "language": list(ds.manifest.languages),
        "annotations_creators": annotations_creators(ds),
        "source_datasets": ["extended"] if ds.manifest.source else ["original"],
        "task_categories": ["multiple-choice", "question-answering"],
        "size_categories": [size_category(items)],
        "tags": [*(name.lower() for name in game_names(ds)), "social-deduction", "human-aligned", "strategic-reasoning", "benchmark"],
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
        # a check of one scope only (the decisions' result-shown check) leaves the other rows' cells empty
        lines.append(f"| {scope} | {n} | " + " | ".join(_cell(row[name]) if name in row else "—" for name in names) + " |")
    lines += ["", f"Overall audit verdict: **{report.verdict}** (`werealign audit DATASET_DIR` prints the same checks)."]
    return lines


def _tally(values: list[Any], shown: int = 5) -> str:
    """'a (10), b (3), 4 others (5)': the most frequent values, the long tail (one source file per game) summed."""
    counts = sorted(Counter("unknown" if v is None else str(v) for v in values).items(), key=lambda kv: (-kv[1], kv[0]))
    head = [f"{k} ({n})" for k, n in counts[:shown]]
    rest = counts[shown:]
    return ", ".join(head + ([f"{len(rest)} others ({sum(n for _, n in rest)})"] if rest else []))


def provenance_lines(ds: WereDataset) -> list[str]:
    # Every kind's items that record a provenance (a kind of another package may not).
    items = [i for rows in ds.items.values() for i in rows if getattr(i, "provenance", None) is not None]
    if not items:
        return ["No items."]
    origins = [o.origin for i in ds.speech for o in i.options]
    return [
        f"- sources: {_tally([i.provenance.source for i in items])}",
        f"- generator models: {_tally([i.provenance.generator_model for i in items])}",
        f"- review decisions: {_tally([i.provenance.review for i in items])}",
        *([f"- speech option origins: {_tally(origins)}"] if origins else []),
        f"- VA and OI items are derived from the game logs without a model: the recorded vote of {asked(ds, short=True)}, and "
        "the true opposing faction of the viewpoint seat.",
        *agent_lines(ds),
    ]


def agent_lines(ds: WereDataset) -> list[str]:
    """How many seats an agent played (issue 45): their turns are in the games, their choices are keys only when
    derive was asked (--include-agents)."""
    seats = [s for g in ds.games.values() for s in g.seats]
    agents = [s for s in seats if s.agent is not None]
    if not agents:
        return []
    asked = {(i.game_id, i.viewpoint_seat) for rows in ds.items.values() for i in rows if getattr(i, "viewpoint_seat", None) is not None}
    keyed = sum((g.game_id, s.seat) in asked for g in ds.games.values() for s in g.seats if s.agent is not None)
    return [f"- seats played by an agent, not a human: {len(agents)} of {len(seats)} seats in {len({g.game_id for g in ds.games.values() if any(s.agent for s in g.seats)})} "
            f"game(s) ({_tally([s.agent for s in agents])}); {keyed} of them are the viewpoint of an item"]


def extra_text(extra: WereDataset) -> str:
    m = extra.manifest
    return f"speech items of {m.name} {m.version}" + (f": {m.description}" if m.description else "") \
        + "; its games and VA/OI items are those above"


def filtering_lines(ds: WereDataset) -> list[str]:
    """What the adversarial filter (`werealign audit --filtered-out`) removed and why, from the split's
    own note: the leaking items, and how many of the rest each attack alone answers. A split under 100
    items says how wide an accuracy's interval on it is."""
    note = ds.manifest.filtering
    if not note or "counts" not in note:
        return []
    c = note["counts"]
    kept, total, leak = c.get("speech_kept", 0), c.get("speech_in", 0), c.get("removed_leak", 0)
    by = c.get("answerable_by") or {}
    out = [f"Filtered split: {kept} of {total} speech items kept; {leak} removed for leaks or hidden roles, "
           f"{c.get('removed_answerable', 0)} as answerable without weighing the move (a key probability of at least "
           f"{note.get('threshold')})" + (". Of the items that do not leak, each attack alone answers: "
                                          + ", ".join(f"{a} {n}" for a, n in by.items()) + " (an item can fall to several)" if by else "") + "."]
    attacks = {**((note.get("independent_attack") or {}).get("attacks") or {}),
               **{f"context-{a}": v for a, v in ((note.get("independent_attack") or {}).get("context") or {}).items()}}
    if attacks:  # the attacks the filter did not use, on the kept items (werealign.shortcuts.filtering.verify)
        out.append("Attacks the filter did not use, top-1 on the kept items (chance 11.1%): "
                   + ", ".join(f"{a} {v:.1%}" for a, v in attacks.items()) + ".")
    if 0 < kept < 100:
        out.append(f"Fewer than 100 items: at 50% accuracy a 95% interval on this split is about ±{0.98 / kept ** 0.5:.0%}.")
    return out + [""]


def _audits(ds: WereDataset, extras: dict[str, WereDataset]) -> list[str]:
    out = ["Config `speech`:", "", *(speech_artifacts(ds) or ["No speech items."]), "", *filtering_lines(ds)]
    for name, extra in extras.items():
        out += [f"Config `{name}`:", "", *(speech_artifacts(extra) or ["No speech items."]), "", *filtering_lines(extra)]
    return out


def dataset_card(ds: WereDataset, configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], num_bytes: dict[str, int],
                 *, extras: dict[str, WereDataset] | None = None, reference: str = ".") -> str:
    """`num_bytes`: config -> size of its Arrow table, as `datasets` records a split's size.

    `extras`: extra speech configs (name -> their dataset directory); `reference`: what `eval --dataset`
    is given to read this release (hf:ORG/NAME once pushed, else the folder)."""
    extras = extras or {}
    m = ds.manifest
    yaml_text = yaml.safe_dump(header(ds, configs, num_bytes), sort_keys=False, allow_unicode=True, width=1000)
    table = ["| config | rows | what |", "| --- | ---: | --- |"]
    table += [f"| `{name}` | {len(rows)} | {extra_text(extras[name]) if name in extras else _config_text(name, family_words(ds), asked(ds, short=True))} |"
              for name, (_, rows) in configs.items()]
    json_notes = [f"`{name}`: {', '.join(f'`{c}`' for c in json_columns(model))}" for name, (model, _) in configs.items()
                  if json_columns(model)]
    first = next(iter(configs), next(iter(item_configs()), ""))  # the config the example loads
    runs = "../runs" if reference == "." else "runs"  # never inside the release folder
    extra_eval = [f"werealign eval --model openai/gpt-4o-mini --dataset '{reference}#{name}' --tasks speech "
                  f"--out {runs}/gpt-4o-mini-{name}" for name in extras]
    body = [
        f"# {m.name} {m.version}", "", m.description or "", "",
        f"{' and '.join(game_names(ds))} games played by skilled humans, and questions asked at a decisive moment from the point of view "
        f"of {asked(ds)}: what should they think, say or do? A model's choice is compared with what the "
        "human did (werealign / WereAlign).", "",
        "## Configs", "", *table, "",
        f"One split, `{SPLIT}`. Nested fields are `datasets.Json` columns — stored as JSON text in the parquet files "
        "(pandas and other parquet readers see a string: `json.loads` it), decoded to the same lists and dicts by "
        f"`datasets`, so every row validates back into the werealign schema unchanged. Json columns: {'; '.join(json_notes)}.", "",
        "```python", "from datasets import load_dataset", "",
        f'items = load_dataset("path/or/repo", "{first}", split="{SPLIT}")', "```", "",
        "## How the items were made", "", *provenance_lines(ds), "",
        "## How to evaluate", "",
        "werealign is not on a package index: install it from its source (a checkout of the werealign "
        "repository), then evaluate any model litellm reaches on this release (N decodes per item, option "
        "order permuted per decode). `--dataset` takes this folder (`.` from inside it), or `hf:ORG/NAME` once "
        "it is on the Hub (read through `datasets`, from the local cache when offline); `#CONFIG` evaluates an "
        "extra config's speech items.", "",
        "```bash", "pip install ./werealign  # the source checkout", *(["# from inside this release folder:"] if reference == "." else []),
        f"werealign eval --model openai/gpt-4o-mini --dataset '{reference}' --decodes 5 --out {runs}/gpt-4o-mini",
        *extra_eval, f"werealign leaderboard {runs}/* --format md", "```", "",
        "Scores: accuracy per dimension and their macro average; VA exact match; "
        "OI mean Jaccard against the true opposing faction. Intervals: bootstrap over games.", "",
        *decision_lines(configs, family_words(ds)),
        "## Known artifacts", "",
        "Measured on the items of this release by `werealign audit`, per dimension. Chance for a 9-way item is "
        "11%: a key that is the longest option (key-longest), or that a classifier trained on the options alone "
        "picks (options-only, games held out), far more often than that lets a model score without reading the "
        "game (compare with the built-in `werealign/longest`, `werealign/lexical` and `werealign/options-only` "
        "baselines, the shortcut floors of the leaderboard).", "",
        *_audits(ds, extras),
        "Items are asked from one viewpoint seat at a cut-off; everything after the cut-off, other seats' hidden "
        "roles, the host's recap and the annotator's log are never shown to the model (they are in `games` for analysis).", "",
        "## Citation", "", "```bibtex", CITATION, "```", "",
        "## Licence", "", f"{m.licence}." + (f" Source: {m.source}." if m.source else ""), "",
    ]
    return f"---\n{yaml_text}---\n\n" + "\n".join(body).rstrip("\n") + "\n"
