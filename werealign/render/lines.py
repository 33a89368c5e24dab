"""Sentences and labels a prompt is made of, in the game's language: seats, speakers, phases, players,
events and the generated rules summary. The words come from `werealign.render.phrases`; what is
shown at all is decided by the context builder (werealign.game.visibility), never here.
"""

from __future__ import annotations

from werealign.render.phrases import side_name, terms
from werealign.render.phrases import DEATH_RESULTS, MISSING_FACT, RESULT, SKILL, WIN, faction_name, phrase_language, role_name, role_rule
from werealign.schema import Event, GameLog, Phase
from werealign.schema.models import WITHDREW, Speaker
from werealign.schema.roles import catalogue_for


def seat_label(seat: int, language: str) -> str:
    return f"{seat}号" if language == "zh" else f"Seat {seat}"


def seat_list(seats: list[int]) -> str:
    """Seats as a prompt's candidate line shows them (both languages)."""
    return ", ".join(str(s) for s in seats)


def list_separator(language: str) -> str:
    """What separates the items of a list of seats in running text."""
    return "、" if language == "zh" else ", "


def players_line(names: tuple[tuple[int, str], ...], language: str, aliases: tuple[tuple[int, tuple[str, ...]], ...] = ()) -> str:
    """'Seat 1: Ava, Seat 2: Ben (also Benny)': ties the names and nicknames players use in speech to seats."""
    more = dict(aliases)
    if language == "zh":
        return "、".join(f"{seat_label(s, 'zh')}：{n}" + (f"（又称{'、'.join(more[s])}）" if more.get(s) else "") for s, n in names)
    return ", ".join(f"{seat_label(s, language)}: {n}" + (f" (also {', '.join(more[s])})" if more.get(s) else "") for s, n in names)


def speaker_label(speaker: Speaker, viewpoint_seat: int | None, language: str) -> str:
    if speaker == "host":
        return "主持人" if language == "zh" else "Host"
    label = seat_label(int(speaker), language)
    if viewpoint_seat is not None and speaker == viewpoint_seat:
        label += "（你）" if language == "zh" else " (you)"
    return label


def phase_label(phase: Phase | None, language: str) -> str:
    if phase is None:
        return "游戏开始前" if language == "zh" else "Before the game"
    if language == "zh":
        return {"night": f"第{phase.day}夜", "sheriff_election": "警长竞选", "day": f"第{phase.day}天白天"}[phase.kind]
    return {"night": f"Night {phase.day}", "sheriff_election": "Sheriff election", "day": f"Day {phase.day}"}[phase.kind]


def missing_fact_line(fact: str, language: str) -> str:
    """What a night fact the log lacks was about ('seer_check' -> whom you checked and the result)."""
    words = MISSING_FACT[phrase_language(language)].get(fact)
    if words is None:
        words = (f"你的技能 {fact.replace('_', ' ')} 的对象和结果" if language == "zh" else f"your {fact.replace('_', ' ')}: its target and result")
    return words


def event_line(ev: Event, viewpoint_seat: int | None, language: str, words: dict[str, str] | None = None) -> str:
    """One event as a sentence (`words`: the game family's, werealign.render.phrases: families). Event notes are never rendered:
    they are annotator commentary."""
    line = _event_line(ev, viewpoint_seat, language, words)
    return line[:1].upper() + line[1:]


def side(faction: str, language: str, game: GameLog) -> str:
    """A side's name in the game family's words ('the mafia'), else the faction table's."""
    return side_name(faction, language, terms(game, language)) or faction_name(faction, language)


