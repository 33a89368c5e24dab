"""Exits the host announces, and the seats a text names ("N号", Arabic or Chinese numerals): how an importer of
Chinese-language games reads who left the game, and how, from the host's words, each with the words it was read from.

`host_exit_quotes(text, n_seats)` takes one host turn's text and the number of seats and returns (seat, how, quote)
per player announced as leaving, in text order; `how` is an elimination result (self_destruct, voted_out,
died_with_partner, night_death, shot, taken, poisoned, left_table).
"""

from __future__ import annotations

import re

from werealign.text.zh_numbers import chinese_number


_SEAT_MENTION = re.compile(r"(\d+|[一二两三四五六七八九十]+)\s*号")


def seats_mentioned(text: str, n_seats: int) -> list[int]:
    """Seat numbers written as 'N号' (Arabic or Chinese numerals) within 1..n_seats, in order."""
    out = []
    for m in _SEAT_MENTION.finditer(text):
        n = chinese_number(m.group(1))
        if n is not None and 1 <= n <= n_seats and n not in out:
            out.append(n)
    return out


_NUM = r"(?:\d+|[一二两三四五六七八九十]+)"
# A list of seats as the host reads it: "1 号和 3 号", "2 号、5 号", "1 号 8 号", "十号十二号".
# "玩家" may only follow the last seat: in "被禁言的是 7 号玩家 2 号、11 号请离场" seat 7 is not leaving.
_SEAT_LIST = rf"((?:{_NUM}\s*号\s*[、和与]?\s*)*{_NUM}\s*号)"
_PLAYER = r"\s*(?:玩家)?\s*"
# Host phrases announcing that players leave the game: the seats named right before
# ("9 号玩家出局", "5 号玩家自爆", "2 号玩家殉情", "1 号 3 号请离场") or right after
# ("昨天晚上死亡的是 1 号和 3 号", "带走 5 号") the marker, and what the exit was.
_EXITS = (
    # Transcripts write 自爆 by its homophones too ("3 号玩家自报"); "自报身份" (stating one's own role) is not one.
    (re.compile(_SEAT_LIST + _PLAYER + "自(?:爆|报|暴)(?!身份|家门)"), "self_destruct"),
    (re.compile(_SEAT_LIST + _PLAYER + "出局"), "voted_out"),
    (re.compile(_SEAT_LIST + _PLAYER + "殉情"), "died_with_partner"),
    # The dawn's list may use commas too ("死亡的是 8 号，10 号和 11 号"); only here, where nothing else follows.
    (re.compile(r"死亡的是\s*" + _SEAT_LIST.replace("[、和与]", "[、和与，,]")), "night_death"),
    # A gun is the hunter's: "开枪带走 5 号", "枪杀了 5 号", "5 号玩家被猎人开枪带走"; any other "带走" is a skill's.
    (re.compile(r"(?:开枪|枪杀|枪击|射杀)\s*(?:带走|打死|击杀)?\s*(?:了\s*)?" + _SEAT_LIST), "shot"),
    (re.compile(_SEAT_LIST + _PLAYER + r"被\s*(?:猎人)?\s*(?:\d{1,2}\s*号\s*)?(?:开枪|枪杀|枪击|射杀)"), "shot"),
    (re.compile(r"带走\s*(?:了\s*)?" + _SEAT_LIST), "taken"),
    # "3 号玩家可以发动技能，6 号玩家死亡": a skill used on leaving the game (a hunter's, a wolf king's) takes the seat.
    (re.compile(r"发动技能\s*[，,]?\s*(?:带走\s*(?:了\s*)?)?" + _SEAT_LIST + _PLAYER + "死亡"), "taken"),
    (re.compile(_SEAT_LIST + _PLAYER + r"被\s*(?:女巫\s*)?毒(?:死|杀|出局)"), "poisoned"),
    (re.compile(r"(?:毒死|毒杀)(?:的是)?\s*(?:了\s*)?" + _SEAT_LIST), "poisoned"),
    (re.compile(_SEAT_LIST + _PLAYER + "请离场"), "left_table"),
)
# "猎人开枪，5 号玩家出局": an exit right after a shot in the same sentence is the shot, not a vote.
_SHOT_BEFORE = re.compile(r"(?:开枪|枪杀|枪击|射杀)[^。；;！!？?]{0,12}$")
# "11 号玩家可以发动技能带走，5 号玩家出局": an exit right after a skill's take in the same sentence is the take.
_TAKE_BEFORE = re.compile(r"(?:发动技能|带走)[^。；;！!？?]{0,12}$")


def host_exits(text: str, n_seats: int) -> list[tuple[int, str]]:
    """(seat, how) for every player the host's turn announces as leaving the game, in text order.

    Only seats written right next to an exit phrase count, so a vote tally
    ('其余所有玩家投给 4 号') or a speaking order ('从 5 号玩家开始发言') is not an exit.
    """
    return [(seat, how) for seat, how, _ in host_exit_quotes(text, n_seats)]


def host_exit_quotes(text: str, n_seats: int) -> list[tuple[int, str, str]]:
    """host_exits with the words each exit was read from (its evidence)."""
    hits: list[tuple[int, int, str, str]] = []
    for pattern, how in _EXITS:
        for m in pattern.finditer(text):
            if how == "voted_out" and _SHOT_BEFORE.search(text[: m.start(1)]):
                how = "shot"
            elif how == "voted_out" and _TAKE_BEFORE.search(text[: m.start(1)]):
                how = "taken"
            seats = seats_mentioned(m.group(1), n_seats)
            if how == "self_destruct":  # one player blows up at a time: the seat right before the word
                seats = seats[-1:]
            for seat in seats:
                hits.append((m.start(1), seat, how, m.group(0)))
    found: list[tuple[int, str, str]] = []
    # At one position the more specific reading (listed first in _EXITS) wins: sorted() is stable.
    for _, seat, how, quote in sorted(hits, key=lambda h: h[0]):
        if all(seat != s for s, _, _ in found):
            found.append((seat, how, quote))
    return found
