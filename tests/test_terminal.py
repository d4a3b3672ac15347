"""`dizhu play`: a whole match in the terminal, driven through its input and output."""

import io
import re
import string

from dizhu.bots.reasons import HINT_REASONS, describe
from dizhu.terminal import play


class _Player(io.StringIO):
    """Answers each prompt with the first action it is offered (a pass when it may pass),
    an empty line and a hint now and then, and Enter between rounds; quits after ``rounds``."""

    def __init__(self, out: io.StringIO, rounds: int) -> None:
        super().__init__()
        self.out, self.rounds, self.asked = out, rounds, 0

    def readline(self, *args) -> str:
        self.asked += 1
        offered = [line for line in self.out.getvalue().splitlines() if line.startswith("you may: ")]
        if self.out.getvalue().rstrip().endswith("type quit"):
            self.rounds -= 1
            return "quit\n" if self.rounds <= 0 else "\n"
        if self.asked % 7 == 0:
            return "hint\n"
        if self.asked % 11 == 0:
            return "\n"
        return offered[-1][len("you may: "):].split(", ")[0] + "\n"


def test_a_duel_in_the_terminal_says_who_leads_and_who_won():
    out = io.StringIO()
    assert play("duel", "normal", seed="t", stdin=_Player(out, 2), stdout=out) == 0
    text = out.getvalue()
    assert "leads the next trick" in text or "you lead the next trick" in text
    assert "the landlord wins" in text or "the farmer wins" in text
    assert " win;" not in text and "hint: " in text
    assert "simulated game" in text  # the hint's figures, or a reason made of them
    assert "not allowed" not in text  # an empty line shows the choices again, it is not an action


def test_reasons_in_english_say_one_card_not_one_cards():
    assert describe({"key": "reach_line", "params": {"n": 1}}) == "takes you to the handicap line: you win holding 1 card"
    assert describe({"key": "reach_line", "params": {"n": 2}}).endswith("2 cards")
    assert describe({"key": "search", "params": {"rate": 61, "games": 1}}) == "won 61% of 1 simulated game"
    assert describe({"key": "stop_opponent", "params": {"n": 1}}).endswith("needs only 1 more card")
    # every template with a count: none says "1 ...s" once filled with 1
    for key, template in HINT_REASONS.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        text = describe({"key": key, "params": {f: 1 for f in fields}})
        assert not re.search(r"\b1 [a-z ]*?(cards|plays|games)\b", text), (key, text)


def test_short_forms_play_bare_cards_pass_bid_and_show_the_play_to_beat():
    # "3" bids while bidding and plays the card after it; "p" passes; "help" lists the forms
    out = io.StringIO()
    assert play("classic", "normal", seed="3", stdin=io.StringIO("help\n3\n3\np\nq\n"), stdout=out) == 0
    text = out.getvalue()
    assert "play 55566677 (or just 55566677)" in text and "cards: 3-9, T or 10" in text
    assert "  you: bid 3\n" in text and "  you: 3\n" in text and "  you: pass\n" in text
    assert "to beat: left's 5" in text  # the answer asked for is said with the hand
    assert "not allowed" not in text


def test_a_short_form_is_still_judged_by_the_round():
    out = io.StringIO()
    play("classic", "normal", seed="3", stdin=io.StringIO("3\n3R\nq\n"), stdout=out)
    assert "not allowed: " in out.getvalue()  # 3 with the big joker is no play


def test_q_plays_a_queen_and_only_quit_quits():
    # seed 3: the player bids 3, becomes the landlord and leads; "q" is the lone queen
    out = io.StringIO()
    play("classic", "normal", seed="3", stdin=io.StringIO("3\nq\nquit\n"), stdout=out)
    assert "  you: Q\n" in out.getvalue()


def test_the_duels_help_gives_its_own_deck():
    out = io.StringIO()
    play("duel", "normal", seed="q", stdin=io.StringIO("help\nquit\n"), stdout=out)
    assert "cards: 5-9, T or 10" in out.getvalue()  # no 3s or 4s in the duel's deck


def test_a_partners_play_is_on_the_table_not_to_beat():
    # seed 3, every prompt passed: left is the landlord; right, the partner, plays 22 and left passes
    out = io.StringIO()
    play("classic", "normal", seed="3", stdin=io.StringIO("pass\n" * 5 + "quit\n"), stdout=out)
    text = out.getvalue()
    assert "to beat: left's 33" in text and "on the table: your partner right's 22" in text
    assert "to beat: right" not in text
