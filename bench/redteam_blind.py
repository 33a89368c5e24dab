"""A third red team on 9-way speech items, built blind to the generators and filters (issue 43): attack families neither
bench/redteam_speech.py nor bench/redteam_unseen.py used, from the item format and the game log only.

    python bench/redteam_blind.py NAME=DATASET_DIR [NAME=DIR ...] [--seed 0] [--json OUT.json]

from the checkout's root. Never written from werealign/generation/ or werealign/shortcuts/ filter code: an attack tuned
against a filter proves little. Scoring, folds and intervals are bench/redteam_core's (ties split, a rule that reads
nothing scores chance, learners fitted on the other folds' games only: 5 folds by game), the table bench/redteam.py's.

Fixed rules (per option a score, nothing fitted; the top one is the pick):
- stance: `stance-agree` / `stance-contradict` (the seats the option accuses and clears against the ones the
  viewpoint's own shown turns accused and cleared: agreements minus contradictions, or its negation), `stance-table`
  (against each seat's net accusations at the whole table), `stance-last` (against the last speaker's turn);
- discourse position: `reply-opening` (opens like a reply: "agree", "just now", "the previous speaker"...),
  `prev-ref` (refers to an earlier speaker or round), `last-speaker-first` (its first clause names the last speaker's seat);
- phase fit: `phase-fit` / `phase-misfit` (words of the sheriff campaign, the exile vote and the night, counted for the
  item's phase and against the others), `lastwords-fit` (last-words words, for a viewpoint already out, else against);
- pronouns: `pronoun-outlier` / `pronoun-prototype` (L1 distance of its I/we/you/everyone/he-she profile from the other
  eight's mean), `pronoun-own` (closeness of that profile to the viewpoint's own turns'), `addressee-you` (second person);
- time: `temporal-fit` (minus the time words the item's day makes impossible: "yesterday" on day 1, a day or night
  number after today), `temporal-now` (names today's number or "today");
- seats and roles at the cut-off: `no-dead-suspect` (minus the seats out, or not on the board, it accuses), `alive-share` (share of its seats
  alive), `role-on-board` (minus the roles it names that the board's composition lacks), `role-talked` (share of the
  roles it names that the shown table already named);
- character language models (interpolated Witten-Bell trigrams over the game's own shown turns): `lm-table` /
  `lm-table-least` (mean log-probability per character), `lm-own` (trained on the viewpoint's turns), `lm-lift` (the
  trigram over the same transcript's unigram: fit beyond character frequency), `lm-phase` (trained on the current
  phase's turns only).
Learners (games held out): `hgb-blind`, `rf-blind`, `knn-blind` (gradient boosting, random forest, 25 nearest
neighbours on the features above, each beside its within-item z-score, rank, distance from the median and is-max/is-min;
plus the item's phase, day and whether the viewpoint is out), and `stack-blind` (logistic regression over the within-item
ranks of every rule and of the three learners' scores, the learners' scores cross-fitted on an inner split of the
training games only); `hgb-<family>` (the boosted learner on one family's columns alone: stance, discourse, phase,
pronoun, time, seats-roles, lm), to say which reading carries a finding.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

sys.path.insert(0, os.getcwd())
os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.redteam_core import (ACCUSE, CLAUSE, GOOD, Case, clause_seats_with, cross_fit, missing_games_notes, relational,  # noqa: E402
                                relational_columns, row_learner, seats)

RULES = ("stance-agree", "stance-contradict", "stance-table", "stance-last", "reply-opening", "prev-ref", "last-speaker-first",
         "phase-fit", "phase-misfit", "lastwords-fit", "pronoun-outlier", "pronoun-prototype", "pronoun-own", "addressee-you",
         "temporal-fit", "temporal-now", "no-dead-suspect", "alive-share", "role-on-board", "role-talked", "lm-table",
         "lm-table-least", "lm-own", "lm-lift", "lm-phase")
FEATURES = ("stance-agree", "stance-table", "stance-last", "reply-opening", "prev-ref", "last-speaker-first", "phase-fit",
            "sheriff-words", "exile-words", "night-words", "lastwords-fit", "i", "we", "you", "all", "third", "pronoun-dist",
            "pronoun-own", "temporal-bad", "temporal-now", "dead-suspect", "alive-share", "seats-above-alive", "role-off-board",
            "role-talked", "lm-table", "lm-own", "lm-lift", "lm-phase", "is-sheriff-phase", "day", "viewpoint-out")

# Word lists written for this red team from how the game is played (Chinese table talk and English), not from any item.
REPLY = re.compile(r"^\W*(?:对|嗯|好的?|是的|没错|同意|我同意|不对|不是|刚才|刚刚|前面|前置位|上一位|上家|你说|他说"
                   r"|(?i:yes\b|no\b|right\b|agree|i agree|well\b|okay\b|ok\b|as (?:he|she|you|seat \d+) said|the previous|the last speaker))")
PREV_REF = re.compile(r"前面|前置位|上一位|上家|刚才|刚刚|他说|她说|你说|上一轮|上轮|(?i:previous speaker|last speaker|just said|before me|last round|earlier)")
SHERIFF = re.compile(r"警长|警徽|竞选|上警|警上|警下|退水|(?i:sheriff|badge|campaign|run for)")
EXILE = re.compile(r"放逐|投票|归票|出局|票型|(?i:exile|vote|lynch)")
NIGHT = re.compile(r"天黑|今晚|今天晚上|夜里|晚上|闭眼|刀口|(?i:tonight|at night|the night)")
LASTWORDS = re.compile(r"遗言|(?i:last words|final words)")
PRONOUNS = (re.compile(r"我(?!们)|(?i:\bI\b|\bme\b|\bmy\b)"), re.compile(r"我们|咱们|(?i:\bwe\b|\bus\b|\bour\b)"),
            re.compile(r"你|您|(?i:\byou\b|\byour\b)"), re.compile(r"大家|各位|所有人|(?i:\beveryone\b|\beverybody\b|\ball of you\b)"),
            re.compile(r"他|她|(?i:\bhe\b|\bshe\b|\bhim\b|\bher\b|\bthey\b)"))
YESTERDAY = re.compile(r"昨天|昨日|(?i:yesterday)")
TODAY = re.compile(r"今天|(?i:today)")
_NUM = r"(\d{1,2}|[一二两三四五六七八九十]{1,3})"
DAY_N = re.compile(rf"第\s*{_NUM}\s*(?:天|轮|日|晚|夜)|(?i:\b(?:day|night|round)\s*(\d{{1,2}})\b)")
_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


@dataclass
class Table:
    """What an attacker reads of an item's game at its cut-off (invented in tests, read from a game log otherwise)."""
    turns: list[tuple[object, str, str]] = field(default_factory=list)  # (speaker, phase id, text) of the shown seat turns
    viewpoint: int | None = None
    phase: str | None = None  # the cut-off's phase id
    phase_kind: str | None = None  # night / sheriff_election / day
    day: int | None = None
    alive: frozenset[int] = frozenset()
    board_roles: frozenset[str] = frozenset()  # role ids of the board's composition (public)
    role_names: dict[str, str] = field(default_factory=dict)  # every catalogue name (lowercased) -> role id


