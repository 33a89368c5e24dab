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

Candidates (spans naming as many roles, and as many seats, as the key when 200+ such spans exist) are drawn (seeded)
from the SHORTLIST spans most similar to the key by character TF-IDF, ordered by
how close their likeness to the viewpoint's own words is to the key's; every seat renumbered in every form
(werealign.shortcuts.seats): the speaker's seat becomes the viewpoint's, every other seat a distinct seat of this
game, a seat already out at the keys' own rate (`dead_rate`), else a live seat drawn with the weight a real next
turn at such a table gives it (werealign.generation.seat_model: accused, spoke, named lately..., learnt from other
games' keys), so seats shared among the nine options, and with the talk, say nothing of the key. Whether a distractor names a seat out at the cut-off at all is drawn per option
at the keys' own rate (`out_rate`, among moments with a seat out), so naming one does not tell the key.

No option names a role the board lacks, holds a post-game remark, opens on a fragment, repeats the shown
transcript or a later turn of the item's game (LEAK_NGRAM words in common; werealign.shortcuts.exchange): a key
already said before the cut-off drops the moment, as does a viewpoint silenced for the day. Only turns the
whole table heard serve. `draws` candidate distractor sets are drawn per moment; the learned ensemble
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
from werealign.generation.filters import repeats_an_option
from werealign.generation.human_text import remap
from werealign.generation.likeness import PoolCosines
from werealign.generation.human_shown import Shown, dead_share, foreign_roles, names_seat_out, repeats_later, repeats_transcript, shown_for
from werealign.generation.moments import find_moments
from werealign.generation.seat_model import moment_weights
from werealign.generation.pipeline import CONFIG, Unit, assemble, select_games
from werealign.files.output_dir import claim_directory
from werealign.render.lines import seat_label
from werealign.render.phrases import say_now
from werealign.schema import GameLog, ItemProvenance, SpeechItem, Utterance
from werealign.tasks import kind_of_model
from werealign.text.seat_names import names_of_seats
from werealign.text.similarity import char_wb_ngrams

METHOD = "human-voiced/3"  # /3: seats drawn as keys of other games name them (seat_model)
ORIGIN = "human_utterance"
DIMENSION = "PS"  # "what do you say now?" asks for the turn itself: persuasive statements
MIN_KEY = 20  # visible characters of the key's span (fewer says nothing to choose from)
MAX_OPENING = 100
MAX_REUSE = 3  # a turn in at most this many items (key included): more, and a recurrence attack reads the keys
REDRAWS = 2  # candidate sets drawn again, from turns not used up, for a moment whose every set would reuse one
SHORTLIST = 400  # hard negatives: drawn (seeded) from the 400 most similar; 40 made the key the centroid (bench/human_items.py)
STANCE_WEIGHT = 0.1
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


def at_table(u: Utterance, kinds: dict[str, str]) -> bool:
    """A player's turn the whole table heard: not a team's chat, not off-table talk in a night phase
    (werealign.schema Utterance.audience). Only such turns are asked about or used as distractors."""
    if not isinstance(u.speaker, int):
        return False
    return u.audience.kind == "everyone" if u.audience is not None else kinds.get(u.phase) != "night"


def _next_turn(game: GameLog, seat: int, after: int) -> Utterance | None:
    return next((u for u in game.utterances if u.speaker == seat and min(u.segment_ids) > after), None)


def style_of(game: GameLog) -> str:
    """The source's transcription style: its show and season (the file it came from when neither is known)."""
    p = game.provenance
    if p.show is not None or p.season is not None:
        return f"{p.show}/{p.season}"
    return p.source or game.game_id


def silenced(game: GameLog, seat: int, turn: Utterance) -> bool:
    """A silence skill used on the seat in the night before the turn's day (it may not speak that day)."""
    day_of = {p.id: p.day for p in game.phases}
    day = day_of.get(turn.phase)
    return any(e.kind == "skill_use" and e.target == seat and SILENCE.search(e.skill or "") and day_of.get(e.phase) == day
               for e in game.events)


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
        kinds = _phase_kinds(game)
        if game.mvp is not None and game.mvp.seat is not None:
            asked += [(game.mvp.seat, min(u.segment_ids) - 1, "mvp turn") for u in game.utterances
                      if u.speaker == game.mvp.seat and at_table(u, kinds)]
        segments = sorted({s for u in game.utterances for s in u.segment_ids})
        for seat, cutoff, source in asked:
            turn = _next_turn(game, seat, cutoff)
            before = [s for s in segments if turn is not None and s < min(turn.segment_ids)]
            if turn is None or not before or not at_table(turn, _phase_kinds(game)) or silenced(game, seat, turn):
                why = ("says nothing after" if turn is None else "opens the game at" if not before
                       else "speaks off the table after" if not at_table(turn, _phase_kinds(game)) else "is silenced for the day after")
                skipped.append(f"game {game.game_id}: {source}: seat {seat} {why} segment {cutoff}")
                continue
            moments.setdefault((game.game_id, seat, turn.index), Moment(game.game_id, seat, turn, before[-1], source))
    return list(moments.values()), skipped


def _phase_kinds(game: GameLog) -> dict[str, str]:
    return {p.id: p.kind for p in game.phases}


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
        kinds = _phase_kinds(game)
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


# --------------------------------------------------------------------------- distractors


class Picker:
    """Distractors for every item of a run, with the pool's TF-IDF fitted once and reuse counted per draw."""

    def __init__(self, pool: list[Span], seed: int, keys: set[tuple[str, int]] = frozenset(), dead_rate: float = 0.0,  # type: ignore[assignment]
                 out_rate: float | None = None, draws: int = 1):
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.pool = pool
        self.seed = seed
        self.dead_rate = dead_rate
        # the share of keys that name a seat out at the cut-off, among keys at moments with a seat out: each
        # distractor of such a moment does so with this chance, drawn per option (none before anyone is
        # out), so whether an option names one is independent of its being the key
        self.out_rate = out_rate
        # a key's turn has served once already: every turn, key or not, appears in at most MAX_REUSE items of
        # one draw (and of the released set: werealign.generation.choose keeps to it across draws)
        self.keys = keys
        self.used = [[int((s.game_id, s.turn_index) in keys) for s in pool] for _ in range(draws)]
        # the same analyzer and weighting as the lexical built-ins (werealign.text.similarity)
        self.vectorizer = TfidfVectorizer(analyzer=char_wb_ngrams, sublinear_tf=True)
        self.matrix = self.vectorizer.fit_transform([s.text for s in pool]) if pool else None
        self.mentions = [len(ht.seats_named(s.text, dict(s.names))) for s in pool]
        self.likeness = PoolCosines([s.text for s in pool], sublinear_tf=True)

    def candidates(self, game: GameLog, moment: Moment, key: str, draw: int = 0) -> list[int]:
        """Spans of other games of the same source style, a seeded shuffle of the SHORTLIST most like the key
        (character TF-IDF, and the roles it names) first. Never the item's own game: its turns before the
        cut-off are shown, and those after it can carry what happened later (a death, an exile, a claim or a
        check not yet announced), which no check can rule out in free text. Each `draw` shuffles the shortlist
        and keeps a different half of it, so draws are different sets of the same kind."""
        spaceless = ht.is_spaceless(key)
        used = self.used[draw]
        style = style_of(game)
        other = [i for i, s in enumerate(self.pool) if s.game_id != game.game_id and s.language == game.language
                 and s.spaceless == spaceless and used[i] < MAX_REUSE]
        # the same transcription style when the dataset has it; else any other game of the language
        eligible = [i for i in other if self.pool[i].style == style] or other
        # spans naming as many roles as the key, when there are enough: keys named a role less often than
        # distractors drawn by likeness alone (no role in 30% of keys, 19% of distractors; key-rank p=0.0002)
        roles = ht.roles_named(key)
        matched = [i for i in eligible if len(self.pool[i].roles) == len(roles)]
        eligible = matched if len(matched) >= SHORTLIST // 2 else eligible
        # and as many seat mentions: a shortlist by likeness favoured spans full of seats ("3号...3号"), 1.9 mentions
        # per distractor against 1.7 per key on the release, and the key was the option with the fewest numerals
        seats = len(ht.seats_named(key, names_of_seats(game.seats)))
        matched = [i for i in eligible if self.mentions[i] == seats]
        eligible = matched if len(matched) >= SHORTLIST // 2 else eligible
        if not eligible:
            return []
        sims = (self.matrix[eligible] @ self.vectorizer.transform([key]).T).toarray().ravel()
        score = [float(sims[n]) + STANCE_WEIGHT * _jaccard(roles, self.pool[i].roles) for n, i in enumerate(eligible)]
        ranked = [eligible[n] for n in sorted(range(len(eligible)), key=lambda n: (-score[n], n))]
        head = ranked[:SHORTLIST]
        rng = random.Random(f"{self.seed}:{moment.game_id}:{moment.turn.index}:shortlist" + (f":{draw}" if draw else ""))
        rng.shuffle(head)
        if draw:
            head = head[: max(1, len(head) // 2)]
        kinds = _phase_kinds(game)
        before = [u for u in game.utterances if max(u.segment_ids) <= moment.cutoff and at_table(u, kinds)]
        # the viewpoint's own words only: matching the whole transcript too made the key the one option
        # unlike it (the transcript attack rose from 20% to 24% on the release) and took 4x longer
        refs = (" ".join(u.text for u in before if u.speaker == moment.seat),)
        return self._like_key(refs, key, head) + ranked[SHORTLIST:]

    def _like_key(self, refs: tuple[str, ...], key: str, idx: list[int]) -> list[int]:
        """`idx` ordered by how close each span's likeness to each reference (the viewpoint's own earlier
        words; character TF-IDF cosine, as the audit's context attacks measure it) is to the key's: a key
        that stands out by sounding like its speaker measures nothing. Ties keep the given order."""
        refs = tuple(r for r in refs if r.strip())
        if not idx or not refs:
            return idx
        gap = [0.0] * len(idx)
        for ref in refs:
            sims = self.likeness.cosines(ref, key, idx)  # tfidf_cosines(ref, [key, *spans], sublinear_tf=True), faster
            gap = [g + abs(sims[n + 1] - sims[0]) for n, g in enumerate(gap)]
        return [idx[n] for n in sorted(range(len(idx)), key=lambda n: (round(gap[n], 2), n))]

    def pick(self, game: GameLog, moment: Moment, item_id: str, key: str, shown: Shown | None = None,
             draw: int = 0, seat_weights: dict[int, float] | None = None) -> tuple[list[dict[str, str]], str | None]:
        """Eight distractors (origin, text, source), or the reason there are not eight. No length is asked
        for: every option is cut by the same procedure (move_spans), so the key's length is one more draw
        from the lengths its distractors come from, and its rank among the nine uniform."""
        shown = shown_for(game, moment) if shown is None else shown
        ranked = self.candidates(game, moment, key, draw)
        # live seats weighed as a real next turn at this table names them (werealign.generation.seat_model, learnt
        # from other games' keys): drawn evenly, distractors named seats alike and unlike the key
        live = [s for s in shown.live if s != moment.seat]
        weights = {s: (seat_weights or {}).get(s, 1.0) for s in live}
        chosen: list[dict[str, str]] = []
        taken: set[int] = set()
        draw_out = random.Random(f"{self.seed}:{item_id}:out" + (f":{draw}" if draw else ""))
        for _ in range(8):
            out = None if self.out_rate is None else bool(shown.dead) and draw_out.random() < self.out_rate
            # the drawn standing first; any, only when no candidate of it is left
            hit = self._first_fit(ranked, taken, weights, moment, item_id, [key, *(c["text"] for c in chosen)], shown, out)
            if hit is None and out is not None:
                hit = self._first_fit(ranked, taken, weights, moment, item_id, [key, *(c["text"] for c in chosen)], shown, None)
            if hit is None:
                return [], f"fewer than eight distractors among {len(ranked)} candidates"
            taken.add(hit[0])
            chosen.append(hit[1])
        for i in taken:
            self.used[draw][i] += 1
        return chosen, None

    def _first_fit(self, ranked: list[int], taken: set[int], live: dict[int, float], moment: Moment, item_id: str, so_far: list[str],
                   shown: Shown, names_out: bool | None = None) -> tuple[int, dict[str, str]] | None:
        for i in ranked:
            if i in taken:
                continue
            span = self.pool[i]
            seed, dead = f"{self.seed}:{item_id}:{span.game_id}:{span.turn_index}", [s for s in shown.dead if s != moment.seat]
            # a distractor drawn to name no seat out gets live seats only; one drawn to name one gets seats
            # out at the keys' rate, and at least one when that drew none
            text = remap(span.text, span, moment.seat, live, seed, dead=dead, dead_rate=0.0 if names_out is False else self.dead_rate, to_names=shown.names)
            if names_out and text is not None and not names_seat_out(text, shown):
                text = remap(span.text, span, moment.seat, live, seed, dead=dead, dead_rate=1.0, to_names=shown.names)
            if text is None or (names_out is not None and names_seat_out(text, shown) != names_out):
                continue
            if foreign_roles(text, shown) or repeats_transcript(text, shown) or repeats_later(text, shown):
                continue
            if repeats_an_option(text, so_far):  # so_far: the key and the distractors kept, each checked as it came
                continue
            return i, {"origin": ORIGIN, "text": text, "source": f"{span.game_id}#{span.turn_index}"}
        return None


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


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
    # minimal pairs draw no seats of other games' turns: the seat model (five fits) is for the human-voiced draw only
    seat_weights = {} if config.minimal else moment_weights(
        [(m.game_id, m.turn.index, m.seat, key, shown, ds.games[m.game_id].language) for m, key, shown in keyed], config.seed)
    # several candidate distractor sets per moment; the learned ensemble, fitted on other games, keeps one
    drawn: list[tuple[Moment, list[SpeechItem]]] = []
    for m, key, shown in keyed:
        game = ds.games[m.game_id]
        uid = item_id_of(m).replace("-hum-", "-min-") if config.minimal else item_id_of(m)
        group, reasons = [], []
        sets = (_minimal(game, m, key, shown, f"{config.seed}:{uid}", role_rates, draws) if config.minimal
                else [picker.pick(game, m, uid, key, shown, d, seat_weights[(m.game_id, m.turn.index)]) for d in range(draws)])
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
            negatives, why = picker.pick(ds.games[m.game_id], m, drawn[n][1][0].item_id, key, shown, d, seat_weights[(m.game_id, m.turn.index)])
            if why is None:
                out.append(_item(ds.games[m.game_id], m, drawn[n][1][0].item_id, key, negatives, config))
        return out

    chosen = choose([g for _, g in drawn], shown_at, seed=config.seed, max_reuse=None if config.minimal else MAX_REUSE,
                    key_turns=[f"{m.game_id}#{m.turn.index}" for m, _, _ in keyed], redraw=None if config.minimal else redraw)
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
