import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import { resetConfigCache } from '@/server/platform/config';
import { BuiltinModerator, allPatterns, classify, normaliseVariants, type BuiltinCategory } from './builtin';
import { moderateInstruction, moderator, type Moderator } from './moderation';
import { OpenAIModerator, parseModerationAnswer } from './openai';

/** Runs `fn` and returns the ApiError it throws (fails the test otherwise). */
async function apiError(fn: () => Promise<unknown>): Promise<ApiError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return toHttpError(error as DomainError);
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

const savedEnv = { ...process.env };
beforeAll(() => {
  process.env.LOG_LEVEL = 'silent';
});
afterEach(() => {
  for (const name of ['MODERATION_PROVIDER', 'MODERATION_URL', 'MODERATION_API_KEY', 'MODERATION_MODEL']) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  resetConfigCache();
});
afterAll(() => {
  if (savedEnv.LOG_LEVEL === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = savedEnv.LOG_LEVEL;
});

describe('builtin moderator', () => {
  const flagged: Array<[string, BuiltinCategory]> = [
    ['add a naked woman on the bed', 'sexual'],
    ['blood splattered on the walls', 'violence/graphic'],
    ['corpse on the floor', 'violence/graphic'],
    ['put a porn poster above the desk', 'sexual'],
    ['two people having sex on the sofa', 'sexual'],
    ['a woman lying naked on the rug', 'sexual'],
    // obfuscated
    ['add a n.u.d.e woman on the sofa', 'sexual'],
    ['add a n u d e man in the shower', 'sexual'],
    ['p0rn magazines on the coffee table', 'sexual'],
    ['a s3xy n4k3d g1rl in the bath', 'sexual'],
    ['ＮＡＫＥＤ woman by the window', 'sexual'],
    ['nаked wоman by the window', 'sexual'], // Cyrillic а and о
    ['nuuuude woman on the bed', 'sexual'],
    ['a nüde wömän on the bed', 'sexual'],
    ['nu\u200bde woman on the bed', 'sexual'], // zero-width space
    ['b100d everywhere on the floor', 'violence/graphic'],
    ['a c0rps3 under the table', 'violence/graphic'],
    // multilingual
    ['une femme nue sur le lit', 'sexual'],
    ['eine nackte Frau auf dem Sofa', 'sexual'],
    ['una mujer desnuda en la cama', 'sexual'],
    ['una donna nuda sul letto', 'sexual'],
    ['un cadavre sur le sol', 'violence/graphic'],
    ['eine Leiche auf dem Boden', 'violence/graphic'],
    ['un cadáver en el suelo', 'violence/graphic'],
    ['un cadavere sul pavimento', 'violence/graphic'],
    ['sangre salpicada en las paredes', 'violence/graphic'],
    ['du sang éclaboussé partout sur les murs', 'violence/graphic'],
    ['Blut überall an den Wänden', 'violence/graphic'],
    ['a decapitated head on the kitchen island', 'violence/graphic'],
    ['a dead body in the bathtub', 'violence/graphic'],
    // minors
    ['a naked child in the bathtub', 'sexual/minors'],
    ['bambini nudi nel soggiorno', 'sexual/minors'],
    ['a teen girl in sexy lingerie on the bed', 'sexual/minors'],
    // hate, self-harm, weapons, drugs
    ['a swastika flag on the wall', 'hate'],
    ['write n1gg3r on the wall', 'hate'],
    ['a noose hanging from the ceiling beam', 'self-harm'],
    ['a suicide note on the desk', 'self-harm'],
    ['un suicidio en el baño', 'self-harm'],
    ['a workbench with instructions to build a pipe bomb', 'illicit/weapons'],
    ['show how to make a bomb in the garage', 'illicit/weapons'],
    ['a 3D-printed gun on the workbench', 'illicit/weapons'],
    ['turn the kitchen into a meth lab', 'illicit/drugs'],
    ['someone cooking crystal meth on the stove', 'illicit/drugs'],
    ['growing cannabis in the spare bedroom', 'illicit/drugs'],
  ];

  const clean: string[] = [
    "turn this into a therapist's office",
    'a Scunthorpe-style cottage kitchen',
    'add a bowl of grapes on the counter',
    'a grape-coloured velvet armchair',
    'replace the coffee table with a marble cocktail table',
    'add a shooting star lamp on the nightstand',
    'put a knife block next to the stove',
    'hang an oil painting of a battle above the fireplace',
    'paint the walls in nude tones',
    "a girl's bedroom with nude curtains",
    'a naked bulb pendant over the dining table',
    'blood orange cushions on the grey sofa',
    'kids bedroom with a bunk bed and pastel walls',
    'add a bath bomb jar on the bathroom shelf',
    'make the cabinets gun-metal grey',
    'a glue gun on the craft table and a nail gun on the workbench',
    'unisex bathroom in a Sussex farmhouse',
    'add a sextant on the bookshelf',
    'a rapeseed field visible through the window',
    'a violet armchair next to a dead plant',
    'add 2 armchairs, 1 floor lamp and a 4k TV',
    'fix the crack in the wall and make it smooth',
    // multilingual
    'peindre les murs en blanc cassé, un mur nu en béton brut',
    'peindre la chambre à la bombe, couleur rouge sang',
    'eine nackte Betonwand im Loft und ein Kinderzimmer mit Hochbett',
    'un sofá negro y cojines rojo sangre',
    'instalar una bomba de calor en el salón',
    'camera dei bambini con pareti nude e una natura morta',
    'una cucina moderna con isola in marmo',
    'Salon avec des rideaux nude et un canapé en lin',
  ];

  it.each(flagged)('flags %j as %s', (text, category) => {
    expect(classify(text)).toContain(category);
  });

  it.each(clean)('passes %j', (text) => {
    expect(classify(text)).toEqual([]);
  });

  it('has at least 15 cases each way, in several languages', () => {
    expect(flagged.length).toBeGreaterThanOrEqual(15);
    expect(clean.length).toBeGreaterThanOrEqual(15);
  });

  it('normalises case, width, diacritics, homoglyphs, leetspeak, separators and stretching', () => {
    expect(normaliseVariants('Ｎ.Ü.D.Ë')).toContain('nude');
    expect(normaliseVariants('n4k3d')).toContain('naked');
    expect(normaliseVariants('k1ll')).toContain('kill');
    expect(normaliseVariants('b1ood')).toContain('blood');
    expect(normaliseVariants('$ex')).toContain('sex');
    expect(normaliseVariants('nuuuude')).toContain('nude');
    expect(normaliseVariants('self-harm')).toEqual(expect.arrayContaining(['selfharm', 'self harm']));
    // numbers that are not inside a word stay numbers
    expect(normaliseVariants('5 chairs for $500')).toContain('5 chairs for 500');
  });

  it('writes every pattern in normalised form', () => {
    for (const p of allPatterns()) expect(p).toMatch(/^[a-z0-9 *?()|[\]]+$/);
  });

  it('answers through the Moderator interface', async () => {
    const m = new BuiltinModerator();
    await expect(m.check('corpse on the floor')).resolves.toEqual({
      flagged: true,
      categories: ['violence/graphic'],
    });
    await expect(m.check('a linen sofa')).resolves.toEqual({ flagged: false, categories: [] });
  });

  it('is the default provider: moderateInstruction refuses with 422 and passes clean text', async () => {
    delete process.env.MODERATION_PROVIDER;
    resetConfigCache(); // the moderator's settings come through config()
    expect(moderator()).toBeInstanceOf(BuiltinModerator);
    const error = await apiError(() => moderateInstruction('add a naked woman on the bed'));
    expect(error.status).toBe(422);
    expect(error.code).toBe('content_policy_violation');
    expect(error.param).toBe('prompt');
    expect(error.message).toMatch(/refused by moderation/i);
    await expect(moderateInstruction('paint the walls sage green')).resolves.toBeUndefined();
  });
});

describe('moderateInstruction with any moderator', () => {
  it('answers 503 with retry-after 30 when the moderator throws', async () => {
    const failing: Moderator = { check: () => Promise.reject(new Error('boom')) };
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: failing }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('service_unavailable');
    expect(error.headers).toEqual({ 'retry-after': '30' });
  });

  it('answers 503 within the time budget when the moderator never answers', async () => {
    let aborted = false;
    const hanging: Moderator = {
      check: (_text, signal) =>
        new Promise(() => {
          signal?.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    };
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: hanging, timeoutMs: 200 }));
    expect(error.status).toBe(503);
    expect(aborted).toBe(true);
  });

  it('answers 503 when the moderator returns a malformed result', async () => {
    const odd = { check: () => Promise.resolve({ flagged: 'no' }) } as unknown as Moderator;
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: odd }));
    expect(error.status).toBe(503);
  });
});

