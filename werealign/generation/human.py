"""`werealign generate DATASET --negatives human --out DIR`: human-voiced items, no model.

Every option is something a player really said. At each moment (the MVP's highlights, and the
cut-offs of the dataset's own speech items: moments someone chose to ask at) the viewpoint's next
turn gives the key: its opening, cleaned of filler (human_text.py). The eight distractors are
openings of turns in OTHER games of the same language, spoken in the same kind of phase, drawn
(seeded) from the SHORTLIST most similar to the key by character TF-IDF (hard negatives; a small
bonus for naming the same roles, the span's stance; a narrower shortlist made the key the centroid
of its options). Nothing comes from the item's own game, so no distractor is from its future, and
none repeats what the model can read in the transcript. Only turns the whole table heard serve, as
key or distractor (no team chat, no aside in a night phase).

Length: the item draws eight target lengths around the key's with filters.length_targets (a
uniform number shorter, the rest longer: the key's length rank is uniform) and each distractor is an
opening of its turn within filters.length_range of its target. Seats: a distractor's seat mentions
are renumbered onto this game's seats alive at the cut-off: its own speaker's seat becomes the
viewpoint's (it is "you" speaking, as in the key), every other seat a distinct live seat other than
the viewpoint's, drawn with the seed and weighted towards the seats the viewpoint has talked about
(as the key's are); a span naming more seats than that is not used. A source turn
serves at most MAX_REUSE items, so no text recurs as a distractor across the dataset.

Output (the same shape as the model pipeline, so validate, eval, review and release take it):
    <out>/generation.json    configuration;  <out>/notes.jsonl   the whole next turn per item
    <out>/dropped.jsonl      moments that gave no item, and why
    <out>/dataset/           the games and the (unreviewed) items
Same dataset and seed: byte-identical output.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from werealign.version import __version__
from werealign.audit import duplicate_option_pairs
from werealign.dataset import Dataset, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import staged_directory, write_json, write_jsonl
from werealign.game.derive import alive_at
from werealign.generation import human_text as ht
from werealign.generation.filters import LENGTH_BAND, length_range, length_targets, text_length
from werealign.generation.moments import find_moments
from werealign.generation.pipeline import CONFIG, Unit, assemble, select_games
from werealign.output_dir import claim_directory
from werealign.render.lines import seat_label
from werealign.render.phrases import say_now
from werealign.schema import GameLog, ItemProvenance, SpeechItem, Utterance
from werealign.text_similarity import char_wb_ngrams

METHOD = "human-voiced/1"
ORIGIN = "human_utterance"
DIMENSION = "PS"  # "what do you say now?" asks for the turn itself: persuasive statements
MIN_KEY = 20  # visible characters of the key's opening (fewer says nothing to choose from)
MAX_OPENING = 100
MAX_REUSE = 2
SHORTLIST = 400  # hard negatives: drawn (seeded) from the 400 most similar; 40 made the key the centroid (bench/human_items.py)
STANCE_WEIGHT = 0.1
SEAT_TALK_WEIGHT = 3  # extra draws of a live seat per time the viewpoint named it before the cut-off
MIN_SAME_KIND = 32  # fewer turns of the moment's phase kind: draw from every phase


@dataclass(frozen=True)
class HumanConfig:
    dataset: str | None = None
    games: tuple[str, ...] = ()
    seed: int = 0
    limit: int | None = None


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
    phase_kind: str
    spaceless: bool
    openings: tuple[tuple[int, str], ...]  # (length, text) of its first 1, 2, ... clauses
    roles: frozenset[str]


@dataclass
class Outcome:
    items: list[SpeechItem] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- moments and spans


def at_table(u: Utterance, kinds: dict[str, str]) -> bool:
    """A player's turn the whole table heard: not a team's chat, not off-table talk in a night phase
    (werealign.schema Utterance.audience). Only such turns are asked about or used as distractors."""
    if not isinstance(u.speaker, int):
        return False
    return u.audience.kind == "everyone" if u.audience is not None else kinds.get(u.phase) != "night"


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
        segments = sorted({s for u in game.utterances for s in u.segment_ids})
        for seat, cutoff, source in asked:
            turn = _next_turn(game, seat, cutoff)
            before = [s for s in segments if turn is not None and s < min(turn.segment_ids)]
            if turn is None or not before or not at_table(turn, _phase_kinds(game)):
                why = "says nothing after" if turn is None else "opens the game at" if not before else "speaks off the table after"
                skipped.append(f"game {game.game_id}: {source}: seat {seat} {why} segment {cutoff}")
                continue
            moments.setdefault((game.game_id, seat, turn.index), Moment(game.game_id, seat, turn, before[-1], source))
    return list(moments.values()), skipped


def _phase_kinds(game: GameLog) -> dict[str, str]:
    return {p.id: p.kind for p in game.phases}


def build_pool(ds: Dataset, filler: frozenset[str]) -> list[Span]:
    """Every player's turn of every game, as the openings a distractor may be cut from."""
    pool = []
    for game_id in sorted(ds.games):
        game = ds.games[game_id]
        kinds = _phase_kinds(game)
        for u in game.utterances:
            if not at_table(u, kinds):
                continue
            parts = ht.clauses(u, filler)
            spaceless = ht.is_spaceless(u.text)
            opens = tuple(ht.openings(parts, spaceless, MAX_OPENING))
            if opens:
                pool.append(Span(game_id, game.language, u.index, u.speaker, kinds.get(u.phase, ""), spaceless, opens,
                                 ht.roles_named(opens[-1][1])))
    return pool


