"""Distractors of human-voiced items (werealign.generation.human): other games' move spans, renumbered onto the
item's seats, weighed so that the key sits among them where a random option sits.

Candidates are drawn (seeded) from the SHORTLIST spans most similar to the key by character TF-IDF, ordered by how
close their likeness to the viewpoint's own words is to the key's (`Picker.candidates`); the first POOL that pass
every filter (no role the board lacks, no repeat of the shown transcript or of a later turn of the item's game, no
near-duplicate option; seats renumbered, a seat out named at the keys' own rate) are the moment's pool
(`Picker.candidate_pool`). A draw weighs SUBSETS sets of eight from the pool on every statistic the audit ranks and
keeps the one whose key sits where a drawn option sits (werealign.generation.rankmatch): drawing likeness to the key
made the key the centroid of its distractors and the most like the last turns, which no single filter undid
(issue 43: the key-rank test failed on centroid and transcript likeness).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from werealign.generation import human_text as ht
from werealign.generation import rankmatch
from werealign.generation.human_shown import Shown, foreign_roles, names_seat_out, repeats_later, repeats_transcript, shown_for
from werealign.generation.human_text import remap
from werealign.render.lines import seat_label
from werealign.render.phrases import say_now
from werealign.schema import GameLog, Utterance
from werealign.shortcuts.checks import duplicate_option_pairs
from werealign.shortcuts.context import Shown as ContextShown
from werealign.text.similarity import char_wb_ngrams, tfidf_cosines

if TYPE_CHECKING:
    from werealign.generation.human import Moment, Span

ORIGIN = "human_utterance"
MAX_REUSE = 3  # a turn in at most this many items (key included): more, and a recurrence attack reads the keys
SHORTLIST = 400  # hard negatives: drawn (seeded) from the 400 most similar; 40 made the key the centroid (bench/human_items.py)
STANCE_WEIGHT = 0.1
SEAT_TALK_WEIGHT = 3  # extra draws of a live seat per time the viewpoint named it before the cut-off
POOL = 24  # candidate distractors per moment that sets of eight are drawn from
SUBSETS = 64  # sets of eight weighed per draw
MAX_GAP = 80  # a kept set's key at most this many rank steps (summed over the 17 statistics) from its target (40 kept 100 of 281)


def at_table(u: Utterance, kinds: dict[str, str]) -> bool:
    """A player's turn the whole table heard: not a team's chat, not off-table talk in a night phase
    (werealign.schema Utterance.audience). Only such turns are asked about or used as distractors."""
    if not isinstance(u.speaker, int):
        return False
    return u.audience.kind == "everyone" if u.audience is not None else kinds.get(u.phase) != "night"


def style_of(game: GameLog) -> str:
    """The source's transcription style: its show and season (the file it came from when neither is known)."""
    p = game.provenance
    if p.show is not None or p.season is not None:
        return f"{p.show}/{p.season}"
    return p.source or game.game_id


