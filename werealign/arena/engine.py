"""The moderator loop: nights (the wolves' chat and kill, role actions), days (the night's news, last
words, a debate by bidding or round-robin, votes with a re-vote on a tie), until a side wins.

Rules follow Werewolf Arena (bids 0-4 for the floor; the highest bid speaks, ties to a seat the last
speaker named, then by lot) and the standard board (the witch's two potions, the guard's no-repeat
protection, the hunter's shot except when poisoned). Everything random is drawn from the game's seed;
an agent only ever sees its seat's view of the log (werealign.arena.record, game.visibility).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from werealign.arena.agents import Action, Agent, Decision, TEXT_KINDS, fallback, mentions
from werealign.arena.board import Board
from werealign.arena.record import Recorder, mvp_votes
from werealign.game.visibility import build_context
from werealign.schema import GameLog
from werealign.schema.models import ACTOR, EVERYONE, Audience, Mvp, Provenance

WOLVES = Audience(kind="team", team="wolf")
MAX_TEXT = 1200  # characters of one turn kept: a runaway reply must not flood every later prompt


@dataclass
class Played:
    game: GameLog
    trace: list[dict[str, Any]] = field(default_factory=list)  # one row per decision


class Table:
    def __init__(self, board: Board, roles: list[str], agents: dict[int, Agent], game_id: str, seed: int,
                 provenance: Provenance, language: str = "en"):
        self.board = board
        self.roles = {i + 1: r for i, r in enumerate(roles)}
        self.agents = agents
        self.rng = random.Random(f"table|{seed}|{game_id}")
        self.rec = Recorder(game_id, board, roles, language, provenance)
        self.alive = set(self.roles)
        self.trace: list[dict[str, Any]] = []
        self.day = 0
        self.potions = {"save": True, "poison": True}
        self.last_protected: dict[int, int | None] = {}
        self.ballots: dict[int, list[tuple[str, int | None, int, int]]] = {s: [] for s in self.roles}

    # ------------------------------------------------------------------ helpers
    def faction(self, seat: int) -> str:
        return self.board.faction(self.roles[seat])

    def team(self, seat: int) -> str:
        return self.board.catalogue.get(self.roles[seat]).team or "village"

    def with_action(self, action: str) -> list[int]:
        return [s for s in sorted(self.alive) if (a := self.board.ability(self.roles[s])) is not None and a.action == action]

    def ask(self, decision: Decision) -> Action:
        view = build_context(self.rec.snapshot(), decision.seat, max(self.rec.last_segment, 0))
        act = self.agents[decision.seat].act(view, decision)
        legal = (decision.kind in TEXT_KINDS or (decision.kind == "bid" and act.choice in range(5))
                 or act.choice in decision.candidates or (act.choice is None and decision.none_ok)
                 or (decision.kind == "save" and act.choice in (decision.about, None)))
        if not legal:
            act = Action(**{**fallback(decision, random.Random(f"{self.rec.game_id}|{len(self.trace)}")).__dict__, "failed": True, "key": act.key})
        if decision.kind in TEXT_KINDS:
            act.text = " ".join(act.text.split())[:MAX_TEXT]
        self.trace.append({"day": self.day, "phase": self.rec.phase, "seat": decision.seat, "kind": decision.kind,
                           "candidates": list(decision.candidates), "choice": act.choice, "chars": len(act.text),
                           "failed": act.failed, "key": act.key, "estimates": {str(k): v for k, v in sorted(act.estimates.items())}})
        return act

    def host(self, text: str, audience: Audience | None = None) -> int:
        return self.rec.say("host", text, audience)

    def eliminate(self, seat: int, result: str, segment: int | None = None) -> None:
        self.alive.discard(seat)
        self.rec.event("elimination", EVERYONE, segment=segment, target=seat, result=result)

    def winner(self) -> str | None:
        wolves = [s for s in self.alive if self.faction(s) == "wolf"]
        others = [s for s in self.alive if self.faction(s) != "wolf"]
        if not wolves:
            return "good"
        if self.board.spec.win == "parity":
            return "wolf" if len(wolves) >= len(others) else None
        # Side elimination: the wolves win once a whole team of the good side is out (a good role
        # declared without a team plays with the villagers).
        teams = {self.team(s) for s in self.roles if self.faction(s) == "good"}
        alive_teams = {self.team(s) for s in others}
        return "wolf" if not others or teams - alive_teams else None

    # ------------------------------------------------------------------ night
    def night(self) -> list[tuple[int, bool]]:
        """Play one night; return the seats dying at dawn, each with whether a shot is allowed."""
        self.rec.begin("night", self.day)
        self.host(f"Night {self.day} falls. Everyone, close your eyes.")
        wolves = [s for s in sorted(self.alive) if self.faction(s) == "wolf"]
        prey = tuple(s for s in sorted(self.alive) if self.faction(s) != "wolf")
        victim = None
        if wolves and prey:
            self.host("Werewolves, open your eyes and agree on a victim.", WOLVES)
            if len(wolves) > 1:
                for w in wolves:
                    self.rec.say(w, self.ask(Decision("wolf_chat", w, self.day)).text, WOLVES)
            picks = [self.ask(Decision("kill", w, self.day, prey)).choice for w in wolves]
            tally = Counter(picks)
            best = max(tally.values())
            victim = next(p for p in picks if tally[p] == best)
            self.rec.event("skill_use", WOLVES, actor=wolves[0], target=victim, skill="wolf_kill")
        protected: set[int] = set()
        for s in self.with_action("protect"):
            ability = self.board.ability(self.roles[s])
            cands = tuple(t for t in sorted(self.alive) if not (ability.no_repeat and self.last_protected.get(s) == t))
            choice = self.ask(Decision("protect", s, self.day, cands)).choice
            self.last_protected[s] = choice
            protected.add(choice)
            self.rec.event("skill_use", ACTOR, actor=s, target=choice, skill=ability.skill or "guard_protect")
        for s in self.with_action("check"):
            cands = tuple(t for t in sorted(self.alive) if t != s)
            t = self.ask(Decision("check", s, self.day, cands)).choice
            self.rec.event("skill_use", ACTOR, actor=s, target=t, skill="seer_check", result="wolf" if self.faction(t) == "wolf" else "good")
        saved = poisoned = None
        for s in self.with_action("potions"):
            if victim is not None and self.potions["save"] and victim != s:
                self.rec.event("skill_use", Audience(kind="seats", seats=[s]), target=victim, skill="wolf_kill")
                if self.ask(Decision("save", s, self.day, (victim,), none_ok=True, about=victim)).choice == victim:
                    saved, self.potions["save"] = victim, False
                    self.rec.event("skill_use", ACTOR, actor=s, target=victim, skill="witch_save")
            if saved is None and self.potions["poison"]:
                cands = tuple(t for t in sorted(self.alive) if t != s)
                t = self.ask(Decision("poison", s, self.day, cands, none_ok=True)).choice
                if t is not None:
                    poisoned, self.potions["poison"] = t, False
                    self.rec.event("skill_use", ACTOR, actor=s, target=t, skill="witch_poison")
        dead: list[tuple[int, bool]] = []
        # A seat both protected and saved still dies (the standard rule); either alone keeps it alive.
        if victim is not None and (victim in protected) == (victim == saved):
            dead.append((victim, True))
        if poisoned is not None and poisoned not in [d for d, _ in dead]:
            dead.append((poisoned, False))
        return sorted(dead)

    # ------------------------------------------------------------------ day
    def shoot(self, seat: int) -> None:
        if (a := self.board.ability(self.roles[seat])) is None or a.action != "shoot":
            return
        cands = tuple(t for t in sorted(self.alive) if t != seat)
        t = self.ask(Decision("shoot", seat, self.day, cands, none_ok=True)).choice
        if t is not None:
            self.host(f"Seat {seat} shoots Seat {t}.")
            self.rec.event("skill_use", EVERYONE, actor=seat, target=t, skill="hunter_shoot")
            self.eliminate(t, "taken")

    def last_words(self, seat: int) -> None:
        self.host(f"Seat {seat}, your last words.")
        self.rec.say(seat, self.ask(Decision("last_words", seat, self.day)).text)

    def debate(self) -> None:
        self.host("The debate begins.")
        if self.board.spec.debate == "round-robin":
            order = sorted(self.alive)
            start = (self.day - 1) % len(order)
            for s in order[start:] + order[:start]:
                self.rec.say(s, self.ask(Decision("speak", s, self.day)).text)
            return
        last_text = ""
        for _ in range(self.board.spec.debate_turns):
            named = mentions(last_text)
            bids = {s: self.ask(Decision("bid", s, self.day, mentioned=s in named)).choice for s in sorted(self.alive)}
            top = max(bids.values())
            tied = [s for s, b in bids.items() if b == top]
            first = [s for s in tied if s in named] or tied
            speaker = self.rng.choice(first)
            self.trace[-len(bids):] = [{**row, "won": row["seat"] == speaker} for row in self.trace[-len(bids):]]
            last_text = self.ask(Decision("speak", speaker, self.day)).text
            self.rec.say(speaker, last_text)

    def vote(self) -> int | None:
        cands = sorted(self.alive)
        for rnd in (1, 2):
            names = ", ".join(f"Seat {s}" for s in cands)
            cutoff = self.host(f"Time to vote{' again' if rnd > 1 else ''}. Candidates: {names}.")
            ballots = {}
            for s in sorted(self.alive):
                options = tuple(c for c in cands if c != s)
                if options:
                    ballots[s] = self.ask(Decision("vote", s, self.day, options)).choice
            tally = Counter(ballots.values())
            best = max(tally.values())
            leaders = sorted(t for t, n in tally.items() if n == best)
            said = "; ".join(f"Seat {s} votes Seat {t}" for s, t in ballots.items())
            outcome = f"Seat {leaders[0]} is exiled." if len(leaders) == 1 else (
                f"A tie between {', '.join(f'Seat {t}' for t in leaders)}." + (" Nobody is exiled." if rnd == 2 else ""))
            seg = self.host(f"{said}. {outcome}")
            for s, t in ballots.items():
                self.rec.event("vote", EVERYONE, segment=seg, actor=s, target=t, round=rnd)
                self.ballots[s].append((self.rec.phase, t, cutoff, rnd))
            if len(leaders) == 1:
                self.eliminate(leaders[0], "voted_out", seg)
                return leaders[0]
            cands = leaders
        return None

    def play(self) -> Played:
        win = None
        while win is None and self.day < self.board.spec.max_days:
            self.day += 1
            dead = self.night()
            self.rec.begin("day", self.day)
            news = " ".join(f"Seat {s} died last night." for s, _ in dead) or "Last night was peaceful."
            seg = self.host(f"Day {self.day}. Everyone, open your eyes. {news}")
            if not dead:
                self.rec.event("night_outcome", EVERYONE, segment=seg, target=None, result="peaceful_night")
            for s, _ in dead:
                self.rec.event("night_outcome", EVERYONE, segment=seg, target=s, result="night_death")
                self.eliminate(s, "night_death", seg)
            for s, may_shoot in dead:
                if may_shoot:
                    self.shoot(s)
            if (win := self.winner()) is not None:
                break
            if self.day == 1 and self.board.spec.last_words == "exiled+first-night":
                for s, _ in dead:
                    self.last_words(s)
            self.debate()
            exiled = self.vote()
            if exiled is not None:
                if self.board.spec.last_words != "none":
                    self.last_words(exiled)
                self.shoot(exiled)
            win = self.winner()
        side = {"good": "The village wins.", "wolf": "The werewolves win."}.get(win or "", "No side won before the day limit.")
        self.host(f"Game over. {side}")
        return Played(self.rec.build(win, self.mvp(win)), self.trace)

    def mvp(self, win: str | None) -> Mvp | None:
        """The winning side's MVP: the seat whose day ballots most often hit the losing side (then more
        ballots cast, then the lower seat). No winner, or no ballot cast by the winners: no MVP."""
        if win is None:
            return None
        side = [s for s in self.roles if self.faction(s) == win and self.ballots[s]]
        if not side:
            return None

        def hits(s: int) -> int:
            return sum(1 for _, t, _, _ in self.ballots[s] if t is not None and self.faction(t) != win)

        best = min(side, key=lambda s: (-hits(s), -len(self.ballots[s]), s))
        return Mvp(seat=best, votes=mvp_votes(self.ballots[best]))


def play_game(board: Board, roles: list[str], agents: dict[int, Agent], game_id: str, seed: int, provenance: Provenance) -> Played:
    return Table(board, roles, agents, game_id, seed, provenance).play()