describe('OpenAI-protocol moderator against a local server', () => {
  type Behaviour = 'flagged' | 'clean' | 500 | 503 | 401 | 'hang' | 'malformed-json' | 'wrong-shape';
  let behaviour: Behaviour = 'clean';
  let last: { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown } | null = null;
  let server: http.Server;
  let url = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        last = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: JSON.parse(text) };
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        const result = (isFlagged: boolean) => ({
          id: 'modr-1',
          model: 'omni-moderation-latest',
          results: [
            {
              flagged: isFlagged,
              categories: { sexual: isFlagged, 'sexual/minors': false, violence: false },
              category_scores: { sexual: isFlagged ? 0.98 : 0.01, 'sexual/minors': 0, violence: 0 },
            },
          ],
        });
        switch (behaviour) {
          case 'flagged':
            return json(200, result(true));
          case 'clean':
            return json(200, result(false));
          case 500:
          case 503:
          case 401:
            return json(behaviour, { error: { message: 'nope' } });
          case 'hang':
            return; // never answers
          case 'malformed-json':
            res.writeHead(200, { 'content-type': 'application/json' });
            return res.end('{"results": [');
          case 'wrong-shape':
            return json(200, { results: [{ flagged: 'yes' }] });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/moderations`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // The production timeout (10 s) unless a case waits for it: a cold first request on a loaded
  // machine (test files run three at a time) can take most of a second.
  const httpModerator = (timeoutMs = 10_000) => new OpenAIModerator({ url, apiKey: 'sk-test-key', model: 'omni-test', timeoutMs });

  it('refuses a flagged instruction with 422 and sends the bearer key and the model', async () => {
    behaviour = 'flagged';
    const error = await apiError(() => moderateInstruction('something bad', { moderator: httpModerator() }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('content_policy_violation');
    expect(last?.method).toBe('POST');
    expect(last?.path).toBe('/v1/moderations');
    expect(last?.headers.authorization).toBe('Bearer sk-test-key');
    expect(last?.headers['content-type']).toMatch(/^application\/json/);
    expect(last?.body).toEqual({ model: 'omni-test', input: 'something bad' });
  });

  it('reports the true categories', async () => {
    behaviour = 'flagged';
    await expect(httpModerator().check('x')).resolves.toEqual({ flagged: true, categories: ['sexual'] });
  });

  it('passes an instruction that is not flagged', async () => {
    behaviour = 'clean';
    await expect(moderateInstruction('a linen sofa', { moderator: httpModerator() })).resolves.toBeUndefined();
  });

  it.each([500, 503, 401] as const)('answers 503 with retry-after 30 when the server answers %i', async (status) => {
    behaviour = status;
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: httpModerator() }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('service_unavailable');
    expect(error.headers['retry-after']).toBe('30');
  });

  it('answers 503 within the timeout when the server hangs', async () => {
    behaviour = 'hang';
    const started = Date.now();
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: httpModerator(300) }));
    const elapsed = Date.now() - started;
    expect(error.status).toBe(503);
    expect(error.headers['retry-after']).toBe('30');
    // It waited for its timeout rather than giving up at once (upper bounds are for bench/).
    expect(elapsed).toBeGreaterThanOrEqual(250);
  });

  it.each(['malformed-json', 'wrong-shape'] as const)('answers 503 on a %s answer', async (kind) => {
    behaviour = kind;
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: httpModerator() }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('service_unavailable');
  });

  it('answers 503 when nothing listens', async () => {
    const closed = new OpenAIModerator({ url: 'http://127.0.0.1:1/v1/moderations', apiKey: 'k', timeoutMs: 300 });
    const error = await apiError(() => moderateInstruction('a sofa', { moderator: closed }));
    expect(error.status).toBe(503);
  });

  it('is chosen by MODERATION_PROVIDER=openai with MODERATION_URL, _API_KEY and _MODEL', async () => {
    process.env.MODERATION_PROVIDER = 'openai';
    process.env.MODERATION_URL = url;
    process.env.MODERATION_API_KEY = 'sk-from-env';
    process.env.MODERATION_MODEL = 'model-from-env';
    resetConfigCache(); // the moderator's settings come through config()
    behaviour = 'flagged';
    const error = await apiError(() => moderateInstruction('from env'));
    expect(error.code).toBe('content_policy_violation');
    expect(last?.headers.authorization).toBe('Bearer sk-from-env');
    expect(last?.body).toEqual({ model: 'model-from-env', input: 'from env' });
  });
});

describe('configuration', () => {
  it('defaults the OpenAI URL and model, and needs a key for api.openai.com', () => {
    const m = new OpenAIModerator({ apiKey: 'k' });
    expect(m.url).toBe('https://api.openai.com/v1/moderations');
    expect(m.model).toBe('omni-moderation-latest');
    expect(() => moderator({ MODERATION_PROVIDER: 'openai' })).toThrow(/MODERATION_API_KEY/);
  });

  it('rejects an unknown provider and a bad URL clearly', () => {
    expect(() => moderator({ MODERATION_PROVIDER: 'magic' })).toThrow(/builtin.*openai/);
    expect(() => moderator({ MODERATION_PROVIDER: 'openai', MODERATION_URL: 'not a url' })).toThrow(/MODERATION_URL/);
  });

  it('validates the documented answer shape', () => {
    expect(parseModerationAnswer({ results: [{ flagged: false, categories: {} }] })).toEqual({
      flagged: false,
      categories: [],
    });
    expect(() => parseModerationAnswer({ results: [] })).toThrow();
    expect(() => parseModerationAnswer({ results: [{ flagged: true }] })).toThrow();
    expect(() => parseModerationAnswer(null)).toThrow();
  });
});
