"""Every text the UI can show exists in all four languages.

Checks the engine's reason codes (dizhu.REASONS), the hint's reason keys
(HINT_REASONS), the kinds of play, levels and multiplier sources, and every
key the UI's code and markup name; and that each translation uses only the
{parameters} its message actually receives. A language's words are its first
load's dictionary (i18n/<language>.json) plus the parts that screens loaded on
demand fetch with their module (i18n/<part>/<language>.json).
"""

from __future__ import annotations

import json
import os
import re
import string
from pathlib import Path

import pytest

import dizhu
from dizhu.bots.reasons import HINT_REASONS

STATIC = Path(dizhu.__file__).resolve().parent / "web" / "static"
LANGUAGES = ["en", "ja", "zh-Hans", "zh-Hant"]
# Each dictionary part and the module that loads it (usePart) with its screen.
PARTS = {"puzzle": "puzzles.js", "review": "review.js", "rules": "rules.js"}


def read(path: Path) -> dict[str, str]:
    return json.loads(path.read_text(encoding="utf-8"))


def load(language: str) -> dict[str, str]:
    """All of a language's words: the first load's and every part's."""
    words = read(STATIC / "i18n" / f"{language}.json")
    for part in PARTS:
        words.update(read(STATIC / "i18n" / part / f"{language}.json"))
    return words


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.fixture(scope="module")
def dicts() -> dict[str, dict[str, str]]:
    return {language: load(language) for language in LANGUAGES}


def used_keys() -> set[str]:
    """Keys named literally by the UI: data-i18n* attributes and quoted keys in the JS."""
    english = load("en")
    groups = {key.split(".", 1)[0] for key in english}
    keys = set(re.findall(r'data-i18n(?:-aria|-title)?="([^"]+)"', (STATIC / "index.html").read_text()))
    for path in (STATIC / "js").glob("*.js"):
        for literal in re.findall(r"'([a-z][a-z0-9_]*\.[A-Za-z0-9_.\-]+)'", path.read_text()):
            if literal.split(".", 1)[0] in groups and not literal.endswith((".js", ".json")):
                keys.add(literal)
    return keys


def test_the_first_load_has_the_words_of_the_first_load_s_modules_and_parts_are_apart():
    # What index.html and any module not loading a part says (quoted, even as the start of a
    # template) must be in the first load's dictionary; a part's words are its module's alone.
    for language in LANGUAGES:
        first = read(STATIC / "i18n" / f"{language}.json")
        parts = {part: read(STATIC / "i18n" / part / f"{language}.json") for part in PARTS}
        for part, words in parts.items():
            assert len(words) > 10 and not set(words) & set(first), (language, part)
            assert all(key.startswith(f"{part}.") for key in words), (language, part)
        named = set(re.findall(r'data-i18n(?:-aria|-title|-placeholder)?="([^"]+)"',
                               (STATIC / "index.html").read_text()))
        for path in (STATIC / "js").glob("*.js"):
            if path.name in PARTS.values():
                continue
            for part in PARTS:
                named |= set(re.findall(rf"['\"`]({part}\.[^'\"`]*)['\"`]", path.read_text()))
        named = {key for key in named if not key.endswith((".js", ".json", ".css"))}
        assert named and not sorted(key for key in named if key not in first), language


def test_every_language_has_the_same_keys_and_no_empty_text(dicts):
    english = set(dicts["en"])
    for language, words in dicts.items():
        assert set(words) == english, f"{language}: missing {english - set(words)}, extra {set(words) - english}"
        assert all(isinstance(v, str) and v.strip() for v in words.values()), language


def test_every_engine_reason_is_translated_with_its_parameters(dicts):
    for code, template in dizhu.REASONS.items():
        allowed = fields(template)
        for language, words in dicts.items():
            key = f"reason.{code}"
            assert key in words, f"{language} lacks {key}"
            assert fields(words[key]) <= allowed, f"{language} {key} uses unknown parameters"


def test_every_hint_reason_is_translated_with_its_parameters(dicts):
    for reason, template in HINT_REASONS.items():
        for language, words in dicts.items():
            key = f"hint.{reason}"
            assert key in words, f"{language} lacks {key}"
            assert fields(words[key]) <= fields(template), f"{language} {key} uses unknown parameters"


def test_kinds_levels_sources_and_actions_are_translated(dicts):
    needed = [f"kind.{kind.value}" for kind in dizhu.Kind]
    needed += ["kind.in_sentence"]  # how a kind is written inside a sentence (format.js)
    assert {words["kind.in_sentence"] for words in dicts.values()} <= {"lower", "same"}
    needed += [f"rules.kind.{kind.value}" for kind in dizhu.Kind]
    needed += [f"level.{level}" for level in dizhu.bots.LEVELS]
    needed += [f"mult.{source}" for source in ("bid", "robs", "bomb", "rocket", "spring", "anti_spring")]
    needed += [f"act.{a}" for a in ("bid", "call", "rob", "pass", "no_bid", "no_call", "no_rob")]
    needed += [f"variant.{v}" for v in ("classic", "duel")]
    needed += [f"sort.{mode}" for mode in ("asc", "desc", "group")]  # cards.js SORT_MODES
    needed += [f"error.{code}" for code in ("malformed_json", "body_too_large", "unsupported_media_type", "invalid_request", "missing_token",
                                             "wrong_token", "unknown_game", "stale", "busy", "too_many_games",
                                             "too_busy", "too_many_hints", "too_many_rounds", "too_many_reads",
                                             "too_many_requests", "network")]
    for language, words in dicts.items():
        missing = [key for key in needed if key not in words]
        assert not missing, f"{language} lacks {missing}"


