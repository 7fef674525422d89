/**
 * The one redactor: every text or value that labelkit shows (errors, CLI output, emulator answers,
 * job errors, logs) passes through these functions. No other module in `src/` replaces secrets.
 *
 * @remarks A secret reaches a text in more than one form: as is, JSON-escaped by a server that
 * quotes a request (`"` → `\"`, `\` → `\\`, non-ASCII → `\uXXXX` for ASCII-only encoders),
 * HTML-escaped by an error page (`&` → `&amp;`),
 * percent-encoded in a form body or query string (`encodeURIComponent` and the form flavour with
 * `+` for space), and base64-encoded inside `Authorization: Basic …`. {@link secretForms} lists
 * them all, and {@link redact} replaces every one, and any `Bearer …`/`Basic …` credential
 * whether or not it is known, all looked for in the text as given (nothing replaced first can hide
 * the rest of a known token). Values under a secret-like key (`secretKey`, `client_secret`,
 * `token`, `Authorization`, any spelling or case) are replaced whatever their type: see
 * {@link isSecretKeyName} and {@link redactValue}. A URL's secrets (its user password and
 * secret-like query values, `?password=…`) are found by {@link urlSecrets} and replaced by
 * {@link redactUrl}, also in a URL that `URL` refuses. A text written with {@link own} keeps
 * labelkit's fixed wording where a secret that is a common word lies entirely inside it.
 *
 * This module is pure (no Node or DOM API beyond `TextEncoder`/`btoa`), so the browser build of
 * the client carries it too.
 */

/** What a secret is replaced with. */
export const REDACTED = '***';

/** Secrets shorter than this are not searched for (they would match ordinary text). */
const MIN_SECRET_LENGTH = 4;

/** A fragment of a secret at least this long, left at the end of a cut text, is redacted too. */
const MIN_FRAGMENT_LENGTH = 8;

/** The secrets a redaction knows: values, possibly undefined or empty (then ignored). */
export type Secrets = Iterable<string | null | undefined>;

/**
 * A `Bearer …`/`Basic …` credential, known or not. The credential runs to the next space, quote,
 * backslash or bracket-like delimiter, so an unknown token holding `:`, `&`, `/`, `+`, `=`, `%`
 * (`key-7f:abc&d`) is replaced whole rather than up to its first such character. A known token
 * holding a space or a quote, where this pattern stops, is replaced whole as a known secret (see
 * {@link redact}).
 */
const CREDENTIAL = /\b(Bearer|Basic)(\s+|%20|\+)[^\s"'`\\<>,()[\]{}]{4,}/gi;

/**
 * Tells whether an object key holds a secret: `secretKey`, `clientSecret`, `client_secret`,
 * `token`, `access_token`, `password`, `apiKey`, `authorization`, in any case or spelling.
 *
 * @param key - an object key or header name
 * @returns true when a value under this key must never be shown
 */
export function isSecretKeyName(key: string): boolean {
  const k = key.toLowerCase().replace(/[^a-z]/g, '');
  return /secret|token|password|passwd|apikey|authorization|credential/.test(k);
}

/** A part of a URL decoded (`+` is a space in a query, itself in the user part). */
function decoded(text: string, plusIsSpace = true): string {
  try {
    return decodeURIComponent(plusIsSpace ? text.replace(/\+/g, ' ') : text);
  } catch {
    return text;
  }
}

/**
 * A URL's parts as written: the scheme (`postgres://`), the user part's name and password when it
 * has a password, the rest up to the query, the query, the fragment. Cut by this pattern rather
 * than `URL`, so that a URL that `URL` refuses (a port out of range, a bad host), which a message
 * may still quote, is cut too. The authority ends at the first `/`, `?` or `#`; its user part at
 * its last `@`; the password starts at the user part's first `:`.
 */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^:/?#]*):([^/?#]*)@)?([^?#]*)(?:\?([^#]*))?([^]*)$/i;

/**
 * A URL cut into its parts (see {@link URL_PARTS}): the text before the password, the password
 * (as written), the text up to the query, and the query's pairs (`key` and `=value`, as written),
 * the fragment last.
 */
function urlPieces(url: string): { head: string; password?: string; middle: string; query: [string, string][]; tail: string } | undefined {
  const parts = URL_PARTS.exec(url);
  if (!parts) return undefined;
  const [, scheme, user, password, rest, queryText, tail] = parts as unknown as [string, string, string | undefined, string | undefined, string, string | undefined, string];
  const query = queryText ? queryText.split('&').map((pair): [string, string] => (pair.includes('=') ? [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('='))] : [pair, ''])) : [];
  const head = password === undefined ? scheme : `${scheme}${user}:`;
  return { head, ...(password !== undefined && { password }), middle: `${password === undefined ? '' : '@'}${rest}${queryText === undefined ? '' : '?'}`, query, tail };
}

