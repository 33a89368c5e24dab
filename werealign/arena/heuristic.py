"""A simple heuristic player: trusts its own checks, believes a lone seer claim, follows accusations.

It reads only its view (werealign.game.visibility.Context): its role, its allies if a wolf, its own
private events and what was said and done at the table. It records a role estimate per seat at each
vote (its suspects as wolves), which analyze scores as Strategy Adaptation's estimation accuracy.
"""

from __future__ import annotations

from collections import Counter

from werealign.arena.moves import Action, Decision, claims, decision_rng, fallback, mentions, verdicts
from werealign.game.visibility import Context
from werealign.schema.roles import RoleCatalogue, catalogue_for


def _checks_at_night(catalogue: RoleCatalogue, role: str) -> bool:
    """The role holds the seer's nightly check (the catalogue's `Role.night_skills`, whatever its id): it is played as
    the seer, and a claim of it is a seer claim."""
    return catalogue.holds(role, skill="seer_check")


def _out(view: Context) -> set[int]:
    return {e.target for e in view.public_events if e.kind == "elimination" and e.target is not None}


def _checks(view: Context) -> dict[int, str]:
    """The seat's own checks (a seer's, or any check of a declared role that learns wolf or good), oldest first."""
    return {e.target: e.result for e in view.private_events
            if e.actor == view.viewpoint_seat and e.target is not None and e.result in ("wolf", "good")}


SAY = {
    "en": {
        "seer_wolf": "I am the {seer}. I checked Seat {t} and Seat {t} is a werewolf. Vote Seat {t} out.",
        "seer_good": "I am the {seer}. I checked Seat {t} and Seat {t} is good.",
        "fake_seer": "I am the {seer}. I checked Seat {t} and Seat {t} is a werewolf.",
        "think_wolf": "I think Seat {t} is a werewolf.",
        "suspect": "I suspect Seat {t} is a werewolf.",
        "trust": "I trust everyone left.",
        "nothing": "I have nothing to add.",
        "kill": "Let us take out Seat {t}; they look trusted by the village.",
        "no_pref": "No preference.",
        "campaign": "I run for sheriff to lead the village's votes.",
    },
    "zh": {
        "seer_wolf": "我是{seer}，我查验了{t}号，{t}号是狼人，请大家投{t}号出局。",
        "seer_good": "我是{seer}，我查验了{t}号，{t}号是好人。",
        "fake_seer": "我是{seer}，我查验了{t}号，{t}号是狼人。",
        "think_wolf": "我认为{t}号是狼人。",
        "suspect": "我怀疑{t}号是狼人。",
        "trust": "我相信场上剩下的人。",
        "nothing": "我过。",
        "kill": "今晚刀{t}号吧，好人比较信任他。",
        "no_pref": "没有意见。",
        "campaign": "我上警，想带领好人归票。",
    },
}


def _catalogue(view: Context) -> RoleCatalogue:
    return catalogue_for(view.rules.declared_roles)


def _is_seer(view: Context) -> bool:
    """The seat's own role holds the seer's check (the catalogue's rule, not the id 'seer')."""
    return view.own_role is not None and _checks_at_night(_catalogue(view), view.own_role)


def _seer_name(view: Context, lang: str) -> str | None:
    """The name a seer claim uses: the seat's own role when it holds the check, else the board's first role that holds
    it (a wolf's fake claim), else the catalogue's first; None when no role holds it."""
    cat = _catalogue(view)
    holders = [r for r in [view.own_role or "", *(rc.role for rc in view.rules.composition), *cat.roles] if _checks_at_night(cat, r)]
    return cat.roles[holders[0]].name(lang) if holders else None


def _seer_claimants(view: Context) -> list[int]:
    cat = _catalogue(view)
    return sorted({u.speaker for u in view.utterances if isinstance(u.speaker, int)
                   and any(_checks_at_night(cat, r) for r in claims(u.text, cat))})


def suspicion(view: Context) -> Counter:
    """How wolf-like each other seat looks from this seat (higher: more)."""
    me = view.viewpoint_seat
    score: Counter = Counter({s: 0 for s in view.seats if s != me})
    for seat, result in _checks(view).items():
        score[seat] += 10 if result == "wolf" else -10
    claimants = _seer_claimants(view)
    own = _is_seer(view)
    for u in view.utterances:
        if not isinstance(u.speaker, int) or u.speaker == me:
            continue
        trusted = u.speaker in claimants and len(claimants) == 1 and not own
        for seat, verdict in verdicts(u.text):
            if seat in score:
                score[seat] += (4 if trusted else 1) * (1 if verdict == "wolf" else -1)
                if seat == me and verdict == "wolf" and view.own_faction == "good":
                    score[u.speaker] += 3  # a false accusation of me
    if own:
        for c in claimants:
            if c != me:
                score[c] += 10  # a second seer is lying
    return score