def _event_line(ev: Event, viewpoint_seat: int | None, language: str, words: dict[str, str] | None = None) -> str:
    zh = language == "zh"

    def who(x: Speaker | None) -> str:
        if x is None and ev.skill == "wolf_kill":  # the pack's decision, no one wolf's
            return (words or {}).get("evil_team") or ("狼人" if zh else "the wolves")
        if x is None:
            return "某人" if zh else "someone"
        if x == "host":
            return "主持人" if zh else "the host"
        if x == viewpoint_seat:
            return "你" if zh else "you"
        return seat_label(int(x), language)

    tgt = who(ev.target) if ev.target is not None else None
    was = "were" if viewpoint_seat is not None and ev.target == viewpoint_seat else "was"
    result = RESULT[phrase_language(language)].get(ev.result, ev.result) if ev.result else None
    res = f"（{result}）" if zh and result else (f" ({result})" if result else "")
    if ev.kind == "vote":
        if tgt is None:
            return f"{who(ev.actor)}弃票" if zh else f"{who(ev.actor)} abstained"
        return f"{who(ev.actor)}投票给{tgt}" if zh else f"{who(ev.actor)} voted for {tgt}"
    if ev.kind == "elimination":
        return (f"{tgt}出局{res}" if zh else f"{tgt} {was} eliminated{res}") if tgt else (f"无人出局{res}" if zh else f"Nobody was eliminated{res}")
    if ev.kind == "night_outcome":
        if tgt is None:
            return f"夜间结果：{result or '平安夜'}" if zh else f"Night outcome: {result or 'peaceful night'}"
        if ev.result in DEATH_RESULTS:  # "died (died)" says nothing twice
            res = ""
        return f"夜间结果：{tgt}死亡{res}" if zh else f"Night outcome: {tgt} died{res}"
    if ev.kind == "self_destruct":
        return f"{who(ev.actor)}自爆" if zh else f"{who(ev.actor)} self-destructed"
    if ev.kind == "sheriff_election":
        return (f"{tgt}当选警长" if zh else f"{tgt} {was} elected sheriff") if tgt else (f"警徽流失{res}" if zh else f"No sheriff was elected{res}")
    if ev.kind == "sheriff_run" and ev.result == WITHDREW:
        return f"{who(ev.actor)}退水（退出警长竞选）" if zh else f"{who(ev.actor)} withdrew from the sheriff race"
    if ev.kind == "sheriff_run":
        return f"{who(ev.actor)}上警竞选警长" if zh else f"{who(ev.actor)} stood for sheriff"
    if ev.kind == "role_reveal":  # issue 45: a role announced to the table (online Mafia, at elimination)
        role = role_name(ev.result, language) if ev.result else ("未公布" if zh else "not given")
        return f"{tgt}的身份公布为：{role}" if zh else f"{tgt}'s role was revealed: {role}"
    if ev.kind == "badge_transfer":
        if tgt is None:
            return f"{who(ev.actor)}撕掉了警徽" if zh else f"{who(ev.actor)} tore up the sheriff badge"
        return f"{who(ev.actor)}将警徽移交给{tgt}" if zh else f"{who(ev.actor)} passed the sheriff badge to {tgt}"
    # skill_use
    verb = SKILL[phrase_language(language)].get(ev.skill or "", None)
    if verb is None:
        skill = (ev.skill or "").replace("_", " ")  # an id such as 'white_wolf_king_take' reads as words
        verb = f"使用技能 {skill}：" if zh else f"used {skill or 'a skill'} on"
    if ev.skill == "witch_save" and tgt is None:  # an antidote spent on a victim no source names (issue 41)
        return f"{who(ev.actor)}使用了解药（救下当晚被狼人袭击的玩家）" if zh else f"{who(ev.actor)} used the antidote (on that night's victim of the wolves)"
    if zh:
        return f"{who(ev.actor)}{verb}{tgt or '无目标'}{res}"
    return f"{who(ev.actor)} {verb} {tgt or 'nobody'}{res}"


def rules_for_prompt(game: GameLog) -> str:
    """The rules a prompt shows: the game's own rules text, with a rule line added for each card in play it
    does not name (from a declaration or the catalogue), or the generated summary when the game has no text.
    A card whose rule nothing gives is named once: "the rules of X are not given" (never a bare name)."""
    text = game.rules.text.strip() if game.rules.text and game.rules.text.strip() else None
    if text is None:
        return rules_summary(game)
    zh = game.language == "zh"
    cat = catalogue_for(game.rules.declared_roles)
    lines, unruled = [text], []
    for role, _, faction in _cards(game, cat):
        known = cat.get(role)
        names = {role_name(role, game.language, cat), role, *((known.names.get("zh", ()) + known.names.get("en", ())) if known else ())}
        if any(n and n.lower() in text.lower() for n in names):
            continue  # the game's own rules text covers it
        rule = role_rule(role, game.language, cat)
        if not rule:
            unruled.append((role, faction))
            continue
        name = role_name(role, game.language, cat)
        lines.append(f"{name}（{side(faction, 'zh', game)}）：{rule}" if zh else f"{name[:1].upper() + name[1:]} ({side(faction, 'en', game)}): {rule}")
    if unruled:
        lines.append(_not_given(unruled, game.language, cat, game))
    return "\n".join(lines)


