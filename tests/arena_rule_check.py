"""An independent rule checker of arena games, written from the rules (not from the engine): `rule_breaks(game)` lists
every rule a game log breaks, read from the log alone: its events, its turns and the move rules it declares
(`rules.moves`, which every arena log states in full). Used by tests/test_arena_rules.py and by
bench/arena_rules.py (the replay of many games on the human boards, BENCHMARKS.md).

Checked: the game ends when a side has won under the log's win condition, with that side as winner; one death per seat (never eliminated twice, nor self-destructing once out); dead seats never act or
speak again (last words aside); seer results are true (a card a seer sees as good while another role's holder
is in, the wolf brothers', as the board declares); the demon's results; a poisoned hunter never shoots; the witch
never saves and poisons in one night (unless the board allows both) and saves herself only as the board allows; a
poison does not kill the demon, the witch hunter or the nightmare knight; a seer's check or a witch's poison on the
nightmare knight (or a move on a declared card that reflects it) kills its maker at that dawn;
the guard never protects one seat two nights running (unless allowed); the wolf beauty charms as the board allows
(`charm_target`); the stalker assassinates once, a seat it voted for (that day's vote under `same_day`); a
silenced seat says nothing; a self-destruct ends the day with no vote after it; a card that may not
self-destruct never does; a campaign self-destruct loses the badge or suspends the election to the next morning
(`campaign_self_destruct`), a second one loses it; a check aimed at a seat the magician swapped tells the other seat's side; the nine-tailed fox's count
and its exit; the sky dog's swallow and its voters' lost night; the moon girl's one delay a day after the vote; a sheriff vote has one round under `sheriff_tie: badge_lost`, at
most two otherwise; a lone kill comes once, the night after the role it waits for left; links (the ghost bride, cupid, a
card using the engine's `link` id): made on night 1, lovers leaving together, who switches to the third side, the third
side's kill and its win.
"""

from __future__ import annotations

import re
from collections import defaultdict

from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for

LAST_WORDS = re.compile(r"last words|遗言")
# The rules of cards the checker knows by role id (the board's declarations of them are data the engine reads;
# here they are restated from the rules text of the human boards, independently).
NO_SELF_DESTRUCT = {"wolf_beauty", "wolf_brother", "nightmare_knight"}
SEEN_GOOD_WHILE = {"wolf_younger_brother": "wolf_brother"}
SOLO_AFTER = {"wolf_younger_brother": "wolf_brother"}
SWAP_SKILLS = {"magician_swap"}
# Links (the hosts' rules of the ghost bride, the usual rule of cupid): role -> (starts on, link kind, witness,
# who changes side: 'always' the lovers and the witness, 'mixed' the lovers and the card when the lovers' cards differ).
LINKERS = {"ghost_bride": ("third", "self", True, "always"), "cupid": ("good", "pair", False, "mixed")}
LINK_SKILLS = {"ghost_bride_link", "cupid_link", "link"}  # 'link': the engine's default id, a user's own card's
POISON_PROOF = {"demon", "witch_hunter", "nightmare_knight"}  # a witch's poison does not kill them
# Moves that come back on their maker, who dies at that dawn: a seer checking the nightmare knight, a witch poisoning him.
# A card the game declares states its own (`reflects` of its declaration: the rule is the game's, not the catalogue's).
REFLECTS = {"nightmare_knight": {"seer_check", "witch_poison"}}
FOXES = {"nine_tailed_fox": (9, {"village": 1, "gods": 2})}  # tails at the start; lost per death of a seat of each team  # two events of one night: the two seats whose numbers are swapped for that night


def _night(phase: str) -> int:
    return int(phase.rsplit("-", 1)[1])


