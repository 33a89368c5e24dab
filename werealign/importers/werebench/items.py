"""WereBench items: convert the released speech items, derive the VA and OI decision items.

Speech items keep their original key (category, id) in `provenance.source_ref`; their id is
`werebench-<dim>-<id:04d>` (ids repeat across categories, never within one).

A few speech items are addressed to a group rather than one seat (role "the good players at the
table", "the players at the table"). When neither the role nor the question names a seat, they
become observer items (viewpoint_seat null: public information only), recorded as a repair. A
label addressed to the wolves stays a drop: a wolf knows its teammates, so there is no seatless
wolf view that hides nothing and invents nothing.

VA and OI items come from the MVP annotations through werealign.game.derive (one implementation
for the importer, `werealign derive`, the sample and `annotate build` games).
"""

from __future__ import annotations

import re

from pydantic import ValidationError

from werealign.files import describe_validation_error
from werealign.game.derive import derive_decision_items as derive
from werealign.importers.report import ImportReport
from werealign.importers.werebench.source import ITEMS_FILE, RawQuestion, unknown_fields
from werealign.importers.toolkit.exits import seats_mentioned
from werealign.importers.werebench.text import seat_of_label
from werealign.schema import OPTION_KEYS, GameLog, ItemProvenance, OpponentItem, Option, SpeechItem, VoteItem

CATEGORY_DIMENSION = {
    "Role Inference": "RI",
    "Strategic Judgment": "SJ",
    "Deception Reasoning": "DR",
    "Social Interaction": "PS",  # the release's name for the paper's Persuasive Statements
    "Persuasive Statements": "PS",
    "Counterfactual Trade-off": "CT",
}
_REFERENCE = re.compile(r"^data/Season_(\d+)/(\d+)\.json$")
_YOU_ARE = re.compile(r"你是\s*[^\d，,。？?]{0,6}?\s*(\d{1,2})\s*号")
# Role labels addressed to the table rather than a seat: "好人" (the good players) or "玩家"/"场上"
# (the players / the table). Any mention of wolves rules the observer reading out.
_GROUP_LABEL = re.compile(r"好人|玩家|场上")
_WOLF_LABEL = re.compile(r"狼")


def speech_item_id(dim: str, qid: int) -> str:
    return f"werebench-{dim.lower()}-{qid:04d}"


def convert_speech_items(categories, games: dict[str, GameLog], report: ImportReport) -> list[SpeechItem]:
    items: list[SpeechItem] = []
    seen: set[tuple[str, int]] = set()
    made: dict[str, str] = {}  # item id -> the key of the converted item that has it
    for ci, cat in enumerate(categories):
        dim = CATEGORY_DIMENSION.get(cat.categoryName)
        report.add_unknown_fields(unknown_fields(cat, f"categories[{ci}]", nested=False), source_file=ITEMS_FILE, item=cat.categoryName)
        for qi, q in enumerate(cat.questions):
            key = f"{cat.categoryName}#{q.id}"
            field = f"categories[{ci}].questions[{qi}]"
            report.add_unknown_fields(unknown_fields(q, field), source_file=ITEMS_FILE, item=key)

            def note(kind: str, code: str, f: str | None, what: str, why: str, game: str | None = None) -> None:
                report.add(kind, code, source_file=ITEMS_FILE, game=game, item=key, field=f, what=what, why=why)  # type: ignore[arg-type]

            if dim is None:
                note("dropped", "unknown_category", f"categories[{ci}].categoryName", f"category '{cat.categoryName}' is none of the five dimensions", "item dropped")
                continue
            if (cat.categoryName, q.id) in seen:
                note("dropped", "duplicate_item_key", f"{field}.id", f"second item with key {key}", "item dropped: the key must identify one item")
                continue
            seen.add((cat.categoryName, q.id))
            # Two category names can mean one dimension ('Social Interaction' and 'Persuasive Statements'
            # are both PS): the same id under both would write two items with one id.
            item_id = speech_item_id(dim, q.id)
            if item_id in made:
                note("dropped", "duplicate_item_id", f"{field}.id", f"{key} would be item {item_id}, already made from {ITEMS_FILE} {made[item_id]}", "item dropped: item ids must be unique; the first one is kept")
                continue
            try:
                item = _speech_item(q, dim, key, field, games, note)
            except ValidationError as e:  # a value our schema cannot hold that no rule anticipated
                note("dropped", "item_unusable", field, f"{key}", f"does not fit the speech item schema: {describe_validation_error(e)}")
                continue
            if item is not None:
                made[item.item_id] = key
                items.append(item)
                note("converted", "speech_item", field, f"{key} ({q.reference}, cut-off {q.utterance_id}, viewpoint '{q.role}')", f"items/speech.jsonl {item.item_id}", game=item.game_id)
    return sorted(items, key=lambda i: i.item_id)