def _cards(game: GameLog, cat) -> list[tuple[str, int | None, str]]:
    """(role, count or None, faction) of the cards a prompt may name: the announced card list, else the composition."""
    if game.rules.public_cards is not None:
        return [(role, None, cat.faction(role)) for role in game.rules.public_cards]
    return [(rc.role, rc.count, rc.faction) for rc in game.rules.composition]


def _not_given(roles: list[tuple[str, str]], language: str, cat, game: GameLog) -> str:
    """One line naming every (role, faction) whose rule nothing gives, each with its side."""
    if language == "zh":
        return f"本局规则未给出以下角色的技能说明：{'、'.join(f'{role_name(r, language, cat)}（{side(f, language, game)}）' for r, f in roles)}。"
    return f"The rules of these roles are not given: {', '.join(f'{role_name(r, language, cat)} ({side(f, language, game)})' for r, f in roles)}."


def rules_summary(game: GameLog) -> str:
    """Rules text generated from public facts (the card list, win condition, sheriff) when the source has none.

    The card list is `rules.public_cards` when the game has one: with spare cards (a thief's buried
    cards) the seats' roles are hidden information, and counting them would tell which cards are out
    of play. Otherwise the composition is the announced deck."""
    zh = game.language == "zh"
    lang = phrase_language(game.language)
    n = sum(rc.count for rc in game.rules.composition)
    cat = catalogue_for(game.rules.declared_roles)
    public = game.rules.public_cards
    cards = _cards(game, cat)
    unruled = [(role, faction) for role, _, faction in cards if not role_rule(role, game.language, cat)]
    lines = []
    if zh:
        if public is not None:
            names = "、".join(role_name(r, "zh", cat) for r, _, _ in cards)
            lines.append(f"本局{len(game.seats)}名玩家。牌池包含：{names}（每种牌的张数不公开，部分牌可能不在场上）。")
        else:
            parts = "、".join(f"{c}张{role_name(r, 'zh', cat)}" for r, c, _ in cards)
            lines.append(f"本局共有{n}张身份牌：{parts}。")
        for role, _, faction in cards:
            if role_rule(role, "zh", cat):
                lines.append(f"{role_name(role, 'zh', cat)}（{side(faction, 'zh', game)}）：{role_rule(role, 'zh', cat)}")
        if unruled:
            lines.append(_not_given(unruled, "zh", cat, game))
        lines.append(WIN[lang][game.rules.win_condition].format(**terms(game, game.language)))
        lines.append("本局设有警长，警长拥有1.5票归票权。" if game.sheriff_in_play() else "本局不设警长。")
    else:
        if public is not None:
            names = ", ".join(role_name(r, "en", cat) for r, _, _ in cards)
            lines.append(f"This game has {len(game.seats)} players. The cards in play come from: {names} "
                         "(how many of each is not announced, and some cards may be out of play).")
        else:
            parts = ", ".join(f"{c} x {role_name(r, 'en', cat)}" for r, c, _ in cards)
            lines.append(f"This game has {n} role cards: {parts}.")
        for role, _, faction in cards:
            name = role_name(role, "en", cat)
            if role_rule(role, "en", cat):
                lines.append(f"{name[:1].upper() + name[1:]} ({side(faction, 'en', game)}): {role_rule(role, 'en', cat)}")
        if unruled:
            lines.append(_not_given(unruled, "en", cat, game))
        lines.append(WIN[lang][game.rules.win_condition].format(**terms(game, game.language)))
        lines.append("A sheriff is elected; the sheriff's vote counts 1.5." if game.sheriff_in_play() else "There is no sheriff.")
    return "\n".join(lines)
