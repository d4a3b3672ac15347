// What the table shows after a given number of round events, computed by
// folding the events (docs/API.md "Events"). The same fold drives three
// things: replaying the computers' moves one by one after each server answer,
// rebuilding the table exactly after a reload, and the step-through replay of
// a finished round (which also tracks every hand, known only once it is over).

const next = (state, seat) => (seat + 1) % state.players;

/**
 * The table before any event. `seating`: {rules (the view's variant
 * descriptor, Variant.describe()), me (the human's seat, the view's human_seat)}.
 */
export function emptyState({ rules, me = 0 }) {
  const { players } = rules;
  return {
    rules,
    players,
    me,
    phase: 'bidding',
    first: 0,
    toAct: 0,
    bids: [],
    called: false, // call-and-rob bidding: someone has called the landlord
    highest: 0, // points bidding: highest bid so far
    robs: 0, // call-and-rob bidding: robs so far (= the handicap, where the variant has one)
    landlord: null,
    bottomIds: null,
    cardsLeft: Array(players).fill(0),
    seatAct: Array(players).fill(null), // each seat's latest action in this trick / bidding
    trickOver: false,
    lastPlay: null, // {seat, play, kind}: the play to beat
    playedIds: [],
    doublings: [], // {source: 'bomb'|'rocket', seat, play}
    playsMade: Array(players).fill(0),
    result: null,
    redeals: 0,
    hands: null, // per-seat card ids, only when the fold is given them (replay)
    // Set when the landlord is decided, until the first play: who won the
    // bidding, with what, and the bottom cards, shown in the middle of the table.
    news: null,
    redealt: false, // this deal follows a throw-in, and nobody has bid in it yet
    last: null, // the last event applied, for captions
    steps: 0, // events applied
  };
}

/** The bid that won the landlord: {seat, action, called} of the landlord's last bid. */
function winningBid(s, landlord) {
  const act = s.seatAct[landlord];
  if (!act || act.type !== 'bid') return null;
  return { seat: landlord, action: act.action, called: act.called };
}

/** Play begins: the bidding leaves the table. */
function endNews(s) {
  if (!s.news) return;
  s.news = null;
  s.seatAct = Array(s.players).fill(null);
}

/** Apply one event to `state` (mutated and returned). */
export function applyEvent(state, ev, { initialHands = null } = {}) {
  const s = state;
  s.last = ev;
  s.steps += 1;
  switch (ev.type) {
    case 'deal': {
      const keep = { redeals: s.redeals };
      Object.assign(s, emptyState(s), keep);
      s.last = ev;
      s.first = ev.first;
      s.toAct = ev.first;
      s.cardsLeft = [...ev.hand_sizes];
      s.redealt = s.redeals > 0;
      if (initialHands) s.hands = initialHands.map((h) => [...h]);
      break;
    }
    case 'bid': {
      const called = s.called;
      s.bids.push([ev.seat, ev.action]);
      s.seatAct[ev.seat] = { type: 'bid', action: ev.action, called };
      s.redealt = false;
      if (ev.action.startsWith('bid ')) s.highest = Number(ev.action.slice(4));
      if (ev.action === 'call') s.called = true;
      if (ev.action === 'rob') s.robs += 1;
      s.toAct = next(s, ev.seat);
      break;
    }
    case 'redeal':
      s.redeals += 1;
      break;
    case 'landlord':
      s.landlord = ev.seat;
      s.bottomIds = [...ev.bottom_ids];
      s.cardsLeft[ev.seat] += ev.bottom_ids.length;
      if (s.hands) s.hands[ev.seat] = [...s.hands[ev.seat], ...ev.bottom_ids];
      if (ev.bid !== undefined) s.highest = ev.bid;
      if (ev.robs !== undefined) s.robs = ev.robs;
      s.phase = 'playing';
      s.toAct = ev.seat;
      // The bids stay on the table (the deciding one above all) until the
      // landlord's first play.
      s.news = { seat: ev.seat, bottomIds: [...ev.bottom_ids], winning: winningBid(s, ev.seat) };
      break;
    case 'play': {
      endNews(s);
      if (s.trickOver) {
        s.seatAct = Array(s.players).fill(null);
        s.trickOver = false;
      }
      s.seatAct[ev.seat] = { type: 'play', play: ev.play, kind: ev.kind, cards: [...ev.cards] };
      s.lastPlay = { seat: ev.seat, play: ev.play, kind: ev.kind };
      s.cardsLeft[ev.seat] -= ev.cards.length;
      if (s.hands) s.hands[ev.seat] = s.hands[ev.seat].filter((id) => !ev.cards.includes(id));
      s.playedIds.push(...ev.cards);
      s.playsMade[ev.seat] += 1;
      if (ev.kind === 'bomb' || ev.kind === 'rocket') s.doublings.push({ source: ev.kind, seat: ev.seat, play: ev.play });
      s.toAct = next(s, ev.seat);
      break;
    }
    case 'pass':
      endNews(s);
      if (s.trickOver) {
        s.seatAct = Array(s.players).fill(null);
        s.trickOver = false;
      }
      // A second pass in the same trick is news too: `again` and the step
      // number make the table draw (and pulse) it anew.
      s.seatAct[ev.seat] = { type: 'pass', again: !!(s.seatAct[ev.seat] && s.seatAct[ev.seat].type === 'pass'), step: s.steps };
      s.toAct = next(s, ev.seat);
      break;
    case 'trick':
      // Keep the finished trick on the table until the leader plays again.
      s.trickOver = true;
      s.lastPlay = null;
      s.toAct = ev.leader;
      break;
    case 'settle':
      s.phase = 'over';
      s.toAct = null;
      s.result = ev;
      if (ev.hand_ids) s.hands = ev.hand_ids.map((h) => [...h]);
      break;
    default:
      break; // unknown event types are ignored: the observation stays the truth
  }
  return s;
}

/** The state after the first `count` events (all when omitted). */
export function foldEvents(seating, events, count = events.length, options = {}) {
  const state = emptyState(seating);
  for (let i = 0; i < count && i < events.length; i += 1) applyEvent(state, events[i], options);
  return state;
}

/** Multiplier so far (spring not counted), as the engine computes it. */
export function currentMultiplier(state) {
  const doublings = 2 ** state.doublings.length;
  if (state.rules.bidding === 'rob') return 2 ** state.robs * doublings;
  return Math.max(state.highest, 1) * doublings;
}

/** Index of the last `deal` event: events before it belong to a thrown-in deal. */
export function lastDealIndex(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (events[i].type === 'deal') return i;
  return 0;
}

/** Does this event come from a player's decision (worth a thinking pause)? */
export function isDecision(ev) {
  return ev.type === 'bid' || ev.type === 'play' || ev.type === 'pass';
}
