"""`werealign generate DATASET --negatives human --out DIR`: human-voiced items, no model.

Every option is something a player really said, and every option is cut by one procedure
(`move_spans`): per move a turn makes (a claim, an accusation, a vote intention, a check report, a badge
order; human_text.move_windows), the shortest window of whole sentences opening at that move that reaches
MIN_KEY characters. At each moment (the MVP's highlights, the cut-offs of the dataset's own speech items,
then the MVP's other turns) the key is one move span of the viewpoint's next turn, drawn (seeded); the
distractors are move spans of turns of OTHER games of the same source style (show and season; any other game
of the language when the dataset has none), never of the item's own game: its turns before the cut-off are
shown, and those after it can carry what happens later (a death, an exile, a claim or check not yet
announced). No length is asked for: keys and distractors come from the same procedure, so the key's length
rank is uniform (a +-25% band around the key once made the key the one option whose band holds the other eight).

Distractors (werealign.generation.human_pick): the first POOL candidates of the SHORTLIST spans most similar to the
key by character TF-IDF (ordered by how close their likeness to the viewpoint's own words is to the key's) that pass
every filter; each draw weighs SUBSETS sets of eight of them on every statistic the audit ranks and keeps the one
whose key sits where a drawn option sits (werealign.generation.rankmatch), so the key's rank on each is a random
option's; a key at an end of every set on one statistic gives no item. Every seat renumbered in every form
(werealign.shortcuts.seats): the speaker's seat becomes the viewpoint's, every other seat a distinct seat of this
game, a seat already out at the keys' own rate (`dead_rate`), else a live seat weighted towards those the
viewpoint has talked about. Whether a distractor names a seat out at the cut-off at all is drawn per option
at the keys' own rate (`out_rate`, among moments with a seat out), so naming one does not tell the key.

No option names a role the board lacks, holds a post-game remark, opens on a fragment, repeats the shown
transcript or a later turn of the item's game (LEAK_NGRAM words in common; werealign.shortcuts.exchange): a key
already said before the cut-off drops the moment, as does a viewpoint silenced for the day. Only turns the
whole table heard serve. `draws` candidate distractor sets are kept per moment so; the learned ensemble
(werealign.shortcuts.ensemble), fitted on the other games' candidates only, keeps the least predictable set it
does not answer, within MAX_REUSE items per source turn (werealign.generation.choose); a moment whose every
set it answers gives no item (dropped.jsonl says so).

Output (the same shape as the model pipeline, so validate, eval, review and release take it):
    <out>/generation.json    configuration;  <out>/notes.jsonl   the whole next turn per item
    <out>/dropped.jsonl      moments that gave no item, and why
    <out>/dataset/           the games and the (unreviewed) items
Same dataset and seed: byte-identical output.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from werealign.version import __version__
from werealign.dataset import Dataset, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import staged_directory, write_json, write_jsonl
from werealign.generation import human_text as ht
from werealign.generation import minimal
from werealign.generation.human_text import remap
from werealign.generation.human_pick import MAX_REUSE, Picker, at_table, phase_kinds, style_of
from werealign.generation.human_shown import Shown, dead_share, names_seat_out, repeats_later, repeats_transcript, shown_for
from werealign.generation.moments import find_moments
from werealign.generation.pipeline import CONFIG, Unit, assemble, select_games
from werealign.files.output_dir import claim_directory
from werealign.render.lines import seat_label
from werealign.render.phrases import say_now
from werealign.schema import GameLog, ItemProvenance, SpeechItem, Utterance
from werealign.tasks import kind_of_model
from werealign.text.seat_names import names_of_seats

METHOD = "human-voiced/3"
DIMENSION = "PS"  # "what do you say now?" asks for the turn itself: persuasive statements
MIN_KEY = 20  # visible characters of the key's span (fewer says nothing to choose from)
MAX_OPENING = 100
REDRAWS = 2  # candidate sets drawn again, from turns not used up, for a moment whose every set would reuse one
SILENCE = re.compile(r"silen|mute|禁言", re.IGNORECASE)


@dataclass(frozen=True)
class HumanConfig:
    dataset: str | None = None
    games: tuple[str, ...] = ()
    seed: int = 0
    limit: int | None = None
    minimal: bool = False  # minimal pairs: the key with its move changed (werealign.generation.minimal)
    draws: int = 4  # candidate distractor sets per moment, of which werealign.generation.choose keeps one


@dataclass(frozen=True)
class Moment:
    game_id: str
    seat: int
    turn: Utterance
    cutoff: int
    source: str  # "highlight" or "item <id>"


@dataclass(frozen=True)
class Span:
    game_id: str
    language: str
    turn_index: int
    speaker: int
    phase: str
    spaceless: bool
    text: str  # the span, cut as a key is (move_spans)
    roles: frozenset[str]
    day: int | None = None
    first_segment: int = 0
    style: str = ""  # the source's show and season: one transcription style
    names: tuple = ()  # (seat, its names) of the source game: a seat named by name is renamed as a number is renumbered


@dataclass
class Outcome:
    items: list[SpeechItem] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- moments and spans


def silenced(game: GameLog, seat: int, turn: Utterance) -> bool:
    """A silence skill used on the seat in the night before the turn's day (it may not speak that day)."""
    day_of = {p.id: p.day for p in game.phases}
    day = day_of.get(turn.phase)
    return any(e.kind == "skill_use" and e.target == seat and SILENCE.search(e.skill or "") and day_of.get(e.phase) == day
               for e in game.events)