def rule_breaks(game: GameLog) -> list[str]:
    faction = {s.seat: s.faction for s in game.seats}
    role = {s.seat: s.role for s in game.seats}
    catalogue = catalogue_for(game.rules.declared_roles)
    moves = game.rules.moves
    out: list[str] = []
    gone: dict[int, int] = {}  # seat -> segment of its exit
    gone_phase: dict[int, str] = {}
    for e in game.events:
        if e.kind == "elimination":
            if e.target in gone:
                out.append(f"seat {e.target} eliminated twice")
            gone[e.target] = e.segment_id
            gone_phase[e.target] = e.phase
        if e.kind == "self_destruct" and e.actor in gone:
            out.append(f"seat {e.actor} self-destructs after leaving")
    order = {p.id: i for i, p in enumerate(game.phases)}

    def out_before(seat_role: str, phase: str) -> bool:
        """Whether every holder of `seat_role` left before `phase` began."""
        holders = [s for s, r in role.items() if r == seat_role]
        return all(s in gone_phase and order[gone_phase[s]] < order[phase] for s in holders)

    swaps: dict[tuple[str, int], list[int]] = {}  # (night, magician) -> the two seats swapped (a move aimed at one lands on the other)
    for e in game.events:
        if e.skill in SWAP_SKILLS:
            swaps[(e.phase, e.actor)] = [*swaps.get((e.phase, e.actor), []), e.target]
    landed: dict[str, dict[int, int]] = defaultdict(dict)
    for (phase, _), pair in swaps.items():
        if len(pair) != 2:
            out.append(f"a swap in {phase} names {len(pair)} seats")
            continue
        landed[phase].update({pair[0]: pair[1], pair[1]: pair[0]})
    for e in game.events:
        seat = landed[e.phase].get(e.target, e.target)
        if e.skill == "seer_check":
            hidden = role[seat] in SEEN_GOOD_WHILE and not out_before(SEEN_GOOD_WHILE[role[seat]], e.phase)
            truth = "wolf" if faction[seat] == "wolf" and not hidden else "good"
            if e.result != truth:
                out.append(f"seer check of {e.target} says {e.result}")
        if e.skill == "demon_check" and e.result != ("god" if catalogue.get(role[seat]).is_god else "not_god"):
            out.append(f"demon check of {e.target} says {e.result}")
        if e.kind == "vote" and e.actor in gone and gone[e.actor] < e.segment_id:
            out.append(f"dead seat {e.actor} votes in {e.phase}")
        if e.kind == "skill_use" and isinstance(e.actor, int) and e.actor in gone and e.skill not in ("hunter_shoot", "white_wolf_king_take") \
                and e.segment_id is not None and gone[e.actor] < e.segment_id:
            out.append(f"dead seat {e.actor} uses {e.skill}")
        if e.skill == "witch_save" and e.target == e.actor:
            rule = moves.witch_self_save if moves else "never"
            if rule == "never" or (rule == "first_night" and _night(e.phase) != 1):
                out.append(f"the witch saved herself in {e.phase} (rule: {rule})")
        if e.skill == "wolf_beauty_charm" and moves and moves.charm_target == "good" and faction.get(e.target) != "good":
            out.append(f"the wolf beauty charms seat {e.target}, not a good-side seat")
        if e.kind == "self_destruct" and role.get(e.actor) in NO_SELF_DESTRUCT:
            out.append(f"seat {e.actor} ({role[e.actor]}) self-destructs")
    # The witch's potions, the guard's repeats, the stalker's once-a-game strike on a seat it voted for.
    nights = defaultdict(set)
    for e in game.events:
        if e.skill in ("witch_save", "witch_poison"):
            nights[e.phase].add(e.skill)
    if not (moves and moves.witch_both_potions):
        out += [f"save and poison in {p}" for p, s in nights.items() if len(s) == 2]
    guarded = {(e.actor, _night(e.phase)): e.target for e in game.events if e.skill == "guard_protect"}
    if not (moves and moves.guard_repeat):
        out += [f"guard {a} protects seat {t} two nights running (night {n})" for (a, n), t in guarded.items()
                if t is not None and guarded.get((a, n - 1)) == t]
    strikes = [e for e in game.events if e.skill == "stalker_assassinate"]
    out += [f"the stalker {a} strikes twice" for a in {e.actor for e in strikes} if sum(1 for e in strikes if e.actor == a) > 1]
    for e in strikes:
        days = {_night(v.phase) for v in game.events if v.kind == "vote" and v.actor == e.actor and v.target == e.target and v.phase.startswith("day-")}
        allowed = {_night(e.phase) - 1} if moves and moves.stalker_window == "same_day" else {d for d in days if d < _night(e.phase)}
        if not days & allowed:
            out.append(f"the stalker {e.actor} assassinates seat {e.target}, not voted for {'that day' if len(allowed) == 1 else 'before'}")
    poisoned = {landed[e.phase].get(e.target, e.target) for e in game.events if e.skill == "witch_poison"}
    knifed = {(e.phase, landed[e.phase].get(e.target, e.target)) for e in game.events if e.skill == "wolf_kill"}
    nights = [p.id for p in game.phases if p.kind == "night"]
    for e in game.events:
        seat = landed[e.phase].get(e.target, e.target)
        if e.skill != "witch_poison" or role.get(seat) not in POISON_PROOF or (e.phase, seat) in knifed:
            continue
        after = nights[nights.index(e.phase) + 1] if nights.index(e.phase) + 1 < len(nights) else None
        if any(x.kind == "elimination" and x.target == seat and x.result in ("night_death", "poisoned") and order[e.phase] < order[x.phase]
               and (after is None or order[x.phase] < order[after]) for x in game.events):
            out.append(f"seat {seat} ({role[seat]}) dies at the dawn after {e.phase} of a poison its role survives")
    out += _reflections(game, role, landed, order)
    out += [f"poisoned hunter {e.actor} shoots" for e in game.events if e.skill == "hunter_shoot" and e.actor in poisoned
            and gone.get(e.actor) is not None and any(x.kind == "elimination" and x.target == e.actor and x.result == "night_death" for x in game.events)
            and role[e.actor] == "hunter"]
    sides, lovers, third_breaks = _third_side(game, role, gone, gone_phase, order)
    out += third_breaks
    out += _end(game, catalogue, gone_phase, order, sides)
    out += _tails(game, catalogue, role, order)
    out += _sky_dog_and_moon(game, catalogue, role)
    out += _lone_kills(game, role, gone_phase, order)
    out += _talk(game, gone)
    out += _sheriff(game, moves)
    return out


