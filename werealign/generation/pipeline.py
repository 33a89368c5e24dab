"""`werealign generate`: games in, unreviewed nine-way speech items out, stage by stage.

Stages (each a set of keyed model requests, see session.py), per unit = (MVP moment, dimension),
or per existing item when re-drafting:

1. question      question + key (the MVP's actual next move, paraphrased) at the cut-off, from the
                 MVP's viewpoint, with only what the context builder shows (skipped when re-drafting);
2. negatives     four M1 counterfactual negatives (role perturbation, information occlusion, faction
                 inversion) and four M2 biased rationales, each tagged with its mechanism;
3. restyle       distractors whose length or form stands out from the key, or that repeat another
                 option, are rewritten (filters.py);
4. explain       explanation and RR rule reminder;
5. judge         several independent answers: items whose key is not clearly the single best are flagged;
6. osr           an objective rewrite of every turn of every game lacking one (the OSR variant file).

`extras_only` skips 1-3 and the filters: the dataset's items keep their options and only get what
they lack (explanation, RR) and their games the OSR file — how the imported release, which has
neither RR nor OSR, becomes usable for those ablations.

Hard filters drop a unit with its reason (leaking stem, duplicate options, length/style still off
after restyle); soft ones flag it for the reviewer (judge disagreement, explanation pointing to
another option). The output directory:

    <out>/generation.json       configuration and template versions
    <out>/responses.sqlite      every reply, stored as it arrives (what makes re-runs free)
    <out>/stages/<stage>.jsonl  one provenance record per request chain
    <out>/notes.jsonl           per item: flags, judge votes, the next move the key paraphrases
    <out>/dropped.jsonl         units that did not make it, and why
    <out>/dataset/              a dataset directory: the games and the generated (unreviewed) items
    <out>/audit.before.json, audit.after.json   (re-drafting, given the audit) the audit of the items before and after
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from werealign.version import __version__
from werealign.shortcuts.checks import explanation_favours
from werealign.shortcuts.leaks import stem_leaks
from werealign.game.visibility import build_context
from werealign.dataset import Dataset, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import make_parent, staged_directory, write_json, write_jsonl
from werealign.files.output_dir import claim_directory
from werealign.generation import filters, prompts, replies
from werealign.generation.model import STORE_NAME, RetryPolicy, Store, connect, decodes_under_schema, max_connections_for, price_per_token
from werealign.generation.moments import find_moments
from werealign.generation.session import Draft, Session
from werealign.render.lines import phase_label, speaker_label
from werealign.schema import GameLog, ItemProvenance, Option, OsrRewrite, SpeechItem
from werealign.schema.models import DIMENSIONS, OPTION_KEYS
from werealign.tasks import kind_of_model

CONFIG = "generation.json"


@dataclass(frozen=True)
class GenConfig:
    model: str
    dataset: str | None = None  # None: the bundled sample
    games: tuple[str, ...] = ()  # empty: every game
    dimensions: tuple[str, ...] = DIMENSIONS
    seed: int = 0
    judges: int = 3
    osr: bool = True
    redraft: bool = False
    extras_only: bool = False  # existing items keep their options: fill in explanation, RR and OSR only
    limit: int | None = None  # at most this many units (moments x dimensions, or items)


@dataclass(frozen=True)
class Unit:
    item_id: str
    game_id: str
    dimension: str
    viewpoint_seat: int | None
    cutoff_segment: int
    next_move: str = ""  # new items: what the key paraphrases
    source: SpeechItem | None = None  # re-drafting: the item whose question and key are kept


@dataclass
class Outcome:
    items: list[SpeechItem] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    osr: dict[str, list[OsrRewrite]] = field(default_factory=dict)


# --------------------------------------------------------------------------- planning


def select_games(ds: Dataset, config: GenConfig) -> list[GameLog]:
    missing = [g for g in config.games if g not in ds.games]
    if missing:
        raise UserError(f"--games: no game {missing[0]!r} in the dataset (games: {', '.join(sorted(ds.games)) or 'none'})")
    return [ds.games[g] for g in sorted(config.games or ds.games)]


def plan_units(ds: Dataset, config: GenConfig) -> tuple[list[Unit], list[str]]:
    """The units to generate, and why any game or highlight gives none."""
    games = select_games(ds, config)
    units: list[Unit] = []
    skipped: list[str] = []
    if config.redraft or config.extras_only:
        chosen = {g.game_id for g in games}
        for it in ds.speech:
            if it.game_id in chosen and it.dimension in config.dimensions:
                units.append(Unit(it.item_id, it.game_id, it.dimension, it.viewpoint_seat, it.cutoff_segment, source=it))
    else:
        for game in games:
            moments, why = find_moments(game)
            skipped += why
            for m in moments:
                for dim in config.dimensions:
                    units.append(Unit(f"{game.game_id}-gen-{dim}-{m.cutoff_segment}", game.game_id, dim, m.seat, m.cutoff_segment, m.next_move))
    return units[: config.limit] if config.limit is not None else units, skipped


def _context(game: GameLog, unit: Unit) -> dict[str, str]:
    ctx = build_context(game, unit.viewpoint_seat, unit.cutoff_segment)
    return {"context": prompts.context_text(game, ctx), "me": prompts.viewpoint_name(unit.viewpoint_seat, game.language)}


# --------------------------------------------------------------------------- stages


def stage_questions(s: Session, ds: Dataset, units: list[Unit]) -> dict[str, dict[str, str]]:
    drafts = []
    for u in units:
        game = ds.games[u.game_id]
        tpl, messages = prompts.render("question", language=game.language, game=game, next_move=u.next_move, **_context(game, u), **prompts.dimension_vars(u.dimension, game))
        drafts.append(Draft(s.request("question", u.item_id, tpl, messages, schema=replies.question_schema()), replies.parse_question))
    return {r.record["unit"]: r.value for r in s.ask("question", drafts) if r.value is not None}


def stage_negatives(s: Session, ds: Dataset, stems: dict[str, dict[str, str]], units: list[Unit], seed: int) -> dict[str, list[dict[str, str]]]:
    drafts = []
    for u in units:
        game, stem = ds.games[u.game_id], stems[u.item_id]
        key_length = filters.text_length(stem["key"])
        targets = filters.length_targets(key_length, f"{seed}:{u.item_id}")
        mark = filters.ends_with_mark(stem["key"])
        for kind, m1, lengths in (("negatives_m1", True, targets[:4]), ("negatives_m2", False, targets[4:])):
            tpl, messages = prompts.render(kind, language=game.language, game=game, question=stem["question"], key=stem["key"],
                                           key_length=key_length, target_lengths=lengths, **_context(game, u))
            schema = replies.negatives_schema([filters.length_range(key_length, t) for t in lengths], mark, m1=m1)
            drafts.append(Draft(s.request("negatives", u.item_id, tpl, messages, schema=schema), lambda reply, m1=m1: replies.parse_negatives(reply, m1=m1)))
    found: dict[str, list[dict[str, str]]] = {}
    failed: set[str] = set()
    for r in s.ask("negatives", drafts):
        unit = r.record["unit"]
        if r.value is None:
            failed.add(unit)
        else:
            found.setdefault(unit, []).extend(r.value)
    return {u: opts for u, opts in found.items() if u not in failed and len(opts) == 8}


def assemble(unit: Unit, stem: dict[str, str], negatives: list[dict[str, str]], seed: int) -> tuple[list[Option], str]:
    """Nine options in a seeded order (the same inputs give the same order) and the key's letter."""
    pool = [{"origin": "ground_truth", "text": stem["key"]}, *negatives]
    order = _order(seed, unit.item_id, len(pool))
    options = [Option(key=OPTION_KEYS[i], text=pool[j]["text"], origin=pool[j]["origin"]) for i, j in enumerate(order)]
    return options, OPTION_KEYS[order.index(0)]


