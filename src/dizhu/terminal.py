"""Play in a terminal: ``dizhu play``.

You are seat 0 against computer players.  Type actions in their text form
(``play 33344455``, ``pass``, ``bid 2``, ``call``, ``rob``) or short
(``33344455``, ``p``, ``2`` while bidding), ``hint`` for a recommendation,
``help`` for these, ``quit`` to stop (not ``q``: a lone queen is a play).

>>> expand("33344455", "playing"), expand("p", "playing"), expand("2", "bidding"), expand("2", "playing")
('play 33344455', 'pass', 'bid 2', 'play 2')
"""

from __future__ import annotations

import secrets
import sys
from typing import IO

from .bots import create, hint
from .bots.reasons import describe
from .errors import DizhuError
from .game import Match
from .ranks import RANK_SYMBOLS
from .rules import same_side
from .variants import Variant

SEAT_NAMES = {0: "you", 1: "right", 2: "left"}
VERBS = ("play", "pass", "bid", "call", "rob")


def help_text(variant: Variant) -> str:
    """The commands, and the card notation of ``variant``'s deck."""
    lowest = RANK_SYMBOLS[variant.lowest_rank]
    return ("actions: play 55566677 (or just 55566677), pass (or p);"
            " while bidding, the actions offered (a bid of points may be typed as its digit)\n"
            f"  cards: {lowest}-9, T or 10, J, Q, K, A, 2, B (small joker), R (big joker);"
            " case, spaces and + do not matter\n"
            "  hint (or h): the computer's advice, with up to two alternatives; help (or ?): this; quit: stop")


def expand(text: str, phase: str) -> str:
    """The full action for a short one: bare cards are a play, ``p`` a pass, a digit a bid.

    Only the form is filled in; the round still judges the action."""
    word = text.strip()
    if word.lower() in ("p", "pass"):
        return "pass"
    if word.split(None, 1)[0].lower() in VERBS:
        return word
    if phase == "bidding" and word in ("1", "2", "3"):
        return f"bid {word}"
    return f"play {word}"


def hint_text(advice: dict) -> str:
    """The hint and its alternatives, each with its reason and, unless the reason says them
    already, the figures of the simulated games behind it.

    >>> print(hint_text({"action": "play 33", "reason": {"key": "shed_plan", "params": {"n": 2}},
    ...     "figures": {"rate": 90, "games": 211}, "alternatives": [
    ...     {"action": "play 33", "reason": {"key": "shed_plan", "params": {"n": 2}}},
    ...     {"action": "pass", "reason": {"key": "search", "params": {"rate": 40, "games": 1}},
    ...      "figures": {"rate": 40, "games": 1}}]}))
    hint: play 33 (leads one of the plays your hand needs: 2 plays left after it; won 90% of 211 simulated games)
      or: pass (won 40% of 1 simulated game)
    """
    lines = []
    for option in [advice] + advice.get("alternatives", [])[1:]:
        why = describe(option["reason"])
        if option.get("figures") and "rate" not in option["reason"]["params"]:
            why += "; " + describe({"key": "search", "params": option["figures"]})
        lines.append(f"{'  or' if lines else 'hint'}: {option['action']} ({why})")
    return "\n".join(lines)


def _on_the_table(obs: dict, players: int) -> str:
    """The trick's play beside the hand: an opponent's to beat, a partner's to let stand or not."""
    last = obs["trick"]["last"]
    if not last or obs["phase"] != "playing":
        return ""
    seat, play = last
    if same_side(seat, obs["seat"], obs["landlord"]):
        return f"   on the table: your partner {_name(seat, players)}'s {play}"
    return f"   to beat: {_name(seat, players)}'s {play}"


def _name(seat: int, players: int) -> str:
    if players == 2:
        return "you" if seat == 0 else "opponent"
    return SEAT_NAMES[seat]


def _describe(event: dict, players: int) -> str | None:
    kind = event["type"]
    who = _name(event.get("seat", 0), players)
    if kind == "bid":
        return f"{who}: {event['action']}"
    if kind == "redeal":
        return "everybody passed: dealing again"
    if kind == "landlord":
        extra = f"bid {event['bid']}" if "bid" in event else f"{event['robs']} robs"
        return f"{who} {'are' if who == 'you' else 'is'} the landlord ({extra}); bottom {event['bottom']}"
    if kind == "play":
        return f"{who}: {event['play']}"
    if kind == "pass":
        return f"{who}: pass"
    if kind == "trick":
        leader = _name(event["leader"], players)
        return f"  ({'you lead' if leader == 'you' else leader + ' leads'} the next trick)"
    if kind == "settle":
        winner = "the landlord wins" if event["winner"] == "landlord" else (
            "the farmers win" if players > 2 else "the farmer wins")
        return f"{winner}; points {event['points']}; hands {event['hands']}"
    return None


def play(variant: str = "classic", level: str = "intermediate", seed: str | None = None,
         stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> int:
    """Run an interactive match in the terminal."""
    match = Match(variant, seed=seed)
    players = match.variant.players
    # without a seed, fresh deals and fresh computers; with one, the same of both
    bot_seed = secrets.token_hex(8) if seed is None else seed
    bots = {s: create(level, variant, seed=f"{bot_seed}-{s}") for s in range(1, players)}
    seen = 0

    def out(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    out(f"dizhu {variant} against {level} computers. Type 'hint' for advice, 'help' for the commands, 'quit' to stop.")
    while True:
        r = match.round
        for event in r.log[seen:]:
            line = _describe(event.to_dict(), players)
            if line:
                out("  " + line)
        seen = len(r.log)
        if r.result is not None:
            out(f"totals: {match.totals}")
            if match.over:
                out(f"match over: winners {[_name(s, players) for s in match.winners]}")
                return 0
            out("press Enter for another round, or type quit")
            if stdin.readline().strip().lower() in ("quit", "q"):
                return 0
            match.another_round()
            seen = 0
            continue
        seat = r.to_act
        if seat != 0:
            match.apply(seat, bots[seat].decide(match.observation(seat)))
            continue
        obs = r.observation(0)
        out(f"your hand: {obs['hand']}   cards left: {obs['cards_left']}{_on_the_table(obs, players)}")
        out(f"you may: {', '.join(obs['legal_actions'][:12])}{' ...' if len(obs['legal_actions']) > 12 else ''}")
        stdout.write("> ")
        stdout.flush()
        line = stdin.readline()
        if not line or line.strip().lower() == "quit":  # not "q": that is a queen
            return 0
        text = line.strip()
        if not text:
            continue  # the hand and the choices again
        if text.lower() in ("hint", "h"):
            out(hint_text(hint(obs, n=3)))
            continue
        if text.lower() in ("help", "?"):
            out(help_text(match.variant))
            continue
        try:
            match.apply(0, expand(text, obs["phase"]))
        except DizhuError as error:
            out(f"not allowed: {error}")
