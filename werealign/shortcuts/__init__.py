"""Ways a nine-way item can be answered without the game, and the tools that measure them.

Below the tasks, the dataset layer, generation and the audit, which all use them: the tasks' speech floors
(`context.context_floor`), generation's filters and adversarial choice of distractors (`ensemble`, `exchange`,
`checks`), the filtered split (`filtering`), the splits' and validate's leak flags (`leaks`), and the audit
(werealign.audit), which runs every check here over a dataset and reports them. Nothing here imports the audit.

Modules, one job each: `verdicts` (a check and the rules that turn a rate into a verdict), `text` (reading text in
any language), `seats` (seat mentions in every form), `checks` (key position, length, duplicates, explanations),
`attacks` (options-only classifiers, cross-fitted with whole games held out), `context` (attacks that read the game
too: the speech floors), `ensemble` (the learned ensemble of per-option statistics), `exchange` (is the key
exchangeable with its distractors; distractors from the future), `knowledge` + `leaks` (what a viewpoint may know at
its cut-off), `filtering` (AFLite: the adversarially filtered split).
"""