def _order(seed: int, item_id: str, n: int = len(OPTION_KEYS)) -> list[int]:
    order = list(range(n))
    random.Random(f"{seed}:{item_id}").shuffle(order)
    return order


def drawn_targets(key_length: int, seed: int, item_id: str) -> dict[str, int]:
    """The length each distractor's letter was asked for in the negatives stage (assemble's order)."""
    targets = filters.length_targets(key_length, f"{seed}:{item_id}")
    return {OPTION_KEYS[i]: targets[j - 1] for i, j in enumerate(_order(seed, item_id)) if j}


def stage_restyle(s: Session, ds: Dataset, drafts_by_unit: dict[str, tuple[Unit, dict[str, str], list[Option], str]]) -> None:
    """Rewrite, once, the distractors that stand out or repeat another option; replaces them in place."""
    drafts = []
    for uid, (u, stem, options, answer) in drafts_by_unit.items():
        off = filters.to_rewrite(options, answer)
        if not off:
            continue
        game = ds.games[u.game_id]
        key_length = filters.text_length(stem["key"])
        # each rewritten option is asked again for the length it was first drawn: the nine drawn together
        # make the key's length rank uniform; a fresh draw for a subset would pull the key towards the middle
        # (an options-only classifier found it at 31% in the scripted tests, chance 11%)
        targets = drawn_targets(key_length, s.seed, uid)
        shown = [(o, targets[o.key]) for o in options if o.key in off]
        others = [o for o in options if o.key not in off and o.key != answer]
        tpl, messages = prompts.render("restyle", language=game.language, game=game, question=stem["question"], key=stem["key"],
                                       key_length=key_length, options=shown, others=others)
        schema = replies.restyle_schema({o.key: filters.length_range(key_length, n) for o, n in shown}, filters.ends_with_mark(stem["key"]))
        drafts.append(Draft(s.request("restyle", uid, tpl, messages, schema=schema), lambda reply, keys=off: replies.parse_restyle(reply, keys)))
    if not drafts:
        return
    for r in s.ask("restyle", drafts):
        if r.value is None:
            continue
        u, stem, options, answer = drafts_by_unit[r.record["unit"]]
        new = [o.model_copy(update={"text": r.value[o.key]}) if o.key in r.value else o for o in options]
        drafts_by_unit[r.record["unit"]] = (u, stem, new, answer)