def _number(s: str) -> int | None:
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        return (_ZH.get(tens, 1) if tens else 1) * 10 + (_ZH.get(ones, 0) if ones else 0)
    return _ZH.get(s) if len(s) == 1 else None


def stance(text: str) -> Counter:
    """Per seat, +1 for each clause accusing it and -1 for each clause clearing it (a clause with both words says nothing)."""
    out: Counter = Counter()
    for s in clause_seats_with(text, ACCUSE):
        out[s] += 1
    for s in clause_seats_with(text, GOOD):
        out[s] -= 1
    return out


def summed_stance(texts: list[str]) -> Counter:
    """The turns' stances added seat by seat, each turn read on its own (a turn's last clause never runs into the
    next one's first), cleared seats kept below zero (Counter's `+` would drop them)."""
    out: Counter = Counter()
    for text in texts:
        out.update(stance(text))
    return out


def agreement(option: Counter, reference: Counter) -> float:
    """Seats the option and the reference lean the same way on, minus those they lean opposite ways on."""
    return float(sum((1 if (a > 0) == (reference[s] > 0) else -1) for s, a in option.items() if a and reference.get(s)))


def pronoun_profile(text: str) -> list[float]:
    counts = [len(p.findall(text)) for p in PRONOUNS]
    total = sum(counts)
    return [c / total for c in counts] if total else [0.0] * len(PRONOUNS)


