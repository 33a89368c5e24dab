"""Invented English online Mafia games, written as an annotator would bring them (issue 45): per game a transcript
(`transcript.srt`) and an annotator config (`config.yaml`).

Everything a foreign game family brings and the project first met on a real Mafia dataset: players call each other
by first name or nickname, never "seat 3"; the mafia talk at night in their own chat, the game bot relaying their
kill votes there ("Dana voted for Ben"); no MVP; one seat played by an LLM agent; roles announced at elimination
("Their role was mafioso"); whole-second time stamps, the morning announcement sharing its second with the end of
the night chat. Fiction throughout, drawn with a seed.

`numbered=True` writes the same games with every player named in speech as "seat N": a rule that reads names
(consensus, last-named) must score the same on both.
"""

from __future__ import annotations

import random
from pathlib import Path

FIRST = ["Ava", "Ben", "Cora", "Dana", "Eli", "Finn", "Gwen", "Hugo", "Ivy", "Jack", "Kara", "Liam", "Maya", "Noah", "Owen", "Pia"]
NICK = {"Ben": "Benny", "Dana": "Dee", "Finn": "Finny", "Hugo": "Hugs", "Jack": "Jacko", "Liam": "Li", "Noah": "Noa", "Owen": "O"}
AGENT_MODEL = "gpt-4o-mini"
PLAYERS = 7


class _Clock:
    """Whole-second time stamps; `same_second` makes the next cue share the previous cue's second."""

    def __init__(self) -> None:
        self.t = 5
        self.cues: list[tuple[int, int, str]] = []

    def say(self, who: str, text: str, same_second: bool = False) -> int:
        if not same_second:
            self.t += 3
        self.cues.append((len(self.cues), self.t, f"{who}: {text}"))
        return len(self.cues) - 1


def _ts(t: int) -> str:
    return f"{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}"


def _srt(cues: list[tuple[int, int, str]]) -> str:
    return "\n".join(f"{i}\n{_ts(t)},000 --> {_ts(t)},000\n{text}\n" for i, t, text in cues)