def _next_turn(game: GameLog, seat: int, after: int) -> Utterance | None:
    return next((u for u in game.utterances if u.speaker == seat and min(u.segment_ids) > after), None)


def find_human_moments(ds: Dataset, games: list[GameLog]) -> tuple[list[Moment], list[str]]:
    """One moment per (game, viewpoint, next turn), highlights first; the cut-off is the segment just
    before that turn, so the question is asked right before the viewpoint speaks."""
    moments: dict[tuple[str, int, int], Moment] = {}
    skipped: list[str] = []
    for game in games:
        asked: list[tuple[int, int, str]] = []
        found, why = find_moments(game)
        skipped += why
        asked += [(m.seat, m.cutoff_segment, "highlight") for m in found]
        asked += [(it.viewpoint_seat, it.cutoff_segment, f"item {it.item_id}") for it in ds.speech
                  if it.game_id == game.game_id and it.viewpoint_seat is not None]
        # and every other turn the MVP took at the table: the player the benchmark aligns with
        kinds = phase_kinds(game)
        if game.mvp is not None and game.mvp.seat is not None:
            asked += [(game.mvp.seat, min(u.segment_ids) - 1, "mvp turn") for u in game.utterances
                      if u.speaker == game.mvp.seat and at_table(u, kinds)]
        segments = sorted({s for u in game.utterances for s in u.segment_ids})
        for seat, cutoff, source in asked:
            turn = _next_turn(game, seat, cutoff)
            before = [s for s in segments if turn is not None and s < min(turn.segment_ids)]
            if turn is None or not before or not at_table(turn, phase_kinds(game)) or silenced(game, seat, turn):
                why = ("says nothing after" if turn is None else "opens the game at" if not before
                       else "speaks off the table after" if not at_table(turn, phase_kinds(game)) else "is silenced for the day after")
                skipped.append(f"game {game.game_id}: {source}: seat {seat} {why} segment {cutoff}")
                continue
            moments.setdefault((game.game_id, seat, turn.index), Moment(game.game_id, seat, turn, before[-1], source))
    return list(moments.values()), skipped


def move_spans(turn: Utterance, filler: frozenset[str], names: dict | None = None) -> dict[int, str]:
    """The span procedure, one for keys and distractors alike: per move the turn makes (its first clause),
    the shortest window of whole clauses opening at it of at least MIN_KEY characters (none when no window
    of at most MAX_OPENING reaches it). `names`: the game's seat names (issue 45), so a move about a named seat counts."""
    parts, ends = ht.clause_pieces(turn, filler)
    first: dict[int, str] = {}
    for start, length, text in ht.move_windows(parts, ht.is_spaceless(turn.text), MAX_OPENING, ends, names):
        if length >= MIN_KEY:
            first.setdefault(start, text)
    return first


def build_pool(ds: Dataset, filler: frozenset[str]) -> list[Span]:
    """Every move of every player's turn of every game, cut by the key's procedure (move_spans)."""
    pool = []
    for game_id in sorted(ds.games):
        game = ds.games[game_id]
        kinds = phase_kinds(game)
        day_of = {p.id: p.day for p in game.phases}
        names = names_of_seats(game.seats)
        for u in game.utterances:
            if not at_table(u, kinds):
                continue
            spaceless = ht.is_spaceless(u.text)
            for text in move_spans(u, filler, names).values():
                pool.append(Span(game_id, game.language, u.index, u.speaker, u.phase, spaceless, text,
                                 ht.roles_named(text), day_of.get(u.phase), min(u.segment_ids), style_of(game),
                                 tuple(sorted(names.items()))))
    return pool