/** A query pair as written: the key, and `=value` (empty when there is no `=`). */
const isSecretPair = ([key, value]: [string, string]) => value.length > 1 && isSecretKeyName(decoded(key));

/** Which query values of a URL are secrets. */
export interface UrlSecretOptions {
  /**
   * Every query value, whatever its key: for the service's URL, whose query (an API key under any
   * name, a signed parameter) labelkit cannot tell from the rest, and never needs to show.
   *
   * @defaultValue false: only values under a secret-like key (see {@link isSecretKeyName})
   */
  everyQueryValue?: boolean;
}

const hiddenPair = (pair: [string, string], options: UrlSecretOptions) => (options.everyQueryValue ? pair[1].length > 1 : isSecretPair(pair));

/**
 * The secrets a URL carries: the password of its user part and the value of every query
 * parameter under a secret-like name (`?password=…`, `?sslpassword=…`, `?access_token=…`; see
 * {@link isSecretKeyName}), decoded, as drivers such as `pg` read them; also in a URL that
 * `URL` refuses (a port out of range), which an error message may still quote.
 *
 * @param url - a URL, possibly not one (then no secret is found)
 * @param options - `everyQueryValue`: every query value is a secret (the service's URL)
 * @returns the secret values, to pass to {@link redact}
 */
export function urlSecrets(url: string, options: UrlSecretOptions = {}): string[] {
  const pieces = urlPieces(url);
  if (!pieces) return [];
  const found: string[] = [];
  if (pieces.password) found.push(decoded(pieces.password, false), pieces.password);
  for (const pair of pieces.query) if (hiddenPair(pair, options)) found.push(decoded(pair[1].slice(1)), pair[1].slice(1));
  return [...new Set(found)];
}

/**
 * A URL fit to print: the password of its user part and the value of every secret-like query
 * parameter replaced by {@link REDACTED}, whatever their length; also in a URL that `URL` refuses.
 *
 * @param url - a URL, possibly not one (then it is redacted as a text of its {@link urlSecrets})
 * @param options - `everyQueryValue`: replace every query value (the service's URL: see {@link UrlSecretOptions})
 * @returns the URL with no secret left in it
 * @example
 * ```ts
 * redactUrl('postgres://u:pw@db/x?password=pw2&sslmode=require'); // 'postgres://u:***@db/x?password=***&sslmode=require'
 * redactUrl('https://api.example/graphql?key=k1&v=2', { everyQueryValue: true }); // 'https://api.example/graphql?key=***&v=***'
 * ```
 */
export function redactUrl(url: string, options: UrlSecretOptions = {}): string {
  const pieces = urlPieces(url);
  if (!pieces) return redact(url);
  const query = pieces.query.map((pair) => `${pair[0]}${hiddenPair(pair, options) ? `=${REDACTED}` : pair[1]}`).join('&');
  return redact(`${pieces.head}${pieces.password !== undefined ? (pieces.password === '' ? '' : REDACTED) : ''}${pieces.middle}${query}${pieces.tail}`, urlSecrets(url, options));
}

function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The base64 texts that occur in any base64 encoding containing the secret, whatever its byte
 * offset there (three alignments; the characters shared with neighbouring bytes are left out).
 */
function base64Forms(secret: string): string[] {
  const bytes = utf8Bytes(secret);
  const forms: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const padded = new Uint8Array(pad + bytes.length);
    padded.set(bytes, pad);
    const encoded = base64(padded);
    const from = Math.ceil((pad * 8) / 6);
    const to = Math.floor(((pad + bytes.length) * 8) / 6);
    const form = encoded.slice(from, to);
    if (form.length >= MIN_SECRET_LENGTH) forms.push(form);
  }
  return forms;
}