def stage_explain(s: Session, ds: Dataset, items: dict[str, tuple[Unit, SpeechItem]]) -> dict[str, dict[str, str]]:
    drafts = []
    for uid, (u, item) in items.items():
        game = ds.games[u.game_id]
        tpl, messages = prompts.render("explain", language=game.language, game=game, question=item.question, options=item.options, answer=item.answer, **_context(game, u))
        drafts.append(Draft(s.request("explain", uid, tpl, messages, schema=replies.explain_schema()), replies.parse_explain))
    return {r.record["unit"]: r.value for r in s.ask("explain", drafts) if r.value is not None}


def stage_judge(s: Session, ds: Dataset, items: dict[str, tuple[Unit, SpeechItem]], judges: int) -> dict[str, list[dict[str, Any]]]:
    drafts = []
    for uid, (u, item) in items.items():
        game = ds.games[u.game_id]
        tpl, messages = prompts.render("judge", language=game.language, game=game, question=item.question, options=item.options, **_context(game, u))
        for k in range(judges):  # independent samples: same prompt, a different sampling seed each
            drafts.append(Draft(s.request("judge", uid, tpl, messages, {"temperature": 0.7, "seed": k}, schema=replies.judge_schema()), replies.parse_judge))
    votes: dict[str, list[dict[str, Any]]] = {}
    for r in s.ask("judge", drafts):
        if r.value is not None:
            votes.setdefault(r.record["unit"], []).append(r.value)
    return votes


def stage_osr(s: Session, games: list[GameLog]) -> tuple[dict[str, list[OsrRewrite]], list[str]]:
    """A rewrite of every turn; a game gets its OSR file only when every turn was rewritten."""
    drafts = []
    for game in games:
        phases = {p.id: p for p in game.phases}
        for u in game.utterances:
            tpl, messages = prompts.render("osr", language=game.language, game=game, text=u.text,
                                           speaker=speaker_label(u.speaker, None, game.language),
                                           phase=phase_label(phases.get(u.phase), game.language))
            drafts.append(Draft(s.request("osr", f"{game.game_id}:{u.index}", tpl, messages, schema=replies.osr_schema()), replies.parse_osr))
    results = {r.record["unit"]: r.value for r in s.ask("osr", drafts)}
    out, missing = {}, []
    for game in games:
        texts = [results.get(f"{game.game_id}:{u.index}") for u in game.utterances]
        if any(t is None for t in texts):
            missing.append(f"game {game.game_id}: OSR not written, {sum(t is None for t in texts)} turns could not be rewritten")
            continue
        out[game.game_id] = [OsrRewrite(game_id=game.game_id, utterance_index=u.index, segment_ids=u.segment_ids, text=t["text"],
                                        provenance=ItemProvenance(generator_model=s.model, prompt_version=prompts.TEMPLATES["osr"], seed=s.seed, review="unreviewed"))
                             for u, t in zip(game.utterances, texts)]
    return out, missing


# --------------------------------------------------------------------------- the run