def _speech_item(q: RawQuestion, dim: str, key: str, field: str, games: dict[str, GameLog], note) -> SpeechItem | None:
    m = _REFERENCE.match(q.reference.strip())
    if not m:
        note("dropped", "bad_reference", f"{field}.reference", f"'{q.reference}' is not data/Season_N/NN.json", "item dropped: no game to ask it in")
        return None
    game_id = f"pandakill-s{int(m.group(1))}-{int(m.group(2)):02d}"
    game = games.get(game_id)
    if game is None:
        note("dropped", "game_not_converted", f"{field}.reference", f"'{q.reference}' was not converted", "item dropped: its game is missing", game=game_id)
        return None
    seats = {s.seat for s in game.seats}
    viewpoint = seat_of_label(q.role)
    observer = False
    if viewpoint is None:
        in_role = seats_mentioned(q.role, max(seats))
        in_text = [int(x) for x in _YOU_ARE.findall(q.text)]
        if len(in_role) == 1:
            viewpoint = in_role[0]
            note("repaired", "viewpoint_label", f"{field}.role", f"'{q.role}' is not a plain seat label", f"viewpoint seat {viewpoint}, the one seat it names", game=game_id)
        elif len(set(in_text)) == 1:
            viewpoint = in_text[0]
            note("repaired", "viewpoint_from_text", f"{field}.role", f"'{q.role}' names no seat", f"viewpoint seat {viewpoint} from the question's own 'you are seat N'", game=game_id)
        elif _GROUP_LABEL.search(str(q.role)) and not _WOLF_LABEL.search(str(q.role)) and not in_role and not in_text:
            observer = True
            note("repaired", "observer_viewpoint", f"{field}.role", f"'{q.role}' addresses the players at the table, not one seat, and the question names no seat",
                 "observer item (viewpoint_seat null): the model sees only public information, no own role or private knowledge", game=game_id)
        else:
            note("dropped", "no_viewpoint_seat", f"{field}.role", f"'{q.role}' names no seat, is not addressed to the table, and the question does not say which seat 'you' are", "item dropped: no viewpoint to ask it from", game=game_id)
            return None
    else:
        stated = _YOU_ARE.search(q.text)
        if stated and int(stated.group(1)) != viewpoint:
            note("warning", "viewpoint_disagrees_with_text", f"{field}.role", f"role says seat {viewpoint}, the question says 'you are seat {stated.group(1)}'", "role kept", game=game_id)
    if not observer and viewpoint not in seats:
        note("dropped", "viewpoint_not_a_seat", f"{field}.role", f"seat {viewpoint} is not in {game_id}", "item dropped", game=game_id)
        return None
    seg_turn = {s: u for u in game.utterances for s in u.segment_ids}
    turn = seg_turn.get(q.utterance_id)
    if turn is None:
        note("dropped", "cutoff_not_in_game", f"{field}.utterance_id", f"segment {q.utterance_id} is in no turn of {game_id}", "item dropped: the cut-off must be a segment of the game", game=game_id)
        return None
    if q.utterance_id != turn.segment_ids[-1] and turn.segments is None:
        note("warning", "cutoff_inside_turn", f"{field}.utterance_id", f"segment {q.utterance_id} is inside the merged turn {turn.segment_ids[0]}-{turn.segment_ids[-1]}", "kept: the turn has no per-segment text, so the context leaves it out", game=game_id)
    gone = None if observer else next((e for e in game.events if e.kind == "elimination" and e.target == viewpoint and e.segment_id < turn.segment_ids[0]), None)
    if gone is not None and turn.speaker != viewpoint:  # a player's own last words are fine
        note("warning", "viewpoint_out_before_cutoff", f"{field}.role", f"viewpoint seat {viewpoint} was announced out ({gone.result}) at segment {gone.segment_id}, before the cut-off turn {turn.segment_ids[0]}-{turn.segment_ids[-1]}", "kept: the question asks a player who has left the game", game=game_id)
    keys = [o.key.strip() for o in q.options]
    if sorted(keys) != list(OPTION_KEYS):
        note("dropped", "bad_options", f"{field}.options", f"option keys {keys}, expected A..I once each", "item dropped: items are 9-way multiple choice", game=game_id)
        return None
    if any(not o.text.strip() for o in q.options):
        empty = [o.key for o in q.options if not o.text.strip()]
        note("dropped", "empty_option", f"{field}.options", f"options {empty} have no text", "item dropped", game=game_id)
        return None
    answer = q.answerKey.strip()
    if answer not in OPTION_KEYS:
        note("dropped", "bad_answer_key", f"{field}.answerKey", f"'{q.answerKey}'", "item dropped: answer must be one of A..I", game=game_id)
        return None
    if not q.text.strip():
        note("dropped", "empty_question", f"{field}.text", "no question text", "item dropped", game=game_id)
        return None
    # Nearly every released item has no explanation: stored as null and counted
    # (counts.speech_without_explanation), not listed item by item, where it would bury the real repairs.
    explanation = (q.explanation or "").strip() or None
    short = (q.text1 or "").strip() or None
    options = sorted(q.options, key=lambda o: o.key.strip())
    return SpeechItem(
        item_id=speech_item_id(dim, q.id),
        game_id=game_id,
        language="zh",
        dimension=dim,
        viewpoint_seat=viewpoint,
        cutoff_segment=q.utterance_id,
        question=q.text,
        question_short=short if short != q.text.strip() else None,
        options=[Option(key=o.key.strip(), text=o.text, origin="imported") for o in options],
        answer=answer,
        explanation=explanation,
        provenance=ItemProvenance(review="imported", source=ITEMS_FILE, source_ref={"category": _category_of(key), "id": q.id}),
    )


def _category_of(key: str) -> str:
    return key.rsplit("#", 1)[0]


def derive_decision_items(game: GameLog, report: ImportReport) -> tuple[list[VoteItem], list[OpponentItem]]:
    """VA and OI items of an imported game (werealign.game.derive), each outcome in the import report."""
    rel = game.provenance.original_file or ""

    def prov(g: GameLog, key: str) -> ItemProvenance:
        return ItemProvenance(review="imported", source=rel, source_ref={"mvp_vote": key, "derived": "werealign import werebench"})

    derived = derive(game, prov)
    for n in derived.notes:
        report.add(n.kind, n.code, source_file=rel, game=game.game_id, item=n.vote, field=f"metadata.MVP.votes.{n.vote}", what=n.what, why=n.why)
    return derived.vote, derived.opponent
