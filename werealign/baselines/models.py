"""The built-in baselines as models: `--model werealign/NAME` like any litellm model string, answered in process.

Each is a `werealign.llm.builtin_models.BuiltinModel` whose `answer` takes the request's subject, a solver State
(werealign.solvers.base; eval hands the engine each sample's), reads it as an ItemView (werealign.baselines.view) and
replies with one line of why and the answer line in the prompt's language. The model layer never imports this
package: werealign declares these models in its own `werealign.models` entry points (pyproject.toml), the group
another package adds a model through, so the model layer finds them as it finds anyone's.

- `werealign/random`  — a uniformly random option / candidate / candidate subset, seeded from the
  messages (+ the request's `seed`), so reruns give the same replies.
- `werealign/longest` — the longest option text (a classic MCQ artefact). Vote: the candidate who
  has spoken the most so far; opponents: the ceil(n/3) candidates who have spoken the most.
- `werealign/lexical` — the option with the highest TF-IDF (character n-gram) cosine similarity to
  the rest of the prompt. Vote: the candidate mentioned most often in the transcript; opponents:
  the ceil(n/3) most-mentioned candidates.
Shortcut models: each exposes one way an item can be answered without the judgment it is meant to
measure (their scores are the floors `results.json` reports beside every model's score):
- `werealign/options-only` — reads only the question and the options, never the game: the option with
  the highest TF-IDF overlap with the question. Vote: the lowest-numbered candidate; opponents: every candidate.
- `werealign/own-last-call` — VA: the last candidate the viewpoint itself named in its own shown turns
  (lowest-numbered candidate when it named none); opponents: the candidates it named, else every
  candidate; speech: option A (no shortcut of this kind).
- `werealign/all-candidates` — OI: every candidate (Jaccard rewards naming everyone when the opposing
  faction is large); vote: the lowest-numbered candidate; speech: option A.
- `werealign/own-style` — speech: the option closest in wording to the viewpoint's own shown turns
  (werealign/baselines/own_style.py); vote: the lowest-numbered candidate; opponents: every candidate.
- `werealign/majority-role` — OI mode `roles`: every seat labelled with the most common card of the
  prompt's card list (the first listed); elsewhere like all-candidates.
In OI mode `roles` (answer shape "roles": a role card per seat) `random` draws a uniform card per seat;
`longest` and `lexical` label their seats (the ceil(n/3) who spoke most / are mentioned most) with the
first wolf-faction card listed and every other seat with the first other card; the other shortcuts,
which have no rule of their own there, label every seat with the first card listed.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from werealign.baselines import policies
from werealign.baselines.policies import Policy
from werealign.baselines.view import view_of
from werealign.llm.builtin_models import PROVIDER, BuiltinModel


def baseline(name: str, description: str, policy: Policy) -> BuiltinModel:
    """A model answering a State in process with `policy` (ItemView, request seed) -> (answer, why); `name` is its
    --model string (provider/name). Another package declares its own the same way, in its `werealign.models` entry points."""
    return BuiltinModel(name, description, answer=partial(_answer, name, policy))


def _answer(name: str, policy: Policy, state: Any, seed: Any = None) -> str:
    """The reply: one line of why, then the answer line in the prompt's language."""
    view = view_of(state)
    answer, why = policy(view, seed)
    return f"{name} baseline: {why}.\n{'答案：' if view.zh else 'Answer: '}{answer}"


def _builtin(short: str, description: str, policy: Policy) -> BuiltinModel:
    return baseline(f"{PROVIDER}/{short}", description, policy)


# One attribute per model: what pyproject.toml's `werealign.models` entry points name.
RANDOM = _builtin("random", "a seeded random option, seat or set", policies.random_policy)
LONGEST = _builtin("longest", "the longest option; the most talkative seats", policies.longest_policy)
LEXICAL = _builtin("lexical", "the option closest in words to the prompt", policies.lexical_policy)
OPTIONS_ONLY = _builtin("options-only", "reads only the question and the options", policies.options_only_policy)
OWN_LAST_CALL = _builtin("own-last-call", "VA: the last seat the voter itself named", policies.own_last_call_policy)
ALL_CANDIDATES = _builtin("all-candidates", "OI: every candidate", policies.all_candidates_policy)
MAJORITY_ROLE = _builtin("majority-role", "OI roles: every seat the most common card", policies.majority_role_policy)
OWN_STYLE = _builtin("own-style", "the option closest to the viewpoint's own words", policies.own_style_policy)

# The baselines werealign ships, in the order they are described above.
BASELINES = (RANDOM, LONGEST, LEXICAL, OPTIONS_ONLY, OWN_LAST_CALL, ALL_CANDIDATES, MAJORITY_ROLE, OWN_STYLE)