/** The secret as an HTML page quotes it (`&` → `&amp;`, `"` → `&quot;` or `&#34;`, `'` → `&#39;` or `&#x27;`). */
function htmlForms(secret: string): string[] {
  const base = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    base.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    base.replace(/"/g, '&#34;').replace(/'/g, '&#x27;'),
  ];
}

const formsCache = new Map<string, readonly string[]>();

/**
 * Every form in which a secret can appear in a text: raw, JSON-escaped (with and without
 * `\uXXXX` for non-ASCII), percent-encoded (URI component and form style), HTML-escaped (an
 * error page that quotes a header), and base64 at any alignment.
 *
 * @param secret - a secret value
 * @returns the distinct forms, longest first; empty for a secret shorter than {@link MIN_SECRET_LENGTH}
 */
export function secretForms(secret: string): readonly string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const cached = formsCache.get(secret);
  if (cached) return cached;
  const json = JSON.stringify(secret).slice(1, -1);
  const jsonAscii = json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const uri = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const forms = [
    ...new Set([secret, json, jsonAscii, JSON.stringify(json).slice(1, -1), uri, uri.toLowerCase(), form, ...htmlForms(secret), ...base64Forms(secret)]),
  ]
    .filter((f) => f.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (formsCache.size > 256) formsCache.clear();
  formsCache.set(secret, forms);
  return forms;
}

/** The secrets {@link allForms} was last given, and their forms: a printer gives the same ones line after line. */
let lastSecrets: string[] = [];
let lastForms: readonly string[] = [];
function allForms(secrets: Secrets): readonly string[] {
  const given: string[] = [];
  for (const s of secrets) if (s) given.push(s);
  if (given.length === lastSecrets.length && given.every((s, i) => s === lastSecrets[i])) return lastForms;
  const out = new Set<string>();
  for (const s of given) for (const f of secretForms(s)) out.add(f);
  lastSecrets = given;
  lastForms = [...out].sort((a, b) => b.length - a.length);
  return lastForms;
}

/**
 * A text built by labelkit: its fixed parts are labelkit's own wording, its values came from
 * elsewhere (answers, URLs, flags, files). Made with the {@link own} tag.
 *
 * @remarks {@link redact} replaces a secret wherever it touches a value, but leaves labelkit's
 * fixed wording alone: a secret that happens to be a common word (`secret`, `token`) must not turn
 * `wrong secret: refused with 401` into `wrong ***: refused with 401`. A secret found entirely
 * inside the fixed words reveals nothing that labelkit's source does not already say.
 */
