"""Issue 36, smaller points: the cot step no longer contradicts the task's answer-line instruction, and Chinese
renders in the browser and in plots when `.ci/run`'s CJK font is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from werealign.render.prompt_templates import render_template

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lang, says_later, says_not_yet", [("en", "in the next step", "does not apply yet"), ("zh", "下一步", "暂时不适用")])
def test_the_cot_reasoning_step_sets_the_answer_line_aside_explicitly(lang, says_later, says_not_yet):
    text = render_template(lang, "solvers/cot_reason")
    # the task prompt above it asks for a final answer line: the step says that instruction waits, and for what
    assert says_later in text and says_not_yet in text
    assert "do not give the final answer line yet" not in text  # the bare contradiction of before


STEP_TEMPLATES = sorted((REPO / "werealign" / "render" / "templates").glob("*/solvers/*.j2"))


def test_the_step_templates_are_found_in_both_languages():
    """The check below is parametrized over a glob: an empty glob would check nothing."""
    found = {(p.parent.parent.name, p.name) for p in STEP_TEMPLATES}
    assert {(lang, f"{step}.v1.j2") for lang in ("en", "zh") for step in ("mg_reflect", "sa_estimate", "sa_strategy")} <= found


@pytest.mark.parametrize("path", STEP_TEMPLATES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_intermediate_step_bluntly_contradicts_the_answer_line_instruction(path):
    """Every solver step below the task prompt that defers the answer line says why the instruction waits."""
    text = path.read_text(encoding="utf-8")
    assert "do not give the final answer line yet" not in text.lower() and "先不要给出最后的答案行" not in text
    if path.name != "final.v1.j2" and ("answer line" in text or "答案行" in text):  # final: the step that answers
        assert "does not apply yet" in text or "暂时不适用" in text


def test_ci_installs_a_cjk_font_with_chromium():
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    install = next(line for line in script.splitlines() if "apt-get install" in line)
    assert "chromium" in install and "fonts-noto-cjk" in install
    assert "fc-list :lang=zh" in script  # a machine with chromium but no CJK font gets one too


def test_chinese_renders_as_glyphs_not_boxes_in_chromium(chromium, tmp_path):
    """Two different characters draw differently only with a CJK font: without one both are the same empty box."""
    page = chromium.new_page()
    page.set_content('<p style="font-size:40px"><span id="a">狼</span> <span id="b">民</span></p>')
    a, b = page.locator("#a").screenshot(), page.locator("#b").screenshot()
    page.close()
    assert a != b, "Chinese shows as boxes: install a CJK font (apt-get install fonts-noto-cjk)"


def test_plots_fall_back_to_a_cjk_font_when_one_is_installed(tmp_path):
    from werealign.leaderboards.plots import cjk_fonts, pyplot

    plt = pyplot()
    if not cjk_fonts():
        pytest.skip("no CJK font installed (apt-get install fonts-noto-cjk)")
    assert plt.rcParams["font.family"][0] == "DejaVu Sans" and plt.rcParams["font.family"][1] in cjk_fonts()
    fig, ax = plt.subplots()
    ax.set_title("白狼王")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" would be a warning
        fig.savefig(tmp_path / "t.png")
    plt.close(fig)
    assert (tmp_path / "t.png").stat().st_size > 0
