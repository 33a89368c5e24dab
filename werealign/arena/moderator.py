"""The moderator loop: nights (the wolves' chat and kill, role actions), a sheriff election on day 1
where the board has one, days (the night's news, last words, a debate by bidding or in seat order, a
wolf's self-destruct ending the day, the exile vote), until a side wins. Every line is the board's
language (werealign.arena.lines).

Rules follow Werewolf Arena where the board is its (bids 0-4 for the floor; the highest bid speaks, ties
to a seat the last speaker named, then by lot; a majority to exile) and the human games otherwise: the
witch's two potions (one a night, never on herself), the guard's no-repeat protection, the hunter's shot
except when poisoned, the sheriff's 1.5 votes, speaking order and badge, abstention, a tie spoken on by
the tied players and voted again by the others. Everything random is drawn from the game's seed; an
agent only ever sees its seat's view of the log (werealign.arena.record, game.visibility).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from werealign.arena.agents import Action, Agent, Decision, TEXT_KINDS, fallback, mentions
from werealign.arena.board import Board
from werealign.arena.lines import joined, line
from werealign.arena.lovers import heartbreak, winner
from werealign.arena.night import play_night
from werealign.arena.sheriff import Suspended, elect
from werealign.arena.record import Recorder, mvp_votes
from werealign.game.visibility import build_context
from werealign.schema import GameLog
from werealign.game.moves import board_from_rules
from werealign.schema.models import EVERYONE, Audience, Mvp, Provenance

MAX_TEXT = 1200  # characters of one turn kept: a runaway reply must not flood every later prompt


@dataclass
class Played:
    game: GameLog
    trace: list[dict[str, Any]] = field(default_factory=list)  # one row per decision


class Table:
    def __init__(self, board: Board, roles: list[str], agents: dict[int, Agent], game_id: str, seed: int,
                 provenance: Provenance):
        self.board = board
        self.roles = {i + 1: r for i, r in enumerate(roles)}
        self.agents = agents
        self.rec = Recorder(game_id, board, roles, board.spec.language, provenance)
        for agent in agents.values():
            if hasattr(agent, "sit"):  # an LLM agent's solver gets the game so far, as eval's gets the item's game
                agent.sit(self.rec.snapshot)
        self.seed = seed
        self.rng = random.Random(f"table|{seed}|{game_id}")
        self.alive = set(self.roles)
        self.trace: list[dict[str, Any]] = []
        self.day = 0
        self.potions = {"save": True, "poison": True}
        self.sheriff: int | None = None
        self.silenced: int | None = None  # the seat that may not speak today (the silencer elder's last night)
        self.silence_next: int | None = None
        self.charmed: dict[int, int] = {}  # wolf beauty -> tonight's charmed seat
        self.used: set[int] = set()  # seats whose once-a-game skill is spent
        self.revealed: set[int] = set()  # idiots who showed their card
        self.lang = board.spec.language
        self.last_protected: dict[int, int | None] = {}
        self.ballots: dict[int, list[tuple[str, int | None, int, int]]] = {s: [] for s in self.roles}
        self.moves = board_from_rules(board.rules)  # the board's move rules, as decision items read them
        self.suspended: Suspended | None = None  # a sheriff election a campaign self-destruct broke off
        self.used_solo: set[int] = set()  # lone killers who made their kill
        self.swallowed: set[int] = set()  # seats swallowed last night: their exile today is void (the sky dog)
        self.disabled: set[int] = set()  # seats with no night move tonight (they voted the sky dog out)
        self.void = False  # today's exile was void (a swallowed seat): night falls
        self.solo_waited: set[int] = set()  # lone killers whose kill waited a night (alone in the pack)
        self.lovers: list[tuple[int, int]] = []  # linked seats who leave together (werealign.arena.lovers)
        self.witnesses: dict[tuple[int, int], int | None] = {}  # lovers -> their witness
        self.third: set[int] = set()  # seats that switched to a third side

    # ------------------------------------------------------------------ helpers
    def faction(self, seat: int) -> str:
        """The side the seat's card starts on (what a seer's check reads)."""
        return self.board.side(self.roles[seat])

    def side(self, seat: int) -> str:
        """The side the seat plays for now (a link may have moved it to a third side)."""
        return "third" if seat in self.third else self.faction(seat)

    def team(self, seat: int) -> str:
        return self.board.catalogue.get(self.roles[seat]).team or "village"

    def with_action(self, action: str) -> list[int]:
        return [s for s in sorted(self.alive) if (a := self.board.ability(self.roles[s])) is not None and a.action == action]

    def night_actors(self, action: str) -> list[int]:
        """The seats that make this night move tonight (a seat whose move is taken away for the night does not)."""
        return [s for s in self.with_action(action) if s not in self.disabled]

    def ask(self, decision: Decision) -> Action:
        if len(decision.candidates) > 1:
            # Candidates in an order drawn per request (Werewolf Arena shuffles them): a model's preference
            # for the first or lowest seat must not pass for judgement. Seeded: the same game, the same orders.
            order = list(decision.candidates)
            random.Random(f"order|{self.seed}|{self.rec.game_id}|{len(self.trace)}").shuffle(order)
            decision = replace(decision, candidates=tuple(order))
        view = build_context(self.rec.snapshot(), decision.seat, max(self.rec.last_segment, 0))
        act = self.agents[decision.seat].act(view, decision)
        legal = (decision.kind in TEXT_KINDS or (decision.kind == "bid" and act.choice in range(5))
                 or act.choice in decision.candidates or (act.choice is None and decision.none_ok)
                 or (decision.kind == "save" and act.choice in (decision.about, None)))
        if not legal:
            act = Action(**{**fallback(decision, random.Random(f"{self.rec.game_id}|{len(self.trace)}")).__dict__, "failed": True, "key": act.key})
        if decision.kind in TEXT_KINDS:
            act.text = " ".join(act.text.split())[:MAX_TEXT]
        self.trace.append({"day": self.day, "phase": self.rec.phase, "seat": decision.seat, "agent": self.agents[decision.seat].name, "kind": decision.kind,
                           "candidates": list(decision.candidates), "choice": act.choice, "chars": len(act.text),
                           "failed": act.failed, "key": act.key, "estimates": {str(k): v for k, v in sorted(act.estimates.items())},
                           **({"mentioned": decision.mentioned} if decision.kind == "bid" else {}),
                           **({"ratings": {str(k): v for k, v in sorted(act.ratings.items())}} if act.ratings else {}),
                           **({"unreadable_steps": act.unreadable_steps} if act.unreadable_steps else {})})
        return act

    def host(self, text: str, audience: Audience | None = None) -> int:
        return self.rec.say("host", text, audience)

    def line(self, key: str, **values) -> str:
        return line(self.lang, key, **values)

    def say(self, seat: int, kind: str, audience: Audience | None = None, **fields) -> Action:
        """Ask a seat for a turn of talk and put it on the record (a silenced seat's turn is the host's line)."""
        if seat == self.silenced and kind != "wolf_chat":
            self.host(self.line("silenced", seat=seat))
            return Action()
        act = self.ask(Decision(kind, seat, self.day, **fields))
        self.rec.say(seat, act.text or self.line("nothing"), audience)
        return act

    def winner(self) -> str | None:
        """The side that has won (werealign.arena.lovers: a third side changes who can)."""
        return winner(self)

    # ------------------------------------------------------------------ leaving the game
    def leave(self, seat: int, result: str, segment: int | None = None, shot: bool = True, badge: bool = True) -> None:
        """A seat is out: the elimination, then what leaving sets off (the hunter's shot, the badge, the charmed seat)."""
        self.leave_all([(seat, shot)], result, segment, badge)

    def leave_all(self, seats: list[tuple[int, bool]], result: str, segment: int | None = None, badge: bool = True) -> None:
        """Seats out at once (a night's dead: each with whether it may shoot). All of them are out before anyone's
        leaving sets anything off, so a hunter never shoots a seat that died the same night; a seat already out is
        an engine fault, never a second elimination."""
        for seat, _ in seats:
            if seat not in self.alive:
                raise RuntimeError(f"arena engine: seat {seat} would leave the game twice ({result}) in game {self.rec.game_id}")
            self.alive.discard(seat)
            self.rec.event("elimination", EVERYONE, segment=segment, target=seat, result=result)
        for seat, shot in seats:
            if shot:
                self.shoot(seat)
            if badge and seat == self.sheriff:
                self.pass_badge(seat)
            charmed = self.charmed.pop(seat, None)
            if charmed in self.alive:  # the wolf beauty's charmed player leaves with her, with no skill
                seg = self.host(self.line("charmed_dies", seat=charmed))
                self.leave(charmed, "charmed", seg, shot=False)
        heartbreak(self, [seat for seat, _ in seats])  # a lover's partner leaves with them
        for fox in self.with_action("tails"):  # a fox whose last tail went with these deaths leaves at once
            if self.tails_left(fox, set()) <= 0:
                seg = self.host(self.line("tails_lost", seat=fox))
                self.leave(fox, "tails_lost", seg, shot=False)

    def tails_left(self, fox: int, dying: set[int]) -> int:
        """The fox's tails with every seat out (and `dying`) counted: its ability's cost per team, itself aside."""
        a = self.board.ability(self.roles[fox])
        gone = (set(self.roles) - self.alive) | dying
        return a.tails - sum(a.tail_cost.get(self.team(s), 0) for s in gone if s != fox)

    def shoot(self, seat: int) -> None:
        if (a := self.board.ability(self.roles[seat])) is None or a.action != "shoot":
            return
        cands = tuple(t for t in sorted(self.alive) if t != seat)
        t = self.ask(Decision("shoot", seat, self.day, cands, none_ok=True)).choice
        if t is not None:
            seg = self.host(self.line("shoots", actor=seat, target=t))
            self.rec.event("skill_use", EVERYONE, segment=seg, actor=seat, target=t, skill=a.skill or "hunter_shoot")
            self.leave(t, "taken", seg)

    def pass_badge(self, seat: int) -> None:
        """The sheriff leaving passes the badge to a seat still in, or tears it up (then no sheriff)."""
        cands = tuple(sorted(self.alive))
        t = self.ask(Decision("badge", seat, self.day, cands, none_ok=True)).choice if cands else None
        seg = self.host(self.line("badge", actor=seat, target=t) if t is not None else self.line("torn", actor=seat))
        self.rec.event("badge_transfer", EVERYONE, segment=seg, actor=seat, target=t, result=None if t is not None else "torn")
        self.sheriff = t

    def last_words(self, seat: int) -> None:
        self.host(self.line("last_words", seat=seat))
        self.say(seat, "last_words")

    # ------------------------------------------------------------------ night, sheriff (werealign.arena.night, .sheriff)
    def night(self) -> list[tuple[int, bool]]:
        """Play one night; return the seats dying at dawn, each with whether a shot is allowed."""
        return play_night(self)

    def election(self) -> bool:
        """The sheriff election (or its resumption); True when a campaign self-destruct ended the day."""
        return elect(self)

    # ------------------------------------------------------------------ day
    def speaking_order(self, dead: list[int]) -> list[int]:
        order = sorted(self.alive)
        if self.sheriff in self.alive and len(order) > 1:
            # The sheriff names the side that starts (the neighbour up or down the seats) and speaks last.
            i = order.index(self.sheriff)
            up, down = order[(i + 1) % len(order)], order[i - 1]
            first = self.ask(Decision("order", self.sheriff, self.day, tuple(dict.fromkeys((up, down))))).choice
            way = "up" if first == up else "down"
            self.host(self.line("order", seat=first, way=self.line(way)))
            ring = order[i + 1:] + order[:i] if way == "up" else (order[:i][::-1] + order[i + 1:][::-1])
            return ring + [self.sheriff]
        # No sheriff: from the seat after the first of the night's dead (else after day's count), up the seats.
        pivot = dead[0] if dead else (self.day - 1) % (max(self.roles)) + 1
        later = [s for s in order if s > pivot]
        return later + [s for s in order if s <= pivot]

    def debate(self, dead: list[int]) -> bool:
        """The day's talk; True when a wolf self-destructed (the day ends at once)."""
        self.host(self.line("debate"))
        if self.board.spec.debate == "round-robin":
            for i, s in enumerate(self.speaking_order(dead), start=1):
                if s in self.alive and self.turn(s):
                    return True
                self.poll(i)
            return False
        last_text = ""
        for i in range(1, self.board.spec.debate_turns + 1):
            named = mentions(last_text)
            bids = {s: self.ask(Decision("bid", s, self.day, mentioned=s in named)).choice for s in sorted(self.alive)}
            top = max(bids.values())
            tied = [s for s, b in bids.items() if b == top]
            first = [s for s in tied if s in named] or tied
            speaker = self.rng.choice(first)
            self.trace[-len(bids):] = [{**row, "won": row["seat"] == speaker} for row in self.trace[-len(bids):]]
            if self.turn(speaker):
                return True
            last_text = self.rec.utterances[-1].text
            self.poll(i)
        return False

    def poll(self, turn: int) -> None:
        """Werewolf Arena's synthetic votes after a debate turn (a measurement; never a ballot, never in the log)."""
        if not self.board.spec.poll_votes:
            return
        for s in sorted(self.alive):
            if s in self.revealed:
                continue
            options = tuple(c for c in sorted(self.alive) if c != s)
            self.ask(Decision("poll", s, self.day, options, none_ok=self.board.spec.abstention))
            self.trace[-1]["turn"] = turn

    def turn(self, seat: int, kind: str = "speak") -> bool:
        """One day turn (or campaign speech); a wolf may end the day by self-destructing (True)."""
        ability = self.board.ability(self.roles[seat])
        # A card's own rule first; else a wolf may, the wolf beauty aside (her charm would be a second take).
        own = ability.self_destruct if ability is not None and ability.self_destruct is not None else not (ability is not None and ability.action == "charm")
        may = self.board.spec.self_destruct and self.side(seat) == "wolf" and own
        act = self.say(seat, kind, may_destruct=may)
        if not (may and act.destruct):
            return False
        seg = self.host(self.line("self_destruct", seat=seat))
        self.rec.event("self_destruct", EVERYONE, segment=seg, actor=seat)
        self.leave(seat, "self_destruct", seg)
        ability = self.board.ability(self.roles[seat])
        if ability is not None and ability.action == "take":
            cands = tuple(sorted(self.alive))
            t = self.ask(Decision("take", seat, self.day, cands, none_ok=True)).choice if cands else None
            if t is not None:
                seg = self.host(self.line("takes", actor=seat, target=t))
                self.rec.event("skill_use", EVERYONE, segment=seg, actor=seat, target=t, skill=ability.skill or "white_wolf_king_take")
                self.leave(t, "taken", seg)
        return True

    def count(self, ballots: dict[int, int | None], weights: dict[int, float]) -> tuple[list[int], str]:
        """The seats with the most votes (weighted: the sheriff's 1.5) and the ballots read out."""
        tally: Counter = Counter()
        for s, t in ballots.items():
            if t is not None:
                tally[t] += weights.get(s, 1.0)
        best = max(tally.values(), default=0)
        leaders = sorted(t for t, n in tally.items() if n == best)
        if self.board.spec.exile == "majority" and best * 2 <= sum(weights.get(s, 1.0) for s in ballots):
            leaders = []  # Werewolf Arena: no majority, nobody goes
        said = joined(self.lang, [self.line("ballot", actor=s, target=t) if t is not None else self.line("abstains", actor=s)
                                  for s, t in ballots.items()]) or self.line("no_ballots")
        return leaders, said + ("。" if self.lang == "zh" else ". ")

    def outcome(self, leaders: list[int], rnd: int, what: str) -> str:
        if len(leaders) == 1:
            return self.line("exiled", seat=leaders[0]) if what == "exile" else ""
        if not leaders:
            return self.line("nobody") if what == "exile" else ""
        return self.line("tie", seats=leaders) + (self.line("nobody") if rnd == 2 and what == "exile" else "")

    def record_ballots(self, ballots: dict[int, int | None], seg: int, cutoff: int, rnd: int) -> None:
        for s, t in ballots.items():
            self.rec.event("vote", EVERYONE, segment=seg, actor=s, target=t, round=rnd)
            if self.rec.phases[-1]["kind"] == "day":
                self.ballots[s].append((self.rec.phase, t, cutoff, rnd))

    def is_idiot(self, seat: int) -> bool:
        return (a := self.board.ability(self.roles[seat])) is not None and a.action == "idiot"

    def vote(self) -> int | None:
        """The exile vote. Plurality (the human games): a tie is spoken on once more by the tied players and
        voted again by the others among them; a second tie exiles nobody. Majority (Werewolf Arena): one round."""
        spec = self.board.spec
        cands = voters = sorted(self.alive)
        weights = {self.sheriff: 1.5} if self.sheriff in self.alive else {}
        for rnd in (1, 2) if spec.exile == "plurality" else (1,):
            cutoff = self.host(self.line("vote" if rnd == 1 else "revote", seats=cands))
            ballots = {}
            for s in voters:
                if s in self.revealed:  # a revealed idiot has no vote
                    continue
                options = tuple(c for c in cands if c != s)
                if options:
                    ballots[s] = self.ask(Decision("vote", s, self.day, options, none_ok=spec.abstention)).choice
            leaders, said = self.count(ballots, weights)
            seg = self.host(said + self.outcome(leaders, rnd, "exile"))
            self.record_ballots(ballots, seg, cutoff, rnd)
            if len(leaders) == 1 and self.is_idiot(leaders[0]) and leaders[0] not in self.revealed:
                # The idiot shows the card and stays in, without a vote from now on.
                seg = self.host(self.line("idiot", seat=leaders[0]))
                self.rec.event("skill_use", EVERYONE, segment=seg, actor=leaders[0], target=leaders[0], skill="idiot_reveal")
                self.revealed.add(leaders[0])
                return None
            if len(leaders) == 1 and leaders[0] in self.swallowed:
                seg = self.host(self.line("swallowed", seat=leaders[0]))
                self.rec.event("skill_use", EVERYONE, segment=seg, target=leaders[0], skill="exile_void", result="void")
                self.void = True
                return None
            if len(leaders) == 1:
                a = self.board.ability(self.roles[leaders[0]])
                if a is not None and a.disables_voters:  # those of that team who voted it out lose tonight's move
                    self.disabled |= {s for s, t in ballots.items() if t == leaders[0] and self.team(s) == a.disables_voters}
                self.leave(leaders[0], "voted_out", seg, shot=False, badge=False)  # after the last words (play)
                return leaders[0]
            if len(leaders) < 2 or rnd == 2:
                return None
            self.host(self.line("pk", seats=leaders))
            for s in leaders:
                self.say(s, "speak")
            cands, voters = leaders, [s for s in sorted(self.alive) if s not in leaders]
        return None

    def play(self) -> Played:
        win = None
        while win is None and self.day < self.board.spec.max_days:
            self.day += 1
            dead = self.night()
            self.disabled = set()  # a night move taken away lasts one night
            self.silenced, self.silence_next = self.silence_next, None
            ended = self.board.spec.sheriff and (self.day == 1 or self.suspended is not None) and self.election()
            self.rec.begin("day", self.day)
            news = " ".join(self.line("died", seat=s) for s, _ in dead) or self.line("peaceful")
            seg = self.host(self.line("day", day=self.day, news=news))
            if not dead:
                self.rec.event("night_outcome", EVERYONE, segment=seg, target=None, result="peaceful_night")
            for s, _ in dead:
                self.rec.event("night_outcome", EVERYONE, segment=seg, target=s, result="night_death")
            # A seat that left in the sheriff election (a self-destruct) is announced but does not die again.
            dead = [(s, ok) for s, ok in dead if s in self.alive]
            self.leave_all(dead, "night_death", seg)
            if (win := self.winner()) is not None:
                break
            if self.day == 1 and self.board.spec.last_words == "exiled+first-night":
                for s, _ in dead:
                    self.last_words(s)
            if ended:  # a self-destruct in the sheriff election: no debate, no vote today
                continue
            self.void = False
            for again in (False, True):  # the day; again when the moon girl puts night off
                if self.debate([s for s, _ in dead] if not again else []):
                    break
                exiled = self.vote()
                if exiled is not None:
                    if self.board.spec.last_words != "none":
                        self.last_words(exiled)
                    self.shoot(exiled)
                    if exiled == self.sheriff:
                        self.pass_badge(exiled)
                if again or self.void or self.winner() is not None or not self.moon():
                    break
            win = self.winner()
        side = self.line({"good": "win_good", "wolf": "win_wolf", "third": "win_third"}.get(win or "", "win_none"))
        self.host(self.line("over", side=side))
        return Played(self.rec.build(win, self.mvp(win)), self.trace)

    def moon(self) -> bool:
        """Once the day's vote is over, the moon girl may put night off (the day goes on: talk and vote again)."""
        for s in self.with_action("moon"):
            if self.ask(Decision("moon", s, self.day, (s,), none_ok=True)).choice == s:
                a = self.board.ability(self.roles[s])
                seg = self.host(self.line("moon", seat=s))
                self.rec.event("skill_use", EVERYONE, segment=seg, actor=s, skill=a.skill or "moon")
                return True
        return False

    def mvp(self, win: str | None) -> Mvp | None:
        """The winning side's MVP: the seat whose day ballots most often hit the losing side (then more
        ballots cast, then the lower seat). No winner, or no ballot cast by the winners: no MVP."""
        if win is None:
            return None
        side = [s for s in self.roles if self.side(s) == win and self.ballots[s]]
        if not side:
            return None

        def hits(s: int) -> int:
            return sum(1 for _, t, _, _ in self.ballots[s] if t is not None and self.side(t) != win)

        best = min(side, key=lambda s: (-hits(s), -len(self.ballots[s]), s))
        return Mvp(seat=best, votes=mvp_votes(self.ballots[best]))


def play_game(board: Board, roles: list[str], agents: dict[int, Agent], game_id: str, seed: int, provenance: Provenance) -> Played:
    return Table(board, roles, agents, game_id, seed, provenance).play()