export class OwnText {
  /**
   * @param fixed - the fixed parts, as a template literal gives them
   * @param values - the values between them (strings, numbers, or nested own texts)
   */
  constructor(
    readonly fixed: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** The text as it reads, unredacted (for tests and for building longer texts). */
  toString(): string {
    return segmentsOf(this)
      .map((s) => s.text)
      .join('');
  }

  /**
   * The text redacted as {@link redact} does, its fixed wording kept where a secret lies entirely
   * inside it. A method of the own text, so that a program that never writes one (the client's
   * browser build) does not carry this class.
   *
   * @param secrets - the secret values known to the caller
   * @returns the text with no secret left in it
   */
  redacted(secrets: Secrets): string {
    const segments = segmentsOf(this);
    const full = segments.map((s) => s.text).join('');
    const forms = allForms(secrets);
    // Most lines hold no secret: the quick look of a plain text's, before the map of whose each character is.
    if (!mayHoldSecret(full, forms)) return full;
    // foreign[i]: characters from elsewhere among the first i.
    const foreign = new Uint32Array(full.length + 1);
    let i = 0;
    for (const s of segments) for (let k = 0; k < s.text.length; k++, i++) foreign[i + 1] = foreign[i]! + (s.own ? 0 : 1);
    return redactText(full, forms, foreign);
  }
}

/**
 * Tags a template literal as labelkit's own wording with values from elsewhere.
 *
 * @param fixed - the template's fixed parts (labelkit's words)
 * @param values - the interpolated values (redacted where a secret touches them); a nested
 * {@link OwnText} keeps its own fixed parts
 * @returns the text, for a printer or {@link redact}
 * @example
 * ```ts
 * redact(own`wrong secret: answered ${status}`, ['secret']); // 'wrong secret: answered 200'
 * redact(own`the model said: ${answer}`, ['secret']); // 'the model said: bad ***'
 * ```
 */
export function own(fixed: TemplateStringsArray, ...values: unknown[]): OwnText {
  return new OwnText([...fixed], values);
}

/**
 * Marks a whole text as labelkit's own wording, for words computed from constants only (a
 * padded table header, a coloured verdict). Never give it anything that came from elsewhere.
 *
 * @param text - labelkit's words
 * @returns the text as fixed wording
 */
export function ownWords(text: string): OwnText {
  return new OwnText([text], []);
}

/**
 * A text from elsewhere in which some fixed phrases of labelkit are recognised as its own
 * wording, e.g. the sample model's refusal quoted back by `model check`.
 *
 * @param text - a text from elsewhere
 * @param phrases - labelkit's fixed phrases (constants, never built from input)
 * @returns the text with every whole occurrence of a phrase marked as own wording
 */
export function withOwnPhrases(text: string, phrases: readonly string[]): OwnText {
  const fixed: string[] = [''];
  const values: unknown[] = [];
  let rest = text;
  for (;;) {
    let at = -1;
    let phrase = '';
    for (const p of phrases) {
      const i = p === '' ? -1 : rest.indexOf(p);
      if (i !== -1 && (at === -1 || i < at)) [at, phrase] = [i, p];
    }
    if (at === -1) break;
    values.push(rest.slice(0, at));
    fixed.push(phrase);
    rest = rest.slice(at + phrase.length);
  }
  if (values.length === 0) return new OwnText(['', ''], [text]);
  values.push(rest);
  fixed.push('');
  return new OwnText(fixed, values);
}

/**
 * labelkit's wording around values it knows: every occurrence of one of `values` is a value from
 * elsewhere, the rest is labelkit's own wording. For a message that labelkit's own code wrote
 * about an input (a validation problem), given every value of that input.
 *
 * @param text - a message written by labelkit's code
 * @param values - every value the message may quote (and the parts it may quote of them)
 * @returns the message with those values marked as from elsewhere
 * @remarks Any occurrence of a value counts as the value, also one inside labelkit's words (a
 * value `secret` makes the word `secret` of the message a value too): the safe side.
 */
export function withForeignValues(text: string, values: ReadonlyArray<string | undefined>): OwnText {
  const known = values.filter((v): v is string => typeof v === 'string' && v !== '');
  const fixed: string[] = [''];
  const found: unknown[] = [];
  let rest = text;
  for (;;) {
    let at = -1;
    let value = '';
    for (const v of known) {
      const i = rest.indexOf(v);
      if (i !== -1 && (at === -1 || i < at || (i === at && v.length > value.length))) [at, value] = [i, v];
    }
    if (at === -1) break;
    fixed[fixed.length - 1] += rest.slice(0, at);
    found.push(value);
    fixed.push('');
    rest = rest.slice(at + value.length);
  }
  fixed[fixed.length - 1] += rest;
  return new OwnText(fixed, found);
}

interface Segment {
  text: string;
  own: boolean;
}

function segmentsOf(text: OwnText): Segment[] {
  const out: Segment[] = [];
  text.fixed.forEach((part, i) => {
    if (i > 0) {
      const value = text.values[i - 1];
      if (value instanceof OwnText) out.push(...segmentsOf(value));
      else out.push({ text: String(value), own: false });
    }
    out.push({ text: part, own: true });
  });
  return out;
}

/**
 * Replaces every known secret, in every form it takes on the wire, and every `Bearer …` or
 * `Basic …` credential, with {@link REDACTED}.
 *
 * @param text - a message, a response body excerpt, a line about to be printed; or an
 * {@link OwnText}, whose fixed wording is kept where a secret lies entirely inside it
 * @param secrets - the secret values known to the caller; short and empty ones are ignored
 * @returns the text with no secret left in it
 * @remarks Every occurrence of every form of every known secret is found in the text as given,
 * and so is every `Bearer …`/`Basic …` credential; the union of what they cover is replaced,
 * each run by one {@link REDACTED}. Nothing is replaced before the rest is looked for, so no
 * pattern can cut a known token and leave its tail (`Bearer ***:abcdef`).
 * @example
 * ```ts
 * redact('bad key "a\\"b&c"', ['a"b&c']); // 'bad key "***"'
 * ```
 */
export function redact(text: string | OwnText, secrets: Secrets = []): string {
  if (typeof text !== 'string') return text.redacted(secrets);
  const forms = allForms(secrets);
  return mayHoldSecret(text, forms) ? redactText(text, forms) : text;
}

/** Whether a text holds a form of a known secret or the start of a credential: else {@link redactText} would leave it as it is. */
function mayHoldSecret(text: string, forms: readonly string[]): boolean {
  return forms.some((f) => text.includes(f)) || /\b(?:Bearer|Basic)(?:\s|%20|\+)/i.test(text);
}

/**
 * Replaces, in `full`, every form of a secret and every credential that touches a character from
 * elsewhere (every character, without `foreign`).
 *
 * @param full - the text
 * @param forms - every form of every known secret ({@link allForms})
 * @param foreign - for an own text: `foreign[i]`, how many of the first `i` characters came from elsewhere
 * @returns the redacted text
 */
function redactText(full: string, forms: readonly string[], foreign?: Uint32Array): string {
  let cut: Uint8Array | undefined;
  const mark = (from: number, to: number) => {
    if (to <= from || (foreign && foreign[to] === foreign[from])) return;
    (cut ??= new Uint8Array(full.length)).fill(1, from, to);
  };
  for (const form of forms) for (let i = full.indexOf(form); i !== -1; i = full.indexOf(form, i + 1)) mark(i, i + form.length);
  CREDENTIAL.lastIndex = 0;
  for (let m = CREDENTIAL.exec(full); m; m = CREDENTIAL.exec(full)) mark(m.index + m[1]!.length + m[2]!.length, m.index + m[0].length);
  if (!cut) return full;
  let out = '';
  let from = 0;
  for (let i = 0; i < full.length; i++) {
    if (cut[i] && (i === 0 || !cut[i - 1])) out += full.slice(from, i) + REDACTED;
    if (!cut[i]) continue;
    from = i + 1;
  }
  return out + full.slice(from);
}

/**
 * Redacts, then cuts a text to at most `max` characters, then redacts any fragment of a known
 * secret (8 characters or more) left at either edge of the cut.
 *
 * @param text - a long text, such as a model's error body
 * @param max - the most characters to keep (an ellipsis marks the cut)
 * @param secrets - the secret values known to the caller
 * @returns a redacted excerpt of at most `max` characters plus the ellipsis
 * @remarks Cutting first would leak the first part of a secret that straddles the cut.
 */
export function redactAndCut(text: string, max: number, secrets: Secrets = []): string {
  const clean = redact(text, secrets);
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max);
  for (const form of allForms(secrets)) {
    for (let n = Math.min(form.length - 1, cut.length); n >= MIN_FRAGMENT_LENGTH; n--) {
      if (cut.endsWith(form.slice(0, n))) {
        cut = cut.slice(0, cut.length - n) + REDACTED;
        break;
      }
    }
  }
  return `${cut}…`;
}

