"""An importer's slips in role labels are its own (cat41): the WereBench release's label 阔人 (a typo of 猎人, the
hunter, in one seat's true-role label) is read as the hunter wherever the importer reads labels, and is no role word
of text for the readers every importer shares ("阔人" is also a word: a rich man). Invented sentences only."""

from __future__ import annotations

from werealign.importers.toolkit.nights.knife_said import knife_evidence
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.importers.werebench.text import LABEL_SLIPS, RELEASE_ROLES, declarations_used
from werealign.schema import SeatInfo

SEATS = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good") for s, r in
         [(1, "seer"), (2, "witch"), (3, "hunter"), (4, "werewolf"), (5, "villager"), (6, "villager"), (7, "werewolf")]]


def test_the_release_reads_its_label_slip_as_the_role_and_declares_it_into_what_it_writes():
    assert RELEASE_ROLES.canonical("阔人") == "hunter" == LABEL_SLIPS["阔人"][0]
    assert [d.id for d in declarations_used(["阔人", "村民"])] == ["hunter"] and declarations_used(["猎人"]) == []


def test_the_shared_readers_of_text_do_not_take_a_label_slip_for_a_role_word():
    assert ROLE_WORDS.canonical("阔人") is None and ROLE_WORDS.canonical("猎人") == "hunter"
    # a knife on the board's one hunter, named by the role: read; the slip's word in text names nobody
    assert knife_evidence(None, "第一晚狼人直接刀死了猎人", SEATS)(3, 1)
    assert not knife_evidence(None, "第一晚狼人直接刀死了阔人", SEATS)(3, 1)
