"""One night at the table (werealign.arena.moderator): the wolves' chat and kill, then each role's move, under the
board's move rules (werealign.arena.board: `Board.rules`; the legal targets are werealign.game.moves', the ones
decision items use). Returns the seats dying at dawn, each with whether it may shoot.

The pack is every living wolf-side card that joins the kill (a card may join only once another role's holder is
out, or kill alone, once, the night after: the wolf brothers). A seat both protected and saved still dies (the
standard rule); either alone keeps it alive; a seat the pack and a lone killer both chose dies whatever protects it.
A swap (the magician's, first thing at night) sends every move aimed at one of two seats to the other that night:
the log records each move as aimed (what its maker knows), its effect lands on the swapped seat (a check tells
that seat's side; the witch is told the seat that will die). A move that lands on a card reflecting it (catalogue
`reflects`: a seer's check or a witch's poison on the nightmare knight) kills its maker at dawn; a poison on a card
that survives it (`survives`) kills nobody.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from werealign.arena.board import DEFAULT_SKILL
from werealign.arena.lovers import link, third_killers
from werealign.arena.moves import Decision
from werealign.game.moves import assassinate_targets, charm_targets, protect_targets, self_save_allowed
from werealign.schema.models import ACTOR, Audience

if TYPE_CHECKING:
    from werealign.arena.moderator import Table

WOLVES = Audience(kind="team", team="wolf")


def _out(t: Table, role: str | None) -> bool:
    """Whether every holder of `role` has left the game."""
    return role is not None and all(s not in t.alive for s, r in t.roles.items() if r == role)


def _pack_and_solo(t: Table) -> tuple[list[int], list[int]]:
    """Tonight's pack (who chooses the shared kill) and the lone killers (a solo kill each)."""
    pack, solo = [], []
    for s in sorted(t.alive):
        a = t.board.ability(t.roles[s])
        if t.side(s) != "wolf" or (a is not None and not a.joins_kill):
            continue
        if a is not None and a.solo_kill_after and s not in t.used_solo and _out(t, a.solo_kill_after):
            solo.append(s)
        elif a is None or a.joins_kill_after is None or _out(t, a.joins_kill_after):
            pack.append(s)
    for s in list(solo):
        if not pack and s not in t.solo_waited:  # alone in the pack tonight: the lone kill waits one night
            t.solo_waited.add(s)
            solo.remove(s)
            pack.append(s)
        elif not pack:
            pack.append(s)  # it makes both kills
    return pack, solo


def _seer_result(t: Table, target: int) -> str:
    role = t.board.catalogue.get(t.roles[target])
    a = t.board.ability(t.roles[target])
    hidden = a is not None and a.seen_good_while is not None and not _out(t, a.seen_good_while)
    if role is not None and role.seer_sees_good and (a is None or a.seen_good_while is None):
        hidden = True  # a hidden wolf the catalogue says a seer sees as good
    return "wolf" if t.faction(target) == "wolf" and not hidden else "good"


def _reflected(t: Table, moves, sw) -> list[int]:
    """The seats whose move tonight landed on a card that reflects it (catalogue `reflects`: a seer's check or a
    witch's poison on the nightmare knight): each dies at dawn, whatever protects it."""
    out = []
    for e in moves:
        landed = sw(e.target) if isinstance(e.target, int) else None
        holder = t.board.catalogue.get(t.roles[landed]) if landed is not None else None
        if isinstance(e.actor, int) and holder is not None and e.actor != landed and e.skill in holder.reflects and e.actor not in out:
            out.append(e.actor)
    return out


def _swallow(t: Table) -> None:
    """Before anyone else wakes, the sky dog swallows another seat (not last night's): its exile tomorrow is void."""
    last = t.swallowed
    t.swallowed = set()
    for s in t.night_actors("swallow"):
        a = t.board.ability(t.roles[s])
        cands = tuple(x for x in sorted(t.alive) if x != s and not (a.no_repeat and x in last))
        if cands:
            x = t.ask(Decision("swallow", s, t.day, cands)).choice
            t.swallowed.add(x)
            t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "swallow")