/**
 * The secrets a value holds under secret-like keys (see {@link isSecretKeyName}), at any depth:
 * strings as they are, other values as their JSON text.
 *
 * @param value - request variables, a parsed body, headers as an object
 * @returns the secret texts found
 */
export function secretsIn(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, depth: number, underSecret: boolean): void => {
    if (depth > 20 || v === null || v === undefined) return;
    if (typeof v !== 'object') {
      if (underSecret) found.add(String(v));
      return;
    }
    if (underSecret) found.add(JSON.stringify(v));
    for (const [k, inner] of Object.entries(v)) walk(inner, depth + 1, underSecret || isSecretKeyName(k));
  };
  walk(value, 0, false);
  return [...found].filter((s) => s.length >= MIN_SECRET_LENGTH);
}

/**
 * A deep copy of a value with every value under a secret-like key replaced by
 * {@link REDACTED}, whatever its type, and every string redacted with {@link redact}.
 *
 * @param value - a JSON-like value (errors' extensions, a body to log)
 * @param secrets - further known secret values
 * @returns the redacted copy
 */
export function redactValue<T>(value: T, secrets: Secrets = []): T {
  const known = [...secrets];
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redact(v, known);
    if (depth > 20 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[k] = isSecretKeyName(k) ? REDACTED : walk(inner, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