def key_opening(turn: Utterance, filler: frozenset[str], seed: str = "", names: dict | None = None) -> str | None:
    """The key: of the turn's move spans (move_spans), one drawn with `seed` (distractors are any move of
    their turns, so a key that were always a turn's first move would be told by how turns open)."""
    first = move_spans(turn, filler, names)
    if not first:
        return None
    return first[random.Random(f"{seed}:{turn.index}:key").choice(sorted(first))]


# --------------------------------------------------------------------------- items and the run


def item_id_of(moment: Moment) -> str:
    return f"{moment.game_id}-hum-{moment.seat}-{moment.turn.index}"


def build_items(ds: Dataset, config: HumanConfig) -> Outcome:
    from werealign.shortcuts.context import shown_to
    from werealign.generation.choose import choose

    games = select_games(ds, config)  # type: ignore[arg-type]  (reads .games only)
    out = Outcome()
    moments, skipped = find_human_moments(ds, games)
    out.dropped += [{"unit": "moment", "reason": why} for why in skipped]
    if config.limit is not None:
        moments = moments[: config.limit]
    filler = ht.find_filler({g: [u for u in ds.games[g].utterances if isinstance(u.speaker, int)] for g in ds.games})
    keyed: list[tuple[Moment, str, Shown]] = []
    for m in moments:
        game, uid = ds.games[m.game_id], item_id_of(m)
        key = key_opening(m.turn, filler, f"{config.seed}:{m.game_id}", names_of_seats(game.seats))
        shown = shown_for(game, m)
        why = (f"the turn makes no move in a span of {MIN_KEY}+ characters" if key is None
               else "the key's span is already in the shown transcript" if repeats_transcript(key, shown) else None)
        if why is not None:
            out.dropped.append({"unit": uid, "game_id": m.game_id, "reason": why})
            continue
        keyed.append((m, key, shown))  # type: ignore[arg-type]
    # distractors name seats already out as often as keys do (no dead-seat giveaway either way)
    shares = [dead_share(ds.games[m.game_id], m, key) for m, key, _ in keyed]
    dead_rate = sum(d for d, _ in shares) / max(1, sum(n for _, n in shares))
    with_out = [names_seat_out(key, shown) for _, key, shown in keyed if shown.dead]
    out_rate = sum(with_out) / max(1, len(with_out))
    role_rates = minimal.key_role_rates(key for _, key, _ in keyed) if config.minimal else None
    draws = max(1, config.draws)
    picker = Picker(build_pool(ds, filler), config.seed, {(m.game_id, m.turn.index) for m, _, _ in keyed}, dead_rate, out_rate, draws + REDRAWS)
    # several candidate distractor sets per moment; the learned ensemble, fitted on other games, keeps one
    drawn: list[tuple[Moment, list[SpeechItem]]] = []
    for m, key, shown in keyed:
        game = ds.games[m.game_id]
        uid = item_id_of(m).replace("-hum-", "-min-") if config.minimal else item_id_of(m)
        group, reasons = [], []
        sets = (_minimal(game, m, key, shown, f"{config.seed}:{uid}", role_rates, draws) if config.minimal
                else [picker.pick(game, m, uid, key, shown, d) for d in range(draws)])
        for negatives, why in sets:
            if why is not None:
                reasons.append(why)
                continue
            candidate = _item(game, m, uid, key, negatives, config)
            if all(c.options != candidate.options for c in group):
                group.append(candidate)
        if not group:
            out.dropped.append({"unit": uid, "game_id": m.game_id, "reason": reasons[0]})
            continue
        drawn.append((m, group))
    shown_at = [shown_to(ds.games[m.game_id], m.seat, m.cutoff) for m, _ in drawn]
    keys = {(m.game_id, m.turn.index): (key, shown) for m, key, shown in keyed}

    def redraw(n: int, used: Counter) -> list[SpeechItem]:
        # one more draw from the turns the kept items have not used up (its own counter: the last)
        m = drawn[n][0]
        key, shown = keys[(m.game_id, m.turn.index)]
        out = []
        for d in range(draws, draws + REDRAWS):
            picker.used[d] = [used[f"{s.game_id}#{s.turn_index}"] for s in picker.pool]
            negatives, why = picker.pick(ds.games[m.game_id], m, drawn[n][1][0].item_id, key, shown, d)
            if why is None:
                out.append(_item(ds.games[m.game_id], m, drawn[n][1][0].item_id, key, negatives, config))
        return out

    chosen = choose([g for _, g in drawn], shown_at, seed=config.seed, max_reuse=None if config.minimal else MAX_REUSE,
                    key_turns=[f"{m.game_id}#{m.turn.index}" for m, _, _ in keyed], redraw=None if config.minimal else redraw,
                    least_predictable=config.minimal)
    for (m, group), c in zip(drawn, chosen):
        if c.item is None:
            out.dropped.append({"unit": group[0].item_id, "game_id": m.game_id, "reason": c.why, "predictability": c.predictability})
            continue
        c.item.provenance.source_ref["predictability"] = str(c.predictability)  # type: ignore[union-attr]
        out.items.append(c.item)
        out.notes.append({"item_id": c.item.item_id, "flags": [], "judge": [], "candidates": len(group),
                          "next_move": f"{seat_label(m.seat, ds.games[m.game_id].language)}: {m.turn.text}"})
    return out


