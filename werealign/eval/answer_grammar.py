"""The answer line as a grammar, for a local model that decodes under one (`BuiltinModel.answer_grammar`).

SmolLM2-135M asked with the prompts' "You may reason first. Then finish with ... Answer: <letter>" never reached an
answer line within its 256-token reply budget on the release (it restates the options, or rambles), and cut at 256
tokens every reply was unparsable (BENCHMARKS.md, issue 46). Its server (llama.cpp) can decode under a GBNF grammar:
the reply is then the answer line itself, `Answer: ` (or `答案：`) and a value of the shape the prompt asks, drawn from
what the prompt shows (its option letters, its candidate seats, its role cards). The model still chooses the value;
the grammar only keeps it from writing anything else, so every reply is short and parsed by the task as any other.
"none" and "abstain" stay possible for a seat (a decision may allow them; where it does not, the task's parser says so).
"""

from __future__ import annotations

import json

from werealign.solvers.base import Shown

_NONE_WORDS = ("none", "abstain")


def _alternatives(values: list[str]) -> str:
    return "(" + " | ".join(json.dumps(v, ensure_ascii=False) for v in values) + ")"


def answer_grammar(shape: str, shown: Shown) -> str | None:
    """The GBNF grammar of a reply that is one answer line of `shape` (a Task's answer_shape) over what `shown` shows;
    None when the prompt shows nothing to choose from (the model then answers freely)."""
    seats = [str(s) for s in shown.candidates]
    if shape == "option" and shown.options:
        value = _alternatives([key for key, _ in shown.options])
    elif shape == "seat" and seats:
        value = _alternatives(seats + list(_NONE_WORDS))
    elif shape == "seats" and seats:  # at most every candidate once in number (unbounded, SmolLM2 listed seats to its cap)
        value = f'seat (", " seat){{0,{len(seats) - 1}}}\nseat ::= {_alternatives(seats)}'
    elif shape == "roles" and seats and shown.role_cards:
        value = f'pair ("; " pair){{0,{len(seats) - 1}}}\npair ::= {_alternatives(seats)} ": " {_alternatives(list(shown.role_cards))}'
    else:
        return None
    label = '"答案："' if shown.lang == "zh" else '"Answer: "'
    return f"root ::= {label} value\nvalue ::= {value}"