def key_opening(turn: Utterance, filler: frozenset[str]) -> str | None:
    """The shortest opening of the turn of at least MIN_KEY characters."""
    spaceless = ht.is_spaceless(turn.text)
    return next((text for length, text in ht.openings(ht.clauses(turn, filler), spaceless, MAX_OPENING) if length >= MIN_KEY), None)


# --------------------------------------------------------------------------- distractors


class Picker:
    """Distractors for every item of a run, with the pool's TF-IDF fitted once and reuse counted."""

    def __init__(self, pool: list[Span], seed: int, keys: set[tuple[str, int]] = frozenset()):  # type: ignore[assignment]
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.pool = pool
        self.seed = seed
        # a key's turn has served once already: every turn, key or not, appears in at most MAX_REUSE items
        self.used = [int((s.game_id, s.turn_index) in keys) for s in pool]
        # the same analyzer and weighting as the lexical built-ins (werealign.text_similarity)
        self.vectorizer = TfidfVectorizer(analyzer=char_wb_ngrams, sublinear_tf=True)
        self.matrix = self.vectorizer.fit_transform([s.openings[-1][1] for s in pool]) if pool else None

    def candidates(self, game: GameLog, moment: Moment, key: str) -> list[int]:
        kind = _phase_kinds(game).get(moment.turn.phase, "")
        spaceless = ht.is_spaceless(key)
        eligible = [i for i, s in enumerate(self.pool) if s.game_id != game.game_id and s.language == game.language
                    and s.spaceless == spaceless and self.used[i] < MAX_REUSE]
        same_kind = [i for i in eligible if self.pool[i].phase_kind == kind]
        eligible = same_kind if len(same_kind) >= MIN_SAME_KIND else eligible
        if not eligible:
            return []
        sims = (self.matrix[eligible] @ self.vectorizer.transform([key]).T).toarray().ravel()
        roles = ht.roles_named(key)
        score = [float(sims[n]) + STANCE_WEIGHT * _jaccard(roles, self.pool[i].roles) for n, i in enumerate(eligible)]
        ranked = [eligible[n] for n in sorted(range(len(eligible)), key=lambda n: (-score[n], n))]
        head = ranked[:SHORTLIST]
        random.Random(f"{self.seed}:{moment.game_id}:{moment.turn.index}:shortlist").shuffle(head)
        return head + ranked[SHORTLIST:]

    def pick(self, game: GameLog, moment: Moment, item_id: str, key: str) -> tuple[list[dict[str, str]], str | None]:
        """Eight distractors (origin, text, source), or the reason there are not eight."""
        key_length = text_length(key)
        targets = length_targets(key_length, f"{self.seed}:{item_id}")
        ranked = self.candidates(game, moment, key)
        live = [s for s in alive_at(game, moment.cutoff) if s != moment.seat]
        # seats the viewpoint has been talking about are drawn more often: otherwise the key alone would
        # name them, and matching options to the viewpoint's own turns (werealign/own-style) would find it
        named = Counter(s for u in game.utterances if u.speaker == moment.seat and max(u.segment_ids) <= moment.cutoff
                        for s in ht.seats_named(u.text) if s in live)
        weights = {s: 1 + SEAT_TALK_WEIGHT * named[s] for s in live}
        chosen: list[dict[str, str]] = []
        taken: set[int] = set()
        for target in targets:
            for wide in (False, True):
                low, high = _band(key_length, target, wide)
                hit = self._first_fit(ranked, taken, low, high, target, weights, moment, item_id, [key, *(c["text"] for c in chosen)])
                if hit is not None:
                    break
            if hit is None:
                return [], f"no distractor of length {target} (key {key_length}) among {len(ranked)} candidates"
            taken.add(hit[0])
            chosen.append(hit[1])
        for i in taken:
            self.used[i] += 1
        return chosen, None

    def _first_fit(self, ranked: list[int], taken: set[int], low: int, high: int, target: int, live: dict[int, int],
                   moment: Moment, item_id: str, so_far: list[str]) -> tuple[int, dict[str, str]] | None:
        from werealign.schema import Option

        for i in ranked:
            if i in taken:
                continue
            span = self.pool[i]
            fits = [(abs(length - target), text) for length, text in span.openings if low <= length <= high]
            if not fits:
                continue
            text = remap(min(fits)[1], span, moment.seat, live, f"{self.seed}:{item_id}:{span.game_id}:{span.turn_index}")
            if text is None:
                continue
            options = [Option(key="ABCDEFGHI"[n], text=t, origin="imported") for n, t in enumerate([*so_far, text])]
            exact, near = duplicate_option_pairs(options)
            if exact or near:
                continue
            return i, {"origin": ORIGIN, "text": text, "source": f"{span.game_id}#{span.turn_index}"}
        return None