def write_game(root: Path, n: int, seed: int, numbered: bool = False) -> Path:
    """One game in `root/<game id>/`; returns that folder."""
    rng = random.Random(seed)
    names = rng.sample(FIRST, PLAYERS)
    mafia = sorted(rng.sample(range(1, PLAYERS + 1), 2))
    agent = rng.choice([s for s in range(1, PLAYERS + 1)])

    def call(seat: int) -> str:
        """How a player names `seat` in speech: a first name, now and then a nickname (or 'player N')."""
        nickname = rng.random() < 0.4  # drawn either way, so both forms of a game are the same game
        if numbered:
            return f"seat {seat}"
        name = names[seat - 1]
        return NICK[name] if name in NICK and nickname else name

    clock = _Clock()
    phases: list[str] = []
    events: list[str] = []
    alive = list(range(1, PLAYERS + 1))
    day = 0
    winner = None
    clock.say("Host", "Welcome to Mafia. Roles are being handed out.")
    while winner is None:
        day += 1
        # Night: the mafia's own chat; the bot relays each mafia vote there.
        first = clock.say("Host", "Night falls. Mafia, choose your victim.")
        phases.append(f"  - {{kind: night, day: {day}, start_segment: {first}, start: \"{_ts(clock.t)}\"}}")
        town = [s for s in alive if s not in mafia]
        victim = rng.choice(town)
        for m in (s for s in mafia if s in alive):
            clock.say(names[m - 1], rng.choice([f"lets get rid of {call(victim)}", f"{call(victim)} is reading us too well, kill {call(victim)}"]))
            clock.say("Host", f"{names[m - 1]} voted for {names[victim - 1]}")
        events.append(f"  - {{kind: skill_use, skill: wolf_kill, target: {victim}, segment: {len(clock.cues) - 1}}}")
        # Morning: the announcement shares its second with the last line of the night chat.
        morning = clock.say("Host", f"{names[victim - 1]} was killed by the mafia. Their role was bystander.", same_second=True)
        phases.append(f"  - {{kind: day, day: {day}, start_segment: {morning}, start: \"{_ts(clock.t)}\"}}")
        events.append(f"  - {{kind: elimination, target: {victim}, result: night_death, segment: {morning}}}")
        events.append(f"  - {{kind: role_reveal, target: {victim}, result: bystander, segment: {morning}}}")
        alive.remove(victim)
        if len([s for s in alive if s in mafia]) >= len([s for s in alive if s not in mafia]):
            winner = "wolf"
            break
        # Day: everyone speaks, naming suspects; the town leans towards a mafioso, the mafia towards the town.
        suspect = {s: rng.choice([x for x in alive if x != s and (x in mafia or rng.random() < 0.5) and not (s in mafia and x in mafia)]
                                 or [x for x in alive if x != s]) for s in alive}
        for s in alive:
            t = suspect[s]
            lines = [f"I think {call(t)} is suspicious", f"{call(t)} has been way too quiet, smells like mafia", f"my vote is on {call(t)} today",
                     f"not sure about {call(rng.choice([x for x in alive if x != s]))} but {call(t)} feels off"]
            text = rng.choice(lines)
            roll = rng.random()
            if roll < 0.25:
                text += ". im not mafia btw"
            elif roll < 0.35 and s not in mafia:
                text = "I am a bystander. " + text
            elif roll < 0.4:
                text += ". Im innocent"
            clock.say(names[s - 1], text)
        for s in alive:
            clock.say(names[s - 1], f"{call(suspect[s])} for me")
        clock.say("Host", "Voting is open.")
        tally: dict[int, int] = {}
        for s in alive:
            seg = clock.say("Host", f"{names[s - 1]} voted for {names[suspect[s] - 1]}")
            events.append(f"  - {{kind: vote, actor: {s}, target: {suspect[s]}, segment: {seg}}}")
            tally[suspect[s]] = tally.get(suspect[s], 0) + 1
        out = min(tally, key=lambda x: (-tally[x], x))
        role = "mafioso" if out in mafia else "bystander"
        seg = clock.say("Host", f"{names[out - 1]} was voted out. Their role was {role}.")
        events.append(f"  - {{kind: elimination, target: {out}, result: voted_out, segment: {seg}}}")
        events.append(f"  - {{kind: role_reveal, target: {out}, result: {role}, segment: {seg}}}")
        alive.remove(out)
        if not [s for s in alive if s in mafia]:
            winner = "good"
        elif len([s for s in alive if s in mafia]) >= len([s for s in alive if s not in mafia]):
            winner = "wolf"
    clock.say("Host", f"Game over: the {'mafia' if winner == 'wolf' else 'town'} wins.")
    end = clock.t + 1
    clock.say("Host", "Thanks for playing!")

    game_id = f"mafia-en-{n:02d}" + ("-num" if numbered else "")
    folder = root / game_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "transcript.srt").write_text(_srt(clock.cues), encoding="utf-8")
    names_yaml = "\n".join(f"  {s}: [{names[s - 1]}{', ' + NICK[names[s - 1]] if names[s - 1] in NICK else ''}]" for s in range(1, PLAYERS + 1))
    config = f"""schema_version: "1.0"
game_id: {game_id}
language: en
provenance:
  source: "werealign invented online Mafia game {n}"
  annotators: [werealign-tests]
rules:
  text: >-
    Seven players: two mafiosi and five bystanders. Each night the mafia, who know each other and talk in their
    own chat, vote to kill one player. Each day everyone talks, then votes to eliminate one player; an eliminated
    player's role is announced. The town wins when every mafioso is out; the mafia win when they are as many as
    the town.
  family: mafia
  win_condition: parity
  has_sheriff: false
  moves: {{wolves_may_kill_wolf: false}}
players: {PLAYERS}
speakers:
{chr(10).join(f"  {names[s - 1]}: {s}" for s in range(1, PLAYERS + 1))}
  Host: host
roles:
{chr(10).join(f"  {s}: {'mafioso' if s in mafia else 'bystander'}" for s in range(1, PLAYERS + 1))}
names:
{names_yaml}
agents:
  {agent}: {AGENT_MODEL}
phase_audiences:
  night: {{kind: team, team: wolf}}
phases:
{chr(10).join(phases)}
game_end: "{_ts(end)}"
events:
{chr(10).join(events)}
winner: {winner}
"""
    (folder / "config.yaml").write_text(config, encoding="utf-8")
    return folder


def write_games(root: Path, count: int = 5, numbered: bool = False) -> list[Path]:
    """`count` games (seeds 1..count) under `root`."""
    return [write_game(root, n, seed=1000 + n, numbered=numbered) for n in range(1, count + 1)]