def temporal(text: str, day: int | None) -> tuple[float, float]:
    """(time words the item's day makes impossible, words naming today) for an item on `day`."""
    if day is None:
        return 0.0, 0.0
    bad = float(len(YESTERDAY.findall(text))) if day <= 1 else 0.0
    now = float(len(TODAY.findall(text)))
    for m in DAY_N.finditer(text):
        n = _number(m.group(1) or m.group(2) or "")
        if n is None:
            continue
        bad += n > day
        now += n == day
    return bad, now


def roles_named(text: str, names: dict[str, str]) -> set[str]:
    """Role ids the text names, longest name first so that "wolf king" is not also "wolf"."""
    if not names:
        return set()
    pat = _names_pattern(tuple(sorted(names, key=len, reverse=True)))
    return {names[m.group(0).lower()] for m in pat.finditer(text)}


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    if names not in _PATTERNS:
        _PATTERNS[names] = re.compile("|".join(re.escape(n) if not n.isascii() else rf"\b{re.escape(n)}\b" for n in names), re.I)
    return _PATTERNS[names]


class CharLM:
    """Interpolated Witten-Bell character n-gram model (whitespace dropped); `order` 1 is add-one unigrams."""

    def __init__(self, text: str, order: int = 3):
        t = re.sub(r"\s+", "", text)
        self.order = order
        # n-grams as strings (one Counter over every order): a lookup per character is what scoring costs
        self.counts: Counter = Counter()
        for n in range(1, order + 1):
            self.counts.update(map("".join, zip(*(t[i:] for i in range(n)))))
        self.ctx: Counter = Counter()  # history -> how often it is followed by a character
        self.types: Counter = Counter()  # history -> how many different characters follow it
        for gram, c in self.counts.items():
            if len(gram) > 1:
                self.ctx[gram[:-1]] += c
                self.types[gram[:-1]] += 1
        self.total = len(t)
        self.vocab = sum(1 for g in self.counts if len(g) == 1) + 1
        self.logp: dict[tuple[str, str], float] = {}  # (history, character) -> log prob, filled by score

    def prob(self, history: str, ch: str) -> float:
        p = (self.counts[ch] + 1) / (self.total + self.vocab)
        for n in range(1, min(self.order - 1, len(history)) + 1):
            h = history[-n:]
            c = self.ctx[h]
            if not c:
                break
            t = self.types[h]
            p = (self.counts[h + ch] + t * p) / (c + t)
        return p

    def score(self, text: str) -> float:
        """Mean log-probability per character (0 for an empty text)."""
        t = re.sub(r"\s+", "", text)
        if not t:
            return 0.0
        # each (history, character)'s log-probability computed once per model: options and items repeat the same
        # trigrams, and this loop was most of the blind red team's time (the same values, summed in the same order)
        logp = self.logp
        total = 0.0
        for i, ch in enumerate(t):
            key = (t[max(0, i - self.order + 1):i], ch)
            lp = logp.get(key)
            if lp is None:
                lp = logp[key] = math.log(self.prob(*key))
            total += lp
        return total / len(t)


_LMS: dict[tuple[str, int], CharLM] = {}


def _lm(text: str, order: int = 3) -> CharLM:
    """One model per training text (a game's items share their cut-offs' transcripts); bounded."""
    key = (text, order)
    if key not in _LMS:
        if len(_LMS) > 256:
            _LMS.clear()
        _LMS[key] = CharLM(text, order)
    return _LMS[key]