def _reflections(game: GameLog, role: dict, landed: dict, order: dict) -> list[str]:
    """A move that lands on a card reflecting it kills its maker at that night's dawn (before the next night)."""
    reflects = {**REFLECTS, **{d.id: set(d.reflects) for d in game.rules.declared_roles if d.reflects is not None}}
    nights = [p.id for p in game.phases if p.kind == "night"]
    out = []
    for e in game.events:
        seat = landed[e.phase].get(e.target, e.target)
        if e.kind != "skill_use" or not isinstance(e.actor, int) or seat == e.actor or e.skill not in reflects.get(role.get(seat), ()):
            continue
        after = nights[nights.index(e.phase) + 1] if e.phase in nights and nights.index(e.phase) + 1 < len(nights) else None
        if not any(x.kind == "elimination" and x.target == e.actor and x.result == "night_death" and order[e.phase] < order[x.phase]
                   and (after is None or order[x.phase] < order[after]) for x in game.events):
            out.append(f"seat {e.actor}'s {e.skill} on seat {seat} ({role[seat]}) in {e.phase} does not kill it at that dawn")
    return out


def _decided(game: GameLog, catalogue, alive: set[int], sides: dict[int, str]) -> str | None:
    """The side that has won with `alive` in, under the log's win condition (None: play on). A third side wins when
    it is all that is in; while any of it is in, no other side wins."""
    if not alive:
        return None
    third = [s for s in alive if sides[s] == "third"]
    if third:
        return "third" if len(third) == len(alive) else None
    wolves = [s for s in alive if sides[s] == "wolf"]
    good = [s for s in alive if sides[s] == "good"]
    if not wolves:
        return "good"
    win = game.rules.win_condition
    if win == "parity":
        return "wolf" if len(wolves) >= len(good) else None
    if win == "all_elimination":
        return None if good else "wolf"

    def team(seat: int) -> str:
        return catalogue.get(game.seats[seat - 1].role).team or "village"

    teams = {team(s.seat) for s in game.seats if sides[s.seat] == "good"}
    return "wolf" if not good or teams - {team(s) for s in good} else None


