"""The log of a game in play, kept as a werealign game log from the first line on.

Every table line is one utterance of one segment; events are anchored to the segment at which they
became known, so the context builder (werealign.game.visibility) can show each seat exactly what it
perceived so far. Agents only ever see `snapshot()` through that builder: the arena has no second
notion of who knows what.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from werealign.arena.board import Board
from werealign.render.lines import rules_summary
from werealign.schema import GameLog
from werealign.schema.models import Audience, Event, Mvp, MvpVote, Phase, Provenance, RoleCount, Rules, Segment, SeatInfo, Utterance

SECONDS_PER_TURN = 10.0  # arena games have no clock; times only need to increase with the segments
WIN_TEXT = {
    "parity": "The village wins when every werewolf is out; the werewolves win when they are as many as the other players.",
    "side_elimination": "The village wins when every werewolf is out; the werewolves win when every villager or every "
                        "player with a special role is out.",
}


def rules_for(board: Board, game_id: str, language: str) -> Rules:
    counts = Counter(board.spec.roles)
    composition = [RoleCount(role=r, faction=board.faction(r), count=counts[r]) for r in sorted(counts, key=board.catalogue.order)]
    special = [rc.role for rc in composition if (role := board.catalogue.get(rc.role)) is not None and role.is_god]
    rules = Rules(text=None, variant="-".join(special) or board.name, composition=composition,
                  win_condition="side_elimination" if board.spec.win == "side_elimination" else "other", has_sheriff=False,
                  declared_roles=board.spec.declared_roles)
    probe = GameLog(game_id=game_id, language=language, provenance=Provenance(source="arena"), rules=rules,
                    seats=[SeatInfo(seat=1, role="villager", faction="good")],
                    phases=[Phase(id="night-1", kind="night", day=1, start=0, end=0)], utterances=[])
    summary = rules_summary(probe).splitlines()
    body = [ln for ln in summary if not ln.startswith("There is no sheriff")][:-1]  # our own win line instead
    words = {"exiled": " Exiled players give last words.", "exiled+first-night": " Exiled players and the first night's "
             "victims give last words.", "none": ""}[board.spec.last_words]
    vote = ("Each day the players debate, then vote to exile one player: the most votes goes; a tie is voted "
            "again between the tied players, and a second tie exiles nobody." + words)
    return rules.model_copy(update={"text": "\n".join([*body, WIN_TEXT[board.spec.win], vote, "There is no sheriff."])})


class Recorder:
    def __init__(self, game_id: str, board: Board, roles: list[str], language: str, provenance: Provenance):
        self.game_id = game_id
        self.language = language
        self.provenance = provenance
        self.rules = rules_for(board, game_id, language)
        self.seats = [SeatInfo(seat=i + 1, role=r, faction=board.faction(r)) for i, r in enumerate(roles)]
        self.phases: list[dict[str, Any]] = []
        self.utterances: list[Utterance] = []
        self.events: list[Event] = []
        self._cache: GameLog | None = None

    # ------------------------------------------------------------------ writing
    @property
    def phase(self) -> str:
        return self.phases[-1]["id"]

    @property
    def last_segment(self) -> int:
        return len(self.utterances) - 1

    def begin(self, kind: str, day: int) -> str:
        pid = f"{kind}-{day}"
        start = len(self.utterances) * SECONDS_PER_TURN
        self.phases.append({"id": pid, "kind": kind, "day": day, "start": start, "end": start})
        return pid

    def say(self, speaker: int | str, text: str, audience: Audience | None = None) -> int:
        seg = len(self.utterances)
        start, end = seg * SECONDS_PER_TURN, seg * SECONDS_PER_TURN + SECONDS_PER_TURN - 1
        text = text.strip() or "(says nothing)"
        self.utterances.append(Utterance(index=seg, segment_ids=[seg], start=start, end=end, phase=self.phase, speaker=speaker,
                                         text=text, segments=[Segment(id=seg, start=start, end=end, text=text)], audience=audience))
        self.phases[-1]["end"] = end
        self._cache = None
        return seg

    def event(self, kind: str, audience: Audience, segment: int | None = None, **fields: Any) -> Event:
        ev = Event(kind=kind, phase=self.phase, segment_id=self.last_segment if segment is None else segment, audience=audience, **fields)
        self.events.append(ev)
        self._cache = None
        return ev

    # ------------------------------------------------------------------ reading
    def snapshot(self) -> GameLog:
        """The game so far (cached until the next line or event)."""
        if self._cache is None:
            self._cache = self.build(None, None)
        return self._cache

    def build(self, winner: str | None, mvp: Mvp | None) -> GameLog:
        return GameLog(game_id=self.game_id, language=self.language, provenance=self.provenance, rules=self.rules, seats=self.seats,
                       phases=[Phase(**p) for p in self.phases], utterances=list(self.utterances), events=list(self.events),
                       mvp=mvp, winner=winner)


def mvp_votes(votes: list[tuple[str, int | None, int, int]]) -> list[MvpVote]:
    """(phase, target, cut-off segment, round) of one seat's ballots as the log's MVP votes."""
    return [MvpVote(phase=p, target=t, cutoff_segment=c, round=r if r > 1 else None) for p, t, c, r in votes]