def blind_case(item_id: str, group: str, texts: list[str], key: set[int], table: Table) -> Case:
    """A Case of one item: every rule's per-option scores and a raw feature row per option (FEATURES)."""
    n = len(texts)
    vp = table.viewpoint
    own = [t for s, _, t in table.turns if vp is not None and s == vp]
    last_speaker, last_text = (table.turns[-1][0], table.turns[-1][2]) if table.turns else (None, "")
    stances = [stance(t) for t in texts]
    own_stance = summed_stance(own)
    table_stance = summed_stance([t for _, _, t in table.turns])
    last_stance = stance(last_text)
    agree = [agreement(s, own_stance) for s in stances]
    agree_table = [agreement(s, table_stance) for s in stances]
    agree_last = [agreement(s, last_stance) for s in stances]
    reply = [float(bool(REPLY.search(t))) for t in texts]
    prev = [float(len(PREV_REF.findall(t))) for t in texts]
    first_clauses = [next((c for c in CLAUSE.split(t) if c.strip()), "") for t in texts]
    last_first = [float(isinstance(last_speaker, int) and last_speaker != vp and last_speaker in seats(c)) for c in first_clauses]
    sheriff_w = [float(len(SHERIFF.findall(t))) for t in texts]
    exile_w = [float(len(EXILE.findall(t))) for t in texts]
    night_w = [float(len(NIGHT.findall(t))) for t in texts]
    words = {"sheriff_election": sheriff_w, "day": exile_w, "night": night_w}
    fits = words.get(table.phase_kind or "")
    phase_fit = [fits[i] - sum(w[i] for k, w in words.items() if k != table.phase_kind) for i in range(n)] if fits else [0.0] * n
    vp_out = vp is not None and bool(table.alive) and vp not in table.alive
    lastwords = [float(len(LASTWORDS.findall(t))) * (1.0 if vp_out else -1.0) for t in texts]
    profiles = [pronoun_profile(t) for t in texts]
    raw_pron = [[float(len(p.findall(t))) for p in PRONOUNS] for t in texts]
    mean_others = [[sum(profiles[j][k] for j in range(n) if j != i) / max(1, n - 1) for k in range(len(PRONOUNS))] for i in range(n)]
    pron_dist = [sum(abs(a - b) for a, b in zip(profiles[i], mean_others[i])) for i in range(n)]
    own_prof = pronoun_profile(" ".join(own))
    pron_own = [-sum(abs(a - b) for a, b in zip(p, own_prof)) for p in profiles] if any(own_prof) else [0.0] * n
    times = [temporal(t, table.day) for t in texts]
    named = [seats(t) for t in texts]
    dead_suspect = [float(sum(1 for s in clause_seats_with(t, ACCUSE) if table.alive and s not in table.alive)) for t in texts]
    alive_share = [sum(s in table.alive for s in ns) / len(ns) if ns and table.alive else 0.0 for ns in named]
    # seats named above the highest seat still alive: off the board, or out (the Table does not carry the board's size)
    above = [float(sum(1 for s in ns if table.alive and s > max(table.alive))) for ns in named]
    named_roles = [roles_named(t, table.role_names) for t in texts]
    talked = set().union(*(roles_named(t, table.role_names) for _, _, t in table.turns)) if table.turns else set()
    off_board = [float(len(r - table.board_roles)) if table.board_roles else 0.0 for r in named_roles]
    role_talked = [len(r & talked) / len(r) if r else 0.0 for r in named_roles]
    transcript = " ".join(t for _, _, t in table.turns)
    phase_text = " ".join(t for _, p, t in table.turns if p == table.phase)
    lm_table = [_lm(transcript).score(t) for t in texts] if transcript.strip() else [0.0] * n
    lm_uni = [_lm(transcript, 1).score(t) for t in texts] if transcript.strip() else [0.0] * n
    lm_own = [_lm(" ".join(own)).score(t) for t in texts] if own else [0.0] * n
    lm_phase = [_lm(phase_text).score(t) for t in texts] if phase_text.strip() else [0.0] * n
    lm_lift = [a - b for a, b in zip(lm_table, lm_uni)]
    neg = lambda xs: [-x for x in xs]  # noqa: E731
    rules = {
        "stance-agree": agree if own_stance else None, "stance-contradict": neg(agree) if own_stance else None,
        "stance-table": agree_table if table_stance else None, "stance-last": agree_last if last_stance else None,
        "reply-opening": reply, "prev-ref": prev, "last-speaker-first": last_first,
        "phase-fit": phase_fit if fits else None, "phase-misfit": neg(phase_fit) if fits else None,
        "lastwords-fit": lastwords if vp is not None else None,
        "pronoun-outlier": pron_dist, "pronoun-prototype": neg(pron_dist), "pronoun-own": pron_own if any(own_prof) else None,
        "addressee-you": [r[2] for r in raw_pron],
        "temporal-fit": [-b for b, _ in times], "temporal-now": [w for _, w in times],
        "no-dead-suspect": neg(dead_suspect), "alive-share": alive_share if table.alive else None,
        "role-on-board": neg(off_board) if table.board_roles else None, "role-talked": role_talked if talked else None,
        "lm-table": lm_table if transcript.strip() else None, "lm-table-least": neg(lm_table) if transcript.strip() else None,
        "lm-own": lm_own if own else None, "lm-lift": lm_lift if transcript.strip() else None,
        "lm-phase": lm_phase if phase_text.strip() else None,
    }
    item_cols = [float(table.phase_kind == "sheriff_election"), float(table.day or 0), float(vp_out)]
    cols = (agree, agree_table, agree_last, reply, prev, last_first, phase_fit, sheriff_w, exile_w, night_w, lastwords,
            *zip(*raw_pron), pron_dist, pron_own, [b for b, _ in times], [w for _, w in times], dead_suspect, alive_share,
            above, off_board, role_talked, lm_table, lm_own, lm_lift, lm_phase)
    rows = [[float(c[i]) for c in cols] + item_cols for i in range(n)]
    return Case(item_id, group, list(range(n)), set(key), rules, rows, list(texts))


