"""`werealign generate DATASET --negatives keys --out DIR`: a dataset's own speech items, every dimension, with
distractors that are the keys of its other items (issue 43), no model.

The release's items (RI, SJ, DR, PS, CT) are answered from their wording: the key was written one way and the
distractors another (a character n-gram learner, trained on other games, picks the key 90% of the time). Here
each item keeps its question and its key; its eight distractors are keys of items of the SAME dimension and
language from OTHER games, their seats renumbered into this game (werealign.generation.human_text.remap: the
source's viewpoint becomes this viewpoint, every other seat a distinct seat of this game). Every option is then
a key, written by the same hand for the same kind of question: each text is a key in one item and a distractor
in others, so its wording says nothing about which it is here.

What a renumbered key could still tell, and how each is matched to the keys' own rate:
- seats named in the question (the key answers it, so it names them): each renumbered seat is one of the
  question's with the keys' own probability (`question_rate`, the share of seats keys name that their question
  names), else another live seat; a seat out at the cut-off at the keys' own rate (`dead_rate`);
- the question's words: sources answering the questions most like the item's are drawn (the SHORTLIST nearest),
  and the ensemble reads each option's likeness to the question;
- the roles the question gives the viewpoint: sources whose question names the same roles come first;
- a role the board lacks, the shown transcript repeated, a later turn of the game repeated (the future-option
  check): such a distractor is passed over.

Half the eight (DONORS_PER_ITEM) are keys of donor items, which are not released (a text that is a key nowhere
else would otherwise be the key), and the key's rank by likeness to its question is a uniform draw (Drawer.draw).
`draws` candidate sets (6) are drawn per item (seeded) from the eligible keys; the learned ensemble
(werealign.shortcuts.ensemble), fitted on the other games' candidates only, keeps the least predictable set it does
not answer (werealign.generation.choose); an item whose every set it answers is dropped (dropped.jsonl).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

from werealign.dataset import Dataset
from werealign.generation import human_text as ht
from werealign.generation.filters import repeats_an_option
from werealign.generation.human_shown import Shown, foreign_roles, repeats_later, repeats_transcript, shown_for
from werealign.schema import ItemProvenance, Option, SpeechItem
from werealign.text.seat_names import names_of_seats
from werealign.text.similarity import tfidf_cosines

METHOD = "key-swap/1"
ORIGIN = "imported"  # another item's key, imported as written: the same hand as the key
# Every distractor the key of an item that is also in the set would be told by memory: an attacker holding the
# other games' items sees each distractor's text as a key there, and never the key's (its item is held out). So
# DONORS_PER_ITEM of the eight come from donors, items whose keys serve as distractors only (never released as
# items): a text that is a key nowhere else is then the key or one of them. Donors are the share DONORS_PER_ITEM / 9 of
# the items of each dimension, so that every text, donor or not, appears in USES items (a recipient's key once
# as its key): its count tells nothing either.
DONORS_PER_ITEM = 4
USES = 9 - DONORS_PER_ITEM + 1  # a text's uses at the balance donors() keeps (9 - DONORS_PER_ITEM), and one of slack
SHORTLIST = 40  # of the keys answering the questions most like the item's, the distractors are drawn


@dataclass(frozen=True)
class Source:
    item_id: str
    game_id: str
    dimension: str
    language: str
    viewpoint: int | None
    text: str  # its key
    question_roles: frozenset[str]
    names: tuple = ()  # (seat, its names) of the source game: a seat named by name is renamed as a number is renumbered

    @property
    def speaker(self) -> int:  # read by human_text.remap: the source's viewpoint becomes the item's
        return self.viewpoint if self.viewpoint is not None else -1


def donors(items: list[SpeechItem], seed: int) -> set[str]:
    """The donors' item ids: a seeded DONORS_PER_ITEM / 9 of the items of each dimension and language. With r
    recipients and d donors, a donor's key serves DONORS_PER_ITEM * r / d times and a recipient's 1 + (8 -
    DONORS_PER_ITEM) times: equal at this share."""
    groups: dict[tuple[str, str], list[str]] = {}
    for it in items:
        groups.setdefault((it.dimension, it.language), []).append(it.item_id)
    out: set[str] = set()
    for (dim, lang), ids in sorted(groups.items()):
        ids = sorted(ids)
        random.Random(f"{seed}:{dim}:{lang}:donors").shuffle(ids)
        out.update(ids[: round(len(ids) * DONORS_PER_ITEM / 9)])
    return out


def key_text(item: SpeechItem) -> str:
    return next(o.text for o in item.options if o.key == item.answer)


def sources_of(ds: Dataset) -> list[Source]:
    out = []
    for it in ds.speech:
        game = ds.games.get(it.game_id)
        names = tuple(sorted(names_of_seats(game.seats).items())) if game is not None else ()
        out.append(Source(it.item_id, it.game_id, it.dimension, it.language, it.viewpoint_seat, key_text(it),
                          ht.roles_named(it.question), names))
    return out


def rates(ds: Dataset) -> tuple[float, float]:
    """(question_rate, dead_rate) of the keys: the share of seats a key names (other than its viewpoint's) that its
    question names, and that are out at its cut-off."""
    from werealign.game.derive import alive_at

    in_q = out = n = 0
    for it in ds.speech:
        game = ds.games.get(it.game_id)
        if game is None:
            continue
        names = names_of_seats(game.seats)
        seats = {s.seat for s in game.seats}
        named = [s for s in ht.seats_named(key_text(it), names) if s != it.viewpoint_seat and s in seats]
        asked = set(ht.seats_named(it.question, names))
        live = set(alive_at(game, it.cutoff_segment))
        in_q += sum(s in asked for s in named)
        out += sum(s not in live for s in named)
        n += len(named)
    return in_q / max(1, n), out / max(1, n)


class Drawer:
    """Candidate distractor sets for the items of a run."""

    def __init__(self, ds: Dataset, seed: int, question_rate: float, dead_rate: float, draws: int = 1):
        self.ds = ds
        self.seed = seed
        self.question_rate = question_rate
        self.dead_rate = dead_rate
        self.pool = sources_of(ds)
        self.questions = {it.item_id: it.question for it in ds.speech}
        self.donors = donors(ds.speech, seed)
        # uses of each key per draw (a recipient's key has served once, as its key): at most USES
        self.used = [Counter({s.item_id: int(s.item_id not in self.donors) for s in self.pool}) for _ in range(draws)]

    def eligible(self, item: SpeechItem) -> list[Source]:
        """Keys of the same dimension and language from other games, those answering the questions most like this
        one first (character TF-IDF; the SHORTLIST nearest, then the rest): a key echoes its question's words, and
        so do answers to like questions. Among those, the ones whose question gives the viewpoint the same roles
        first (when there are at least eight)."""
        same = [s for s in self.pool if s.game_id != item.game_id and s.dimension == item.dimension and s.language == item.language]
        if same:
            sims = tfidf_cosines(item.question, [self.questions[s.item_id] for s in same])
            same = [same[n] for n in sorted(range(len(same)), key=lambda n: (-round(sims[n], 6), n))]
        roles = ht.roles_named(item.question)
        matched = [s for s in same if s.question_roles == roles]
        return matched + [s for s in same if s.question_roles != roles] if len(matched) >= 8 else same

    def draw(self, item: SpeechItem, shown: Shown, draw: int) -> tuple[list[tuple[str, Source]], str | None]:
        """Eight (renumbered text, source), or why there are not eight."""
        me = item.viewpoint_seat if item.viewpoint_seat is not None else -1
        live = [s for s in shown.live if s != me]
        asked = {s for s in ht.seats_named(item.question, shown.names) if s in live}
        rest = [s for s in live if s not in asked]
        # a renumbered seat is one the question names with the keys' own probability
        weights = ({s: self.question_rate / len(asked) for s in asked} if asked else {}) | \
                  ({s: (1 - self.question_rate if asked else 1.0) / len(rest) for s in rest} if rest else {})
        weights = {s: w for s, w in weights.items() if w > 0} or dict.fromkeys(live, 1.0)
        dead = [s for s in shown.dead if s != me]
        rng = random.Random(f"{self.seed}:{item.item_id}:{draw}")
        ranked = [s for s in self.eligible(item) if self.used[draw][s.item_id] < USES]
        # each draw a seeded shuffle of the SHORTLIST nearest of each kind (so draws differ), the least used first (so
        # every text ends near the same count: a key used less often than its distractors would be the rarest text),
        # then the rest in order
        order = []
        for donor in (True, False):
            part = [s for s in ranked if (s.item_id in self.donors) == donor]
            head = part[:SHORTLIST]
            rng.shuffle(head)
            head.sort(key=lambda s: self.used[draw][s.item_id])
            order.append(head + part[SHORTLIST:])
        want = {True: DONORS_PER_ITEM, False: 8 - DONORS_PER_ITEM}
        key = key_text(item)
        # The key answers its own question and echoes its words more than answers to other questions do: the key's rank
        # by likeness to the question is made a uniform draw. Per item (the same for every draw, so the ensemble's
        # choice among draws cannot bend it) a target rank t of nine; the set holds t distractors less like the question
        # than the key and 8 - t more like it. A set that cannot realise it is not drawn (filling from the other side
        # left the key the most like its question in 17 of 59 invented items: uniformity needs the drop).
        like = _likeness(item.question, [key, *(s.text for s in ranked)])
        key_like = like(key)
        # an item enters only when each of the nine ranks is realisable (eight candidates on each side): dropping the
        # sets whose own drawn rank fails would keep the ranks the pool allows, not a uniform draw
        sides = Counter(like(s.text) > key_like for s in ranked)
        if min(sides[True], sides[False]) < 8:
            return [], (f"not every rank by likeness to the question is realisable ({sides[True]} keys more like it, "
                        f"{sides[False]} less like it; eight of each needed)")
        target = random.Random(f"{self.seed}:{item.item_id}:question-rank").randrange(9)
        room = {False: target, True: 8 - target}  # side (more like the question than the key) -> distractors still wanted
        chosen: list[tuple[str, Source]] = []
        texts = [key]
        for src in order[0] + order[1]:
            if want[src.item_id in self.donors] == 0 or any(src is c for _, c in chosen):
                continue
            text = ht.remap(src.text, src, me, weights, f"{self.seed}:{item.item_id}:{src.item_id}:{draw}", dead=dead,
                            dead_rate=self.dead_rate, to_names=shown.names)
            if text is None or foreign_roles(text, shown) or repeats_transcript(text, shown) or repeats_later(text, shown):
                continue
            side = like(text) > key_like
            if room[side] == 0:
                continue
            if repeats_an_option(text, texts):  # the key and the distractors kept, each checked as it came
                continue
            chosen.append((text, src))
            texts.append(text)
            want[src.item_id in self.donors] -= 1
            room[side] -= 1
            if len(chosen) == 8:
                self.used[draw].update(c.item_id for _, c in chosen)
                return chosen, None
        if room[True] or room[False]:
            return [], (f"the key's drawn rank by likeness to the question ({target + 1} of 9) is not realised: "
                        f"{room[True]} more like it and {room[False]} less like it wanted")
        return [], (f"fewer than {DONORS_PER_ITEM} donors' and {8 - DONORS_PER_ITEM} other items' usable keys of dimension "
                    f"{item.dimension} in other games ({len(ranked)} eligible)")


def _likeness(question: str, texts: list[str]):
    """text -> its character TF-IDF cosine with the question (idf fitted on the question and `texts`, as the
    ensemble's `question` statistic measures it on an item's nine options)."""
    return _fitted_likeness(question, tuple(texts))


@lru_cache(maxsize=8)  # an item's draws mostly see the same candidates (its keys not yet used up): one fit for them all
def _fitted_likeness(question: str, texts: tuple[str, ...]):
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(analyzer=_grams, sublinear_tf=False).fit([question, *texts])
    q = vec.transform([question])
    # `texts` in one transform (a row's value does not depend on the other rows), each other text once: draw() asks
    # for every candidate's likeness once per item and again as it picks; one transform call each cost ~8 ms
    known = dict(zip(texts, (vec.transform(texts) @ q.T).toarray()[:, 0].tolist())) if texts else {}

    def like(text: str) -> float:
        if text not in known:
            known[text] = float((vec.transform([text]) @ q.T).toarray()[0, 0])
        return known[text]

    return like


@lru_cache(maxsize=8192)  # a key is a candidate of many items: its grams are read once, not once per fit and transform
def _grams(text: str) -> tuple[str, ...]:
    from werealign.text.similarity import char_wb_ngrams

    return tuple(char_wb_ngrams(text))


def candidate(item: SpeechItem, picked: list[tuple[str, Source]], seed: int, draw: int) -> SpeechItem:
    """The item with its distractors replaced, in a seeded order."""
    pool = [(key_text(item), "ground_truth", None), *((t, ORIGIN, s) for t, s in picked)]
    order = list(range(len(pool)))
    random.Random(f"{seed}:{item.item_id}:order:{draw}").shuffle(order)
    options = [Option(key="ABCDEFGHI"[i], text=pool[j][0], origin=pool[j][1]) for i, j in enumerate(order)]  # type: ignore[arg-type]
    ref: dict[str, str | int] = {"method": METHOD, "from_item": item.item_id,
                                 **{f"option_{'ABCDEFGHI'[i]}": f"{pool[j][2].game_id}#{pool[j][2].item_id}"  # type: ignore[union-attr]
                                    for i, j in enumerate(order) if j}}
    return item.model_copy(update={
        "item_id": f"{item.item_id}-ks", "options": options, "answer": "ABCDEFGHI"[order.index(0)], "explanation": None,
        "provenance": ItemProvenance(prompt_version=METHOD, seed=seed, review="unreviewed", source="werealign generate --negatives keys",
                                     source_ref=ref)})


def build_keyswap(ds: Dataset, game_ids: set[str] | None, seed: int, draws: int, limit: int | None = None) -> tuple[list[SpeechItem], list[dict]]:
    """The items and the dropped (item, reason) rows."""
    from werealign.shortcuts.context import shown_to
    from werealign.generation.choose import choose

    question_rate, dead_rate = rates(ds)
    drawer = Drawer(ds, seed, question_rate, dead_rate, max(1, draws))
    todo = [it for it in ds.speech if it.game_id in ds.games and (game_ids is None or it.game_id in game_ids)
            and it.item_id not in drawer.donors][:limit]
    dropped: list[dict] = []
    groups: list[tuple[SpeechItem, list[SpeechItem]]] = []
    for it in todo:
        shown = shown_for(ds.games[it.game_id], SimpleNamespace(seat=it.viewpoint_seat, cutoff=it.cutoff_segment))  # type: ignore[arg-type]
        group, why = [], None
        for d in range(max(1, draws)):
            picked, why = drawer.draw(it, shown, d)
            if picked:
                c = candidate(it, picked, seed, d)
                if all(g.options != c.options for g in group):
                    group.append(c)
        if not group:
            dropped.append({"unit": it.item_id, "game_id": it.game_id, "reason": why})
            continue
        groups.append((it, group))
    shown_at = [shown_to(ds.games[it.game_id], it.viewpoint_seat, it.cutoff_segment) for it, _ in groups]
    chosen = choose([g for _, g in groups], shown_at, seed=seed, max_reuse=USES,
                    key_turns=[f"{it.game_id}#{it.item_id}" for it, _ in groups])
    items = []
    for (it, _group), c in zip(groups, chosen):
        if c.item is None:
            dropped.append({"unit": it.item_id, "game_id": it.game_id, "reason": c.why, "predictability": c.predictability})
            continue
        c.item.provenance.source_ref["predictability"] = str(c.predictability)  # type: ignore[union-attr]
        items.append(c.item)
    return items, dropped


def dimension_counts(items: list[SpeechItem]) -> dict[str, int]:
    return dict(sorted(Counter(it.dimension for it in items).items()))


def run_keyswap(dataset: str | None, out, *, games: tuple[str, ...] = (), seed: int = 0, draws: int = 6, limit: int | None = None) -> tuple[list[SpeechItem], list[dict]]:
    """Writes OUT/generation.json, OUT/dropped.jsonl and OUT/dataset (the games, the new speech items)."""
    from pathlib import Path

    from werealign.dataset import load_dataset, write_dataset
    from werealign.errors import UserError
    from werealign.files import staged_directory, write_json, write_jsonl
    from werealign.files.output_dir import claim_directory
    from werealign.generation.pipeline import CONFIG
    from werealign.tasks import kind_of_model
    from werealign.version import __version__

    out = Path(out)
    ds = load_dataset(Path(dataset) if dataset else None)
    unknown = sorted(set(games) - set(ds.games))
    if unknown:
        raise UserError(f"--games: {', '.join(unknown)} not in {ds.root}")
    if not ds.speech:
        raise UserError(f"{ds.root}: no speech items: --negatives keys rebuilds a dataset's own items")
    chosen = set(games) or None
    items, dropped = build_keyswap(ds, chosen, seed, draws, limit)
    claim_directory(out, command="generate", inputs=[ds.root] if ds.root is not None else [], own=lambda d: (d / CONFIG).is_file())
    write_json(out / CONFIG, {"format": "werealign-generation/1", "werealign": __version__, "negatives": "keys", "method": METHOD,
                              "config": {"dataset": dataset, "games": list(games), "seed": seed, "draws": draws, "limit": limit}})
    write_jsonl(out / "dropped.jsonl", dropped)
    kept_games = [g for gid, g in sorted(ds.games.items()) if chosen is None or gid in chosen]
    with staged_directory(out / "dataset", overwrite=True) as stage:
        write_dataset(stage, name=f"{ds.manifest.name}-keys", version=f"{ds.manifest.version}+keys.{seed}", licence=ds.manifest.licence,
                      games=kept_games, items={kind_of_model(SpeechItem): items}, osr={},
                      description="The dataset's speech items, each with its question and key, and as distractors the keys of "
                                  "items of the same dimension from other games (werealign generate --negatives keys); unreviewed.",
                      source=ds.manifest.source)
    return items, dropped