def _end(game: GameLog, catalogue, gone_phase: dict, order: dict, sides: dict[int, str]) -> list[str]:
    """The game ends at the first phase after which a side has won (an election phase is read with its day: the
    night's deaths are told after it), and that side is the recorded winner."""
    out = []
    seats = {s.seat for s in game.seats}
    for i, p in enumerate(game.phases):
        if p.kind == "sheriff_election":
            continue
        alive = {s for s in seats if not (s in gone_phase and order[gone_phase[s]] <= i)}
        side = _decided(game, catalogue, alive, sides)
        if side is not None:
            if i < len(game.phases) - 1:
                out.append(f"the game goes on after {p.id}, when the {side} side had won")
            if game.winner != side:
                out.append(f"the {side} side won after {p.id}, but the log records {game.winner!r}")
            break
    else:
        if game.winner is not None:
            out.append(f"the log records {game.winner!r} as the winner, but no side had won")
    return out


def _third_side(game: GameLog, role: dict, gone: dict, gone_phase: dict, order: dict) -> tuple[dict[int, str], list[tuple[int, int]], list[str]]:
    """Links and the third side: each seat's side for the win (its card's, 'third' from its switch or its card); the
    lovers; and the breaks: a link only on night 1 and once, the ghost bride's groom and witness (and cupid's mixed
    couple with cupid) switching and nobody else, lovers leaving together (the partner at once, taking nobody along),
    the third side's kill only once no wolf-side seat is in, made by a lover still in, else the witness."""
    out: list[str] = []
    sides = {s.seat: "third" if LINKERS.get(s.role, ("",))[0] == "third" else ("wolf" if s.faction == "wolf" else "good") for s in game.seats}
    card = dict(sides)
    links: dict[int, list[int]] = defaultdict(list)
    for e in game.events:
        if e.skill in LINK_SKILLS:
            links[e.actor].append(e.target)
            if e.phase != "night-1":
                out.append(f"seat {e.actor} links seat {e.target} in {e.phase}, not on night 1")
    lovers = []
    for actor, targets in links.items():
        if len(targets) > 2 or (len(targets) == 1 and actor in targets) or len(set(targets)) < len(targets):
            out.append(f"seat {actor} links {targets}")
        lovers.append((actor, targets[0]) if len(targets) == 1 else (targets[0], targets[-1]))
    switched = {e.target for e in game.events if e.skill == "side_switch"}
    witnesses = {e.actor: e.target for e in game.events if e.skill == "witness"}
    for actor, pair in zip(links, lovers):
        rule = LINKERS.get(role[actor])
        if rule is None:
            continue
        _, kind, has_witness, switch = rule
        witness = next((w for a, w in witnesses.items() if a in pair), None)
        if kind == "self" and actor not in pair:
            out.append(f"the {role[actor]} {actor} is not one of the lovers she links")
        if has_witness and (witness is None or witness in pair):
            out.append(f"the lovers {pair} name no witness outside the couple")
        want = ({*pair, witness} - {actor} if switch == "always" else
                ({*pair, actor} if len({card[x] for x in pair}) > 1 else set())) - {None}
        if switch == "mixed" and card[actor] == "third":
            want.discard(actor)
        if {x for x in switched if x in want | set(pair) | {actor, witness}} != want:
            out.append(f"after the link of {pair} the seats that switch side are {sorted(switched)}, not {sorted(want)}")
    for x in switched:
        sides[x] = "third"
    exits = {e.target: e for e in game.events if e.kind == "elimination"}
    for a, b in lovers:
        for x, y in ((a, b), (b, a)):
            if x in exits and (y not in exits or order[exits[y].phase] > order[exits[x].phase]):
                out.append(f"lover {x} leaves in {exits[x].phase} and lover {y} does not leave with them")
    for x, e in exits.items():
        if e.result == "died_with_partner":
            mates = [b if a == x else a for a, b in lovers if x in (a, b)]
            if not any(m in gone and gone[m] <= e.segment_id for m in mates):
                out.append(f"seat {x} dies with a partner who has not left")
            if any(v.skill == "hunter_shoot" and v.actor == x for v in game.events):
                out.append(f"seat {x}, gone with its lover, shoots")
    for e in game.events:
        if e.skill not in ("third_kill", "wolf_kill") or e.actor is None:  # (the witch is told the pack's victim: no actor)
            continue
        alive = {s for s in sides if not (s in gone_phase and order[gone_phase[s]] < order[e.phase])}
        if e.skill == "wolf_kill" and sides.get(e.actor) != "wolf":
            out.append(f"seat {e.actor} ({sides.get(e.actor)} side) makes the pack's kill in {e.phase}")
        if e.skill != "third_kill":
            continue
        in_lovers = [x for pair in lovers for x in pair if x in alive and sides[x] == "third"]
        if any(sides[s] == "wolf" for s in alive):
            out.append(f"the third side kills in {e.phase} while a wolf-side seat is in")
        if sides.get(e.actor) != "third" or (in_lovers and e.actor not in in_lovers) or (not in_lovers and e.actor not in witnesses.values()):
            out.append(f"seat {e.actor} makes the third side's kill in {e.phase}")
        if e.target is not None and sides.get(e.target) == "third":
            out.append(f"the third side kills its own seat {e.target} in {e.phase}")
    return sides, lovers, out


