"""`werealign restyle DATASET --model X --out DIR`: every speech item's nine options in one neutral register.

On the imported release the key is written in the players' spoken register and the distractors in
a formal written one, so the options alone give the key away. Restyling asks a model to rewrite all
nine options of an item in one plain register, keeping each option's meaning, the seats it names
(checked: a reply that drops or adds a seat is sent back) and its origin (mechanism) tag. Then the
audit's options-only attack runs over the whole set, cross-fitted with whole games held out: an item
whose key it still picks is redrafted (a new request, told so), at most `max_redrafts` times, then
kept and flagged for the reviewer. Originals stay in provenance (source_ref original_<letter>).

Each request is content-keyed in <out>/responses.sqlite (the engine of werealign generate), so a
rerun resumes and pays only for what is missing; `estimate` prices a run before anything is sent.
Output: <out>/generation.json, stages/restyle.jsonl, notes.jsonl and <out>/dataset/ with the items
unreviewed (`werealign review DIR` shows each option before and after).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from werealign.version import __version__
from werealign.dataset import load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import make_parent, staged_directory, write_json, write_jsonl
from werealign.generation import prompts, replies
from werealign.generation.human_text import seats_named
from werealign.text.seat_names import names_of_seats
from werealign.generation.model import STORE_NAME, RetryPolicy, Store, connect, max_connections_for, price_per_token
from werealign.generation.pipeline import CONFIG, request_params
from werealign.generation.session import Draft, Session
from werealign.files.output_dir import claim_directory
from werealign.schema import GameLog, SpeechItem
from werealign.tasks import kind_of_model

STAGE = "neutral"
PROMPT_VERSION = f"restyle:{prompts.TEMPLATES[STAGE]}"


@dataclass(frozen=True)
class RestyleConfig:
    model: str
    dataset: str | None = None
    games: tuple[str, ...] = ()
    seed: int = 0
    max_redrafts: int = 2
    limit: int | None = None


def select_items(config: RestyleConfig) -> tuple[Any, list[SpeechItem]]:
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    missing = [g for g in config.games if g not in ds.games]
    if missing:
        raise UserError(f"--games: no game {missing[0]!r} in the dataset")
    items = [it for it in ds.speech if not config.games or it.game_id in config.games]
    return ds, items[: config.limit] if config.limit is not None else items


def _messages(item: SpeechItem, attempt: int, game: GameLog) -> tuple[str, list[dict[str, str]]]:
    return prompts.render(STAGE, language=item.language, game=game, question=item.question_short or item.question,
                          options=item.options, attempt=attempt)


def parse_neutral(reply: str | None, item: SpeechItem, names: dict | None = None) -> dict[str, str]:
    """The nine rewritten texts; a reply that loses or adds a seat mention (a number, or a name of `names`, the
    item's game's) is malformed (repaired)."""
    texts = replies.parse_restyle(reply, [o.key for o in item.options])
    for o in item.options:
        if sorted(set(seats_named(texts[o.key], names))) != sorted(set(seats_named(o.text, names))):
            raise replies.BadReply(f"option {o.key} must name exactly the seats it named: {sorted(set(seats_named(o.text, names)))}")
    return texts


def keys_found(items: Sequence[SpeechItem]) -> set[str]:
    """Items whose key the audit's options-only attack (trained on other games only) picks."""
    from werealign.shortcuts.attacks import cross_fitted_probs, top1_hits

    return {it.item_id for it, hit in zip(items, top1_hits(items, cross_fitted_probs(items))) if hit}


def restyled(item: SpeechItem, texts: dict[str, str], model: str, seed: int) -> SpeechItem:
    ref = {**item.provenance.source_ref, "restyled_from": item.item_id, **{f"original_{o.key}": o.text for o in item.options}}
    options = [o.model_copy(update={"text": texts[o.key]}) for o in item.options]
    prov = item.provenance.model_copy(update={"generator_model": model, "prompt_version": PROMPT_VERSION, "seed": seed,
                                              "review": "unreviewed", "reviewer": None, "source_ref": ref})
    return item.model_copy(update={"options": options, "provenance": prov})


def originals_of(item: SpeechItem) -> dict[str, str]:
    """Letter -> the option's text before restyling (empty for an item never restyled)."""
    ref = item.provenance.source_ref
    return {o.key: str(ref[f"original_{o.key}"]) for o in item.options if f"original_{o.key}" in ref}


def restyle_items(session: Session, items: list[SpeechItem], config: RestyleConfig,
                  games: dict[str, GameLog]) -> tuple[list[SpeechItem], list[dict[str, Any]]]:
    """Every item restyled (or kept, flagged, when no usable reply came), with the attack in the loop; `games`: the
    items' games (the prompt speaks the game family's words, and a rewrite keeps the seats their names name)."""
    names = {g: names_of_seats(game.seats) for g, game in games.items()}
    current = {it.item_id: it for it in items}
    originals = dict(current)
    flags: dict[str, list[str]] = {uid: [] for uid in current}
    attempts = dict.fromkeys(current, 0)
    pending = list(current)
    for round_ in range(config.max_redrafts + 1):
        drafts = []
        for uid in pending:
            tpl, messages = _messages(originals[uid], attempts[uid], games[originals[uid].game_id])
            drafts.append(Draft(session.request(STAGE, uid, tpl, messages),
                                lambda reply, it=originals[uid]: parse_neutral(reply, it, names.get(it.game_id))))
        for r in session.ask(STAGE, drafts):
            uid = r.record["unit"]
            if r.value is not None:
                current[uid] = restyled(originals[uid], r.value, config.model, config.seed)
            elif current[uid] is originals[uid]:
                # the error's first clause only: a provider's message may carry a traceback and its paths
                flags[uid] = [f"no usable reply: {str(r.record['error']).split(' Traceback')[0][:300]}"]
        # the attack is retrained on the whole set each round: a key it missed before may stand out now
        found = keys_found(list(current.values()))
        pending = [uid for uid in current if uid in found and current[uid] is not originals[uid]]
        if round_ == config.max_redrafts or not pending:
            break
        for uid in pending:
            attempts[uid] += 1
    for uid in pending:
        flags[uid].append(f"options-only attack still finds the key after {attempts[uid]} redraft(s)")
    notes = [{"item_id": uid, "flags": flags[uid], "judge": [], "next_move": ""} for uid in current]
    return list(current.values()), notes


