"""`werealign annotate ...` (issue 4): transcripts + annotator config -> validated game logs; quality measures.

Each command is a thin shell over `werealign.annotate.*`; heavy imports (sklearn, jiwer) happen there,
inside functions, so `werealign --help` stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from werealign.errors import UserError

app = typer.Typer(help="Annotation toolkit: transcripts + annotator config -> validated game logs; quality measures.", no_args_is_help=True)


def _check_out_is_not_an_input(out: Path, *inputs: Path) -> None:
    # Writing over an input would silently replace the annotator's transcript or config.
    for path in inputs:
        if out.resolve() == path.resolve():
            raise UserError(f"{out}: --out is also an input file; write the output somewhere else")


def _check_format(fmt: str) -> None:
    if fmt not in ("text", "json"):
        raise UserError(f"--format: expected text or json, got {fmt!r}")


@app.command("build")
def build_command(
    srt: Path = typer.Option(..., "--srt", help="The ASR transcript (SRT, cues '<speaker label>: text')."),
    config: Path = typer.Option(..., "--config", help="Annotator config (.yaml) or a WereBench release config as published (NN - GAME_CONFIG.txt, NN-GAME_CONFIG.py, NN - GAME_CONFIG.txt / NN-GAME_CONFIG.py)."),
    out: Path = typer.Option(..., "--out", help="Game log to write (GAME.json)."),
    keep_invalid: bool = typer.Option(False, "--keep-invalid", help="Write the game even when validation finds errors."),
) -> None:
    """Build a game log from a transcript and an annotator config, validated like `werealign validate`."""
    from werealign.annotate.build import build_from_files, validate_built
    from werealign.files import write_json
    from werealign.importers.werebench.config import build_release_game, looks_like_release_config

    _check_out_is_not_an_input(out, srt, config)
    # The one place the generic toolkit meets the release format: annotate/ never imports importers/.
    result = build_release_game(srt, config) if looks_like_release_config(config) else build_from_files(srt, config)
    for note in result.notes:
        print(f"note: {config}: {note}", file=sys.stderr)
    findings = validate_built(result.game, str(out))
    errors = [f for f in findings if f.severity == "error"]
    for f in findings:
        print(f.to_text(), file=sys.stderr)
    if errors and not keep_invalid:
        raise UserError(f"{out}: not written: the built game {result.game.game_id} has {len(errors)} validation error(s) (listed above; --keep-invalid writes it anyway)")
    write_json(out, result.game)
    g = result.game
    print(f"wrote {out}: {g.game_id}, {len(g.utterances)} turns from {sum(len(u.segment_ids) for u in g.utterances)} segments, "
          f"{len(g.phases)} phases, {len(g.events)} events; {len(errors)} error(s), {len(findings) - len(errors)} warning(s)")


@app.command("faithfulness")
def faithfulness_command(
    clean_process: Path = typer.Argument(..., help="The release's dataset/clean_process directory (Season_N/NN.srt + the game config files)."),
    data: Path = typer.Argument(..., help="The release's dataset/data directory (Season_N/NN.json processed logs)."),
    format: str = typer.Option("text", "--format", help="text or json"),
) -> None:
    """Rebuild every release game and compare it with the release's processed log, turn by turn."""
    from werealign.importers.werebench.faithfulness import check_release, summary, text_report

    _check_format(format)
    release = check_release(clean_process, data)
    total = summary(release)
    if format == "json":
        print(json.dumps({"summary": total, "games": [r.to_dict() for r in release.games]}, ensure_ascii=False, indent=2))
    else:
        print(text_report(release))
    problems = []
    if total["unexplained"]:
        problems.append(f"{total['unexplained']} unexplained difference(s) between the builder and the release")
    if release.failed:
        problems.append(f"{len(release.failed)} game(s) could not be checked ({', '.join(release.failed)})")
    if problems:
        raise UserError("; ".join(problems))


@app.command("agreement")
def agreement_command(
    a: Path = typer.Argument(..., help="Annotator A: a built game log (.json) or an annotator config (.yaml, needs --srt)."),
    b: Path = typer.Argument(..., help="Annotator B, same kind of file, same game."),
    srt: Path | None = typer.Option(None, "--srt", help="The transcript both configs describe (when A and B are configs)."),
    format: str = typer.Option("text", "--format", help="text or json"),
) -> None:
    """Cohen's kappa between two annotators: speaker attribution per segment and the game-state log per event."""
    from werealign.annotate.agreement import agreement_from_files

    _check_format(format)
    result = agreement_from_files(a, b, srt)
    if format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    for name, m in result.items():
        kappa = "n/a (only one label used)" if m["kappa"] is None else f"{m['kappa']:.4f}"
        print(f"{name}: kappa {kappa}, observed agreement {m['observed']:.4f} over {m['n']} {m['unit']}; {m['disagreements']} disagreement(s)")
        for d in m["examples"]:
            print(f"  - {d}")


@app.command("wer")
def wer_command(
    gold: Path = typer.Option(..., "--gold", help="Reference transcript: SRT (labels stripped) or plain text."),
    hyp: Path = typer.Option(..., "--hyp", help="ASR hypothesis: SRT or plain text."),
    lexicon: Path | None = typer.Option(None, "--lexicon", help="Corrections for the hypothesis: YAML mapping or TSV 'wrong<TAB>right'."),
    language: str | None = typer.Option(None, "--language", help="zh or en; guessed from the text when absent."),
    format: str = typer.Option("text", "--format", help="text or json"),
) -> None:
    """Word error rate (and character error rate) of an ASR transcript, before and after lexicon correction."""
    from werealign.annotate.wer import wer_from_files

    _check_format(format)
    result = wer_from_files(gold, hyp, lexicon, language)
    if format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    print(f"language: {result['language']}; reference: {result['reference_words']} words, {result['reference_chars']} characters")
    for stage in ("before", "after"):
        if stage in result:
            m = result[stage]
            print(f"{stage} correction: WER {m['wer']:.4f}, CER {m['cer']:.4f}" + (f" ({m['replacements']} lexicon replacement(s))" if stage == "after" else ""))
    if result["language"] == "zh":
        print("(Chinese is not written with spaces: CER is the meaningful measure, WER counts space-separated chunks)")


@app.command("convert-release")
def convert_release_command(
    config: Path = typer.Argument(..., help="A WereBench release config as published (clean_process/Season_N/NN - GAME_CONFIG.txt, NN-GAME_CONFIG.py, ...)."),
    out: Path = typer.Option(..., "--out", help="Annotator config to write (.yaml)."),
) -> None:
    """Turn a release config into an editable annotator config (YAML), to add events, highlights, the winner."""
    from werealign.importers.werebench.config import release_config_yaml
    from werealign.files import atomic_write_text

    _check_out_is_not_an_input(out, config)
    text, notes = release_config_yaml(config)
    for note in notes:
        print(f"note: {config}: {note}", file=sys.stderr)
    atomic_write_text(out, text)
    print(f"wrote {out}")
