"""`werealign review`: the review log and export in-process, and the page in a real headless browser."""

from __future__ import annotations

import json
import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from gen_fake import FakeProvider
from werealign.dataset import load_dataset
from werealign.errors import UserError
from werealign.generation.pipeline import GenConfig, run_generation
from werealign.generation.review import open_review, read_log
from werealign.generation.review_server import make_server

SHOTS = os.environ.get("WEREALIGN_SCREENSHOTS")  # a folder to keep the screenshots in, to look at them


@pytest.fixture()
def generated(tmp_path: Path) -> Path:
    out = tmp_path / "gen"
    run_generation(GenConfig(model="fake/model", games=("sample-en-01",), dimensions=("RI",), osr=False, judges=1), out,
                   acompletion=FakeProvider(), quiet=True)
    return out


def test_decisions_are_logged_resumed_and_exported(generated):
    s = open_review(generated)
    ids = [it.item_id for it in s.items]
    assert len(ids) == 4 and s.first_open() == 0
    s.decide(ids[0], "accepted", reviewer="ann")
    with pytest.raises(UserError, match="needs a reason"):
        s.decide(ids[1], "rejected", reason="  ")
    s.decide(ids[1], "rejected", reason="key is not the MVP's move")
    with pytest.raises(UserError, match="answer"):
        s.decide(ids[2], "edited", edited={"answer": "Z"})
    s.decide(ids[2], "edited", edited={"question": "A sharper question?", "item_id": "hijack"}, reviewer="ann")
    # a new session reads the log back: same decisions, resumes at the first undecided item
    again = open_review(generated)
    assert {k: v["decision"] for k, v in again.decisions.items()} == {ids[0]: "accepted", ids[1]: "rejected", ids[2]: "edited"}
    assert again.first_open() == 3
    n = again.export(generated / "reviewed")
    ds = load_dataset(generated / "reviewed")
    assert n == 2 and [it.item_id for it in ds.speech] == [ids[0], ids[2]]  # the id cannot be edited
    assert [it.provenance.review for it in ds.speech] == ["accepted", "edited"] and ds.speech[1].question == "A sharper question?"
    assert ds.speech[1].provenance.reviewer == "ann" and ds.speech[1].provenance.generator_model == "fake/model"


def test_a_torn_last_line_is_ignored_but_a_bad_middle_line_is_an_error(tmp_path):
    log = tmp_path / "review.jsonl"
    good = json.dumps({"item_id": "x", "decision": "accepted"})
    log.write_text(good + "\n" + '{"item_id": "y", "deci')
    assert list(read_log(log)) == ["x"]
    log.write_text('{"item_id": "y", "deci\n' + good + "\n")
    with pytest.raises(UserError, match="review.jsonl:1"):
        read_log(log)


@pytest.fixture()
def served(generated):
    session = open_review(generated)
    server = make_server(session, port=0, reviewer="tester", export_to=generated / "reviewed")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", generated
    server.shutdown()
    server.server_close()


def test_server_refuses_foreign_posts(served):
    url, _ = served
    req = urllib.request.Request(url + "api/decision", data=b"item_id=x", method="POST", headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req)
    assert e.value.code == 403
    req = urllib.request.Request(url + "api/state", headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req)
    assert e.value.code == 403


@pytest.mark.parametrize("length", ["abc", "-5", "1e3"])
def test_server_answers_a_malformed_content_length_with_400(served, length, capsys):
    import http.client

    url, _ = served
    host, port = url.split("//")[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    conn.putrequest("POST", "/api/decision")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", length)
    conn.endheaders()
    reply = conn.getresponse()
    assert reply.status == 400 and b"Content-Length" in reply.read()
    conn.close()
    assert "Traceback" not in capsys.readouterr().err
    urllib.request.urlopen(url + "api/state")  # the server lives on



def _shot(page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000  # a rendered page, not a blank one
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SHOTS) / path.name)


def test_review_page_in_a_real_browser(served, chromium, tmp_path):
    url, gen = served
    items = load_dataset(gen / "dataset").speech
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    # open: context, question, nine options with mechanism tags, the key marked, explanation, flags
    assert page.text_content("#question") == items[0].question
    assert page.locator(".opt").count() == 9 and page.locator(".opt.key").count() == 1
    assert page.get_attribute(".opt.key", "data-key") == items[0].answer
    assert page.locator(".tag.m2_biased_rationale").count() == 4 and page.locator(".tag.ground_truth").count() == 1
    assert "Transcript so far" in page.text_content("#context") and page.text_content("#explanation") == items[0].explanation
    assert page.text_content("#status") == "undecided"
    _shot(page, tmp_path, "1-open")

    page.keyboard.press("a")  # accept -> next item
    page.wait_for_function("document.querySelector('#progress').textContent.includes('item 2 of 4 · 1 decided')")

    page.keyboard.press("e")  # edit the second item: question, answer
    page.wait_for_selector("#editor:not(.hidden)")
    page.fill("#e-question", "Which move keeps the village's majority today?")
    other = next(o.key for o in items[1].options if o.key != items[1].answer)
    page.check(f"input[name=e-answer][value={other}]")
    _shot(page, tmp_path, "2-edit")
    page.keyboard.press("Control+Enter")
    page.wait_for_function("document.querySelector('#progress').textContent.includes('2 decided')")

    page.keyboard.press("r")  # reject the third, first without a reason (refused), then with one
    page.wait_for_selector("#rejecter:not(.hidden)")
    page.keyboard.press("Enter")
    assert "give a reason" in page.text_content("#toast")
    page.fill("#r-reason", "two options say the same thing")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#progress').textContent.includes('3 decided')")

    page.reload()  # resumable: decisions come back from the log
    page.wait_for_selector("body[data-ready='1']")
    page.keyboard.press("k")
    page.wait_for_function("document.querySelector('#status').textContent === 'rejected'")
    assert "two options say the same thing" in page.text_content("#reason")
    page.keyboard.press("k")
    page.wait_for_function("document.querySelector('#status').textContent === 'edited'")
    assert page.text_content("#question") == "Which move keeps the village's majority today?"
    assert page.get_attribute(".opt.key", "data-key") == other
    _shot(page, tmp_path, "3-after-reload")

    page.keyboard.press("x")  # export
    page.wait_for_function("document.querySelector('#toast').textContent.startsWith('exported 2 items')")
    _shot(page, tmp_path, "4-exported")
    page.close()

    log = [json.loads(line) for line in (gen / "review.jsonl").read_text().splitlines()]
    assert [e["decision"] for e in log] == ["accepted", "edited", "rejected"] and {e["reviewer"] for e in log} == {"tester"}
    exported = load_dataset(gen / "reviewed").speech
    assert [it.item_id for it in exported] == [items[0].item_id, items[1].item_id]
    assert exported[1].answer == other and exported[1].provenance.review == "edited"
    # the ground_truth tag moved with the answer, so the export validates
    assert next(o for o in exported[1].options if o.key == other).origin == "ground_truth"
    from werealign.validate import check_paths, count

    assert count(check_paths([gen / "reviewed"]).findings)[0] == 0
