// The HTTP client for docs/API.md. Every refusal arrives as
// {"error": {"code", "message", "params"}} and is thrown as an ApiError so the
// UI can explain it by code. Mutating calls carry a request_id made once per
// user action: a retry after a network hiccup reuses it, and the server applies
// the action only once.

export class ApiError extends Error {
  constructor(status, code, params = {}, message = '') {
    super(message || code);
    this.status = status;
    this.code = code;
    this.params = params || {};
  }
}

/** A unique request id (crypto.randomUUID needs a secure context; this does not). */
export function requestId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const WAIT_CODES = new Set(['busy', 'too_busy', 'too_much_thinking', 'too_many_requests']);

async function call(method, path, { body, token, retries = 3 } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      // The network failed before any answer: safe to retry (request ids
      // make mutating calls idempotent).
      if (attempt >= retries) throw new ApiError(0, 'network', {}, String(err));
      await sleep(400 * (attempt + 1));
      continue;
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (response.ok) return data;
    const error = data && data.error ? data.error : { code: response.status >= 500 ? 'server' : 'generic' };
    // Busy: the game (or this player's other games) is still working on an earlier
    // request; try again shortly.  The other 429s are limits: say so at once.
    // A client over its share of the computers' thinking waits as long as it is told.
    const waiting = response.status === 429 && WAIT_CODES.has(error.code);
    if ((waiting || response.status >= 502) && attempt < retries + 3) {
      const after = error.code === 'busy' ? 0 : Number(response.headers.get('Retry-After')) || 1;
      await sleep(Math.max(300 * (attempt + 1), 1000 * after));
      continue;
    }
    throw new ApiError(response.status, error.code, error.params, error.message);
  }
}

/** One game's session: id + token, and the calls that need them. */
export class GameApi {
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
  }

  static async create({ variant, level, language, dealCode = null }) {
    const body = { variant, level, language };
    if (dealCode) body.deal_code = dealCode;
    const data = await call('POST', '/api/games', { body });
    return { api: new GameApi(data.game_id, data.token), view: data.view };
  }

  path(suffix = '') {
    return `/api/games/${encodeURIComponent(this.gameId)}${suffix}`;
  }

  view(since = 0) {
    return call('GET', `${this.path()}?since=${since}`, { token: this.token });
  }

  /** A mutating call: version guards against acting on a stale table. */
  post(suffix, { version, since, requestId: rid, ...rest }) {
    const body = { ...rest, version, request_id: rid };
    if (since !== undefined) body.since = since;
    return call('POST', this.path(suffix), { body, token: this.token });
  }

  act(action, cards, opts) {
    return this.post('/act', { action, cards: cards && cards.length ? cards : null, ...opts });
  }

  autoplay(opts) {
    return this.post('/autoplay', opts);
  }

  anotherRound(opts) {
    return this.post('/another-round', opts);
  }

  newGame(opts) {
    return this.post('/new-game', opts);
  }

  newMatch(opts) {
    return this.post('/new-match', opts);
  }

  /** A page of the game's finished rounds from `offset` (docs/API.md). */
  rounds(offset = 0) {
    return call('GET', this.path(`/rounds?offset=${offset}&limit=50`), { token: this.token });
  }

  hint(version) {
    return call('POST', this.path('/hint'), { body: { version }, token: this.token });
  }

  /** The engine's verdict on an action, applying nothing: {legal, error}. */
  check(action, cards) {
    return call('POST', this.path('/check'), { body: { action, cards }, token: this.token });
  }

  /** A finished round's review: `start` asks for it, else it is only read ({status, progress, review}). */
  review(number, start) {
    return call(start ? 'POST' : 'GET', this.path(`/rounds/${number}/review`), { token: this.token });
  }

  setLanguage(language) {
    return call('PATCH', this.path(), { body: { language }, token: this.token });
  }
}