def _tails(game: GameLog, catalogue, role: dict, order: dict) -> list[str]:
    """The fox's count each night (that night's deaths counted), and its exit when no tail is left, not before."""
    out = []
    exits = [(order[e.phase], i, e) for i, e in enumerate(game.events) if e.kind == "elimination"]
    for fox, card in role.items():
        if card not in FOXES:
            continue
        start, cost = FOXES[card]

        def left(upto: int, dawn_of: int | None = None, fox: int = fox, start: int = start, cost: dict = cost) -> int:
            """Tails left once every exit before event index `upto` (and the night deaths told at day `dawn_of`) is counted."""
            lost = 0
            for _, i, e in exits:
                if e.target != fox and (i < upto or (dawn_of is not None and e.result == "night_death" and e.phase == f"day-{dawn_of}")):
                    lost += cost.get(catalogue.get(role[e.target]).team or "village", 0)
            return start - lost

        for i, e in enumerate(game.events):
            if e.skill == "fox_tails" and e.actor == fox:
                want = max(left(i, _night(e.phase)), 0)
                if e.result != str(want):
                    out.append(f"the fox {fox} is told {e.result} tails in {e.phase}, not {want}")
        fox_exit = next((i for _, i, e in exits if e.target == fox), None)
        if fox_exit is not None and game.events[fox_exit].result == "tails_lost" and left(fox_exit) > 0:
            out.append(f"the fox {fox} leaves with {left(fox_exit)} tails left")
        if fox_exit is None and left(len(game.events)) <= 0:
            out.append(f"the fox {fox} stays in with no tail left")
    return out


def _sky_dog_and_moon(game: GameLog, catalogue, role: dict) -> list[str]:
    """The sky dog: swallows another seat, never the same two nights running; the swallowed seat is not exiled the next
    day (the exile is void and no ballot follows); the gods who voted it out make no night move the next night. The
    moon girl: puts night off at most once a day, after that day's vote."""
    out = []
    swallows = {(_night(e.phase), e.target): e.actor for e in game.events if e.skill == "tiangou_swallow"}
    for (n, seat), dog in swallows.items():
        if seat == dog:
            out.append(f"the sky dog {dog} swallows itself on night {n}")
        if (n - 1, seat) in swallows:
            out.append(f"the sky dog swallows seat {seat} two nights running (night {n})")
        if any(e.kind == "elimination" and e.target == seat and e.result == "voted_out" and e.phase == f"day-{n}" for e in game.events):
            out.append(f"seat {seat}, swallowed on night {n}, is voted out on day {n}")
    for v in (e for e in game.events if e.skill == "exile_void"):
        if (_night(v.phase), v.target) not in swallows:
            out.append(f"an exile of seat {v.target} is void in {v.phase} without a swallow")
        if [x for x in game.events if x.kind == "vote" and x.phase == v.phase and x.segment_id > v.segment_id]:
            out.append(f"a vote follows the void exile in {v.phase}")
    for e in game.events:
        if e.kind == "elimination" and e.result == "voted_out" and role.get(e.target) == "tiangou":
            # The ballots of the vote that exiled it (read out with the exile), not an earlier vote that day (the moon girl's).
            ballots = [x for x in game.events if x.kind == "vote" and x.phase == e.phase and x.segment_id == e.segment_id]
            gods = {x.actor for x in ballots if x.target == e.target
                    and catalogue.get(role[x.actor]).team == "gods"}
            night = f"night-{_night(e.phase) + 1}"
            acted = {x.actor for x in game.events if x.kind == "skill_use" and x.phase == night and x.actor in gods}
            out += [f"god {g} voted the sky dog out on {e.phase} and still acts in {night}" for g in sorted(acted)]
    moons = [e for e in game.events if e.skill == "moon_delay"]
    for e in moons:
        if sum(1 for m in moons if m.phase == e.phase) > 1:
            out.append(f"night is put off twice in {e.phase}")
        if not [x for x in game.events if x.kind == "vote" and x.phase == e.phase and x.segment_id < e.segment_id]:
            out.append(f"night is put off in {e.phase} before that day's vote")
    return sorted(set(out))