class HeuristicAgent:
    name = "rule/heuristic"

    def __init__(self, seed: int):
        self.seed = seed

    def act(self, view: Context, decision: Decision) -> Action:
        rng = decision_rng(self.seed, view, decision)
        wolf = view.own_faction == "wolf"
        allies = set(view.allies)
        alive = [s for s in view.seats if s not in _out(view)]
        score = suspicion(view)
        for s in score:
            score[s] += rng.random() * 0.5  # breaks ties without favouring low seats

        def top(cands: tuple[int, ...] | list[int], reverse: bool = True) -> int | None:
            cands = list(cands)
            return max(cands, key=lambda s: score[s] if reverse else -score[s]) if cands else None

        k = decision.kind
        lang = "zh" if view.language == "zh" else "en"
        say = SAY[lang]
        seer_claims = [c for c in _seer_claimants(view) if c in decision.candidates]
        if k == "bid":
            if decision.mentioned:
                return Action(choice=4)
            eager = _is_seer(view) and any(r == "wolf" for r in _checks(view).values())
            return Action(choice=3 if eager else rng.choice((0, 1, 1, 2)))
        if k in ("speak", "last_words", "campaign"):
            text = self._speech(view, score, alive, rng, lang)
            if k == "campaign" and not _is_seer(view):
                text = f"{say['campaign']} {text}"
            return Action(text=text, destruct=decision.may_destruct and self._cornered(view, rng))
        if k == "wolf_chat":
            target = top([s for s in alive if s not in allies and s != view.viewpoint_seat], reverse=False)
            return Action(text=say["kill"].format(t=target) if target else say["no_pref"])
        if k in ("kill", "solo_kill", "third_kill"):
            return Action(choice=seer_claims[0] if seer_claims else rng.choice(decision.candidates))
        if k in ("check", "check_god"):
            unchecked = [s for s in decision.candidates if s not in _checks(view)]
            return Action(choice=top(unchecked or list(decision.candidates)))
        if k == "protect":
            return Action(choice=seer_claims[0] if seer_claims else top(decision.candidates, reverse=False))
        if k == "save":
            return Action(choice=decision.about if decision.day == 1 else None)
        if k in ("poison", "shoot", "take"):
            if wolf and k == "take":
                return Action(choice=seer_claims[0] if seer_claims else rng.choice(decision.candidates))
            best = top(decision.candidates)
            return Action(choice=best if best is not None and score[best] >= 3 else (None if decision.none_ok else best))
        if k in ("silence", "assassinate"):  # the most suspect seat, if suspect enough
            best = top(decision.candidates)
            return Action(choice=best if best is not None and score[best] >= 3 else None)
        if k == "charm":  # a seer claimant, else a seat the village trusts
            return Action(choice=seer_claims[0] if seer_claims else top(decision.candidates, reverse=False))
        if k == "run":  # the seer runs to lead the votes; others now and then
            return Action(choice=decision.seat if _is_seer(view) or rng.random() < 0.3 else None)
        if k == "withdraw":
            return Action(choice=decision.seat if not _is_seer(view) and rng.random() < 0.2 else None)
        if k in ("sheriff_vote", "badge"):
            friends = [s for s in decision.candidates if s in allies] if wolf else []
            return Action(choice=friends[0] if friends else top(decision.candidates, reverse=False))
        if k == "order":
            return Action(choice=top(decision.candidates))  # start from the more suspect neighbour
        if k in ("vote", "poll"):
            cands = [s for s in decision.candidates if not (wolf and s in allies)] or list(decision.candidates)
            return Action(choice=top(cands), estimates=self._estimates(view, score, alive))
        return fallback(decision, rng)

    @staticmethod
    def _cornered(view: Context, rng) -> bool:
        """A wolf a lone seer claimant named a wolf self-destructs, half the time, to spare the pack the vote."""
        claimants = _seer_claimants(view)
        named = {s for u in view.utterances if u.speaker in claimants and len(claimants) == 1 for s, v in verdicts(u.text) if v == "wolf"}
        return view.viewpoint_seat in named and rng.random() < 0.5

    def _estimates(self, view: Context, score: Counter, alive: list[int]) -> dict[int, str]:
        if view.own_faction == "wolf":
            return {s: ("wolf" if s in view.allies else "good") for s in view.seats if s != view.viewpoint_seat}
        n_wolves = sum(1 for s in view.seats if s != view.viewpoint_seat) // 4 or 1
        suspects = sorted((s for s in score), key=lambda s: -score[s])[:n_wolves]
        return {s: ("wolf" if s in suspects else "good") for s in view.seats if s != view.viewpoint_seat}

    def _speech(self, view: Context, score: Counter, alive: list[int], rng, lang: str) -> str:
        say = SAY[lang]
        me = view.viewpoint_seat
        others = [s for s in alive if s != me]
        seer = _seer_name(view, lang)
        if _is_seer(view):
            checks = _checks(view)
            wolves = [s for s, r in checks.items() if r == "wolf" and s in alive]
            if wolves:
                return say["seer_wolf"].format(t=wolves[-1], seer=seer)
            if checks and len(view.phases) >= 4:
                # The latest check, with the verdict it gave.
                seat, result = list(checks.items())[-1]
                return say["seer_wolf" if result == "wolf" else "seer_good"].format(t=seat, seer=seer)
        if view.own_faction == "wolf":
            accused = [s for s, _ in self._accusations_of(view, "wolf") if s in view.allies or s == me]
            goods = [s for s in others if s not in view.allies]
            if accused and goods and rng.random() < 0.5 and seer is not None:  # None: a catalogue where no role checks
                target = max(goods, key=lambda s: score[s])
                return say["fake_seer"].format(t=target, seer=seer)
            target = rng.choice(goods) if goods else None
            return say["think_wolf"].format(t=target) if target else say["trust"]
        suspect = max(others, key=lambda s: score[s]) if others else None
        return say["suspect"].format(t=suspect) if suspect else say["nothing"]

    @staticmethod
    def _accusations_of(view: Context, verdict: str) -> list[tuple[int, str]]:
        return [(s, v) for u in view.utterances if isinstance(u.speaker, int) for s, v in verdicts(u.text) if v == verdict]


__all__ = ["HeuristicAgent", "mentions"]