@contextmanager
def _engine(config: RestyleConfig, out: Path, api_base: str | None, acompletion: Any, readonly: bool = False) -> Iterator[tuple[Store | None, Any]]:
    path = out / STORE_NAME
    if readonly and not path.exists():
        yield None, None
        return
    make_parent(path)
    store = Store(path, readonly=readonly)
    try:
        if acompletion is not None or readonly:
            yield store, (acompletion, config.model, {})
        else:
            with connect(config.model, api_base) as conn:
                yield store, conn
    finally:
        store.close()


FORMAT = "werealign-restyle/1"


def _is_restyle_dir(folder: Path) -> bool:
    return (folder / CONFIG).is_file() and FORMAT in (folder / CONFIG).read_text(encoding="utf-8")


def run_restyle(config: RestyleConfig, out: Path, *, acompletion: Any = None, api_base: str | None = None, policy: RetryPolicy | None = None,
                max_connections: int = 4, max_tokens: int = 2048, quiet: bool = False) -> tuple[list[SpeechItem], list[dict[str, Any]], Session]:
    ds, items = select_items(config)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: --out exists and is not a directory")
    # Resumable, so filled in place: refuse an input, or a folder that is not an earlier restyle's.
    claim_directory(out, command="restyle", inputs=[ds.root] if ds.root is not None else [], own=_is_restyle_dir)
    write_json(out / CONFIG, {"format": FORMAT, "werealign": __version__, "config": asdict(config),
                              "templates": {STAGE: prompts.TEMPLATES[STAGE]}})
    with _engine(config, out, api_base, acompletion) as (store, (call, routed, kwargs)):
        session = Session(store=store, model=config.model, seed=config.seed, acompletion=call, routed_model=routed, kwargs=kwargs,  # type: ignore[arg-type]
                          policy=policy or RetryPolicy(), max_connections=max_connections_for(config.model, max_connections), quiet=quiet,
                          base_params=request_params(max_tokens, config.model, config.seed))
        new, notes = restyle_items(session, items, config, ds.games)
    for stage, records in session.records.items():
        write_jsonl(out / "stages" / f"{stage}.jsonl", sorted(records, key=lambda r: (r["unit"], r["keys"])))
    write_jsonl(out / "notes.jsonl", notes)
    chosen = {it.game_id for it in items}
    with staged_directory(out / "dataset", overwrite=True) as stage:
        write_dataset(stage, name=f"{ds.manifest.name}-restyled", version=f"{ds.manifest.version}+restyle.{config.seed}",
                      licence=ds.manifest.licence, games=[ds.games[g] for g in sorted(chosen)], items={**ds.items_to_copy(chosen), kind_of_model(SpeechItem): new},
                      osr={g: ds.osr[g] for g in ds.osr if g in chosen},
                      description=f"Options restyled into one register by werealign restyle with {config.model}; unreviewed.",
                      source=ds.manifest.source)
    return new, notes, session


@dataclass(frozen=True)
class Estimate:
    items: int
    requests: int  # first drafts; each redraft round asks again for the items the attack still solves
    most: int  # every item redrafted every round
    stored: int
    prompt_tokens: int
    completion_tokens: int
    cost: float | None


def estimate(config: RestyleConfig, out: Path, max_tokens: int = 2048) -> Estimate:
    """Requests and cost before anything is sent (tokens ~ characters / 3; a reply ~ the options' length)."""
    ds, items = select_items(config)
    chars = replies_chars = stored = 0
    with _engine(config, out, None, None, readonly=True) as (store, _):
        ok = store.ok_keys() if store is not None else set()
        session = Session(store=store, model=config.model, seed=config.seed, base_params=request_params(max_tokens, config.model, config.seed))  # type: ignore[arg-type]
        for it in items:
            tpl, messages = _messages(it, 0, ds.games[it.game_id])
            chars += sum(len(m["content"]) for m in messages)
            replies_chars += sum(len(o.text) for o in it.options) + 60
            stored += session.request(STAGE, it.item_id, tpl, messages).key in ok
    prompt_tokens, completion_tokens = chars // 3, replies_chars // 3
    price = price_per_token(config.model) if items else (0.0, 0.0)
    cost = None if price is None else prompt_tokens * price[0] + completion_tokens * price[1]
    return Estimate(len(items), len(items) - stored, len(items) * (1 + config.max_redrafts), stored, prompt_tokens, completion_tokens, cost)
