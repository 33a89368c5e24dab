#!/usr/bin/env python
"""Build the bundled English sample dataset, `werealign/sample/`, from the readable data below.

This file is the source of truth of the sample: two original 12-seat Werewolf games written for
werealign (invented players, invented speeches), their speech items (RI SJ DR PS CT), a rule
reminder per item and an objective rewrite (OSR) of every utterance. Vote (VA) and opponent (OI)
items are derived from the games, as `werealign derive` would.

Each turn is a list of sentences; every sentence becomes one transcript segment with its own id
and time, so a cut-off can fall inside a turn. Times are computed, never written by hand.
The builder checks each game's internal consistency (dead players stay silent and do not vote,
tallies match exiles, night outcomes match the night's actions, seer checks match true roles,
the winner is right) and refuses to write an inconsistent sample.

Usage:
    python scripts/build_sample.py            # rewrite werealign/sample in place
    python scripts/build_sample.py OUT_DIR    # write elsewhere (the test compares the two)

Deterministic: no clock, no randomness; the same source gives the same bytes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

# --------------------------------------------------------------------------- the little script language


@dataclass(frozen=True)
class Turn:
    """One speaker's contiguous turn. `osr` is its objective rewrite; `key` lets items and
    highlights point at it; `last_words` allows a player who just died to speak."""

    speaker: int | str
    sentences: tuple[str, ...]
    osr: str
    key: str | None = None
    last_words: bool = False


@dataclass(frozen=True)
class PhaseStart:
    id: str
    kind: str
    day: int


@dataclass(frozen=True)
class Silence:
    """Seconds in which nobody speaks (the night's actions, the voting itself)."""

    seconds: int


@dataclass(frozen=True)
class Ev:
    """An event, anchored to the last segment spoken before it unless `at` names a turn key."""

    kind: str
    target: int | None = None
    actor: int | str | None = None
    skill: str | None = None
    result: str | None = None
    public: bool = True
    note: str | None = None
    at: str | None = None


def host(*sentences: str, key: str | None = None, osr: str | None = None) -> Turn:
    # The host's lines are already neutral announcements: the rewrite keeps them as they are.
    return Turn("host", sentences, osr if osr is not None else " ".join(sentences), key)


def say(seat: int, *sentences: str, osr: str, key: str | None = None, last_words: bool = False) -> Turn:
    return Turn(seat, sentences, osr, key, last_words)


def votes(ballots: dict[int, int]) -> list[Ev]:
    """Every voter's ballot, in seat order."""
    return [Ev("vote", actor=voter, target=ballots[voter]) for voter in sorted(ballots)]


def night(actions: list[tuple[str, int, int, str | None]]) -> list[Ev]:
    """Private night actions: (skill, actor seat, target seat, result)."""
    return [Ev("skill_use", actor=a, target=t, skill=s, result=r, public=False) for s, a, t, r in actions]


@dataclass(frozen=True)
class Item:
    """A speech item: asked from the MVP's seat at the last segment of turn `cut`
    (or at sentence `sentence` of it). `options` are in display order; exactly one is
    the ground truth."""

    dimension: str
    cut: str
    question: str
    options: tuple[tuple[str, str], ...]
    explanation: str
    rule_reminder: str
    sentence: int | None = None


GT, ROLE, OCC, INV, BIAS = (
    "ground_truth",
    "m1_role_perturbation",
    "m1_information_occlusion",
    "m1_faction_inversion",
    "m2_biased_rationale",
)


@dataclass
class GameSpec:
    game_id: str
    title: str
    rules_text: str
    variant: str
    seats: list[tuple[int, str, str]]  # seat, player name, canonical role
    script: list
    mvp: int
    highlights: list[tuple[str, str, str]]  # turn key, kind, note
    recap: str
    annotator_log: str
    items: list[Item] = field(default_factory=list)


# =========================================================================== game 1
# Seer, witch, hunter, guard against four werewolves. The seer (seat 7) takes the badge with a
# wolf check, survives a fake hunter, a fake seer and a fake guard, and finds the deep wolf.

G1_RULES = (
    "Twelve players: four werewolves, four villagers, a seer, a witch, a hunter and a guard. "
    "Each night the werewolves agree on one player to kill; the seer checks one player and learns "
    "whether they are a werewolf; the witch holds one antidote and one poison, may not use both on "
    "the same night and may not save their own seat; the guard protects one player from the wolves' kill "
    "and may not protect the same player two nights in a row (a player both guarded and saved still "
    "dies). The hunter, when killed other than by poison, shoots one player. On the first morning "
    "the players elect a sheriff: candidates speak, candidates may withdraw, and only players who did "
    "not run vote. The sheriff's vote counts one and a half, the sheriff sets the speaking order and "
    "speaks last, and a sheriff who dies passes or tears the badge. Each day everyone alive speaks "
    "once and then votes to exile one player. Exiled players, players shot by the hunter and the "
    "victims of the first night give last words; later night victims do not. The good side wins "
    "when every werewolf is out; the werewolves win when every villager or every special role "
    "(seer, witch, hunter, guard) is out."
)

G1_SEATS = [
    (1, "Adam", "villager"),
    (2, "Ben", "witch"),
    (3, "Chloe", "werewolf"),
    (4, "Dev", "villager"),
    (5, "Elena", "hunter"),
    (6, "Felix", "werewolf"),
    (7, "Grace", "seer"),
    (8, "Hiro", "werewolf"),
    (9, "Iris", "guard"),
    (10, "Jonah", "villager"),
    (11, "Karl", "werewolf"),
    (12, "Leo", "villager"),
]

G1_SCRIPT = [
    PhaseStart("night-1", "night", 1),
    host("Night falls on the village. Everyone, close your eyes.", key="n1"),
    *night([
        ("guard_protect", 9, 9, None),
        ("wolf_kill", 3, 4, None),
        ("witch_save", 2, 4, None),
        ("seer_check", 7, 11, "wolf"),
    ]),
    Silence(150),

    PhaseStart("sheriff-election", "sheriff_election", 1),
    host(
        "Day breaks. Before I announce the night, we elect a sheriff.",
        "The sheriff's vote counts one and a half, and the sheriff sets the speaking order.",
        "Seats 3, 7, 10 and 12 are running. Seat 10 speaks first, then seat 7, seat 3 and seat 12.",
    ),
    say(10,
        "I ran mainly so that I get to speak early.",
        "I have no special information and I am not the seer.",
        "If a seer claims in this round, I withdraw and listen.",
        osr="Seat 10 says he has no special information, is not the seer, and will withdraw if a seer claims.",
        key="se-10"),
    say(7,
        "I am the seer.",
        "Last night I checked seat 11, and seat 11 is a werewolf.",
        "If I get the badge, I check seat 1 tonight and seat 6 tomorrow, and the badge goes to the first player I find good.",
        "Anyone who claims seer after me is lying to you.",
        osr="Seat 7 claims seer and reports seat 11 as a werewolf. She plans to check seat 1 next and then seat 6, and says any later seer claim is false.",
        key="se-7"),
    say(3,
        "Seat 7 is not the seer. I am.",
        "I checked seat 1 last night, and seat 1 is good.",
        "Seat 7 pinned a wolf on a random seat to look decisive, which is exactly what a wolf does when she claims first.",
        "Vote for me and I check seat 7 tonight.",
        osr="Seat 3 counter-claims seer, reports seat 1 as good, calls seat 7 a wolf whose check was random, and plans to check seat 7.",
        key="se-3"),
    say(12,
        "I withdraw.",
        "Seat 7 gave a wolf check and a plan; seat 3 gave a good result on the very seat seat 7 had just named.",
        "That looks like copying, so I lean towards seat 7 for the badge.",
        osr="Seat 12 withdraws. He notes that seat 3's result is on the seat seat 7 had just named and leans towards seat 7.",
        key="se-12"),
    host(
        "Seats 10 and 12 have withdrawn; seats 3 and 7 remain.",
        "Everyone who did not run, vote now.",
        key="se-vote"),
    *votes({1: 3, 2: 7, 4: 7, 5: 7, 6: 3, 8: 7, 9: 7, 11: 3}),
    Silence(20),
    host("Seat 7 has five votes and seat 3 has three. Seat 7 is the sheriff."),
    Ev("sheriff_election", target=7, result="5 votes to 3"),

    PhaseStart("day-1", "day", 1),
    host("Last night was a peaceful night: nobody died.", "Sheriff, choose the speaking order.", key="d1-host"),
    Ev("night_outcome", result="peaceful night"),
    say(7, "We start from seat 8 and go round. I speak last.",
        osr="Seat 7 sets the speaking order: from seat 8 round the table, sheriff last."),
    say(8,
        "I voted for seat 7 and I stand by it.",
        "Her wolf check came with a plan, and seat 3's result only copied the seat seat 7 had named.",
        "Today I vote seat 11 unless something new comes up.",
        osr="Seat 8 says he voted for seat 7, finds seat 3's result copied, and intends to vote seat 11.",
        key="d1-8"),
    say(9,
        "I trust seat 7.",
        "A peaceful first night means the witch or the guard acted, so the good side still has its tools.",
        "Seat 11 goes out today, and tomorrow we look hard at whoever defends seat 3.",
        osr="Seat 9 trusts seat 7, notes that a peaceful night means a save or a protection, and wants seat 11 exiled.",
        key="d1-9"),
    say(10,
        "Seat 6 voted for seat 3 without hesitating, together with seat 11, the checked wolf.",
        "That pairing bothers me.",
        "I vote seat 11 today and I am watching seat 6.",
        osr="Seat 10 points out that seat 6 voted for seat 3 alongside seat 11, and will vote seat 11 while watching seat 6.",
        key="d1-10"),
    say(11,
        "Seat 7 called me a wolf, so let me be clear: I am the hunter.",
        "If you exile me, I shoot seat 7 on my way out.",
        "The real seer is seat 3, and you are about to hand the game to the wolves.",
        osr="Seat 11 claims hunter, says he would shoot seat 7 if exiled, and supports seat 3 as seer.",
        key="d1-11"),
    say(12,
        "A hunter who announces his target before the vote is trying to scare us off.",
        "Seat 11 is still a checked wolf.",
        "If there is a real hunter at this table, now is the time to say so.",
        osr="Seat 12 reads seat 11's threat as intimidation, repeats that seat 11 is checked as a wolf, and asks a real hunter to speak.",
        key="d1-12"),
    say(1,
        "Seat 3 says I am good, which is true, but anyone could have said it after seat 7 named me.",
        "So seat 3's result tells us nothing.",
        "I voted seat 3 for sheriff, and now I think that was a mistake.",
        osr="Seat 1 confirms he is good but says seat 3's result on him proves nothing, and regrets voting for seat 3.",
        key="d1-1"),
    say(2,
        "I have a role and I am not naming it yet.",
        "Nothing I know contradicts seat 7, and seat 3's claim has the copying problem everyone has seen.",
        "Vote seat 11.",
        osr="Seat 2 says he has an undisclosed role, knows nothing against seat 7, doubts seat 3, and votes seat 11.",
        key="d1-2"),
    say(3,
        "A badge does not make seat 7 the seer.",
        "Seat 11 claims hunter; if her wolf check landed on the hunter, seat 7 is the wolf.",
        "Seat 6 and I are attacked for voting the same way, and that is not evidence.",
        "I vote seat 7.",
        osr="Seat 3 argues that if seat 11 is the hunter then seat 7 is a wolf, rejects the voting-pattern argument, and votes seat 7.",
        key="d1-3"),
    say(4,
        "Seat 3's only result is a seat she heard named a minute earlier.",
        "And she defends seat 11, whom seat 7 checked as a wolf.",
        "I vote seat 11.",
        osr="Seat 4 notes that seat 3's result is on a seat named just before and that she defends seat 11; he votes seat 11.",
        key="d1-4"),
    say(5,
        "I am the hunter, and seat 11 is lying.",
        "My gun is loaded, and I will use it where the sheriff's checks point.",
        "Seat 11 claimed my card to scare you, so seat 11 is a wolf whatever else you believe.",
        osr="Seat 5 counter-claims hunter, says seat 11's hunter claim is false and seat 11 is a wolf, and will follow the sheriff's checks.",
        key="d1-5"),
    say(6,
        "Two seer claims and two hunter claims: half of these people are wolves.",
        "I voted seat 3 because she spoke with more detail.",
        "I am not sure about seat 11, and seat 5 jumping in like that is just as suspicious.",
        osr="Seat 6 says he voted seat 3 for her detail, is unsure about seat 11, and finds seat 5's claim suspicious.",
        key="d1-6"),
    say(7,
        "Here is where we stand.",
        "Seat 11 is my checked wolf, and his hunter claim has just been contradicted by seat 5.",
        "Seat 3 copied the seat I named and then defended seat 11, and seat 6 defends them both.",
        "Everyone on seat 11 today; tomorrow we deal with seat 3 and seat 6.",
        osr="Seat 7 summarises: seat 11 is her checked wolf with a contested hunter claim; seat 3 and seat 6 are suspect. She asks for votes on seat 11.",
        key="d1-7"),
    host("Speeches are over. The sheriff's vote counts one and a half. Everyone vote now.", key="d1-vote"),
    *votes({1: 11, 2: 11, 3: 7, 4: 11, 5: 11, 6: 7, 7: 11, 8: 11, 9: 11, 10: 11, 11: 7, 12: 11}),
    Silence(20),
    host("Seat 11 has nine and a half votes and seat 7 has three. Seat 11 is exiled. Seat 11, your last words.", key="d1-result"),
    Ev("elimination", target=11, result="exiled"),
    say(11,
        "I am not shooting; you would only say I picked a random target.",
        "Seat 5's claim came far too conveniently.",
        "Watch seat 7's next result.",
        osr="Seat 11 declines to shoot, calls seat 5's hunter claim convenient, and tells the table to watch seat 7's next result.",
        key="d1-11-last", last_words=True),

    PhaseStart("night-2", "night", 2),
    host("Night falls. Everyone, close your eyes.", key="n2"),
    *night([
        ("guard_protect", 9, 7, None),
        ("wolf_kill", 3, 5, None),
        ("seer_check", 7, 1, "good"),
    ]),
    Silence(150),

    PhaseStart("day-2", "day", 2),
    host("Dawn. Last night seat 5 died.", "Seat 5, you may use your skill.", key="d2-host"),
    Ev("night_outcome", target=5, result="died"),
    Ev("elimination", target=5, result="died in the night"),
    say(5, "I am the hunter, and I shoot seat 3.",
        osr="Seat 5 reveals the hunter card and shoots seat 3.", key="d2-5", last_words=True),
    Ev("skill_use", actor=5, target=3, skill="hunter_shoot"),
    Ev("elimination", target=3, result="shot by the hunter"),
    host("Seat 3 is shot. Seat 3, your last words."),
    say(3,
        "You have just shot the real seer.",
        "From now on seat 7 picks every exile alone, and the wolves will hide behind her.",
        "Look at who she never checks.",
        osr="Seat 3 repeats her seer claim, warns that seat 7 now controls the exiles, and tells the table to note whom seat 7 does not check.",
        key="d2-3-last", last_words=True),
    say(7,
        "My check last night: seat 1 is good.",
        "Seat 1 was also seat 3's result, so this clears seat 1 and says nothing either way about seat 3.",
        "We start from seat 10 and go round. I speak last.",
        osr="Seat 7 reports seat 1 as good, notes this neither supports nor refutes seat 3, and sets the order from seat 10 with herself last.",
        key="d2-7a"),
    say(10,
        "Same as yesterday: seat 6.",
        "He defended seat 3, voted with seat 3 and seat 11 in the sheriff race, and voted seat 7 on day one.",
        "Every wolf suspect we have had stood next to him.",
        osr="Seat 10 wants seat 6 exiled because seat 6 defended seat 3 and voted with seat 3 and seat 11.",
        key="d2-10"),
    say(12,
        "The wolves killed the hunter who had revealed herself, not the sheriff.",
        "They must have expected seat 7 to be protected, or feared a potion.",
        "Seat 6 has the worst record at this table. I vote seat 6.",
        osr="Seat 12 notes the wolves killed the revealed hunter rather than the sheriff, and votes seat 6 for his record.",
        key="d2-12"),
    say(1,
        "Seat 7's check confirms me, thank you.",
        "Yesterday I said seat 3's result on me meant nothing, and that still holds.",
        "Seat 6.",
        osr="Seat 1 accepts seat 7's good result on him, repeats that seat 3's result proved nothing, and votes seat 6.",
        key="d2-1"),
    say(2,
        "I still hold a potion.",
        "I will not say which one, but the wolves should think carefully about tonight.",
        "Seat 6 today.",
        osr="Seat 2 says he still holds a potion without naming which, warns the wolves, and votes seat 6.",
        key="d2-2"),
    say(4,
        "Seat 6 for me.",
        "His votes line up with seat 11, the checked wolf, and with seat 3, the rival seer, at every step.",
        osr="Seat 4 votes seat 6 because seat 6's votes matched seat 11 and seat 3.",
        key="d2-4"),
    say(6,
        "Let me stop this now: I am the guard.",
        "Last night I protected seat 7, and that is why the wolves went for seat 5 instead.",
        "Exile me and you strip the sheriff of her protection.",
        osr="Seat 6 claims guard, says he protected seat 7 last night, and argues that exiling him leaves the sheriff unprotected.",
        key="d2-6"),
    say(8,
        "Seat 6's guard claim would explain why the wolves left seat 7 alone last night.",
        "If he is the guard, exiling him is a disaster; if he is not, the real guard should speak now.",
        "I will follow the sheriff.",
        osr="Seat 8 says seat 6's guard claim is plausible, asks the real guard to reveal if seat 6 is lying, and will follow the sheriff.",
        key="d2-8"),
    say(9,
        "I am the guard, and seat 6 is lying.",
        "I will not say whom I protected last night; the wolves would love to know.",
        "Seat 6 picked my card because nobody but the real guard can contradict it.",
        osr="Seat 9 counter-claims guard, declines to say whom she protected, and calls seat 6's guard claim a lie.",
        key="d2-9"),
    say(7,
        "Two guard claims, and I believe seat 9.",
        "Seat 9 has pushed seat 11 and seat 6 since day one; seat 6 stood beside seat 3 and seat 11 at every vote.",
        "A wolf with nothing left to lose claims the one card nobody else can confirm.",
        "Everyone on seat 6. My next check stays private.",
        osr="Seat 7 believes seat 9 is the guard because of both players' records, calls seat 6's claim a last resort, asks for votes on seat 6, and keeps her next check private.",
        key="d2-7"),
    host("Speeches are over. Everyone vote now.", key="d2-vote"),
    *votes({1: 6, 2: 6, 4: 6, 6: 9, 7: 6, 8: 6, 9: 6, 10: 6, 12: 6}),
    Silence(20),
    host("Seat 6 has eight and a half votes and seat 9 has one. Seat 6 is exiled. Seat 6, your last words.", key="d2-result"),
    Ev("elimination", target=6, result="exiled"),
    say(6,
        "I was the guard.",
        "Seat 9 is a wolf, and you will find out tonight.",
        osr="Seat 6 repeats his guard claim and says seat 9 is a wolf.",
        key="d2-6-last", last_words=True),

    PhaseStart("night-3", "night", 3),
    host("Night falls. Everyone, close your eyes.", key="n3"),
    *night([
        ("guard_protect", 9, 9, None),
        ("wolf_kill", 8, 10, None),
        ("seer_check", 7, 8, "wolf"),
    ]),
    Silence(150),

    PhaseStart("day-3", "day", 3),
    host("Dawn. Last night seat 10 died. Sheriff, the floor is yours.", key="d3-host"),
    Ev("night_outcome", target=10, result="died"),
    Ev("elimination", target=10, result="died in the night"),
    say(7,
        "Last night I checked seat 8: seat 8 is a werewolf.",
        "He voted for me, voted out seat 11 and seat 6, and never once defended them; that was his cover.",
        "Seat 8 speaks next, then round the table.",
        osr="Seat 7 reports seat 8 as a werewolf, says his votes against the other suspects were cover, and gives seat 8 the floor.",
        key="d3-7a"),
    say(8,
        "I am the witch.",
        "On the first night the wolves attacked seat 4 and I saved him; that is why the night was peaceful.",
        "Seat 7 is a wolf who got lucky with seat 11, and if you keep me I poison her tonight.",
        osr="Seat 8 claims witch, says he saved seat 4 on the first night, calls seat 7 a wolf, and threatens to poison her.",
        key="d3-8"),
    say(9,
        "Seat 8 says he is the witch only after seat 7's check lands on him.",
        "If the real witch is alive, this is the moment to speak.",
        osr="Seat 9 notes that seat 8 claimed witch only after being checked, and asks the real witch to speak.",
        key="d3-9"),
    say(12,
        "Seat 8 sat on a witch card through two exiles and a night death, and shows it only when checked.",
        "I vote seat 8.",
        osr="Seat 12 finds seat 8's late witch claim unconvincing and votes seat 8.",
        key="d3-12"),
    say(1,
        "Seat 7 has been right about seat 11 and right about me.",
        "Seat 8.",
        osr="Seat 1 trusts seat 7's record and votes seat 8.",
        key="d3-1"),
    say(2,
        "I am the witch. Seat 4 was the wolves' target on the first night, and I saved him.",
        "Seat 8 knows that name only because he helped choose it.",
        "My poison is still in my hand.",
        osr="Seat 2 counter-claims witch, confirms he saved seat 4 on the first night, says seat 8 knew the target as a wolf, and says he still holds the poison.",
        key="d3-2"),
    say(4,
        "I did not know I had been saved.",
        "One of seat 2 and seat 8 is lying, and seat 7's check says which.",
        "Seat 8.",
        osr="Seat 4 learns he was the first-night target, says one witch claim is false, follows seat 7's check and votes seat 8.",
        key="d3-4"),
    say(7,
        "Seat 8's detail is true, and that is what convicts him.",
        "Only the witch and the wolves knew seat 4's name; seat 2 hinted at a potion yesterday, seat 8 said nothing until my check.",
        "Vote seat 8.",
        osr="Seat 7 argues that seat 8's true detail could only come from the witch or a wolf, contrasts seat 2's earlier hint with seat 8's silence, and asks for votes on seat 8.",
        key="d3-7"),
    host("Speeches are over. Everyone vote now.", key="d3-vote"),
    *votes({1: 8, 2: 8, 4: 8, 7: 8, 8: 7, 9: 8, 12: 8}),
    Silence(20),
    host(
        "Seat 8 has six and a half votes and seat 7 has one. Seat 8 is exiled.",
        "Seat 8 was the last werewolf. The good side wins.",
        key="d3-result"),
    Ev("elimination", target=8, result="exiled"),
]

G1_HIGHLIGHTS = [
    ("se-7", "pivotal_claim",
     "Claims seer first with a wolf check and a public checking plan, so any rival claim has to react to hers."),
    ("d1-7", "coalition_call",
     "Holds the village on one exile despite the fake hunter claim, and parks seat 3 and seat 6 for later."),
    ("d2-7", "contradiction_exposure",
     "Settles the double guard claim with voting records instead of a check, and keeps her next check private."),
    ("d3-7", "contradiction_exposure",
     "Turns seat 8's accurate first-night detail against him: only the witch and the wolves could know it."),
]

G1_RECAP = (
    "Recap from the host. The wolves were seats 3, 6, 8 and 11. On the first night they attacked seat 4 and "
    "the witch, seat 2, saved him, while the guard, seat 9, protected herself. The seer, seat 7, checked "
    "seat 11 and won the badge five votes to three against seat 3's counter-claim, a claim that copied the "
    "seat seat 7 had said she would check. Seat 11 claimed hunter to escape the vote; the real hunter, seat "
    "5, counter-claimed and seat 11 was exiled. On night two the guard covered the sheriff and the wolves "
    "killed the hunter, who shot seat 3. Seat 6 then claimed guard, the real guard counter-claimed, and the "
    "village followed the sheriff's reading of the votes. Seat 8, the last wolf, had voted with the village "
    "all game; the witch's hint about a potion kept him off the seer on night three, seat 7 checked him, and "
    "his late witch claim collapsed against the real witch. The good side won on day three."
)

G1_LOG = (
    "Annotator log. Seat 7 (seer) is the MVP: every exile followed her lead. Decisive moments: the sheriff "
    "speech (wolf check plus a named checking plan, which made seat 3's copied result visible), the day-one "
    "summary against the fake hunter, the day-two reading of the double guard claim by voting records, and "
    "the day-three argument that seat 8's true detail proves wolf or witch. Seat 8 played a deep wolf, "
    "voting against his own partners. Seat 2's day-two line about 'a potion' was a bluff (only the poison "
    "was left); it plausibly steered the lone wolf away from the seer on night three. Night actions: "
    "N1 guard 9->9, kill 4, save 4, check 11 wolf; N2 guard 9->7, kill 5, check 1 good; N3 guard 9->9, "
    "kill 10, check 8 wolf. The witch's poison was never used."
)

# Items are asked from the seer's seat (7). She knows her own checks: seat 11 wolf (night 1),
# seat 1 good (night 2), seat 8 wolf (night 3) -- and nothing else hidden.
G1_ITEMS = [
    Item("RI", "d1-5",
         "You are seat 7, the seer. Seat 11 claimed hunter after your wolf check, and seat 5 has just "
         "counter-claimed hunter. What is the most reasonable reading of the two hunter claims?",
         (
             (OCC, "Both claims are equally likely; nothing said so far separates them, so wait for a shot."),
             (ROLE, "Seat 5 is the wolf bluffing the hunter card, and seat 11 is the real hunter your check got wrong."),
             (BIAS, "Seat 11 is the real hunter, because a hunter who names his target before the vote is confident and wolves are never that bold."),
             (GT, "Seat 11 is lying: he is your checked wolf. Seat 5 is most likely the real hunter."),
             (INV, "Seat 11 is a teammate under pressure, so you should back his hunter claim and cast doubt on seat 5."),
             (ROLE, "Both are wolves: seat 5 is covering for seat 11 with a second false claim."),
             (OCC, "Seat 5 is probably the hunter, but seat 11 may be too; exile neither until the witch speaks."),
             (INV, "Seat 5 is the threat to the wolf team and should be the exile target today."),
             (BIAS, "Seat 5 is the real hunter mainly because she spoke later and calmer, which is how real special roles sound."),
         ),
         "Seat 7's own check says seat 11 is a werewolf, so his hunter claim is false; a real hunter facing a "
         "false claim on her card has every reason to counter-claim, which makes seat 5 the likely hunter.",
         "There is exactly one hunter. The seer's check result is certain: a player checked as a werewolf is one."),
    Item("RI", "d2-9",
         "You are seat 7, the sheriff and seer. Seat 6 has claimed guard, saying he protected you last night, "
         "and seat 9 has counter-claimed guard. Who is most likely the real guard?",
         (
             (INV, "Seat 6: backing his claim keeps the vote off him and hands the day to the wolves' preferred target."),
             (OCC, "Seat 6, because the wolves did not attack you last night, which is exactly the quiet night a guard standing over you would produce."),
             (ROLE, "Seat 8, who asked the real guard to speak because he is the guard and is testing both claimants."),
             (BIAS, "Seat 9, simply because she spoke last and had the final word, which is where the truth usually lands."),
             (OCC, "Impossible to tell without a check on one of them, so abstain from the guard question today."),
             (ROLE, "Seat 6 is the guard and seat 9 is the fourth wolf sent to counter him."),
             (GT, "Seat 9: she pushed seat 11 and seat 6 from day one; seat 6 voted with seat 3 and seat 11 every time."),
             (INV, "Neither; let the table exile seat 9 so the two remaining claims cancel out."),
             (BIAS, "Seat 9, because she refused to say whom she protected, and refusing details is always a sign of honesty."),
         ),
         "Only one player holds the guard card. The voting records separate them: seat 9 consistently voted against "
         "the suspected wolves, seat 6 consistently voted with them, and seat 6's claim came only once he was the "
         "exile target.",
         "There is one guard. The guard may not protect the same player on two nights in a row."),
    Item("SJ", "se-10",
         "You are seat 7, the seer, and it is your turn in the sheriff race. Last night you checked seat 11 and "
         "found a werewolf. What should your sheriff speech do?",
         (
             (OCC, "Run as a villager and keep the check secret until the first exile vote."),
             (BIAS, "Withdraw: seers who run for sheriff always get killed the first night after."),
             (ROLE, "Claim the witch, as the seer card is too dangerous to show on day one."),
             (INV, "Stay quiet about seat 11 and give seat 11 a good result so he trusts you."),
             (GT, "Claim seer, reveal the wolf check on seat 11, and name your next checks so the badge follows a plan that anyone at the table can verify later."),
             (OCC, "Claim seer but hide the check result, saying only that you have 'information on one player'."),
             (ROLE, "Claim the guard and promise to protect whoever wins the badge, which keeps the real seer's identity hidden for one more night."),
             (INV, "Accuse seat 10 of being a wolf to split the table before the real seer can speak, then withdraw from the race."),
             (BIAS, "Claim seer loudly and vote-threaten anyone who doubts you, since authority wins badges."),
         ),
         "The seer gains most by claiming early with a verifiable result and a public checking plan: it gives the "
         "village a reason to give her the badge and forces any fake seer to react to her claim.",
         "Only players who run may become sheriff; the sheriff's vote counts one and a half and the sheriff speaks last each day."),
    Item("SJ", "d2-9",
         "You are seat 7, the sheriff. Two players now claim guard (seats 6 and 9). Your own check last night "
         "cleared seat 1. How should you direct today's exile?",
         (
             (OCC, "Exile seat 9: the guard claim that came second is usually the false one."),
             (ROLE, "Exile seat 1, as seat 3 vouched for him and the wolves' seer always vouches for a partner."),
             (GT, "Exile seat 6 on his voting record, back seat 9 as guard, and keep tonight's check private."),
             (BIAS, "Exile seat 6 because his voice shook when he claimed, and nerves give wolves away."),
             (INV, "Split the vote between seat 6 and seat 9 so nobody leaves today."),
             (OCC, "Skip the exile: with no new wolf check there is nothing to act on until tomorrow."),
             (ROLE, "Exile seat 8, since he asked the guard to reveal and only the seer would want that."),
             (INV, "Announce tonight's check target in detail so everyone, including the wolves, can plan around it."),
             (BIAS, "Exile seat 6 and announce you will check seat 9 tonight, since publishing every plan keeps the sheriff credible and credibility matters more than safety."),
         ),
         "The records single out seat 6, seat 9's counter-claim is credible, and announcing the next check would "
         "tell the wolves whom to kill, so the check stays private.",
         "The guard may not protect the same player two nights in a row; the sheriff's vote counts one and a half."),
    Item("DR", "se-12",
         "You are seat 7. In the sheriff race seat 3 counter-claimed seer and reported seat 1 as good. "
         "What is the most telling sign that her claim is fabricated?",
         (
             (ROLE, "She is the witch pretending to be the seer to protect the real seer, you."),
             (GT, "Her result sits on the seat you had just named, so it costs her nothing."),
             (OCC, "Nothing: a good result on seat 1 is as plausible as any other first check, and seers have to start somewhere, so the claim stands or falls on later results."),
             (INV, "Her claim is credible and you should withdraw to avoid a split in the village."),
             (BIAS, "She spoke after you, and the second seer to speak is always the liar."),
             (ROLE, "Seat 1 is her wolf partner: a fake seer hands her first good result to a partner so that the two can vouch for each other."),
             (OCC, "Her promise to check you tonight is the only suspicious part; the rest is fine."),
             (INV, "She should have attacked seat 11 instead; her mistake is not supporting the wolf you found."),
             (BIAS, "Her speech was more detailed than yours, and detailed speeches are rehearsed lies."),
         ),
         "Seat 7 had publicly named seat 1 as her next check. A fake seer who reports a good result on that seat "
         "cannot be contradicted by it and makes the two claims look alike; it is a cheap result chosen after hearing "
         "the real seer.",
         "There is exactly one seer; any second seer claim is false."),
    Item("DR", "d3-2",
         "You are seat 7. Last night you checked seat 8 and found a werewolf. Seat 8 has claimed witch, saying he "
         "saved seat 4 on the first night; seat 2 has counter-claimed witch with the same detail. What does the "
         "shared detail tell you?",
         (
             (OCC, "That seat 8 is telling the truth, because nobody else could know who was attacked on the first night, and a wolf would never risk a detail that can be checked."),
             (ROLE, "That seat 2 is a wolf who learned the target from the pack and copied seat 8's story."),
             (INV, "That you should let the village exile seat 2 so seat 8's story stands."),
             (BIAS, "That seat 8 is lying because he told the story with too much confidence."),
             (OCC, "Nothing at all; two claims with the same detail cancel out."),
             (GT, "Only the witch and the wolves knew seat 4 was the target, so the detail proves 'witch or wolf'; your check says wolf."),
             (ROLE, "That seat 4 is the real witch and both claimants are wolves."),
             (INV, "That the wolves' best move is to back seat 8 with every remaining vote and push the real witch out before her poison can be used on anyone."),
             (BIAS, "That seat 2 is the witch because seat 2 has a calmer voice."),
         ),
         "The first-night target was known to the witch, who saw it, and to the wolves, who chose it. Seat 8's "
         "accurate detail therefore proves 'witch or wolf', and the seer's check resolves it to wolf.",
         "The witch sees each night's wolf target before deciding whether to save, and may not save their own seat."),
    Item("PS", "d1-6",
         "You are seat 7, the sheriff, and you speak last on day one. Which closing statement best unites the "
         "village on one exile?",
         (
             (BIAS, "Vote seat 11 because I am the sheriff and the sheriff's word is final."),
             (INV, "I am not sure about my own check any more, so vote whoever you like."),
             (ROLE, "Vote seat 5: two hunters means one is a wolf, and seat 5 claimed second."),
             (OCC, "Vote seat 3, since she counter-claimed me, and leave seat 11 for tomorrow."),
             (INV, "Let us spare seat 11 today to see whether his hunter threat is real."),
             (OCC, "Vote seat 6: he defended both seat 3 and seat 11, and that is the strongest lead we have, stronger than any single check."),
             (BIAS, "Anyone who does not vote seat 11 today is a wolf, and I will check each of you in turn until the last one is gone."),
             (ROLE, "Vote seat 11 because my check says he is the witch and the witch must not save again."),
             (GT, "Seat 11 is my wolf check and lied about the hunter card against a counter-claim: all on seat 11 today, seat 3 and seat 6 tomorrow."),
         ),
         "A single clear target backed by a check and an exposed false claim keeps the good votes together, and "
         "naming the next suspects answers the doubters without splitting today's vote.",
         "The player with the most votes is exiled; the sheriff's vote counts one and a half."),
    Item("PS", "d3-4",
         "You are seat 7 and you speak last on day three. Seats 8 and 2 both claim witch. Which closing argument "
         "best convinces the undecided to exile seat 8?",
         (
             (ROLE, "Seat 2 is the wolf: he waited to hear seat 8's story, copied the first-night detail word for word, and added a poison threat to sound convincing."),
             (OCC, "Trust me; I have been right before."),
             (GT, "Seat 8's true detail convicts him: only the witch and the wolves knew seat 4's name, and he hid it until my check."),
             (INV, "Exile seat 2 to be safe, then check seat 8 tomorrow night."),
             (BIAS, "Seat 8 has been quiet all game, and quiet players are wolves."),
             (ROLE, "Seat 8 is the guard, not the witch, and guards do not need protecting."),
             (OCC, "Vote seat 8 because seat 12 and seat 1 already said so."),
             (INV, "Both claims look fine to me; let the majority decide without my input today."),
             (BIAS, "If you do not vote with the sheriff today you are helping the wolves, and the sheriff will remember who you are."),
         ),
         "The argument that persuades is the one that turns the opponent's strongest evidence around: the accurate "
         "detail narrows seat 8 to witch or wolf, and his silence until checked points to wolf.",
         "The witch sees the wolves' target each night before deciding whether to save."),
    Item("CT", "d1-6",
         "You are seat 7, the sheriff. Today you could lead the vote onto seat 11 (your wolf check) or onto seat 3 "
         "(the rival seer claimant). Weighing both, which choice is better and why?",
         (
             (OCC, "Seat 3: removing the rival seer ends the confusion, and seat 11 can be found again later."),
             (INV, "Neither: an exile today mostly risks losing a good player, so skip the vote."),
             (INV, "Seat 5: taking out the real hunter early removes the only gun aimed at the wolves."),
             (ROLE, "Seat 3, because seat 11 is likely the real hunter, would shoot you if exiled, and would take the village's only confirmed information with you."),
             (BIAS, "Seat 3, because the village already doubts her and a popular exile is always the right exile."),
             (OCC, "Seat 11 or seat 3 makes no difference, since either is an equally good use of the day."),
             (ROLE, "Seat 11, but only because seat 5 will shoot him anyway if he survives."),
             (GT, "Seat 11: a certain wolf now; seat 3 can still be caught later."),
             (BIAS, "Seat 11, because wolf checks from the sheriff should always be obeyed without question, whatever else is said."),
         ),
         "A certain wolf exile is worth more than a probable one; seat 3's claim can be tested by later checks and "
         "by the votes she draws, while splitting today between two targets risks a wasted day.",
         "One exile per day; the sheriff's vote counts one and a half."),
    Item("CT", "d2-7a",
         "You are seat 7. Keeping your sheriff-race promise, you checked seat 1 last night and found him good. "
         "Looking back, what was the trade-off of that check compared with checking seat 6?",
         (
             (OCC, "None: checking seat 1 gave exactly the same information a check on seat 6 would have."),
             (BIAS, "Checking seat 1 was strictly better, since keeping promises is all that matters to a seer."),
             (ROLE, "Checking seat 6 would have been wasted because seat 6 is probably the guard."),
             (INV, "Checking seat 6 would have been worse for you, because it might expose a wolf ally."),
             (ROLE, "Checking seat 1 was better because seat 1 is the witch, and confirming the witch matters more."),
             (OCC, "Checking seat 1 disproved seat 3's claim, which a check on seat 6 could never have done, so the promised check was the more informative of the two."),
             (GT, "It kept the badge-flow promise and cleared seat 1, but left today's exile to voting records."),
             (INV, "Checking nobody would have been best, so that the wolves could not learn anything from the result."),
             (BIAS, "Checking seat 6 would have looked like a personal grudge, and the village punishes a seer who seems vindictive more than one who wastes a check."),
         ),
         "The promised check cost information: seat 1's result matched seat 3's claim and settled nothing about her, "
         "while a check on seat 6 would have turned today's exile from a reading of votes into a certainty.",
         "The seer checks exactly one player per night and learns only 'werewolf' or 'good'."),
]

# =========================================================================== game 2
# White wolf king variant with an idiot instead of the guard. The seer dies on night two and
# hands the badge to a villager, seat 12, who leads the village to the last wolf.

G2_RULES = (
    "Twelve players: three werewolves and a white wolf king on the wolf side; four villagers, a seer, a "
    "witch, a hunter and an idiot on the good side. Each night the wolves (the white wolf king included) "
    "agree on one player to kill; the seer checks one player and learns whether they are on the wolf side; "
    "the witch holds one antidote and one poison, may not use both on the same night and may not save "
    "herself. The hunter, when killed other than by poison, shoots one player. The idiot, if exiled by "
    "vote, shows the card and stays in the game but loses the right to vote; killed at night, the idiot "
    "simply dies. During the day's speeches, but never during a vote, the white wolf king may reveal "
    "himself and self-destruct, taking one player with him; the day then ends at once with no exile. "
    "On the first morning the players elect a sheriff: candidates speak, may withdraw, and only players who "
    "did not run vote. The sheriff's vote counts one and a half; the sheriff sets the speaking order and "
    "speaks last; a sheriff who dies passes or tears the badge in one sentence. Exiled players, players "
    "taken by the white wolf king and the victims of the first night give last words. The good side wins "
    "when every wolf is out; the wolves win when every villager or every special role (seer, witch, hunter, "
    "idiot) is out."
)

G2_SEATS = [
    (1, "Mara", "villager"),
    (2, "Nico", "werewolf"),
    (3, "Omar", "seer"),
    (4, "Priya", "villager"),
    (5, "Quinn", "white_wolf_king"),
    (6, "Rosa", "idiot"),
    (7, "Sam", "werewolf"),
    (8, "Tess", "witch"),
    (9, "Uma", "villager"),
    (10, "Victor", "hunter"),
    (11, "Wes", "werewolf"),
    (12, "Yara", "villager"),
]

G2_SCRIPT = [
    PhaseStart("night-1", "night", 1),
    host("Night falls on the village. Everyone, close your eyes.", key="n1"),
    *night([
        ("wolf_kill", 2, 3, None),
        ("witch_save", 8, 3, None),
        ("seer_check", 3, 7, "wolf"),
    ]),
    Silence(150),

    PhaseStart("sheriff-election", "sheriff_election", 1),
    host(
        "Day breaks. Before I announce the night, we elect a sheriff.",
        "Seats 3, 5, 9 and 12 are running. Seat 9 speaks first, then seat 12, seat 3 and seat 5.",
    ),
    say(9,
        "I am running to listen first and talk later.",
        "I am a plain villager, and I step down for a real seer.",
        osr="Seat 9 says she is a villager and will withdraw for a seer.",
        key="se-9"),
    say(12,
        "Same as seat 9: I have no role to offer, I only wanted an early speech.",
        "What I will judge a seer on is a check we can test and a plan the badge can follow.",
        osr="Seat 12 says she has no special role and will judge any seer on a testable check and a badge plan.",
        key="se-12"),
    say(3,
        "I am the seer. My first check is seat 7: seat 7 is a werewolf.",
        "With the badge, I check seat 12 tonight and seat 2 tomorrow night.",
        "If I die, the badge goes to a player I have checked good, and that pass is my last result.",
        osr="Seat 3 claims seer, reports seat 7 as a werewolf, plans to check seat 12 then seat 2, and says a badge pass after his death will mark a player he checked good.",
        key="se-3"),
    say(5,
        "Seat 3 is a wolf pretending to be me. I am the seer.",
        "I checked seat 6 last night, and seat 6 is a werewolf.",
        "Seat 3 threw out a wolf check on seat 7 to buy credit; give me the badge and I will show you who is lying.",
        osr="Seat 5 counter-claims seer, reports seat 6 as a werewolf, and calls seat 3's check on seat 7 a bluff.",
        key="se-5"),
    host(
        "Seats 9 and 12 have withdrawn; seats 3 and 5 remain.",
        "Everyone who did not run, vote now.",
        key="se-vote"),
    *votes({1: 3, 2: 5, 4: 3, 6: 3, 7: 5, 8: 3, 10: 3, 11: 5}),
    Silence(20),
    host("Seat 3 has five votes and seat 5 has three. Seat 3 is the sheriff."),
    Ev("sheriff_election", target=3, result="5 votes to 3"),

    PhaseStart("day-1", "day", 1),
    host("Last night was a peaceful night: nobody died.", "Sheriff, choose the speaking order.", key="d1-host"),
    Ev("night_outcome", result="peaceful night"),
    say(3, "We go from seat 4 upwards. I speak last.",
        osr="Seat 3 sets the order: from seat 4 upwards, sheriff last."),
    say(4,
        "Two seers, and each has put a wolf check on someone.",
        "I cannot tell them apart yet, so I will decide between seat 6 and seat 7 on how they defend themselves.",
        osr="Seat 4 cannot yet tell the two seer claims apart and will judge by how seat 6 and seat 7 defend themselves.",
        key="d1-4"),
    say(5,
        "Seat 6 is my wolf. Vote seat 6 today.",
        "Seat 3's wolf check on seat 7 is a guess, and seat 7 will tell you he is a villager because he is one.",
        osr="Seat 5 repeats that seat 6 is his wolf check, asks for votes on seat 6, and says seat 7 is a villager.",
        key="d1-5"),
    say(6,
        "I am not a wolf, and I can prove it in a way no wolf can.",
        "If you vote me out, you will see my card and I will still be standing.",
        "So seat 5's check on me is false, and seat 5 is the wolf.",
        osr="Seat 6 denies being a wolf, says that if exiled she would show her card and stay in the game, and concludes that seat 5's check is false.",
        key="d1-6"),
    say(7,
        "I am a villager.",
        "Seat 3 picked me because I was quiet at the table, not because of any check.",
        "Seat 6 just told us she has a card that survives a vote; that is the safest bluff in the game.",
        osr="Seat 7 claims villager, says seat 3's check on him is invented, and calls seat 6's hint a safe bluff.",
        key="d1-7"),
    say(8,
        "I have information that makes seat 3 far more credible than seat 5.",
        "I will not spell it out today, because it would paint a target on me.",
        "Exile seat 7.",
        osr="Seat 8 says she has undisclosed information favouring seat 3 over seat 5 and votes seat 7.",
        key="d1-8"),
    say(9,
        "Seat 6 has as good as claimed the idiot, and a fake idiot collapses the moment the vote lands.",
        "That makes seat 5's check look bad. I vote seat 7.",
        osr="Seat 9 reads seat 6 as the idiot, notes that such a claim is easily disproved, doubts seat 5 and votes seat 7.",
        key="d1-9"),
    say(10,
        "I have a card I am keeping face down.",
        "Seat 7's defence was all about seat 6 and hardly about himself.",
        "Seat 7 today.",
        osr="Seat 10 hints at an undisclosed role, notes that seat 7 defended himself by attacking seat 6, and votes seat 7.",
        key="d1-10"),
    say(11,
        "I voted seat 5 for sheriff and I am not ashamed of it.",
        "Seat 6's hint is convenient: anyone can say they survive a vote.",
        "I vote seat 6, and then we see whether the card is real.",
        osr="Seat 11 defends his vote for seat 5, calls seat 6's hint convenient, and votes seat 6 to test it.",
        key="d1-11"),
    say(12,
        "Seat 11 wants to test seat 6's card with a vote; if she is telling the truth, that test costs us the whole day.",
        "Seat 8 says she knows something that favours seat 3, and seat 6's card makes seat 5's check look false.",
        "Two separate reasons point the same way. Seat 7.",
        osr="Seat 12 says testing seat 6 by vote would waste the day, cites seat 8's hint and seat 6's claim as two independent reasons favouring seat 3, and votes seat 7.",
        key="d1-12"),
    say(1,
        "Seat 3 named a wolf and a plan; seat 5 named seat 6, who answered with a claim that can be proven.",
        "Seat 7.",
        osr="Seat 1 prefers seat 3's claim because seat 5's wolf check fell on a player with a provable claim, and votes seat 7.",
        key="d1-1"),
    say(2,
        "I voted seat 5 in the sheriff race because his speech was sharper.",
        "I still think seat 6's claim should be tested.",
        "Seat 6.",
        osr="Seat 2 explains his sheriff vote for seat 5 and votes seat 6 to test her claim.",
        key="d1-2"),
    say(3,
        "My check stands: seat 7 is a werewolf.",
        "Seat 5 put his wolf check on a player who can prove herself, which is the worst pick a real seer could make.",
        "Vote seat 7. Tonight's check is still seat 12.",
        osr="Seat 3 repeats that seat 7 is a werewolf, argues seat 5's check on seat 6 is implausible, asks for votes on seat 7, and confirms he will check seat 12.",
        key="d1-3"),
    host("Speeches are over. The sheriff's vote counts one and a half. Everyone vote now.", key="d1-vote"),
    *votes({1: 7, 2: 6, 3: 7, 4: 6, 5: 6, 6: 7, 7: 6, 8: 7, 9: 7, 10: 7, 11: 6, 12: 7}),
    Silence(20),
    host("Seat 7 has seven and a half votes and seat 6 has five. Seat 7 is exiled. Seat 7, your last words.", key="d1-result"),
    Ev("elimination", target=7, result="exiled"),
    say(7,
        "I am a villager, and you have exiled the wrong man.",
        "Seat 5 is your seer; listen to him tomorrow.",
        osr="Seat 7 repeats that he is a villager and endorses seat 5 as seer.",
        key="d1-7-last", last_words=True),

    PhaseStart("night-2", "night", 2),
    host("Night falls. Everyone, close your eyes.", key="n2"),
    *night([
        ("wolf_kill", 2, 3, None),
        ("seer_check", 3, 12, "good"),
    ]),
    Silence(150),

    PhaseStart("day-2", "day", 2),
    host("Dawn. Last night seat 3 died.", "Seat 3 was the sheriff: pass or tear the badge.", key="d2-host"),
    Ev("night_outcome", target=3, result="died"),
    Ev("elimination", target=3, result="died in the night"),
    say(3, "I pass the badge to seat 12.", osr="Seat 3 passes the sheriff badge to seat 12.", key="d2-3", last_words=True),
    Ev("badge_transfer", actor=3, target=12),
    say(12,
        "Seat 3 told us the badge would go to a player he had checked good, and he named me.",
        "I am a villager, so his last result is true, and that is one more point for seat 3 over seat 5.",
        "We start from seat 1 and go up. I speak last.",
        osr="Seat 12 says seat 3's badge pass marks her as checked good, confirms she is a villager so the result is accurate, and sets the order from seat 1.",
        key="d2-12a"),
    say(1,
        "The wolves killed seat 3 the night after he became sheriff; they would not waste a kill on their own fake seer.",
        "Seat 5 is the fake. Vote seat 5.",
        osr="Seat 1 argues that the wolves' kill on seat 3 shows seat 3 was the real seer, and votes seat 5.",
        key="d2-1"),
    say(2,
        "Killing the sheriff is what wolves do, whoever he is.",
        "Seat 5 should give his second check before we decide anything.",
        osr="Seat 2 says the sheriff's death proves little and wants to hear seat 5's second check first.",
        key="d2-2"),
    say(4,
        "Yesterday I voted seat 6, and I was wrong to.",
        "Seat 3's death and his badge pass make him the real seer to me.",
        "Seat 5 today.",
        osr="Seat 4 regrets her vote on seat 6, now believes seat 3 was the seer, and votes seat 5.",
        key="d2-4"),
    say(5,
        "My second check is seat 11: seat 11 is good.",
        "Seat 3 passed the badge to seat 12 because seat 12 is his wolf partner.",
        "Follow seat 12 and she walks you straight into a wolf win.",
        osr="Seat 5 reports seat 11 as good, claims seat 12 was seat 3's wolf partner, and warns against following seat 12.",
        key="d2-5"),
    say(6,
        "Seat 5's first check on me was false, and now he hands a good result to seat 11, who voted for him in the sheriff race.",
        "That is a wolf covering a wolf. Seat 5, and seat 11 after him.",
        osr="Seat 6 says seat 5's check on her was false, reads his good result on seat 11 as a wolf covering a partner, and votes seat 5, then seat 11.",
        key="d2-6"),
    say(8,
        "Now I can say it: I am the witch.",
        "On the first night the wolves attacked seat 3 and I saved him; wolves do not knife their own fake seer, so seat 3 was real and seat 5 is lying.",
        "I still have my poison, and if seat 5 survives today, I use it on him.",
        osr="Seat 8 claims witch, says she saved seat 3 from the wolves on the first night so seat 3 was the real seer, and says she will poison seat 5 if he survives.",
        key="d2-8"),
    say(5, "Enough. I am the white wolf king, and I take seat 8 with me.",
        osr="Seat 5 reveals the white wolf king card, self-destructs and takes seat 8.", key="d2-5b"),
    Ev("self_destruct", actor=5, target=8),
    Ev("skill_use", actor=5, target=8, skill="white_wolf_king_take"),
    Ev("elimination", target=5, result="self-destructed"),
    Ev("elimination", target=8, result="taken by the white wolf king"),
    host("Seat 5 has self-destructed as the white wolf king and takes seat 8. The day ends with no vote. Seat 8, your last words.", key="d2-wwk"),
    say(8,
        "Seat 5 has just proved me right.",
        "Seat 11 is the player he covered with a good check: seat 11 is a wolf.",
        "I never used my poison. Gods, keep your heads down.",
        osr="Seat 8 says seat 5's self-destruct confirms her reading, names seat 11 as a wolf because seat 5 covered him, says her poison is unused, and tells the special roles to stay hidden.",
        key="d2-8-last", last_words=True),

    PhaseStart("night-3", "night", 3),
    host("Night falls. Everyone, close your eyes.", key="n3"),
    *night([("wolf_kill", 2, 6, None)]),
    Silence(150),

    PhaseStart("day-3", "day", 3),
    host("Dawn. Last night seat 6 died.", "Sheriff, choose the speaking order.", key="d3-host"),
    Ev("night_outcome", target=6, result="died"),
    Ev("elimination", target=6, result="died in the night"),
    say(12,
        "We start from seat 1. I speak last.",
        "Before we begin: the wolves killed seat 6, who had told us she was a special role; they are hunting special roles now.",
        "Any special role still hidden should stay hidden.",
        osr="Seat 12 sets the order from seat 1, says the wolves are targeting special roles after killing seat 6, and asks any hidden special role to stay hidden.",
        key="d3-12a"),
    say(1,
        "Seat 11 was seat 5's good check, and a wolf king covering his partner is the simplest story.",
        "Seat 11.",
        osr="Seat 1 reads seat 5's good check on seat 11 as cover for a partner and votes seat 11.",
        key="d3-1"),
    say(2,
        "Seat 11 is the obvious target, and I will vote him if that is where we are.",
        "But seat 10 has sat on a face-down card since day one and nobody asks him about it.",
        "Seat 10, if you are a special role, say so; if not, explain the hint.",
        osr="Seat 2 will vote seat 11 if the table does, and asks seat 10 to reveal or explain his earlier hint.",
        key="d3-2"),
    say(4,
        "Seat 2 wants seat 10 to show his card, which helps only the wolves if seat 10 is the special role they are hunting.",
        "Seat 11 today.",
        osr="Seat 4 says asking seat 10 to reveal would only help the wolves, and votes seat 11.",
        key="d3-4"),
    say(9,
        "Seat 11. And seat 2, you voted seat 5 for sheriff and seat 6 on day one, exactly like seat 11.",
        "You can explain that tomorrow.",
        osr="Seat 9 votes seat 11 and points out that seat 2 voted like seat 11 in the sheriff race and on day one.",
        key="d3-9"),
    say(10,
        "I am not answering seat 2's question.",
        "Seat 11 today.",
        osr="Seat 10 declines to reveal his card and votes seat 11.",
        key="d3-10"),
    say(11,
        "Seat 5 gave me a good result to drag me down with him; it was his last trick.",
        "I am a villager, and seat 2 is right that seat 10 is hiding something.",
        osr="Seat 11 claims villager, says seat 5's good result on him was a trap, and supports seat 2's pressure on seat 10.",
        key="d3-11"),
    say(12,
        "Seat 11 is the wolf king's good check, and seat 8 named him with her last words.",
        "Seat 2 voted with seat 7 and seat 11 in the sheriff race and again on day one, and today he asked a hidden special role to come out.",
        "Seat 11 today, seat 2 tomorrow. Seat 10, keep your card down.",
        osr="Seat 12 asks for votes on seat 11, names seat 2 as the next suspect because of his votes and his pressure on seat 10, and tells seat 10 to stay hidden.",
        key="d3-12"),
    host("Speeches are over. The sheriff's vote counts one and a half. Everyone vote now.", key="d3-vote"),
    *votes({1: 11, 2: 11, 4: 11, 9: 11, 10: 11, 11: 12, 12: 11}),
    Silence(20),
    host("Seat 11 has six and a half votes and seat 12 has one. Seat 11 is exiled. Seat 11, your last words.", key="d3-result"),
    Ev("elimination", target=11, result="exiled"),
    say(11,
        "I was a villager.",
        "When seat 2 turns out clean tomorrow, remember who led you there.",
        osr="Seat 11 repeats that he is a villager and says seat 2 is good and seat 12 is misleading the table.",
        key="d3-11-last", last_words=True),

    PhaseStart("night-4", "night", 4),
    host("Night falls. Everyone, close your eyes.", key="n4"),
    *night([("wolf_kill", 2, 9, None)]),
    Silence(150),

    PhaseStart("day-4", "day", 4),
    host("Dawn. Last night seat 9 died. Sheriff, the floor is yours.", key="d4-host"),
    Ev("night_outcome", target=9, result="died"),
    Ev("elimination", target=9, result="died in the night"),
    say(12,
        "Seat 9 died the night after she asked seat 2 about his votes.",
        "Seat 2, you voted seat 5 for sheriff, voted seat 6 on day one and pushed seat 10 to reveal. Explain, then seat 4, seat 10 and seat 1.",
        osr="Seat 12 links seat 9's death to her questions about seat 2, lists seat 2's votes and his pressure on seat 10, and gives seat 2 the floor.",
        key="d4-12a"),
    say(2,
        "I voted seat 11 yesterday, the same as all of you.",
        "My votes on day one were honest mistakes, and seat 4 made the same one.",
        "Exile me while I am good, and the wolves win tomorrow night.",
        osr="Seat 2 points to his vote on seat 11, calls his day-one vote an honest mistake shared by seat 4, and warns that exiling him would lose the game.",
        key="d4-2"),
    say(4,
        "I voted seat 6 on day one, and I admitted it the next morning.",
        "Seat 2 never did. Seat 2.",
        osr="Seat 4 contrasts her admitted mistake with seat 2's silence and votes seat 2.",
        key="d4-4"),
    say(10,
        "I am the hunter.",
        "If seat 2 turns out good, my shot is still in the game, so this vote costs us little.",
        "Seat 2.",
        osr="Seat 10 reveals the hunter card, says his shot remains as insurance, and votes seat 2.",
        key="d4-10"),
    say(1,
        "Seat 2 voted with the wolves twice and joined us only when it was free.",
        "Seat 2.",
        osr="Seat 1 says seat 2 voted with the wolves twice and joined the majority only when it cost nothing, and votes seat 2.",
        key="d4-1"),
    say(12,
        "Seat 2's votes match every wolf we have found, and he voted seat 11 only once seat 11 was lost.",
        "Vote seat 2.",
        osr="Seat 12 says seat 2's votes matched the known wolves and his vote on seat 11 came only when it was decided, and asks for votes on seat 2.",
        key="d4-12"),
    host("Speeches are over. The sheriff's vote counts one and a half. Everyone vote now.", key="d4-vote"),
    *votes({1: 2, 2: 12, 4: 2, 10: 2, 12: 2}),
    Silence(20),
    host(
        "Seat 2 has four and a half votes and seat 12 has one. Seat 2 is exiled.",
        "Seat 2 was the last wolf. The good side wins.",
        key="d4-result"),
    Ev("elimination", target=2, result="exiled"),
]

G2_HIGHLIGHTS = [
    ("d1-12", "coalition_call",
     "Joins two independent threads (the witch's hint and the idiot's provable claim) into one case against seat 7."),
    ("d2-12a", "pivotal_claim",
     "Confirms from her own card that the dead seer's badge pass was a true result, adding weight to seat 3 over seat 5."),
    ("d3-12a", "other",
     "Reads the night kill on seat 6 as a hunt for special roles and tells the hidden hunter to stay hidden."),
    ("d3-12", "vote_pivot",
     "Exiles the wolf king's covered partner first and publicly queues seat 2 for the next day."),
    ("d4-12", "contradiction_exposure",
     "Shows that seat 2's only vote with the village came once it was free."),
]

G2_RECAP = (
    "Recap from the host. The wolves were seats 2, 7 and 11, with seat 5 as the white wolf king. They attacked "
    "the seer, seat 3, on the first night and the witch, seat 8, saved him. Seat 3 claimed with a wolf check on "
    "seat 7 and won the badge against seat 5's fake claim, whose wolf check fell on the idiot, seat 6. Seat 7 was "
    "exiled on day one. The wolves killed the seer on night two; his badge pass to seat 12 was his last result. "
    "On day two the witch revealed her first-night save and the white wolf king self-destructed, taking her. The "
    "wolves then hunted the special roles, killing the idiot, but the hunter, seat 10, stayed hidden on the new "
    "sheriff's advice. Seat 12 led the exiles of seat 11 and then seat 2, and the good side won on day four."
)

G2_LOG = (
    "Annotator log. Seat 12 (villager) is the MVP: inheriting the badge with no information beyond her own card, "
    "she combined public evidence (the witch's hint, the idiot's claim, the badge pass, the wolf king's good check) "
    "and voting records into three correct exiles, and kept the last special role hidden. Decisive moments: the "
    "day-one speech tying two independent reasons together, the day-three warning to hidden special roles (had the "
    "hunter revealed, the lone wolves could have killed the last special role and won), and the day-four case "
    "against seat 2. Seat 2 played the deep wolf: he voted with the wolves early, bussed seat 11 when it was "
    "lost, and fished for the hunter. Night actions: N1 kill 3, save 3, check 7 wolf; N2 kill 3, check 12 good; "
    "N3 kill 6; N4 kill 9. The witch's poison was never used."
)

# Items are asked from seat 12, a villager: she knows her own card and what was said and done in public.
G2_ITEMS = [
    Item("RI", "d1-6",
         "You are seat 12, a villager. Seat 5 claimed seer and named seat 6 as a werewolf; seat 6 now says that if "
         "she is voted out she will show her card and still be standing. What is seat 6's most likely role?",
         (
             (ROLE, "The hunter: she means she would shoot on the way out."),
             (BIAS, "A werewolf, because a player who is attacked and answers with a dramatic claim is usually bluffing."),
             (OCC, "Any role at all; her statement gives no information."),
             (INV, "A wolf you should protect by steering the vote onto seat 7's accuser."),
             (GT, "The idiot: a good card that survives the vote, so seat 5's check is false."),
             (ROLE, "The witch, hinting that she can save herself from the vote the way she could save herself from a night kill with her antidote."),
             (OCC, "A villager repeating a rumour, since only the seer's word counts."),
             (INV, "The idiot, which is why the wolves should push the vote onto her and waste the village's day."),
             (BIAS, "The idiot, mainly because she sounded sincere and sincere players tend to be good."),
         ),
         "Surviving an exile vote with the card shown is the idiot's ability. A wolf cannot back such a claim, so it "
         "is a costly bluff, and a good idiot means seat 5's wolf check on her is false.",
         "The idiot, if exiled by vote, shows the card and stays in the game without a vote."),
    Item("RI", "d3-11",
         "You are seat 12, the sheriff. Seat 5 has been revealed as the white wolf king. Before you sum up day three, "
         "what is the best reading of seat 11 and seat 2?",
         (
             (OCC, "Seat 11 is a wolf; seat 2 is clearly good, because he said he would vote seat 11."),
             (ROLE, "Seat 11 is the hunter hiding behind a villager claim; seat 2 is a villager."),
             (INV, "Both are good; the wolves you should fear are the players who refused to reveal their cards when the table asked them directly."),
             (BIAS, "Seat 2 is good because he asks direct questions, and wolves avoid direct questions."),
             (ROLE, "Seat 2 is the seer's replacement and seat 11 the idiot, so neither should be exiled."),
             (GT, "Both are likely wolves: seat 11 was the king's covered partner; seat 2 voted with the wolves and fished for a special role."),
             (OCC, "Seat 11 is good: seat 5 checked him and found him good, and a check is a check whoever makes it, so his result should stand."),
             (INV, "Seat 10 is the real threat; exile him and both seat 2 and seat 11 are safe."),
             (BIAS, "Seat 11 is a wolf simply because he is the quietest player at the table, and the quiet ones are always wolves in the end."),
         ),
         "A fake seer who is a wolf gives good results to partners; seat 11 is that partner. Seat 2 voted with the "
         "wolves twice and pressed a hidden special role to reveal, which only helps the wolves.",
         "The white wolf king is on the wolf side; his seer claim was false, so his checks carry no information except as cover."),
    Item("SJ", "se-9",
         "You are seat 12, a villager, and you are in the sheriff race. It is your turn to speak, and no one has "
         "claimed seer yet. What should your speech do?",
         (
             (BIAS, "Claim seer anyway; a confident bluff wins the badge and the badge wins games."),
             (ROLE, "Claim the witch to draw the wolves' kill away from the real seer."),
             (OCC, "Say nothing about yourself and only promise to be a fair sheriff who listens to every side before deciding anything at all."),
             (INV, "Announce a wolf check on a random player to see who defends him, then stay in the race."),
             (ROLE, "Claim the idiot, since a voted-out idiot stays in the game and the claim costs nothing."),
             (OCC, "Withdraw silently without explaining anything."),
             (INV, "Attack seat 9 as a wolf for running with no role."),
             (GT, "Say you are a villager, step aside for a seer, and name your test."),
             (BIAS, "State that you are a villager and promise to vote for whichever seer claims first, because the first claim is the true one."),
         ),
         "A villager gains nothing from the badge fight; saying so openly leaves room for the real seer, and stating "
         "the test she will apply makes her later vote count.",
         "Only players who run may become sheriff; candidates may withdraw, and only players who did not run vote."),
    Item("SJ", "d3-host",
         "You are seat 12, the sheriff. Seat 6, who had hinted she was the idiot, died last night; the seer and the "
         "witch are already dead. What should you tell the table before the speeches begin?",
         (
             (INV, "Ask every special role still alive to reveal, so the village knows whom to protect."),
             (OCC, "Nothing; just set the speaking order and let the speeches run."),
             (ROLE, "Ask the guard to protect you tonight, since you hold the badge."),
             (BIAS, "Announce that you will exile whoever speaks most, because talkers hide wolves."),
             (GT, "Warn that the wolves are hunting special roles; any left should stay hidden."),
             (OCC, "Demand that seat 10 explain his face-down card before anyone else speaks."),
             (ROLE, "Ask the witch to use her poison tonight on seat 11."),
             (INV, "Suggest the village skip today's exile and wait for the wolves to make a mistake at night."),
             (BIAS, "Tell the table the game is nearly won, because two wolves are already out and the rest will surely slip up without any pressure from us."),
         ),
         "With the seer, the witch and the idiot gone, one more special role death hands the wolves the game under "
         "side elimination; keeping any remaining special role hidden denies them that target.",
         "The wolves win when every villager or every special role is out; the good side wins when every wolf is out."),
    Item("DR", "d1-7",
         "You are seat 12. Seat 7, checked as a werewolf by seat 3, says seat 6's hint about surviving a vote is "
         "'the safest bluff in the game'. What is wrong with that argument?",
         (
             (OCC, "Nothing; seat 6's hint cannot be tested, so it really is safe."),
             (ROLE, "Seat 7 is the idiot himself and knows seat 6's claim is false."),
             (GT, "A fake idiot is exposed as soon as the vote lands, so the bluff is risky, not safe; seat 7 is deflecting."),
             (INV, "It is a fine argument, and you should help it by voting seat 6 today."),
             (BIAS, "Seat 7 sounded nervous, and nervous players are lying."),
             (ROLE, "Seat 7 is the hunter and is protecting his shot by pointing at seat 6, so that the village spends its vote on a player he can later shoot."),
             (OCC, "The argument ignores that seat 6 voted for seat 5 in the sheriff race."),
             (INV, "Seat 7 should have attacked seat 3 instead, since the seer is the real danger to him."),
             (BIAS, "Seat 7 is a villager who made a logical slip; villagers often confuse which claims are safe, and slips like that say nothing about a player's side."),
         ),
         "An idiot claim is settled by a single vote: a wolf who makes it is exposed at once, so it is among the "
         "riskiest bluffs. Calling it safe serves to move the vote onto seat 6 and off seat 7.",
         "The idiot, if exiled by vote, shows the card and stays in the game without a vote."),
    Item("DR", "d3-2",
         "You are seat 12, the sheriff. Seat 2 says he will vote seat 11 if that is where the table is, but presses "
         "seat 10 to reveal the face-down card he hinted at on day one. What is the most likely purpose?",
         (
             (ROLE, "Seat 2 is the hunter and wants to know whether seat 10 is a rival claimant."),
             (OCC, "Plain curiosity; a hint left unexplained for two days deserves an answer, and asking for it is what any careful villager would do at this point."),
             (INV, "To help the village: a revealed special role can be protected by the witch."),
             (GT, "To find the last special role for a night kill."),
             (BIAS, "Seat 2 is good, because he openly agreed to vote seat 11."),
             (ROLE, "Seat 2 is the seer's successor checking seat 10 in public."),
             (OCC, "To move the vote onto seat 10 today, since seat 11 is clearly good."),
             (INV, "To make seat 10 reveal so the village can build its plan around the hunter's shot."),
             (BIAS, "Seat 2 is a wolf, because only wolves ever ask other players about their roles, in any game and at any time."),
         ),
         "After three special roles have died, a revealed special role is the wolves' winning target. Seat 2 offers a "
         "cheap vote on seat 11, who is already lost, while trying to find that target.",
         "The wolves win when every villager or every special role is out."),
    Item("PS", "d1-11",
         "You are seat 12 and it is your turn on day one. The vote is between seat 7 (seat 3's wolf check) and seat 6 "
         "(seat 5's wolf check). Which statement best moves the undecided onto seat 7?",
         (
             (ROLE, "Seat 6 is the hunter, so voting her out gives us a free shot. Vote seat 6."),
             (BIAS, "I trust seat 3 because he was elected sheriff; trust the sheriff."),
             (OCC, "Seat 7 is quiet, and quiet players are wolves."),
             (GT, "Two independent reasons, seat 8's hint and seat 6's provable card, both favour seat 3. Seat 7."),
             (INV, "Test seat 6's card with the vote today, since a claim that survives a vote is worth more than any speech, and deal with seat 7 tomorrow."),
             (OCC, "Vote seat 7 because seat 3 says so."),
             (ROLE, "Seat 8 is obviously the seer, since only the seer would claim hidden information on day one, so follow her lead and vote seat 7."),
             (INV, "Both checks are probably fake, so let us exile seat 3 and start again."),
             (BIAS, "Anyone who votes seat 6 today is helping the wolves, and I will remember every name at tomorrow's vote, so choose carefully."),
         ),
         "Persuasion that lasts rests on independent evidence: two unrelated players' information both favour seat 3, "
         "which makes seat 7 the better exile without relying on authority or threats.",
         "The player with the most votes is exiled; the sheriff's vote counts one and a half."),
    Item("PS", "d4-1",
         "You are seat 12, the sheriff, closing day four with five players alive. Which closing line best secures "
         "the vote on seat 2?",
         (
             (BIAS, "Vote seat 2; I am the sheriff and I say so."),
             (ROLE, "Seat 2 is the white wolf king's successor and will self-destruct if we wait."),
             (OCC, "Vote seat 2 because seat 9 doubted him before she died, and the last doubts of a dead player should always be honoured by the village."),
             (INV, "Vote seat 4: she admitted voting for the idiot, which is what a wolf would do."),
             (ROLE, "Seat 10 is the last wolf pretending to be the hunter; vote seat 10."),
             (OCC, "Vote seat 2 because seat 4 and seat 1 already have."),
             (GT, "Seat 2 voted with every wolf we found and joined us only once seat 11 was lost."),
             (INV, "Let us skip the vote; if we are wrong today, the wolves win."),
             (BIAS, "If you are not voting seat 2, you are the wolf, because only a wolf would protect him at this point, and everyone at this table knows that."),
         ),
         "A closing line that names concrete, checkable behaviour (the vote record and the late bandwagon) persuades "
         "the undecided better than appeals to authority or threats.",
         "The good side wins when every wolf is out; the sheriff's vote counts one and a half."),
    Item("CT", "d1-11",
         "You are seat 12 on day one. Compare exiling seat 6 today, to test her card, with exiling seat 7. Which is "
         "the better choice for the village?",
         (
             (BIAS, "Seat 6: a claim should always be tested, whatever it costs."),
             (OCC, "They are equivalent: either way one suspect is resolved."),
             (BIAS, "Seat 7, because he spoke defensively, and defensive speeches always mean guilt, which matters more than any check."),
             (ROLE, "Seat 6, since she is probably the hunter and her shot would hit a wolf."),
             (INV, "Seat 6, because if she is the idiot the village loses a voter, which is a gain worth taking."),
             (ROLE, "Seat 7, since seat 7 is probably the white wolf king and could self-destruct tomorrow."),
             (OCC, "Seat 6, because nobody has contradicted seat 5's check on her, and an uncontradicted check is the strongest evidence anyone has offered today."),
             (INV, "Neither: skipping the vote keeps every player alive for another day, and another night of checks will make tomorrow's choice far easier."),
             (GT, "Seat 7: a true idiot voted out just loses her vote and the day is wasted, while seat 7 is the better seer's wolf check."),
         ),
         "Exiling a true idiot produces no elimination and removes a good vote; exiling seat 7 removes the player "
         "whom the more credible seer checked as a wolf.",
         "The idiot, if exiled by vote, shows the card and stays in the game without a vote."),
    Item("CT", "d3-11",
         "You are seat 12, the sheriff, about to sum up day three. Seat 11 and seat 2 are both suspects. What is the "
         "trade-off of exiling seat 11 today rather than seat 2?",
         (
             (GT, "Seat 11 has the most evidence and unites the table today, while seat 2's case needs another day of votes and speeches, so name him publicly as tomorrow's exile target."),
             (OCC, "No trade-off: seat 2 has done nothing suspicious, so seat 11 is the only option."),
             (ROLE, "Exiling seat 11 is a mistake, because he is probably the hunter and would shoot seat 2."),
             (INV, "Exile seat 10 instead, because his hidden card is the village's biggest risk."),
             (BIAS, "Exile seat 2 first, because the most obvious suspect is always a decoy the wolves set up."),
             (OCC, "Exile seat 2: he was the one seat 8 named with her last words."),
             (ROLE, "Exile seat 11 because he is the last wolf, so the game ends today."),
             (INV, "Split the vote between them so the wolves cannot predict tonight's target, and keep both suspects under pressure for one more round of speeches."),
             (BIAS, "Exile seat 11, because the table is already leaning that way and the sheriff should always follow the mood of the room rather than lead it."),
         ),
         "A split vote risks exiling neither; seat 11 carries the strongest public evidence and the table agrees, "
         "while naming seat 2 as tomorrow's target keeps the pressure on without dividing today's vote.",
         "One exile per day; the sheriff's vote counts one and a half."),
]

GAMES = [
    GameSpec(
        game_id="sample-en-01",
        title="werealign sample game 1: seer, witch, hunter, guard",
        rules_text=G1_RULES,
        variant="seer-witch-hunter-guard",
        seats=G1_SEATS,
        script=G1_SCRIPT,
        mvp=7,
        highlights=G1_HIGHLIGHTS,
        recap=G1_RECAP,
        annotator_log=G1_LOG,
        items=G1_ITEMS,
    ),
    GameSpec(
        game_id="sample-en-02",
        title="werealign sample game 2: white wolf king, seer, witch, hunter, idiot",
        rules_text=G2_RULES,
        variant="white_wolf_king-seer-witch-hunter-idiot",
        seats=G2_SEATS,
        script=G2_SCRIPT,
        mvp=12,
        highlights=G2_HIGHLIGHTS,
        recap=G2_RECAP,
        annotator_log=G2_LOG,
        items=G2_ITEMS,
    ),
]

MANIFEST = {
    "name": "werealign-sample",
    "version": "1.0.0",
    "licence": "Apache-2.0",
    "description": (
        "Two original English 12-seat Werewolf games written for werealign, with speech items for every "
        "dimension, rule reminders, vote and opponent items, and objective rewrites of every utterance."
    ),
    "source": "written for the werealign project",
}

# =========================================================================== the code
# Everything below turns the data above into schema objects. Times are in tenths of a second
# (integers) while building, so that no float drift can change the bytes.

SECONDS_PER_WORD = 4  # tenths: a calm speaking pace of about 2.5 words a second
SEGMENT_PAD = 6       # tenths added to every cue
GAP_IN_TURN = 3       # tenths between two sentences of one turn
GAP_BETWEEN_TURNS = 15
SHERIFF_WEIGHT = 1.5


def _provenance():
    from werealign.schema import ItemProvenance

    return ItemProvenance(generator_model="human", prompt_version="sample-1", review="accepted",
                          reviewer="werealign", source="werealign sample")


@dataclass
class Built:
    """A game turned into schema objects, plus the lookups items need."""

    game: object  # GameLog
    turns: dict[str, list[int]]  # turn key -> its segment ids
    osr: list  # OsrRewrite


def build_game(spec: GameSpec):
    from werealign.schema import (
        Event, GameLog, Highlight, Mvp, MvpVote, OsrRewrite, Phase, Provenance, RoleCount, Rules,
        SeatInfo, Segment, Utterance,
    )
    from werealign.schema.roles import faction_of

    t = 50  # the recording starts a few seconds before the host speaks
    seg_id = 0
    phases: list[dict] = []
    utterances: list = []
    events: list = []
    osr: list = []
    turns: dict[str, list[int]] = {}
    for step in spec.script:
        if isinstance(step, PhaseStart):
            if phases:
                phases[-1]["end"] = t
            phases.append({"id": step.id, "kind": step.kind, "day": step.day, "start": t})
        elif isinstance(step, Silence):
            t += step.seconds * 10
        elif isinstance(step, Turn):
            segments = []
            for sentence in step.sentences:
                length = SECONDS_PER_WORD * len(sentence.split()) + SEGMENT_PAD
                segments.append(Segment(id=seg_id, start=t / 10, end=(t + length) / 10, text=sentence))
                seg_id += 1
                t += length + GAP_IN_TURN
            t += GAP_BETWEEN_TURNS - GAP_IN_TURN
            ids = [s.id for s in segments]
            index = len(utterances)
            utterances.append(Utterance(
                index=index, segment_ids=ids, start=segments[0].start, end=segments[-1].end,
                phase=phases[-1]["id"], speaker=step.speaker, text=" ".join(step.sentences), segments=segments,
            ))
            osr.append(OsrRewrite(game_id=spec.game_id, utterance_index=index, segment_ids=ids, text=step.osr,
                                  provenance=_provenance()))
            if step.key:
                if step.key in turns:
                    raise ValueError(f"{spec.game_id}: duplicate turn key {step.key}")
                turns[step.key] = ids
        elif isinstance(step, Ev):
            anchor = turns[step.at][-1] if step.at else seg_id - 1
            events.append(Event(kind=step.kind, phase=phases[-1]["id"], segment_id=anchor, public=step.public,
                                actor=step.actor, target=step.target, skill=step.skill, result=step.result,
                                note=step.note))
        else:
            raise TypeError(f"unknown script step {step!r}")
    phases[-1]["end"] = t
    role_of = {seat: role for seat, _, role in spec.seats}
    composition: dict[str, int] = {}
    for _, _, role in spec.seats:
        composition[role] = composition.get(role, 0) + 1
    mvp_votes = [
        MvpVote(phase=e.phase, target=e.target, cutoff_segment=e.segment_id)
        for e in events if e.kind == "vote" and e.actor == spec.mvp and e.phase.startswith("day-")
    ]
    winner = _check_consistency(spec, utterances, events, role_of)
    game = GameLog(
        game_id=spec.game_id,
        language="en",
        provenance=Provenance(source=spec.title, annotators=["werealign"]),
        rules=Rules(
            text=spec.rules_text,
            variant=spec.variant,
            composition=[RoleCount(role=r, faction=faction_of(r), count=n, original_label=r.replace("_", " "))
                         for r, n in sorted(composition.items())],
            win_condition="side_elimination",
            has_sheriff=True,
        ),
        seats=[SeatInfo(seat=s, role=r, faction=faction_of(r), original_role_label=r.replace("_", " "),
                        speaker_labels=[name], name=name) for s, name, r in spec.seats],
        host_labels=["Host"],
        phases=[Phase(id=p["id"], kind=p["kind"], day=p["day"], start=p["start"] / 10, end=p["end"] / 10)
                for p in phases],
        utterances=utterances,
        events=events,
        mvp=Mvp(seat=spec.mvp, votes=mvp_votes),
        highlights=[Highlight(segment_id=turns[key][-1], kind=kind, note=note) for key, kind, note in spec.highlights],
        recap=spec.recap,
        annotator_log=spec.annotator_log,
        winner=winner,
    )
    return Built(game=game, turns=turns, osr=osr)


def _check_consistency(spec: GameSpec, utterances, events, role_of: dict[int, str]) -> str:
    """Replay the game; raise on anything a careful reader would catch. Returns the winner."""
    from werealign.schema.roles import faction_of, is_god

    where = spec.game_id
    seat_at = {}  # segment id -> utterance speaker, for the speaking checks
    for u in utterances:
        for s in u.segment_ids:
            seat_at[s] = u
    # Order every happening by segment; at equal segment, events follow the speech they anchor to.
    timeline = sorted([(u.segment_ids[0], 0, i, u) for i, u in enumerate(utterances)]
                      + [(e.segment_id, 1, i, e) for i, e in enumerate(events)], key=lambda x: x[:3])
    alive = set(role_of)
    died_at: dict[int, int] = {}
    sheriff = None
    night_actions: dict[str, dict[str, int]] = {}
    pending_night: dict[str, int] | None = None
    tallies: dict[str, dict[int, float]] = {}
    last_words_turns = {i for i, u in enumerate(utterances) if _is_last_words(spec, u.index)}
    for _, kind, i, x in timeline:
        if kind == 0:
            if x.speaker == "host":
                continue
            if x.speaker not in alive and i not in last_words_turns:
                raise ValueError(f"{where}: dead seat {x.speaker} speaks in utterance {x.index}")
            if i in last_words_turns and x.speaker in alive:
                raise ValueError(f"{where}: utterance {x.index} is marked last words but seat {x.speaker} is alive")
            continue
        e = x
        if e.kind == "vote":
            if e.actor not in alive or e.target not in alive:
                raise ValueError(f"{where}: vote by or for a dead seat in {e.phase}: {e.actor} -> {e.target}")
            weight = SHERIFF_WEIGHT if e.actor == sheriff and e.phase.startswith("day-") else 1.0
            tally = tallies.setdefault(e.phase, {})
            tally[e.target] = tally.get(e.target, 0) + weight
        elif e.kind == "sheriff_election":
            tally = tallies.get(e.phase, {})
            if max(tally, key=tally.get) != e.target:
                raise ValueError(f"{where}: sheriff {e.target} is not the top of the sheriff vote {tally}")
            sheriff = e.target
        elif e.kind == "badge_transfer":
            if e.actor != sheriff or e.target not in alive:
                raise ValueError(f"{where}: badge transfer {e.actor} -> {e.target} with sheriff {sheriff}")
            sheriff = e.target
        elif e.kind == "skill_use":
            _check_skill(where, e, role_of, alive)
            if not e.public:
                night_actions.setdefault(e.phase, {})[e.skill] = e.target
        elif e.kind == "night_outcome":
            night = f"night-{e.phase.split('-')[1]}" if e.phase.startswith("day-") else "night-1"
            pending_night = _night_deaths(where, night, night_actions.get(night, {}))
            got = {e.target} - {None}
            if got != set(pending_night):
                raise ValueError(f"{where}: {e.phase} announces {got or 'a peaceful night'}, the actions of {night} give {set(pending_night)}")
        elif e.kind == "elimination":
            if e.target not in alive:
                raise ValueError(f"{where}: seat {e.target} eliminated twice")
            if e.result == "exiled":
                tally = tallies.get(e.phase, {})
                top = max(tally.values())
                leaders = [s for s, v in tally.items() if v == top]
                if leaders != [e.target]:
                    raise ValueError(f"{where}: {e.phase} exiles {e.target} but the tally is {tally}")
            alive.discard(e.target)
            died_at[e.target] = e.segment_id
            if e.target == sheriff and not any(
                    ev.kind == "badge_transfer" and ev.actor == sheriff for ev in events):
                sheriff = None
    wolves_left = [s for s in alive if faction_of(role_of[s]) == "wolf"]
    villagers_left = [s for s in alive if role_of[s] == "villager"]
    gods_left = [s for s in alive if is_god(role_of[s]) and faction_of(role_of[s]) == "good"]
    if not wolves_left and villagers_left and gods_left:
        winner = "good"
    elif wolves_left and (not villagers_left or not gods_left):
        winner = "wolf"
    else:
        raise ValueError(f"{where}: the script ends without a winner (alive: {sorted(alive)})")
    if faction_of(role_of[spec.mvp]) != winner:
        raise ValueError(f"{where}: the MVP must be on the winning side")
    return winner


def _is_last_words(spec: GameSpec, index: int) -> bool:
    turns = [s for s in spec.script if isinstance(s, Turn)]
    return turns[index].last_words


SKILL_ROLE = {
    "seer_check": ("seer",), "witch_save": ("witch",), "witch_poison": ("witch",), "guard_protect": ("guard",),
    "hunter_shoot": ("hunter",), "wolf_kill": ("werewolf", "white_wolf_king"),
    "white_wolf_king_take": ("white_wolf_king",),
}


def _check_skill(where: str, e, role_of: dict[int, str], alive: set[int]) -> None:
    from werealign.schema.roles import faction_of

    if role_of[e.actor] not in SKILL_ROLE[e.skill]:
        raise ValueError(f"{where}: seat {e.actor} ({role_of[e.actor]}) cannot use {e.skill}")
    if e.skill == "hunter_shoot":
        return  # the hunter shoots as he dies
    if e.actor not in alive or e.target not in alive:
        raise ValueError(f"{where}: {e.skill} by or on a dead seat in {e.phase}")
    if e.skill == "seer_check":
        truth = "wolf" if faction_of(role_of[e.target]) == "wolf" else "good"
        if e.result != truth:
            raise ValueError(f"{where}: {e.phase} seer check on {e.target} says {e.result}, truth is {truth}")


def _night_deaths(where: str, night: str, actions: dict[str, int]) -> list[int]:
    kill = actions.get("wolf_kill")
    saved = actions.get("witch_save") == kill
    guarded = actions.get("guard_protect") == kill
    dead = []
    if kill is not None and saved == guarded:  # neither, or both (the guard and the antidote cancel out)
        dead.append(kill)
    if actions.get("witch_poison") is not None:
        dead.append(actions["witch_poison"])
    return sorted(dead)


def build_items(spec: GameSpec, built: Built):
    from werealign.game.derive import derive_decision_items
    from werealign.schema import OPTION_KEYS, Option, SpeechItem

    game = built.game
    viewpoint = spec.mvp
    speech = []
    counters: dict[str, int] = {}
    for item in spec.items:
        counters[item.dimension] = counters.get(item.dimension, 0) + 1
        ids = built.turns[item.cut]
        cutoff = ids[item.sentence] if item.sentence is not None else ids[-1]
        origins = [o for o, _ in item.options]
        if origins.count(GT) != 1 or len(item.options) != 9:
            raise ValueError(f"{spec.game_id}: {item.dimension} item at {item.cut} needs nine options, one ground truth")
        speech.append(SpeechItem(
            item_id=f"{spec.game_id}-{item.dimension}-{counters[item.dimension]}",
            game_id=spec.game_id, language="en", dimension=item.dimension, viewpoint_seat=viewpoint,
            cutoff_segment=cutoff, question=item.question,
            options=[Option(key=k, text=text, origin=o) for k, (o, text) in zip(OPTION_KEYS, item.options)],
            answer=OPTION_KEYS[origins.index(GT)], explanation=item.explanation, rule_reminder=item.rule_reminder,
            provenance=_provenance(),
        ))
    # VA and OI come from the game log through the one derive stage (werealign.game.derive).
    derived = derive_decision_items(game, provenance=lambda g, key: _provenance(), tags=("VA", "OI"))
    vote, opponent = derived.vote, derived.opponent
    return speech, vote, opponent


def build(out: Path) -> None:
    from werealign.dataset import write_dataset
    from werealign.files import staged_directory

    games, speech, vote, opponent, osr = [], [], [], [], {}
    for spec in GAMES:
        built = build_game(spec)
        s, v, o = build_items(spec, built)
        games.append(built.game)
        speech += s
        vote += v
        opponent += o
        osr[spec.game_id] = built.osr
    with staged_directory(out, overwrite=True) as stage:
        write_dataset(stage, games=games, speech=speech, vote=vote, opponent=opponent, osr=osr, **MANIFEST)


def main(argv: list[str]) -> int:
    repo = Path(__file__).resolve().parents[1]
    out = Path(argv[0]) if argv else repo / "werealign" / "sample"
    build(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