def table_of(game, item) -> Table:
    """The item's game as its prompt shows it, through the project's one context builder (build_context)."""
    from werealign.game.derive import alive_at
    from werealign.game.visibility import build_context
    from werealign.schema.roles import catalogue_for

    if game is None:
        return Table(viewpoint=item.viewpoint_seat)
    cat = catalogue_for(game.rules.declared_roles)
    names = {nm.lower(): rid for rid, role in cat.roles.items() for ns in role.names.values() for nm in ns if nm}
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
    phase = next((p for p in ctx.phases if p.id == ctx.current_phase), ctx.phases[-1] if ctx.phases else None)
    turns = [(u.speaker, u.phase, u.text) for u in ctx.utterances if isinstance(u.speaker, int)]
    return Table(turns=turns, viewpoint=item.viewpoint_seat, phase=ctx.current_phase, phase_kind=phase.kind if phase else None,
                 day=phase.day if phase else None, alive=frozenset(alive_at(game, item.cutoff_segment)),
                 board_roles=frozenset(rc.role for rc in game.rules.composition), role_names=names)


def dataset_cases(items, games) -> tuple[list[Case], list[str]]:
    notes = missing_games_notes(items, games)
    cases = []
    for it in items:
        texts = [o.text for o in it.options]
        key = {i for i, o in enumerate(it.options) if o.key == it.answer}
        cases.append(blind_case(it.item_id, it.game_id, texts, key, table_of(games.get(it.game_id), it)))
    return cases, notes


# --------------------------------------------------------------------------- learners


def _hgb(seed: int):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=120, learning_rate=0.06, max_leaf_nodes=15, max_bins=64,
                                          l2_regularization=1.0, random_state=seed)


def _rf(seed: int):
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=120, min_samples_leaf=4, max_features="sqrt", random_state=seed, n_jobs=1)


def _knn(seed: int):
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=25, weights="distance"))


