"""WER / CER before and after lexicon correction, against numbers worked out by hand."""

from __future__ import annotations

import json

import pytest

from cli_inproc import run_cli
from werealign.annotate.wer import apply_lexicon, guess_language, load_lexicon, normalise, wer_report
from werealign.errors import UserError


def test_english_wer_and_cer_by_hand():
    # ref: the seer checked seat two   (5 words, 25 characters with spaces)
    # hyp: the sear checked seat to
    # words: seer->sear, two->to = 2 substitutions -> WER 2/5 = 0.4
    # chars: e->a in "sear" (1 substitution), "two"->"to" drops the w (1 deletion) -> CER 2/25 = 0.08
    r = wer_report("The seer checked seat two.", "the sear checked seat to", {"sear": "seer", "seat to": "seat two"})
    assert r["language"] == "en"
    assert r["before"]["wer"] == pytest.approx(0.4)
    assert r["before"]["word_errors"] == {"substitutions": 2, "deletions": 0, "insertions": 0, "hits": 3}
    assert r["before"]["cer"] == pytest.approx(2 / 25)
    assert r["after"]["wer"] == 0 and r["after"]["cer"] == 0 and r["after"]["replacements"] == 2


def test_chinese_cer_by_hand():
    # ref 二号是狼人 (5 characters); hyp 二少是狼 : 号->少 substitution, 人 deleted -> CER 2/5 = 0.4
    # The lexicon maps the nickname 二少 to 二号: one error left (the deletion) -> CER 1/5 = 0.2
    r = wer_report("二号是狼人。", "二少是狼", {"二少": "二号"})
    assert r["language"] == "zh" and r["reference_chars"] == 5
    assert r["before"]["cer"] == pytest.approx(0.4)
    assert r["after"]["cer"] == pytest.approx(0.2)
    # ASR spaces around digits are not errors in Chinese CER.
    assert wer_report("查杀2号", "查杀 2 号")["before"]["cer"] == 0


def test_normalise_and_lexicon_mechanics():
    assert normalise("Hello,   World! “quoted”") == "hello world quoted"
    # Longest entry first, one pass: the replacement is not rewritten again.
    assert apply_lexicon("ab abc", {"ab": "x", "abc": "ab"}) == ("x ab", 2)
    assert guess_language("我是预言家") == "zh" and guess_language("I am the seer") == "en"


def test_lexicon_files(tmp_path):
    tsv = tmp_path / "lex.tsv"
    tsv.write_text("# nicknames\n二少\t2号\n\n景辉流\t警徽流\n", encoding="utf-8")
    assert load_lexicon(tsv) == {"二少": "2号", "景辉流": "警徽流"}
    tsv.write_text("ok\tfine\nbroken line\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.tsv:2: expected 'wrong<TAB>right'"):
        load_lexicon(tsv)
    (tmp_path / "dir.tsv").mkdir()
    with pytest.raises(UserError, match=r"dir.tsv: is a directory"):  # was a bare IsADirectoryError
        load_lexicon(tmp_path / "dir.tsv")
    yml = tmp_path / "lex.yaml"
    yml.write_text("sear: seer\nbad: [1, 2]\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.yaml:2: bad: each entry maps"):
        load_lexicon(yml)


