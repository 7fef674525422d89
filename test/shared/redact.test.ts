import { describe, expect, it } from 'vitest';
import { isSecretKeyName, own, ownWords, redact, redactAndCut, redactValue, REDACTED, redactUrl, secretForms, secretsIn, urlSecrets, withForeignValues, withOwnPhrases } from '../../src/shared/redact.js';

// A sentinel with every character that encoders change: quote, backslash, &, +, %, space, non-ASCII.
const SECRET = 'sk-"q\\u&p+c%20 é☃-SENTINEL';

function basic(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}

describe('redact', () => {
  it.each([
    ['raw', SECRET],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1)],
    ['JSON-escaped twice', JSON.stringify(JSON.stringify(SECRET)).slice(1, -1)],
    ['JSON-escaped, ASCII only', JSON.stringify(SECRET).slice(1, -1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
    ['URI component', encodeURIComponent(SECRET)],
    ['form-encoded', new URLSearchParams({ client_secret: SECRET }).toString()],
  ])('removes the %s form of a secret', (_name, form) => {
    const out = redact(`before ${form} after`, [SECRET]);
    expect(out).not.toContain('SENTINEL');
    expect(out).toContain(REDACTED);
  });

  it.each([0, 1, 2, 3, 4])('removes a secret inside base64 at byte offset %i (Basic auth)', (offset) => {
    const encoded = basic('x'.repeat(offset), SECRET);
    const out = redact(`header ${encoded} end`, [SECRET]);
    expect(out).not.toContain(encoded);
    // What is left of the base64 no longer decodes to the secret.
    expect(Buffer.from(out, 'base64').toString('utf8')).not.toContain('SENTINEL');
  });

  it('replaces any Bearer or Basic credential, known or not', () => {
    expect(redact('Authorization: Bearer abc.def-ghi_123')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redact('authorization: basic dXNlcjpwYXNz')).toBe(`authorization: basic ${REDACTED}`);
  });

  it('replaces a known token whole before the credential pattern can cut it at a : " & or space', () => {
    for (const token of ['key-7f:abcdefTAIL', 'key-7f"abcdefTAIL', 'key-7f&abcdefTAIL', 'key-7f abcdefTAIL']) {
      expect(redact(`auth=Bearer ${token}`, [token])).toBe(`auth=Bearer ${REDACTED}`);
      expect(redact(JSON.stringify({ auth: `Bearer ${token}` }), [token])).toBe(`{"auth":"Bearer ${REDACTED}"}`);
    }
  });

  it('replaces an unknown credential up to a space, quote or bracket, : & / + = % included', () => {
    expect(redact('auth=Bearer key-7f:ab&c/d+e=f%25gTAIL done')).toBe(`auth=Bearer ${REDACTED} done`);
    expect(redact('{"auth":"Bearer key-7f:abTAIL"}')).toBe(`{"auth":"Bearer ${REDACTED}"}`);
    expect(redact('(Bearer key-7f:abTAIL)')).toBe(`(Bearer ${REDACTED})`);
  });

  it('ignores secrets shorter than four characters and leaves other text alone', () => {
    expect(redact('abc def', ['abc', '', undefined, null])).toBe('abc def');
    expect(secretForms('abc')).toEqual([]);
  });
});

describe('redactAndCut', () => {
  it('redacts before cutting, so a secret straddling the cut leaks no part', () => {
    const text = `${'x'.repeat(190)}${SECRET}${'y'.repeat(100)}`;
    const out = redactAndCut(text, 200, [SECRET]);
    expect(out).not.toContain(SECRET.slice(0, 8));
    expect(out.length).toBeLessThanOrEqual(201);
  });

  it('redacts a fragment of 8 or more characters of a secret left at the end of the cut', () => {
    // The full secret is not in the text (so redact() alone finds nothing), only its start is cut.
    const secret = 'ABCDEFGHIJKLMNOP';
    const text = `${'x'.repeat(190)}ABCDEFGHIJ and more text after it`;
    const out = redactAndCut(text, 200, [secret]);
    expect(out).not.toContain('ABCDEFGH');
    expect(out.endsWith(`${REDACTED}…`)).toBe(true);
  });

  it('keeps a short text whole', () => {
    expect(redactAndCut('short', 200, [SECRET])).toBe('short');
  });
});