def generate(s: Session, ds: Dataset, config: GenConfig, units: list[Unit]) -> Outcome:
    out = Outcome()

    def drop(unit: Unit, stage: str, reason: str = "") -> None:
        reason = reason or "; ".join(r["error"] for r in s.records.get(stage, []) if r["unit"] == unit.item_id and r["error"]) or "no usable reply"
        out.dropped.append({"unit": unit.item_id, "game_id": unit.game_id, "stage": stage, "reason": reason})

    if config.extras_only:  # existing items as they are: only the explanation, RR and OSR are filled in
        items = {u.item_id: (u, u.source) for u in units if u.source is not None}
    else:
        items = _draft(s, ds, config, units, drop)
    # A re-drafted item is always explained again: its old explanation was written for other options
    # (other letters, other distractors). An item that already has both otherwise costs no request.
    wanting = {uid: pair for uid, pair in items.items() if config.redraft or not (pair[1].explanation and pair[1].rule_reminder)}
    extras = stage_explain(s, ds, wanting)
    votes = stage_judge(s, ds, items, config.judges) if config.judges else {}
    for uid, (u, item) in items.items():
        extra = extras.get(uid)
        redraft_flags: list[str] = []
        if config.redraft:
            item, redraft_flags = redraft_explanation(item, extra, s.model)
        elif extra is not None:  # what the item already has is kept; only what is missing is filled in
            filled = {k: extra[k] for k in ("explanation", "rule_reminder") if not getattr(item, k)}
            if config.extras_only:
                ref = {**item.provenance.source_ref, "filled_by": s.model, "filled": ",".join(sorted(filled))}
                filled["provenance"] = item.provenance.model_copy(update={"source_ref": ref})
            item = item.model_copy(update=filled)
        flags = filters.soft_flags(item, votes.get(uid, []), config.judges) + redraft_flags
        if uid in wanting and extra is None and not config.redraft:
            flags.append("no explanation: the explain stage gave no usable reply")
        if u.source is not None:
            flags += [f"leak: {r}" for r in stem_leaks(ds.games[u.game_id], item)]
        out.items.append(item)
        out.notes.append({"item_id": uid, "flags": flags, "judge": votes.get(uid, []), "next_move": u.next_move})
    if config.osr:
        out.osr, missing = stage_osr(s, [g for g in select_games(ds, config) if g.game_id not in ds.osr])  # existing rewrites are kept
        out.dropped += [{"unit": "osr", "game_id": m.split(":")[0].removeprefix("game "), "stage": "osr", "reason": m} for m in missing]
    return out


def redraft_explanation(item: SpeechItem, extra: dict[str, str] | None, model: str) -> tuple[SpeechItem, list[str]]:
    """A re-drafted item's explanation, rewritten for its new options (its rule reminder is kept when it
    has one: the rules do not depend on the options). When the explain stage gave nothing, the source's
    explanation is kept only if the explanation/key filter finds it still closest to the key; otherwise
    it is removed rather than left pointing elsewhere. Either way source_ref["explanation"] says which,
    and the reviewer is told. (A rewritten explanation goes through the same filter in soft_flags.)"""
    ref = dict(item.provenance.source_ref)
    update: dict[str, Any] = {}
    flags: list[str] = []
    if extra is not None:
        update["explanation"] = extra["explanation"]
        if not item.rule_reminder:
            update["rule_reminder"] = extra["rule_reminder"]
        ref["explanation"] = f"rewritten by {model} for the new options"
    elif item.explanation and explanation_favours(item) is None:
        ref["explanation"] = "kept from the source item: no usable reply; it still reads closest to the key"
        flags.append("explanation: kept from the source item (written for its old options); the explain stage gave no usable reply")
    else:
        update["explanation"] = None
        ref["explanation"] = "removed: no usable reply, and the source's no longer reads closest to the key"
        flags.append("no explanation: the explain stage gave no usable reply and the old one does not fit the new options")
    update["provenance"] = item.provenance.model_copy(update={"source_ref": ref})
    return item.model_copy(update=update), flags