def _lone_kills(game: GameLog, role: dict, gone_phase: dict, order: dict) -> list[str]:
    out = []
    for e in (e for e in game.events if e.skill == "solo_kill"):
        waits = SOLO_AFTER.get(role.get(e.actor))
        holders = [s for s, r in role.items() if r == waits]
        if waits is None or not all(s in gone_phase and order[gone_phase[s]] < order[e.phase] for s in holders):
            out.append(f"seat {e.actor} kills alone in {e.phase} before the role it waits for left")
    solo = [e.actor for e in game.events if e.skill == "solo_kill"]
    out += [f"seat {s} kills alone twice" for s in set(solo) if solo.count(s) > 1]
    return out


def _talk(game: GameLog, gone: dict) -> list[str]:
    out = []
    utterances = game.utterances
    for i, u in enumerate(utterances):
        if isinstance(u.speaker, int) and u.speaker in gone and gone[u.speaker] < u.segment_ids[0]:
            prev = utterances[i - 1]
            if not (prev.speaker == "host" and LAST_WORDS.search(prev.text)):
                out.append(f"dead seat {u.speaker} speaks at segment {u.segment_ids[0]}")
    # Night N is followed by day N (and day N's election): the seat silenced at night says nothing that day.
    silenced = {(_night(e.phase), e.target) for e in game.events if e.skill == "silence" and e.target is not None}
    out += [f"silenced seat {u.speaker} speaks on day {d}" for u in utterances for d, seat in silenced
            if u.speaker == seat and u.phase in (f"day-{d}", f"sheriff_election-{d}")]
    for e in game.events:
        if e.kind == "self_destruct":
            later = [v for v in game.events if v.kind == "vote" and v.phase == e.phase and v.segment_id > e.segment_id]
            if later:
                out.append(f"votes after {e.actor}'s self-destruct")
    return out


def _sheriff(game: GameLog, moves) -> list[str]:
    """The campaign self-destruct and the tie rules of the sheriff election."""
    out = []
    elections = [p.id for p in game.phases if p.kind == "sheriff_election"]
    destructs = [e for e in game.events if e.kind == "self_destruct" and e.phase in elections]
    results = {e.phase: e.target for e in game.events if e.kind == "sheriff_election"}
    resumes = moves is not None and moves.campaign_self_destruct == "election_resumes"
    for i, e in enumerate(destructs):
        if resumes and i == 0:
            if e.phase in results:
                out.append(f"the election of {e.phase} is decided after a first campaign self-destruct; it should resume the next morning")
            if not [p for p in elections if p != e.phase] and _resumable(game, e):
                out.append(f"the election broken off in {e.phase} never resumes")
        elif results.get(e.phase, "missing") is not None:
            out.append(f"a campaign self-destruct in {e.phase} does not lose the badge")
    tie_rounds = 1 if moves is not None and moves.sheriff_tie == "badge_lost" else 2
    for phase in elections:
        rounds = {v.round or 1 for v in game.events if v.kind == "vote" and v.phase == phase}
        if rounds and max(rounds) > tie_rounds:
            out.append(f"the sheriff vote of {phase} has {max(rounds)} rounds (at most {tie_rounds})")
    return out


def _resumable(game: GameLog, e) -> bool:
    """Whether the game went on to a next day after the broken-off election (else it had no morning to resume in)."""
    day = _night(e.phase)
    return any(p.kind == "day" and p.day == day + 1 for p in game.phases)