def _band(key_length: int, target: int, wide: bool) -> tuple[int, int]:
    """Narrow: filters.length_range of the target. Wide: anywhere in the band on the target's side of the key."""
    if not wide:
        return length_range(key_length, target)
    low, high = math.ceil(key_length / LENGTH_BAND), math.floor(key_length * LENGTH_BAND)
    return (low, key_length - 1) if target < key_length else (key_length + 1, high)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def remap(text: str, span: Span, me: int, live: dict[int, int] | list[int], seed: str) -> str | None:
    """The span with its speaker's seat renumbered to `me` and each other seat it names to a distinct
    live seat other than `me`, drawn (seeded) with the given weights (a list: equal weights); None
    when it names more seats than there are."""
    others = sorted({s for s in ht.seats_named(text) if s != span.speaker})
    weights = dict(live) if isinstance(live, dict) else dict.fromkeys(live, 1)
    if len(others) > len(weights):
        return None
    rng = random.Random(seed)
    drawn = []
    for _ in others:
        seats = sorted(weights)
        seat = rng.choices(seats, [weights[s] for s in seats])[0]
        drawn.append(seat)
        del weights[seat]
    return ht.remap_seats(text, {span.speaker: me, **dict(zip(others, drawn))})


# --------------------------------------------------------------------------- items and the run


def item_id_of(moment: Moment) -> str:
    return f"{moment.game_id}-hum-{moment.seat}-{moment.turn.index}"


def build_items(ds: Dataset, config: HumanConfig) -> Outcome:
    games = select_games(ds, config)  # type: ignore[arg-type]  (reads .games only)
    out = Outcome()
    moments, skipped = find_human_moments(ds, games)
    out.dropped += [{"unit": "moment", "reason": why} for why in skipped]
    if config.limit is not None:
        moments = moments[: config.limit]
    filler = ht.find_filler({g: [u for u in ds.games[g].utterances if isinstance(u.speaker, int)] for g in ds.games})
    picker = Picker(build_pool(ds, filler), config.seed, {(m.game_id, m.turn.index) for m in moments})
    for m in moments:
        game, uid = ds.games[m.game_id], item_id_of(m)
        key = key_opening(m.turn, filler)
        if key is None:
            out.dropped.append({"unit": uid, "game_id": m.game_id, "reason": f"the turn has no opening of {MIN_KEY}+ characters after filler"})
            continue
        negatives, why = picker.pick(game, m, uid, key)
        if why is not None:
            out.dropped.append({"unit": uid, "game_id": m.game_id, "reason": why})
            continue
        unit = Unit(uid, m.game_id, DIMENSION, m.seat, m.cutoff)
        options, answer = assemble(unit, {"key": key}, negatives, config.seed)
        sources = {o.key: neg["source"] for o in options for neg in negatives if neg["text"] == o.text}
        ref: dict[str, str | int] = {"method": METHOD, "moment": m.source, "key_turn": m.turn.index,
                                     **{f"option_{k}": v for k, v in sorted(sources.items())}}
        out.items.append(SpeechItem(
            item_id=uid, game_id=m.game_id, language=game.language, dimension=DIMENSION, viewpoint_seat=m.seat,
            cutoff_segment=m.cutoff, question=say_now(seat_label(m.seat, game.language), game.language), options=options,
            answer=answer, provenance=ItemProvenance(prompt_version=METHOD, seed=config.seed, review="unreviewed",
                                                     source="werealign generate --negatives human", source_ref=ref)))
        out.notes.append({"item_id": uid, "flags": [], "judge": [], "next_move": f"{seat_label(m.seat, game.language)}: {m.turn.text}"})
    return out


def run_human(config: HumanConfig, out: Path) -> Outcome:
    ds = load_dataset(Path(config.dataset) if config.dataset else None)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: --out exists and is not a directory")
    outcome = build_items(ds, config)
    games = select_games(ds, config)  # type: ignore[arg-type]
    # After the input checks (a failed command leaves no folder); refuses an input, or a folder that is
    # not a generation directory.
    claim_directory(out, command="generate", inputs=[ds.root] if ds.root is not None else [], own=lambda d: (d / CONFIG).is_file())
    write_json(out / CONFIG, {"format": "werealign-generation/1", "werealign": __version__, "negatives": "human",
                              "method": METHOD, "config": asdict(config)})
    write_jsonl(out / "notes.jsonl", outcome.notes)
    write_jsonl(out / "dropped.jsonl", outcome.dropped)
    name = f"{ds.manifest.name}-human"
    with staged_directory(out / "dataset", overwrite=True) as stage:
        write_dataset(stage, name=name, version=f"{ds.manifest.version}+human.{config.seed}", licence=ds.manifest.licence,
                      games=games, items={"speech": outcome.items}, osr={},
                      description="Human-voiced items by werealign generate --negatives human: every option is a real "
                                  "utterance (the key the viewpoint's own next turn, distractors from other games); unreviewed.",
                      source=ds.manifest.source)
    return outcome


__all__ = ["HumanConfig", "build_items", "find_human_moments", "remap", "run_human"]