describe('secretsIn and redactValue', () => {
  it('finds values under secret-like keys of any spelling and type', () => {
    const found = secretsIn({ input: { targetAPI: { secretkey: { nested: 'abcdefgh' }, SECRET_KEY: 12345678 }, client_secret: 'cs-value' } });
    expect(found).toEqual(expect.arrayContaining(['{"nested":"abcdefgh"}', '12345678', 'cs-value', 'abcdefgh']));
  });

  it('replaces every value under a secret-like key and redacts strings', () => {
    const out = redactValue({ token: 5, a: [`see ${SECRET}`], b: { clientSecret: { x: 1 } } }, [SECRET]);
    expect(out).toEqual({ token: REDACTED, a: [`see ${REDACTED}`], b: { clientSecret: REDACTED } });
  });

  it.each(['secretKey', 'secretkey', 'client_secret', 'clientSecret', 'access_token', 'Authorization', 'x-api-key'])(
    'treats %s as a secret key name',
    (key) => expect(isSecretKeyName(key)).toBe(true),
  );

  it.each(['endpoint', 'projectId', 'tagName', 'labelerEmail'])('does not treat %s as a secret key name', (key) =>
    expect(isSecretKeyName(key)).toBe(false),
  );
});

describe('own wording', () => {
  it('keeps a secret found entirely inside labelkit’s fixed words, and redacts it wherever it touches a value', () => {
    expect(redact(own`wrong secret: answered ${200}`, ['secret'])).toBe('wrong secret: answered 200');
    expect(redact(own`the model said: ${'bad secret'}`, ['secret'])).toBe(`the model said: bad ${REDACTED}`);
    // An occurrence that straddles fixed words and a value is a leak: all of it goes.
    expect(redact(own`key secr${'et-tail'}`, ['secret-tail'])).toBe(`key ${REDACTED}`);
    expect(redact(own`outer ${own`inner secret ${'secret'}`}`, ['secret'])).toBe(`outer inner secret ${REDACTED}`);
    expect(redact(ownWords('send Authorization: Bearer <secretKey>'), ['secret'])).toBe('send Authorization: Bearer <secretKey>');
    expect(String(own`a ${1} b`)).toBe('a 1 b');
  });

  it('still replaces an unknown credential in a value next to fixed words', () => {
    expect(redact(own`auth=Bearer ${'key-7f:abc'}`)).toBe(`auth=Bearer ${REDACTED}`);
  });

  it('marks the values an own message quotes as from elsewhere, and errs on the safe side when a value is also one of its words', () => {
    expect(redact(withForeignValues('the secret key of x://secret must not be secret', ['x://secret']), ['secret'])).toBe(`the secret key of x://${REDACTED} must not be secret`);
    const text = withForeignValues('the secret key of secret://x must not be secret', ['secret://x', 'secret', undefined, '']);
    expect(redact(text, ['secret'])).toBe(`the ${REDACTED} key of ${REDACTED}://x must not be ${REDACTED}`);
    expect(String(text)).toBe('the secret key of secret://x must not be secret');
  });

  it('recognises labelkit’s fixed phrases inside a text from elsewhere, and only those', () => {
    const phrase = 'missing or wrong secret: send Authorization: Bearer <secretKey>';
    expect(redact(withOwnPhrases(`${phrase} (got secret) ${phrase}`, [phrase]), ['secret'])).toBe(`${phrase} (got ${REDACTED}) ${phrase}`);
    expect(redact(withOwnPhrases('no phrase, secret', [phrase]), ['secret'])).toBe(`no phrase, ${REDACTED}`);
  });
});

describe('URL secrets', () => {
  it('finds the user password and every secret-like query value, decoded, and prints the URL without them', () => {
    const url = 'postgres://u:p%40ss-SENTINEL@db:5432/x?sslmode=require&password=q%26-SENTINEL&sslpassword=k-SENTINEL&access_token=t-SENTINEL';
    expect(urlSecrets(url)).toEqual(['p@ss-SENTINEL', 'p%40ss-SENTINEL', 'q&-SENTINEL', 'q%26-SENTINEL', 'k-SENTINEL', 't-SENTINEL']);
    expect(redactUrl(url)).toBe('postgres://u:***@db:5432/x?sslmode=require&password=***&sslpassword=***&access_token=***');
    expect(redactUrl('postgres://u@db/x?sslmode=require')).toBe('postgres://u@db/x?sslmode=require');
    expect(urlSecrets('not a url')).toEqual([]);
    // A URL that does not parse (port out of range) is still cut into its parts.
    const broken = 'postgres://u:p@w-SENTINEL@db:99999/x?sslmode=require&password=q-SENTINEL#f';
    expect(urlSecrets(broken)).toEqual(['p@w-SENTINEL', 'q-SENTINEL']);
    expect(redactUrl(broken)).toBe('postgres://u:***@db:99999/x?sslmode=require&password=***#f');
    expect(redactUrl('postgres://u:ab@db:99999/x')).toBe('postgres://u:***@db:99999/x');
  });
});