def test_every_key_the_ui_names_exists(dicts):
    keys = used_keys()
    assert len(keys) > 100  # the scan found the UI's keys
    for language, words in dicts.items():
        missing = sorted(key for key in keys if key not in words)
        assert not missing, f"{language} lacks {missing}"


def test_rules_sections_are_complete(dicts):
    rules = (STATIC / "js" / "rules.js").read_text()
    sections = re.findall(r"\['(\w+)', (\d+)\]", rules)
    assert len(sections) >= 10
    for language, words in dicts.items():
        for name, count in sections:
            for key in [f"rules.{name}.h"] + [f"rules.{name}.p{i}" for i in range(1, int(count) + 1)]:
                assert key in words, f"{language} lacks {key}"


def test_parameters_match_across_languages(dicts):
    for key, text in dicts["en"].items():
        for language in LANGUAGES[1:]:
            assert fields(dicts[language][key]) == fields(text), f"{language} {key}"


def test_every_english_count_has_its_singular(dicts):
    # A count {n} picks its plural variant (key.one, key.other, ...); an English text counting a
    # noun without a ".one" read "1 cards" (a puzzle's handicap goal).
    english = dicts["en"]
    for key, text in english.items():
        if re.search(r"\{n\} [a-z]+s\b", text) and not key.endswith(".one"):
            assert f"{key}.one" in english, key
            assert not re.search(r"\{n\} [a-z]+s\b", english[f"{key}.one"]), key


def test_kinds_are_named_as_players_say_them(dicts):
    # Chinese players call the two jokers 王炸 (火箭 translates the English word) and a trio with
    # a pair 三带二; Japanese players say 3枚組, not the poker term スリーカード.
    for language, trio_pair in (("zh-Hans", "三带二"), ("zh-Hant", "三帶二")):
        assert dicts[language]["kind.rocket"] == "王炸"
        assert dicts[language]["kind.trio_pair"] == trio_pair
        assert not [key for key, text in dicts[language].items() if "火箭" in text], language
    assert dicts["ja"]["kind.trio"] == "3枚組"
    assert not [key for key, text in dicts["ja"].items() if "スリーカード" in text]


def test_one_word_for_one_thing_across_the_screens(dicts):
    # The puzzles said 提示 / 不出 (不要) where the table says 建议 / 过 (過), the settlement 配牌
    # (a mahjong word) where the start screen says 配札, 牌局代码 where the rest says 牌局码.
    for language, words in dicts.items():
        assert words["puzzle.pass"] == words["act.pass"], language
        assert words["puzzle.hint"] == words["ctl.hint"], language
    assert not [key for key, text in dicts["ja"].items() if "配牌" in text]
    for language in ("zh-Hans", "zh-Hant"):
        assert not [key for key, text in dicts[language].items() if "代码" in text or "代碼" in text], language


CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and ideographs
HALF_WIDTH = re.compile(r"[,;:!?()]")


def test_japanese_and_chinese_use_their_own_punctuation(dicts):
    # "理由:", "判断 {i}:{grade}", "(平均": a sentence in Japanese or Chinese takes full-width marks.
    for language in ("ja", "zh-Hans", "zh-Hant"):
        bad = {key: text for key, text in dicts[language].items() if CJK.search(text) and HALF_WIDTH.search(text)}
        assert not bad, (language, bad)


def test_a_count_and_its_counter_are_never_split(dicts):
    # "{n} 张", "{games} 局": a plain space lets a line break between a number and its counter word
    for language in ("ja", "zh-Hans", "zh-Hant"):
        bad = {key: text for key, text in dicts[language].items() if re.search(r"\{\w+\}%? [张張局手枚分秒点點种種]", text)}
        assert not bad, (language, bad)


def test_each_avatar_letter_comes_from_its_name(dicts):
    for language, words in dicts.items():
        for seat in ("1", "2", "duel"):
            initial = words[f"seat.{seat}.initial"]
            assert len(initial) == 1 and initial in words[f"seat.{seat}"], (language, seat)


SEEDS = Path(os.environ.get("DIZHU_SEEDS", "/work/shared/seeds"))
NAMES = {"FighttheLandlord"}  # the game's name is shared by design


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _longest_shared_run(text: str, source: str) -> str:
    text = _squash(re.sub(r"\{\w+\}", "\0", text))
    best = ""
    for i in range(len(text)):
        size = len(best) + 1
        while i + size <= len(text) and text[i:i + size] in source:
            best = text[i:i + size]
            size += 1
    return best


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source documents are not on this machine")
def test_texts_are_in_the_projects_own_words(dicts):
    # The site's texts say the rules in their own sentences: no run of 15 characters or more
    # (spaces aside) taken over from the documents the project was made from.
    source = _squash("\n".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))))
    copied = {}
    for language, words in dicts.items():
        for key, text in words.items():
            run = _longest_shared_run(text, source)
            if len(run) >= 15 and run not in NAMES:
                copied[f"{language} {key}"] = run
    assert not copied, copied