def test_cli_on_srt_and_text(tmp_path):
    gold = tmp_path / "gold.srt"
    gold.write_text("1\n00:00:01,000 --> 00:00:02,000\nSpeaker 1: The seer checked\n\n"
                    "2\n00:00:02,000 --> 00:00:03,000\nSpeaker 2: seat two.\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("the sear checked\nseat to\n", encoding="utf-8")
    lex = tmp_path / "lex.yaml"
    lex.write_text("sear: seer\n", encoding="utf-8")
    r = run_cli("annotate", "wer", "--gold", str(gold), "--hyp", str(hyp), "--lexicon", str(lex), "--format", "json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["before"]["wer"] == pytest.approx(0.4) and got["after"]["wer"] == pytest.approx(0.2)
    r = run_cli("annotate", "wer", "--gold", str(tmp_path / "none.srt"), "--hyp", str(hyp))
    assert r.returncode == 1 and r.stderr.startswith("error: ") and "file not found" in r.stderr


def test_runs_on_real_transcripts(werebench_src):
    # A real transcript against itself: perfect, and read as Chinese.
    from werealign.annotate.wer import wer_from_files

    srt = werebench_src / "clean_process" / "Season_1" / "01.srt"
    r = wer_from_files(srt, srt)
    assert r["language"] == "zh" and r["before"]["cer"] == 0 and r["reference_chars"] > 1000


def test_lexicon_respects_word_boundaries_and_case():
    # "two" used to rewrite "network" into "ne2rk", and "seed" missed "Seed".
    assert apply_lexicon("Seed three. Also network two.", {"seed": "seat", "two": "2"}) == ("seat three also network 2", 2)
    # Entries are normalised like the text: case and punctuation do not matter, in the key or the value.
    assert apply_lexicon("SEAT-TO votes", {"Seat to": "Seat Two!"}) == ("seat two votes", 1)
    # A digit edge needs a boundary too ("2" is not inside "12"); a CJK neighbour is a boundary.
    assert apply_lexicon("12 2号", {"2": "two"}) == ("12 two号", 1)
    # CJK entries match anywhere: Chinese has no spaces.
    assert apply_lexicon("我说二少是狼", {"二少": "二号"}) == ("我说二号是狼", 1)
    # An entry that is only punctuation could match nothing: an error, not a silent no-op.
    with pytest.raises(ValueError, match=r"lexicon entry '\?\?' has nothing left to match"):
        apply_lexicon("x", {"??": "y"})


def test_lexicon_file_entries_that_cannot_apply(tmp_path):
    tsv = tmp_path / "lex.tsv"
    tsv.write_text("seed\tseat\n?!\tx\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.tsv:2: entry '\?!' has nothing left to match"):
        load_lexicon(tsv)
    # "Seed" and "seed" are one entry once normalised: two corrections for it cannot both apply.
    tsv.write_text("seed\tseat\nSeed\tsea\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.tsv:2: entry 'Seed' is 'seed' after normalisation, like an earlier entry"):
        load_lexicon(tsv)
    yml = tmp_path / "lex.yaml"
    yml.write_text("seed: seat\nSEED: sea\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.yaml:2: SEED: entry 'SEED' is 'seed'"):
        load_lexicon(yml)


def test_lexicon_corrects_a_capitalised_word():
    # ref "seat three also network two"; hyp has "Seed" (1 substitution in 5 words), which the entry "seed" now fixes.
    r = wer_report("Seat three, also network two.", "Seed three. Also network two.", {"seed": "seat", "two": "two"})
    assert r["before"]["wer"] == pytest.approx(1 / 5)
    assert r["after"]["wer"] == 0 and r["after"]["replacements"] == 2


def test_tsv_lexicon_with_a_bom_keeps_its_first_entry(tmp_path):
    tsv = tmp_path / "lex.tsv"
    tsv.write_bytes("二少\t2号\n景辉流\t警徽流\n".encode("utf-8-sig"))
    assert load_lexicon(tsv) == {"二少": "2号", "景辉流": "警徽流"}


def test_plain_text_keeps_a_colon_that_is_not_a_speaker_label(tmp_path):
    from werealign.annotate.transcript import plain_text

    def srt(*contents: str):
        path = tmp_path / "t.srt"
        path.write_text("".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},500\n{c}\n\n" for i, c in enumerate(contents, 1)), encoding="utf-8")
        return path

    # No labels at all: a sentence with a colon keeps its first words.
    assert plain_text(srt("I checked seat 3: wolf", "vote him out")) == "I checked seat 3: wolf vote him out"
    # Label forms are stripped even when used once ...
    assert plain_text(srt("说话人 3: 我是预言家", "SPEAKER_01: hi", "spk1: yes", "Speaker 12：full-width")) == "我是预言家 hi yes full-width"
    # ... and any prefix that starts at least two cues is a label ("Host" has no number).
    assert plain_text(srt("Host: night falls", "Host: day breaks", "Note: one-off")) == "night falls day breaks Note: one-off"
