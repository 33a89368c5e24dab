"""How prompts are worded: everything that turns what a viewpoint may see into text.

- `phrases`: the bilingual word tables (role names and rule lines from the role catalogue, sides,
  win conditions, skill verbs, outcomes) and the language fallback;
- `lines`: labels and sentences built from them (seats, speakers, phases, players, events, the
  generated rules summary);
- `prompt_templates`: the versioned evaluation templates in `templates/<lang>/<name>.<version>.j2`,
  their rendering, the template-language fallback and `templates_hash()`.

What may be seen at all is decided by the context builder (`werealign.game.visibility`), never here; the
item -> messages step (checks, context, task variables) is `werealign.eval.prompts`.
"""