def _draft(s: Session, ds: Dataset, config: GenConfig, units: list[Unit], drop: Any) -> dict[str, tuple[Unit, SpeechItem]]:
    """Question and key (or the existing ones), negatives, restyle, then the hard filters."""
    if config.redraft:
        stems = {u.item_id: {"question": u.source.question, "key": next(o.text for o in u.source.options if o.key == u.source.answer)} for u in units}
    else:
        stems = stage_questions(s, ds, units)
    for u in units:
        if u.item_id not in stems:
            drop(u, "question")
    live = [u for u in units if u.item_id in stems]
    negatives = stage_negatives(s, ds, stems, live, config.seed)
    for u in live:
        if u.item_id not in negatives:
            drop(u, "negatives")
    drafts = {u.item_id: (u, stems[u.item_id], *assemble(u, stems[u.item_id], negatives[u.item_id], config.seed)) for u in live if u.item_id in negatives}
    stage_restyle(s, ds, drafts)

    items: dict[str, tuple[Unit, SpeechItem]] = {}
    for uid, (u, stem, options, answer) in drafts.items():
        game = ds.games[u.game_id]
        item = _item(u, game, stem, options, answer, s, config)
        reasons = filters.hard_failures(item)
        if not config.redraft:  # a re-drafted item keeps its question: a leak is flagged, not dropped
            reasons += [f"leak: {r}" for r in stem_leaks(game, item)]
        if reasons:
            drop(u, "filters", "; ".join(reasons))
        else:
            items[uid] = (u, item)

    return items


def _item(u: Unit, game: GameLog, stem: dict[str, str], options: list[Option], answer: str, s: Session, config: GenConfig) -> SpeechItem:
    if u.source is not None:
        base = u.source
        # re-drafting keeps the question and the key's text; only the distractors are new
        return base.model_copy(update={"options": options, "answer": answer, "provenance": ItemProvenance(
            generator_model=s.model, prompt_version=prompts.prompt_version(), seed=config.seed, review="unreviewed",
            source=base.provenance.source, source_ref={**base.provenance.source_ref, "redrafted_from": base.item_id})})
    return SpeechItem(
        item_id=u.item_id, game_id=u.game_id, language=game.language, dimension=u.dimension, viewpoint_seat=u.viewpoint_seat,
        cutoff_segment=u.cutoff_segment, question=stem["question"], options=options, answer=answer,
        provenance=ItemProvenance(generator_model=s.model, prompt_version=prompts.prompt_version(), seed=config.seed,
                                  review="unreviewed", source="werealign generate", source_ref={"cutoff_segment": u.cutoff_segment}))


# --------------------------------------------------------------------------- entry points


def request_params(max_tokens: int, model: str, seed: int = 0) -> dict[str, Any]:
    """Sent with every request and part of its key. JSON mode makes providers that support it (OpenAI,
    llama.cpp's grammar) return parseable JSON; litellm drops it for those that do not. (A model that
    decodes under a schema gets its stage's schema instead, per request: Session.request.)"""
    params: dict[str, Any] = {"max_tokens": max_tokens, "response_format": {"type": "json_object"}}
    if decodes_under_schema(model):
        # Under a grammar, SmolLM2-135M opened all four options of a reply with the same phrase (every
        # item dropped as near-duplicates); a frequency penalty and llama.cpp's DRY repetition penalty
        # made its options differ.
        # llama.cpp draws a random sampling seed per request unless told one: same run, same replies.
        params.update(frequency_penalty=0.5, extra_body={"dry_multiplier": 0.8}, seed=seed)
    return params


@dataclass(frozen=True)
class Estimate:
    units: int
    requests: int  # an upper bound: every stage asked once per unit, no repair
    stored: int  # of the question-stage requests, already in the store
    prompt_tokens: int
    completion_tokens: int
    cost: float | None
    skipped: list[str]


