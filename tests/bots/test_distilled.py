"""The duel's distilled policy: its features say what their names say, and from DECISION on are
the same for every move of a decision."""

from helpers.positions import partner_stands_ctx

from dizhu import Round
from dizhu.bots import create


def test_the_distilled_raw_counts_say_what_their_names_say():
    # the duel's network reads them: the hand after the move, the move, the unseen, the trick, the seats
    from dizhu.bots.distilled import NAMES, features
    from dizhu.bots.shortlist import shortlist

    ctx = partner_stands_ctx()
    moves, choice = shortlist(ctx)
    column = {name: i for i, name in enumerate(NAMES)}
    assert len(moves) > 1 and ctx.last is not None
    for move, x in zip(moves, features(ctx, moves, choice)):
        def get(name: str) -> float:
            return x[column[name]]

        moved = move.counts if move is not None else (0,) * 15
        assert [get(f"move_{r}") for r in range(15)] == list(moved)
        assert [get(f"after_{r}") + get(f"move_{r}") for r in range(15)] == list(ctx.hand)
        assert [get(f"unseen_{r}") for r in range(15)] == list(ctx.unseen)
        assert [get(f"trick_{r}") for r in range(15)] == list(ctx.last[1].counts)
        seats = [(ctx.seat + k) % 3 for k in range(3)]
        assert [get(f"held_{k}") * 20 for k in range(3)] == [ctx.cards_left[s] for s in seats]
        assert [get(f"landlord_{k}") for k in range(3)] == [float(s == ctx.landlord) for s in seats]


def test_the_distilled_features_from_decision_on_are_the_same_for_every_move():
    # the compiled kernel sums them once a decision, from its first move's: one that differed by
    # move would score every other move with the first one's value
    import random

    from dizhu.bots import search
    from dizhu.bots.distilled import _INDEX, DECISION, features, net
    from dizhu.bots.shortlist import shortlist
    from dizhu.bots.styles import STYLES
    from dizhu.bots.view import View

    rng, checked = random.Random(3), 0
    for variant in ("duel", "classic"):
        r = Round.deal(variant, seed=f"decision-{variant}")
        bids = [create("intermediate", variant, seed=s) for s in range(r.players)]
        while r.phase == "bidding":
            r.apply(r.to_act, bids[r.to_act].decide(r.observation(r.to_act)))
        view = View.of(r.observation(r.to_act))
        sim = search.Sim(view, search.sample_world(view, rng))
        while True:
            ctx = sim.ctx()
            moves, choice = shortlist(ctx)
            rows = features(ctx, moves, choice)
            assert all(x[DECISION:] == rows[0][DECISION:] for x in rows)
            if variant == "duel":  # a third seat's columns stay 0
                assert rows[0][_INDEX["held_2"]] == rows[0][_INDEX["landlord_2"]] == 0
            assert len(rows) == 1 or any(x[:DECISION] != rows[0][:DECISION] for x in rows)
            checked += len(rows) > 1
            if sim.apply(STYLES["intermediate"](ctx, rng)) is not None:
                break
    assert checked > 10
    assert net(2).order[0] == DECISION and sorted(net(2).order) == list(range(len(net(2).mean)))
    assert net(3).order == tuple(range(len(net(3).mean)))  # classic's reads none of them