def _item(game: GameLog, m: Moment, uid: str, key: str, negatives: list[dict[str, str]], config: HumanConfig) -> SpeechItem:
    unit = Unit(uid, m.game_id, DIMENSION, m.seat, m.cutoff)
    options, answer = assemble(unit, {"key": key}, negatives, config.seed)
    sources = {o.key: neg["source"] for o in options for neg in negatives if neg["text"] == o.text}
    ref: dict[str, str | int] = {"method": minimal.METHOD if config.minimal else METHOD, "moment": m.source, "key_turn": m.turn.index,
                                 **{f"option_{k}": v for k, v in sorted(sources.items())}}
    return SpeechItem(
        item_id=uid, game_id=m.game_id, language=game.language, dimension=DIMENSION, viewpoint_seat=m.seat,
        cutoff_segment=m.cutoff, question=say_now(seat_label(m.seat, game.language), game.language), options=options,
        answer=answer, provenance=ItemProvenance(prompt_version=str(ref["method"]), seed=config.seed, review="unreviewed",
                                                 source="werealign generate --negatives human", source_ref=ref))


def _minimal(game: GameLog, m: Moment, key: str, shown: Shown, seed: str, role_rates: dict[str, float] | None,
             draws: int) -> list[tuple[list[dict[str, str]], str | None]]:
    from werealign.shortcuts.context import shown_to

    # a changed move can be what another seat says later: such a grid is not drawn
    sets, why = minimal.drafts(key, game, m.seat, shown_to(game, m.seat, m.cutoff), seed, draws, role_rates=role_rates,
                               ok=lambda text: not repeats_later(text, shown))
    if why is not None:
        return [([], why)]
    return [([{"origin": origin, "text": text, "source": change} for text, origin, change in found], None) for found in sets]


def run_human(config: HumanConfig, out: Path) -> Outcome:
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: --out exists and is not a directory")
    outcome = build_items(ds, config)
    games = select_games(ds, config)  # type: ignore[arg-type]
    # After the input checks (a failed command leaves no folder); refuses an input, or a folder that is
    # not a generation directory.
    claim_directory(out, command="generate", inputs=[ds.root] if ds.root is not None else [], own=lambda d: (d / CONFIG).is_file())
    write_json(out / CONFIG, {"format": "werealign-generation/1", "werealign": __version__, "negatives": "minimal" if config.minimal else "human",
                              "method": minimal.METHOD if config.minimal else METHOD, "config": asdict(config)})
    write_jsonl(out / "notes.jsonl", outcome.notes)
    write_jsonl(out / "dropped.jsonl", outcome.dropped)
    name = f"{ds.manifest.name}-human"
    with staged_directory(out / "dataset", overwrite=True) as stage:
        write_dataset(stage, name=name, version=f"{ds.manifest.version}+human.{config.seed}", licence=ds.manifest.licence,
                      games=games, items={kind_of_model(SpeechItem): outcome.items}, osr={},
                      description="Human-voiced items by werealign generate --negatives human: every option is a real "
                                  "utterance (the key the move its next turn makes, distractors from the same day, then other games of the same source); unreviewed.",
                      source=ds.manifest.source)
    return outcome


__all__ = ["HumanConfig", "build_items", "find_human_moments", "remap", "run_human"]