def estimate(config: GenConfig, out: Path, max_tokens: int = 1024) -> Estimate:
    """Request count and cost before anything is spent (prompt tokens ~ characters / 3; replies ~ 300 tokens)."""
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    units, skipped = plan_units(ds, config)
    # question, negatives x2, restyle (at most), explain, judges
    per_unit = 1 + config.judges if config.extras_only else (0 if config.redraft else 1) + 2 + 1 + 1 + config.judges
    osr_turns = sum(len(g.utterances) for g in select_games(ds, config)) if config.osr else 0
    stored = 0
    chars = 0
    with _store(out, readonly=True) as store:
        ok = store.ok_keys() if store is not None else set()
        session = Session(store=store, model=config.model, seed=config.seed, base_params=request_params(max_tokens, config.model, config.seed),  # type: ignore[arg-type]
                          json_schema=decodes_under_schema(config.model))
        for u in units:
            game = ds.games[u.game_id]
            tpl, messages = prompts.render("question", language=game.language, game=game, next_move=u.next_move, **_context(game, u), **prompts.dimension_vars(u.dimension, game))
            chars += sum(len(m["content"]) for m in messages)
            stored += session.request("question", u.item_id, tpl, messages).key in ok
    requests = len(units) * per_unit + osr_turns
    prompt_tokens = (chars // 3) * per_unit + osr_turns * 200
    completion_tokens = requests * 300
    price = price_per_token(config.model) if requests else (0.0, 0.0)
    cost = None if price is None else prompt_tokens * price[0] + completion_tokens * price[1]
    return Estimate(len(units), requests, stored, prompt_tokens, completion_tokens, cost, skipped)


@contextmanager
def _store(out: Path, readonly: bool = False) -> Iterator[Store | None]:
    path = out / STORE_NAME
    if readonly and not path.exists():
        yield None
        return
    make_parent(path)
    store = Store(path, readonly=readonly)
    try:
        yield store
    finally:
        store.close()


def run_generation(config: GenConfig, out: Path, *, acompletion: Any = None, api_base: str | None = None,
                   policy: RetryPolicy | None = None, max_connections: int = 4, max_tokens: int = 1024, quiet: bool = False,
                   audit: Callable[..., Any] | None = None) -> tuple[Outcome, Session]:
    """Run (or resume) a generation into `out`. `acompletion` replaces litellm (tests' scripted provider). `audit`
    (the command passes werealign.audit.audit_items: the audit sits above generation, which never imports it) audits a
    re-draft's items before and after into audit.before.json and audit.after.json; None writes neither."""
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    units, skipped = plan_units(ds, config)
    # Resumable, so filled in place: refuse a folder that is an input or not a generation directory.
    claim_directory(out, command="generate", inputs=[ds.root] if ds.root is not None else [], own=lambda d: (d / CONFIG).is_file())
    write_json(out / CONFIG, {"format": "werealign-generation/1", "werealign": __version__, "config": asdict(config), "templates": prompts.TEMPLATES})
    with _store(out) as store, _connection(config.model, api_base, acompletion) as (call, routed, kwargs):
        session = Session(store=store, model=config.model, seed=config.seed, acompletion=call, routed_model=routed, kwargs=kwargs,
                          policy=policy or RetryPolicy(), max_connections=max_connections_for(config.model, max_connections), quiet=quiet,
                          base_params=request_params(max_tokens, config.model, config.seed), json_schema=decodes_under_schema(config.model))
        for line in skipped:
            session.progress.note(f"skipped: {line}")
        outcome = generate(session, ds, config, units)
    _write(out, ds, config, outcome, session, audit)
    return outcome, session


@contextmanager
def _connection(model: str, api_base: str | None, acompletion: Any) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    if acompletion is not None:
        yield acompletion, model, {}
        return
    with connect(model, api_base) as conn:
        yield conn


def _write(out: Path, ds: Dataset, config: GenConfig, outcome: Outcome, session: Session, audit: Callable[..., Any] | None) -> None:
    for stage, records in session.records.items():
        write_jsonl(out / "stages" / f"{stage}.jsonl", sorted(records, key=lambda r: (r["unit"], r["keys"])))
    write_jsonl(out / "notes.jsonl", outcome.notes)
    write_jsonl(out / "dropped.jsonl", outcome.dropped)
    games = select_games(ds, config)
    label = "extras" if config.extras_only else "redraft" if config.redraft else "gen"
    name = f"{ds.manifest.name}-{label}"
    if config.redraft or config.extras_only:
        chosen = {g.game_id for g in games}
        redrafted = {it.item_id: it for it in outcome.items}
        kept = [redrafted.get(it.item_id, it) for it in ds.speech if it.game_id in chosen]
        before = [it for it in ds.speech if it.game_id in chosen]
        if audit is not None:
            write_json(out / "audit.before.json", audit(ds, before, name=ds.manifest.name).to_dict())
            write_json(out / "audit.after.json", audit(ds, kept, name=name).to_dict())
        items = {**ds.items_to_copy(chosen), kind_of_model(SpeechItem): kept}
    else:
        items = {kind_of_model(SpeechItem): outcome.items}
    osr = {**{g: ds.osr[g] for g in ds.osr if g in {x.game_id for x in games}}, **outcome.osr}
    with staged_directory(out / "dataset", overwrite=True) as stage:
        write_dataset(stage, name=name, version=f"{ds.manifest.version}+{label}.{config.seed}",
                      licence=ds.manifest.licence, games=games, items=items, osr=osr,
                      description=f"Drafted by werealign generate with {config.model}; items are unreviewed until `werealign review`.",
                      source=ds.manifest.source)