def _swap(t: Table):
    """The magician's swap, first thing at night: two seats' numbers traded for the night's moves (or none)."""
    swap: dict[int, int] = {}
    for s in t.night_actors("swap"):
        a = t.board.ability(t.roles[s])
        first = t.ask(Decision("swap", s, t.day, tuple(sorted(t.alive)), none_ok=True)).choice
        if first is None or swap:
            continue
        second = t.ask(Decision("swap_with", s, t.day, tuple(x for x in sorted(t.alive) if x != first))).choice
        swap = {first: second, second: first}
        for x in (first, second):
            t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "swap")
    return lambda seat: swap.get(seat, seat)


def play_night(t: Table) -> list[tuple[int, bool]]:
    rules, moves = t.board.rules, t.moves
    t.rec.begin("night", t.day)
    t.host(t.line("night", day=t.day))
    link(t)  # night 1: lovers, a witness, a third side (werealign.arena.lovers)
    _swallow(t)
    sw = _swap(t)  # the seat a move aimed at a seat lands on tonight
    swapped_from = len(t.rec.events)  # every move recorded from here on lands on sw(its target)
    wolves = [s for s in sorted(t.alive) if t.side(s) == "wolf"]
    pack, solo = _pack_and_solo(t)
    prey = tuple(s for s in sorted(t.alive) if moves.wolves_may_kill_wolf or t.side(s) != "wolf")
    victim = None
    lone: list[int] = []  # the lone killers' victims
    # The pack's audience is the wolf team, unless a wolf card left it for a third side: then the pack's seats only.
    left_pack = any(t.side(s) != "wolf" == t.faction(s) for s in t.roles)
    pack_told = Audience(kind="seats", seats=wolves) if left_pack and wolves else WOLVES
    if wolves and prey:
        t.host(t.line("wolves"), pack_told)
        if len(wolves) > 1:
            for w in wolves:
                t.say(w, "wolf_chat", audience=pack_told)
        picks = [t.ask(Decision("kill", w, t.day, prey, none_ok=moves.wolves_may_skip)).choice for w in pack]
        if picks:
            tally = Counter(picks)
            best = max(tally.values())
            victim = next(p for p in picks if tally[p] == best)
            if victim is not None:
                t.rec.event("skill_use", pack_told, actor=pack[0], target=victim, skill="wolf_kill")
                victim = sw(victim)
        for s in solo:
            a = t.board.ability(t.roles[s])
            target = t.ask(Decision("solo_kill", s, t.day, prey)).choice
            t.used_solo.add(s)
            t.rec.event("skill_use", ACTOR, actor=s, target=target, skill=a.skill or "solo_kill")
            lone.append(sw(target))
    killers = third_killers(t)  # no wolf-side seat is in: the third side makes the night's kill
    third_prey = tuple(s for s in sorted(t.alive) if t.side(s) != "third")
    if killers and third_prey:
        told = Audience(kind="seats", seats=killers)
        t.host(t.line("third_wakes"), told)
        picks = [t.ask(Decision("third_kill", k, t.day, third_prey, none_ok=moves.wolves_may_skip)).choice for k in killers]
        tally = Counter(picks)
        victim = next(p for p in picks if tally[p] == max(tally.values()))
        if victim is not None:
            t.rec.event("skill_use", told, actor=killers[0], target=victim, skill="third_kill")
            victim = sw(victim)
    protected: set[int] = set()
    for s in t.night_actors("protect"):
        ability = t.board.ability(t.roles[s])
        no_repeat = ability.no_repeat and not moves.guard_repeat
        cands = tuple(protect_targets(sorted(t.alive), t.last_protected.get(s), no_repeat))
        choice = t.ask(Decision("protect", s, t.day, cands, none_ok=moves.guard_may_skip)).choice
        t.last_protected[s] = choice
        if choice is not None:
            protected.add(sw(choice))
        t.rec.event("skill_use", ACTOR, actor=s, target=choice, skill=ability.skill or DEFAULT_SKILL["protect"])
    for s in t.night_actors("check"):
        cands = tuple(x for x in sorted(t.alive) if x != s)
        x = t.ask(Decision("check", s, t.day, cands)).choice
        t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=t.board.ability(t.roles[s]).skill or DEFAULT_SKILL["check"], result=_seer_result(t, sw(x)))
    for s in t.night_actors("silence"):
        a = t.board.ability(t.roles[s])
        x = t.ask(Decision("silence", s, t.day, tuple(y for y in sorted(t.alive) if y != s), none_ok=True)).choice
        t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "silence")
        t.silence_next = sw(x)
    good = {x for x in t.alive if t.faction(x) != "wolf"}
    for s in t.night_actors("charm"):
        a = t.board.ability(t.roles[s])
        cands = tuple(charm_targets(sorted(t.alive), s, good, rules.charm_target))
        if not cands:
            continue
        x = t.ask(Decision("charm", s, t.day, cands)).choice
        t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "wolf_beauty_charm")
        t.charmed[s] = sw(x)
    assassinated = None
    for s in t.night_actors("assassinate"):
        # Once a game: a seat the stalker voted for in a day vote (that day's only, where the board says so) that is still in.
        ballots = [(int(p.rsplit("-", 1)[1]), x) for p, x, _, _ in t.ballots[s]]
        voted = tuple(assassinate_targets(ballots, sorted(t.alive), s, t.day - 1, rules.stalker_window))
        if s in t.used or not voted:
            continue
        x = t.ask(Decision("assassinate", s, t.day, voted, none_ok=True)).choice
        if x is not None:
            a = t.board.ability(t.roles[s])
            t.used.add(s)
            assassinated = sw(x)
            t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "stalker_assassinate")
    for s in t.night_actors("check_god"):  # the demon: whether a seat holds a god (special good) role
        a = t.board.ability(t.roles[s])
        x = t.ask(Decision("check_god", s, t.day, tuple(y for y in sorted(t.alive) if y != s))).choice
        role = t.board.catalogue.get(t.roles[sw(x)])
        t.rec.event("skill_use", ACTOR, actor=s, target=x, skill=a.skill or "demon_check",
                    result="god" if role is not None and role.is_god else "not_god")
    saved = poisoned = None
    for s in t.night_actors("potions"):
        if victim is not None and t.potions["save"]:
            # She learns the pack's victim while she holds the antidote, herself included (never a lone kill).
            t.rec.event("skill_use", Audience(kind="seats", seats=[s]), target=victim, skill="wolf_kill")
        if victim is not None and t.potions["save"] and (victim != s or self_save_allowed(moves, t.day, False)):
            if t.ask(Decision("save", s, t.day, (victim,), none_ok=True, about=victim)).choice == victim:
                saved, t.potions["save"] = victim, False
                t.rec.event("skill_use", ACTOR, actor=s, target=victim, skill="witch_save")
        if (saved is None or moves.witch_both_potions) and t.potions["poison"]:
            cands = tuple(x for x in sorted(t.alive) if x != s)
            x = t.ask(Decision("poison", s, t.day, cands, none_ok=True)).choice
            if x is not None:
                poisoned, t.potions["poison"] = sw(x), False
                potion = t.rec.event("skill_use", ACTOR, actor=s, target=x, skill="witch_poison")
                if potion.skill in getattr(t.board.catalogue.get(t.roles[poisoned]), "survives", ()):
                    poisoned = None  # the potion is spent and the seat lives: its role survives a poison (catalogue `survives`: the demon)
    dead: list[tuple[int, bool]] = []
    if victim is not None and ((victim in protected) == (victim == saved) or victim in lone):
        dead.append((victim, victim != poisoned))  # a poisoned seat takes nobody along, whoever else attacked it
    for x in lone:
        if x not in protected and x not in [d for d, _ in dead]:
            dead.append((x, x != poisoned))
    for extra in (poisoned, assassinated):  # neither a poisoned nor an assassinated seat takes anyone along
        if extra is not None:
            dead = [(d, ok) for d, ok in dead if d != extra] + [(extra, False)]
    for s in _reflected(t, t.rec.events[swapped_from:], sw):
        if s not in [d for d, _ in dead]:
            dead.append((s, s != poisoned))
    for fox in t.with_action("tails"):  # last of all: the fox learns its tails, tonight's deaths counted
        dying = {d for d, _ in dead}
        if fox in dying:
            continue
        left = t.tails_left(fox, dying)
        t.rec.event("skill_use", ACTOR, actor=fox, target=fox, skill=t.board.ability(t.roles[fox]).skill or "tails", result=str(max(left, 0)))
        if left <= 0:
            dead.append((fox, False))
    return sorted(dead)