def phase_kinds(game: GameLog) -> dict[str, str]:
    return {p.id: p.kind for p in game.phases}


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
        self._pools: dict[str, tuple[list[tuple[int, dict[str, str]]], ContextShown, str]] = {}
        # the same analyzer and weighting as the lexical built-ins (werealign.text.similarity)
        self.vectorizer = TfidfVectorizer(analyzer=char_wb_ngrams, sublinear_tf=True)
        self.matrix = self.vectorizer.fit_transform([s.text for s in pool]) if pool else None

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
        kinds = phase_kinds(game)
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
        texts = [key, *(self.pool[i].text for i in idx)]
        gap = [0.0] * len(idx)
        for ref in refs:
            sims = tfidf_cosines(ref, texts, sublinear_tf=True)
            gap = [g + abs(sims[n + 1] - sims[0]) for n, g in enumerate(gap)]
        return [idx[n] for n in sorted(range(len(idx)), key=lambda n: (round(gap[n], 2), n))]

    def pick(self, game: GameLog, moment: Moment, item_id: str, key: str, shown: Shown | None = None,
             draw: int = 0) -> tuple[list[dict[str, str]], str | None]:
        """Eight distractors (origin, text, source), or the reason there are not eight. No length is asked for:
        every option is cut by the same procedure (move_spans). Of SUBSETS sets of eight drawn from the moment's
        candidates (`candidate_pool`, turns this draw has not used MAX_REUSE times), the one whose key sits
        nearest where a drawn option of a drawn set sits on every statistic the audit ranks is kept
        (werealign.generation.rankmatch): the key's rank on each is then a random option's. A key at an end of
        every set on one statistic, or never within MAX_GAP rank steps of its target, gives no item."""
        shown = shown_for(game, moment) if shown is None else shown
        pool, ctx, question = self.candidate_pool(game, moment, item_id, key, shown)
        used = self.used[draw]
        free = [n for n, (i, _) in enumerate(pool) if used[i] < MAX_REUSE]
        if len(free) < 8:
            return [], f"fewer than eight distractors among {len(free)} candidates"
        rng = random.Random(f"{self.seed}:{item_id}:subsets" + (f":{draw}" if draw else ""))
        subsets: list[tuple[int, ...]] = []
        for _ in range(4 * SUBSETS):
            sub = tuple(sorted(rng.sample(free, 8)))
            if sub not in subsets:
                subsets.append(sub)
            if len(subsets) >= SUBSETS:
                break
        found = rankmatch.ranges([[key, *(pool[n][1]["text"] for n in sub)] for sub in subsets], ctx, question)
        at_end = rankmatch.ends(found)
        if at_end:
            return [], f"the key is above or below every other option in every candidate set on {', '.join(at_end)}"
        g, gap = rankmatch.keep(found, rng)
        if gap > MAX_GAP:
            return [], f"no candidate set puts the key where a drawn option sits ({gap} ranks off, over {MAX_GAP})"
        for n in subsets[g]:
            used[pool[n][0]] += 1
        return [pool[n][1] for n in subsets[g]], None

    def candidate_pool(self, game: GameLog, moment: Moment, item_id: str, key: str,
                       shown: Shown) -> tuple[list[tuple[int, dict[str, str]]], ContextShown, str]:
        """Up to POOL distractors for the moment (pool index, option), in `candidates`' order, each passing every
        filter and no near-duplicate of the key or of another; with what the prompt shows (as the audit reads it) and
        the question. Built once per moment (each draw and redraw weighs sets of it); a turn every draw has used
        MAX_REUSE times is passed over."""
        hit = self._pools.get(item_id)
        if hit is not None:
            return hit
        from werealign.shortcuts.context import shown_to

        ranked = [i for i in self.candidates(game, moment, key) if min(u[i] for u in self.used) < MAX_REUSE]
        live = [s for s in shown.live if s != moment.seat]
        # seats the viewpoint has been talking about are drawn more often: otherwise the key alone would
        # name them, and matching options to the viewpoint's own turns (werealign/own-style) would find it
        named = Counter(s for u in game.utterances if u.speaker == moment.seat and max(u.segment_ids) <= moment.cutoff
                        for s in ht.seats_named(u.text, shown.names) if s in live)
        weights = {s: 1 + SEAT_TALK_WEIGHT * named[s] for s in live}
        chosen: list[tuple[int, dict[str, str]]] = []
        taken: set[int] = set()
        draw_out = random.Random(f"{self.seed}:{item_id}:out")
        for _ in range(POOL):
            out = None if self.out_rate is None else bool(shown.dead) and draw_out.random() < self.out_rate
            # the drawn standing first; any, only when no candidate of it is left
            so_far = [key, *(c["text"] for _, c in chosen)]
            found = self._first_fit(ranked, taken, weights, moment, item_id, so_far, shown, out)
            if found is None and out is not None:
                found = self._first_fit(ranked, taken, weights, moment, item_id, so_far, shown, None)
            if found is None:
                break
            taken.add(found[0])
            chosen.append(found)
        language = game.language
        hit = chosen, shown_to(game, moment.seat, moment.cutoff), say_now(seat_label(moment.seat, language), language)
        self._pools[item_id] = hit
        return hit

    def _first_fit(self, ranked: list[int], taken: set[int], live: dict[int, int], moment: Moment, item_id: str, so_far: list[str],
                   shown: Shown, names_out: bool | None = None) -> tuple[int, dict[str, str]] | None:
        from werealign.schema import Option

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
            # no (near-)duplicate of the key or of another candidate: any eight of them make an item
            new = Option(key="B", text=text, origin="imported")
            if any(any(duplicate_option_pairs([Option(key="A", text=t, origin="imported"), new])) for t in so_far):
                continue
            return i, {"origin": ORIGIN, "text": text, "source": f"{span.game_id}#{span.turn_index}"}
        return None


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0

