"""`werealign/own-style`: the shortcut of a question asked from a player's viewpoint about what they say.

The viewpoint spoke earlier in the transcript, so an option in its own wording (its pet phrases,
the seats it keeps naming) can be found by style alone, without judging the game. This model picks
the option with the highest character TF-IDF cosine to the viewpoint's own shown turns; its score is
the floor of that shortcut (werealign/eval/floors.py). Like every built-in it reads only the item as
shown (an ItemView; werealign/llm/builtin_models.py registers it). VA / OI have no style to match: the
lowest-numbered candidate, or every candidate.
"""

from __future__ import annotations

from collections.abc import Sequence

from werealign.text.similarity import tfidf_cosines

NAME = "own-style"


def own_style_option(options: Sequence[tuple[str, str]], own_speech: Sequence[str]) -> tuple[str, str]:
    """(letter, why): the option closest in wording to the viewpoint's own turns; A when it has none."""
    if not any(t.strip() for t in own_speech):
        return options[0][0], "you have not spoken yet: option A"
    sims = tfidf_cosines(" ".join(own_speech), [t for _, t in options], sublinear_tf=True)
    best = max(range(len(sims)), key=lambda i: (sims[i], -i))
    return options[best][0], "the option closest in wording to your own earlier turns"


def own_style_reply(shape: str, options: Sequence[tuple[str, str]], candidates: Sequence[int], own_speech: Sequence[str]) -> tuple[str, str]:
    """(answer, why) for any answer shape a prompt asks for (option | seat | seats)."""
    if shape == "option":
        return own_style_option(options, own_speech)
    if shape == "seat":
        return str(min(candidates)), "no style to match: the lowest-numbered candidate"
    return ", ".join(map(str, candidates)), "no style to match: every candidate"