def _within_ranks(scores: list[float] | None, n: int) -> list[float]:
    """Within-item rank (0..1, ties averaged) of one attack's scores; an attack that says nothing gives 0.5 to all."""
    if scores is None or len(set(scores)) <= 1:
        return [0.5] * n
    order = sorted(range(n), key=lambda i: scores[i])
    out = [0.0] * n
    i = 0
    while i < n:  # a run of equal scores shares its mean position
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 / max(1, n - 1)
        i = j + 1
    return out


def stacked(bases: dict, rule_names: tuple[str, ...]):
    """Logistic regression over within-item ranks of every rule and every base learner; the base learners' scores on
    the training games come from an inner split of those games (cross_fit), their scores on the test games from a fit
    on every training game: nothing is ever fitted on the items it answers."""
    import numpy as np

    def rows(c: Case, learned: list[list[float] | None]) -> list[list[float]]:
        n = len(c.options)
        cols = [_within_ranks(c.rules.get(r), n) for r in rule_names] + [_within_ranks(s, n) for s in learned]
        return [[col[i] for col in cols] for i in range(n)]

    def fit(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
        from sklearn.linear_model import LogisticRegression

        inner = [cross_fit(train, f, seed + 1) for f in bases.values()]
        outer = [f(train, test, seed) for f in bases.values()]
        X = [r for i, c in enumerate(train) for r in rows(c, [s[i] for s in inner])]
        y = [int(j in c.key) for c in train for j in range(len(c.options))]
        if len(set(y)) < 2:
            return [None] * len(test)
        model = LogisticRegression(C=0.3, max_iter=3000).fit(np.asarray(X), y)
        return [model.decision_function(np.asarray(rows(c, [s[i] for s in outer]))).round(9).tolist() for i, c in enumerate(test)]
    return fit


FAMILIES = {  # each family's raw columns, for a boosted learner on that family alone (which reading carries a finding)
    "stance": ("stance-agree", "stance-table", "stance-last"), "discourse": ("reply-opening", "prev-ref", "last-speaker-first"),
    "phase": ("phase-fit", "sheriff-words", "exile-words", "night-words", "lastwords-fit"),
    "pronoun": ("i", "we", "you", "all", "third", "pronoun-dist", "pronoun-own"), "time": ("temporal-bad", "temporal-now"),
    "seats-roles": ("dead-suspect", "alive-share", "seats-above-alive", "role-off-board", "role-talked"),
    "lm": ("lm-table", "lm-own", "lm-lift", "lm-phase"),
}
ITEM_COLUMNS = ("is-sheriff-phase", "day", "viewpoint-out")


def learners(stack_over: tuple[str, ...] = ("hgb-blind", "rf-blind", "knn-blind")) -> dict:
    """The three base learners, the stack over `stack_over` of them (a test stacks the cheap ones), and one boosted
    learner per family (its columns and the item's phase, day and viewpoint state)."""
    bases = {"hgb-blind": row_learner(_hgb), "rf-blind": row_learner(_rf), "knn-blind": row_learner(_knn)}
    family = {f"hgb-{name}": row_learner(_hgb, relational_columns([FEATURES.index(c) for c in (*cols, *ITEM_COLUMNS)], len(FEATURES)))
              for name, cols in FAMILIES.items()}
    return {**bases, "stack-blind": stacked({n: bases[n] for n in stack_over}, RULES), **family}


def attack_items(items, games, seed: int) -> tuple[dict | None, list[str]]:
    """Every blind attack on a list of speech items: bench/redteam.py's summary (n, games, chance, attacks, best)."""
    from bench.redteam import attack, summary

    cases, notes = dataset_cases(items, games)
    if not cases:
        return None, notes
    for c in cases:
        c.rows = relational(c.rows)
    return summary(cases, attack(cases, RULES, learners(), seed)), notes


def main(argv: list[str] | None = None) -> int:
    from bench.redteam import speech_sets_main

    return speech_sets_main(argv, __doc__.split("\n\n")[0], attack_items)


if __name__ == "__main__":
    sys.exit(main())
