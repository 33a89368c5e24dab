"""Steps any importer of human games needs, below the importers that use them (the WereBench importer is one).

An importer reads its source's own layout and fields into a `GameLog` per game (that part is its own: the
WereBench importer's source, config, seats, timeline, events, segments and items modules), then runs these steps on
each game, in this order, and writes nothing the validator rejects. Every step reports each repair and drop into an
`ImportReport` (werealign.importers.report) with file, game and field, and anchors each fact it adds to the segment
that says it, with the quoted words as its evidence. Nothing here knows a release: none of it imports
werealign.importers.werebench (tests/test_import_graph.py).

| step | module | takes | returns |
| --- | --- | --- | --- |
| report entries of one game | `ctx` | `Ctx(report, rel, game_id)`; `.add(kind, code, field, what, why)` | raise `GameDropped(reason)` to drop the game |
| where a fact is said | `evidence` | a turn and a character offset; a segment and the words read | `segment_at(turn, pos)`: the segment id; `segment_of_quote(turn, quote)`: the segment holding the words; `quoted(segment, quote)`: the event's `evidence` list |
| the day a night act ended | `phases` | the game's phases, a phase id | `day_phase(phases, phase)`: that phase, or the day before it when it is a night |
| the host's exit announcements | `exits` | one host turn's text, the number of seats | `host_exit_quotes(text, n)`: `(seat, how, quote)` per player announced leaving; `seats_mentioned(text, n)` |
| the exit cross-check | `crosscheck` | a converted game, the report, its source file | `cross_check_exits(...)`: `CrossCheck(game, unresolved)`, the game with exits settled against later speech, the annotator log and the recap; `withhold_after_unresolved(items, unresolved, report, source_of)`: the items cut off before every unresolved exit |
| turns under a dead seat's label | `dead_speech` | a game, the confirmed exits, the turns two or more phases after them | `settle_dead_turns(...)`: each turn re-attributed to the seat every rule that names one agrees on (the host's call, the turn's own words, the talk around it, the seat order), else kept in the log heard by nobody; each reported |
| who stood for sheriff, who withdrew | `candidacy` | a game (host turns of its sheriff-election phases) | `candidacy_events(game, report)`: the game with a `sheriff_run` event per candidate and per withdrawal (result `withdrew`) read without doubt |
| the host's vote tallies | `tallies` | a game whose candidates are known | `tally_events(game, report)`: the game with the ballots of every tally read without doubt as vote events; `day_ballots(game)`: (seat, phase) -> whom it voted for by day before, or None when not known |
| the gate | `gate` | each game, then the items by kind with their games | `gate_game(game, report, source_file)`: the game with rejected entries removed, or None (dropped); `gate_items(items, games, report, source_of)`: the items validate accepts, and how many it rejected per kind |
| the role words of Chinese text | `role_words` | — | `ROLE_WORDS`: the role catalogue's names (an importer's slips in role labels stay in the importer: werebench.text.LABEL_SLIPS) |
| night actions the log and the recap state | `nights.nights` (wording `nights.night_words`, clause readers `nights.night_clauses`, checks `nights.night_record`, the night count where the text names none `nights.night_story`, recap nicknames `nights.nicknames`) | a log or recap text, the seats, the phases, the language (the host's exits: a recap's exile by nickname) | `read_night_actions(text, seats, phases, language, transcribed=, exits=, catalogue=)` (who holds a skill: the catalogue): a `Reading` per clause read or refused |
| a seer's check reported at the table | `nights.check_talk`, `nights.claims`, `nights.own_checks`, `nights.recounts`, `nights.report_days` | one turn's (or the log's) text; the game's turns, seats and phases | `check_reports(text)`; `read_statements(...)`, `read_log_claims(log, ...)`, `own_checks(...)`: `Statement`s; `place_recounts(...)`, `drop_checks_after_their_report(...)`: placed on nights; `statement_events(...)`: the events the truth bears out |
| the recap's account of the seer's checks | `nights.recap_checks` | a recap text, seats, phases, a role catalogue | `recap_checks(...)`: `Statement`s |
| the badge convention | `nights.badge_checks` | the game's turns, seats, phases, exits | `badge_checks(...)`: the seer's last check, as events |
| a magician's swaps; a knife a text states | `nights.swaps`, `nights.knife_said` | log and recap texts, seats | `stated_swaps(texts, seats)`: seat pairs; `knife_evidence(log, recap, seats, placed)`: who met the knife, with the words |
| settling night actions against the host | `nights.night_truth` | the night facts read, exits, seats, phases | `settle_night_actions(...)`: (kept, dropped with why), each kept fact given to the seats that knew it |
| all of the night facts of a game | `nights.night_facts` | log and recap texts, turns, seats, phases, language, exits, corrections, day ballots (`tallies.day_ballots`) | `read_night_facts(...)`: `NightFacts` (kept, unread, refused, disputed, dropped, corrected); `findings(...)`: the account by rule |

The host's wordings of tallies and candidacies are data by game language (`WORDINGS`: Chinese and English); a
language without one reads nothing. The exit announcements and the cross-check's log and recap phrases are Chinese
only (patterns in code): in a game in another language `exits` reads no exit, and `crosscheck` finds no source
stating one, so an exit that later speech (more than a fragment) contradicts is dropped as misread (`exit_misread`).
An importer of such games needs those phrases made data by language first. Beside this package, werealign.importers holds the rest of the kit: `report` (the import
report), `corrections` (per-game correction files: loading, checking their quotes, applying them) and
`python_literal` (reading annotators' Python-literal config files safely).

The night-fact readers (`nights`) match Chinese wordings (patterns in code); on games in another language they are
not measured. Still in importers/werebench/ because they read the release's own fields:
`hidden_nights` (nights the release's config lacks, reported on `metadata.game_status`, with the release's host
phrases in werebench.events) and `reconcile` (the true roles against `metadata.real_role`, with werebench.seats).
"""
