/**
 * Hostile-string matrix: every string input of every mutation (found by introspection, nested
 * input fields and list items included) receives each hostile string — NUL, lone surrogates, a
 * right-to-left override, 1 MB, emoji, surrounding spaces — in otherwise valid arguments. Each
 * call must answer a ValidationError naming that input, or succeed with the value read back
 * identical, or (for lookups such as login) the failure the table names — never INTERNAL. A
 * mutation with string inputs missing from the table fails the suite, so new mutations cannot
 * skip the matrix. Queries (lookups) get NUL and a lone surrogate in each string or ID argument
 * and must not answer INTERNAL either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '@airwave/server/testing/databases';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream } from './support/accounts.js';
import { createSigningKey } from './support/playback-access.js';
import { seedRecording } from './support/recordings.js';
import {
  introspect,
  named,
  printRef,
  type SchemaField,
  type SchemaType,
  type TypeRef,
} from './support/schema-introspection.js';

/** The hostile strings, by what they test. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['NUL', 'before\u0000after'],
  ['lone high surrogate', 'before\ud800after'],
  ['lone low surrogate', 'before\udc00after'],
  ['right-to-left override', 'abc\u202edef'],
  ['1 MB', 'x'.repeat(1_000_000)],
  ['emoji', '🎥 live 🔴✨👩🏽‍💻'],
  ['leading and trailing spaces', '  padded  '],
];

/** The caller's records the arguments refer to. */
interface Fixture {
  readonly token: string;
  readonly email: string;
  readonly password: string;
  readonly streamId: string;
  /** A PULL stream (its pull source can be updated). */
  readonly pullStreamId: string;
  readonly playbackId: string;
  readonly kid: string;
  /** A push target of streamId. */
  readonly pushTargetId: string;
}

/** How a string input is read back after a successful call. */
type ReadBack =
  /** A field path in the success member (`user.email`); lists compare as the one-item list sent. */
  | string
  /** A check of its own, e.g. logging in with a password; answers what is wrong, or undefined. */
  | {
      readonly verify: (
        server: TestServer,
        args: Record<string, unknown>,
        value: string,
      ) => Promise<string | undefined>;
    }
  /** Nothing shows it; says why. */
  | { readonly unreadable: string };

/** How one mutation is called with one string input replaced. */
interface Entry {
  /** Whether the caller is signed in (the fixture's session) or anonymous (register, login). */
  readonly signedIn: boolean;
  /** Valid arguments; `path` is the string input about to be replaced, `n` a per-call counter. */
  args(fixture: Fixture, path: string, n: number): Record<string, unknown>;
  /** For each string input path (`input.name`, list items as `input.kids[]`), how it reads back. */
  readonly readBack: Readonly<Record<string, ReadBack>>;
  /** Union members besides ValidationError and success that are right answers (lookups). */
  readonly alsoAccept?: readonly string[];
}

const PULL_SOURCE = { sourceUri: 'rtsp://127.0.0.1:8554/camera', enabled: false };
const PUSH_URI = 'rtmp://1.1.1.1/app/stream-key';
const WEBHOOK = { url: 'http://127.0.0.1:9/playback-hook', secret: 'a webhook secret of 32 characters' };

const logsIn = async (server: TestServer, args: Record<string, unknown>, password: string) => {
  const email = (args.input as { email: string }).email;
  const login = await server.graphql<{ login: { __typename: string } }>(
    'mutation ($input: LoginInput!) { login(input: $input) { __typename } }',
    { input: { email, password } },
  );
  return login.data?.login.__typename === 'AuthPayload' ? undefined : `login → ${JSON.stringify(login)}`;
};

const LOOKUP = 'a lookup: nothing is stored, and a value matching no record fails as the union says';

/** Every mutation with string inputs, keyed `Mutation.field`. */
const TABLE: Readonly<Record<string, Entry>> = {
  'Mutation.register': {
    signedIn: false,
    args: (_f, _p, n) => ({ input: { email: `hostile-${n}@example.com`, password: 'a long password', name: 'Name' } }),
    readBack: { 'input.email': 'user.email', 'input.password': { verify: logsIn }, 'input.name': 'user.name' },
  },
  'Mutation.login': {
    signedIn: false,
    args: (f) => ({ input: { email: f.email, password: f.password } }),
    readBack: { 'input.email': { unreadable: LOOKUP }, 'input.password': { unreadable: LOOKUP } },
    alsoAccept: ['AuthError', 'RateLimitError'],
  },
  'Mutation.createDeveloperToken': {
    signedIn: true,
    args: () => ({ input: { name: 'ci', permissions: 'streams:read' } }),
    readBack: { 'input.name': 'tokenName', 'input.permissions': 'permissions' },
  },
  'Mutation.createStream': {
    signedIn: true,
    args: (_f, path) => ({
      input: {
        name: 'Show',
        description: 'About',
        sourceLocation: 'Studio',
        ...(path.startsWith('input.pullSource.') ? { ingestMode: 'PULL', pullSource: PULL_SOURCE } : {}),
      },
    }),
    readBack: {
      'input.name': 'name',
      'input.description': 'description',
      'input.sourceLocation': 'sourceLocation',
      'input.pullSource.sourceUri': 'pullSource.sourceUriRedacted',
    },
  },
  'Mutation.updateStream': {
    signedIn: true,
    args: (f, path) => ({
      id: path.startsWith('input.pullSource.') ? f.pullStreamId : f.streamId,
      input: {
        name: 'Show',
        description: 'About',
        sourceLocation: 'Studio',
        ...(path.startsWith('input.pullSource.') ? { pullSource: PULL_SOURCE } : {}),
      },
    }),
    readBack: {
      'input.name': 'name',
      'input.description': 'description',
      'input.sourceLocation': 'sourceLocation',
      'input.pullSource.sourceUri': 'pullSource.sourceUriRedacted',
    },
  },
  'Mutation.createStreamKey': {
    signedIn: true,
    args: (f) => ({ streamId: f.streamId, input: { name: 'backup' } }),
    readBack: { 'input.name': 'keyName' },
  },
  'Mutation.createSigningKey': {
    signedIn: true,
    args: () => ({ input: { name: 'key' } }),
    readBack: { 'input.name': 'signingKey.name' },
  },
  'Mutation.setPlaybackPolicy': {
    signedIn: true,
    args: (f, path) => ({
      input: {
        streamId: f.streamId,
        policy: path.includes('.webhook.')
          ? { type: 'WEBHOOK', webhook: WEBHOOK }
          : { type: 'JWT', jwt: { allowedKids: [f.kid] } },
      },
    }),
    readBack: {
      'input.policy.jwt.allowedKids[]': 'playbackPolicy.jwt.allowedKids',
      'input.policy.webhook.url': 'playbackPolicy.webhook.url',
      'input.policy.webhook.secret': { unreadable: 'a write-only HMAC key: the API shows it masked only' },
    },
  },
  'Mutation.setStreamSrtPassphrase': {
    signedIn: true,
    args: (f) => ({ streamId: f.streamId, passphrase: 'an SRT passphrase' }),
    readBack: { passphrase: { unreadable: 'a write-only SRT passphrase: the API shows only passphraseSet' } },
  },
  'Mutation.createPushTarget': {
    signedIn: true,
    args: (f) => ({ streamId: f.streamId, input: { platform: 'custom', name: 'Restream', targetUri: PUSH_URI } }),
    readBack: {
      'input.platform': 'platform',
      'input.name': 'name',
      'input.targetUri': { unreadable: 'holds a stream key: read back masked only' },
    },
  },
  'Mutation.updatePushTarget': {
    signedIn: true,
    args: (f) => ({ id: f.pushTargetId, input: { name: 'Restream', targetUri: PUSH_URI } }),
    readBack: {
      'input.name': 'name',
      'input.targetUri': { unreadable: 'holds a stream key: read back masked only' },
    },
  },
  'Mutation.createClip': {
    signedIn: true,
    args: (f) => ({
      input: { streamId: f.streamId, title: 'Clip', description: 'About', mode: 'CLIP_NOW', duration: 2 },
    }),
    readBack: { 'input.title': 'title', 'input.description': 'description' },
  },
  'Mutation.testPlaybackAccess': {
    signedIn: true,
    args: (f) => ({
      input: { playbackId: f.playbackId, token: 'a.b.c', viewerIp: '203.0.113.7', requestUrl: 'https://example.com/v' },
    }),
    readBack: {
      'input.playbackId': { unreadable: LOOKUP },
      'input.token': { unreadable: 'a dry run: the decision does not echo the token it checked' },
      'input.viewerIp': { unreadable: 'a dry run: the decision does not echo the viewer address' },
      'input.requestUrl': { unreadable: 'a dry run: the decision does not echo the request URL' },
      'input.connector': { unreadable: 'a dry run: only the webhook sees the connector' },
      'input.sessionId': { unreadable: 'a dry run: only the webhook sees the session id' },
    },
    alsoAccept: ['NotFoundError'],
  },
  'Mutation.createVodUpload': {
    signedIn: true,
    args: () => ({
      input: { filename: 'clip.mp4', sizeBytes: 1000, contentType: 'video/mp4', title: 'Title', description: 'About' },
    }),
    readBack: {
      'input.filename': 'asset.filename',
      'input.contentType': 'asset.contentType',
      'input.title': 'asset.title',
      'input.description': 'asset.description',
    },
  },
  'Mutation.completeVodUpload': {
    signedIn: true,
    args: () => ({ input: { uploadId: 'no-such-upload', parts: [{ partNumber: 1, etag: '"etag"' }] } }),
    readBack: { 'input.parts[].etag': { unreadable: "an ETag is compared with the store's, never stored" } },
    alsoAccept: ['NotFoundError'],
  },
};

/** The schema's types, and the string inputs of a field. */
class StringInputs {
  constructor(private readonly types: ReadonlyMap<string, SchemaType>) {}

  /** Paths of every String input below `args` (`input.name`; list items `input.kids[]`). */
  paths(args: readonly { name: string; type: TypeRef }[], prefix = '', seen = new Set<string>()): string[] {
    return args.flatMap((arg) => {
      const path = `${prefix}${arg.name}${isList(arg.type) ? '[]' : ''}`;
      const name = named(arg.type);
      if (name === 'String') {
        return [path];
      }
      const type = this.types.get(name);
      if (type?.kind !== 'INPUT_OBJECT' || seen.has(name)) {
        return [];
      }
      return this.paths(type.inputFields ?? [], `${path}.`, new Set([...seen, name]));
    });
  }

  /** The object members of a result union that are not Error members (the success types). */
  successTypes(ref: TypeRef): string[] {
    const type = this.types.get(named(ref));
    const members = type?.kind === 'UNION' ? (type.possibleTypes ?? []).map((member) => member.name) : [];
    return members.filter((name) => !(this.types.get(name)?.interfaces ?? []).some((i) => i.name === 'Error'));
  }
}

function isList(ref: TypeRef): boolean {
  return ref.kind === 'LIST' || (ref.kind === 'NON_NULL' && ref.ofType?.kind === 'LIST');
}

/** `args` with the input at `path` replaced by `value` (a one-item list for `[]` paths). */
function withValue(args: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(args);
  const steps = path.split('.');
  let node = copy;
  for (const step of steps.slice(0, -1)) {
    const key = step.replace(/\[\]$/, '');
    node[key] = (node[key] as Record<string, unknown> | undefined) ?? {};
    node = node[key] as Record<string, unknown>;
  }
  const last = steps.at(-1) ?? '';
  node[last.replace(/\[\]$/, '')] = last.endsWith('[]') ? [value] : value;
  return copy;
}

/** A selection of `path` (`user.email` → `user { email }`). */
function selectionOf(path: string): string {
  const [head, ...rest] = path.split('.');
  return rest.length === 0 ? (head ?? '') : `${head} { ${selectionOf(rest.join('.'))} }`;
}

function valueAt(data: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | null)?.[key], data);
}

/** Whether a ValidationError's `field` names the input at `path` (list indexes and the argument prefix aside). */
function namesInput(field: unknown, path: string): boolean {
  if (typeof field !== 'string') {
    return false;
  }
  const plain = (text: string) => text.replace(/\[\d*\]/g, '');
  const wanted = plain(path);
  return plain(field) === wanted || wanted.endsWith(`.${plain(field)}`);
}

async function fixture(server: TestServer): Promise<Fixture> {
  const password = 'hostile owner password';
  const email = 'hostile-owner@example.com';
  const registered = await server.graphql<{ register: { token?: string } }>(
    'mutation ($input: RegisterInput!) { register(input: $input) { ... on AuthPayload { token } } }',
    { input: { email, password, name: 'Owner' } },
  );
  const token = registered.data?.register.token;
  assert.ok(token, JSON.stringify(registered));
  const stream = await createStream(server, token, 'target');
  await seedRecording(server, stream.streamId);
  const key = await createSigningKey(server, token, 'kid source');
  const pull = await server.graphql<{ createStream: { id?: string } }>(
    'mutation ($input: CreateStreamInput!) { createStream(input: $input) { ... on Stream { id } } }',
    { input: { name: 'pulled', ingestMode: 'PULL', pullSource: PULL_SOURCE } },
    token,
  );
  const pullStreamId = pull.data?.createStream.id;
  assert.ok(pullStreamId, JSON.stringify(pull));
  const target = await server.graphql<{ createPushTarget: { id?: string } }>(
    'mutation ($s: ID!, $u: String!) { createPushTarget(streamId: $s, input: { name: "t", targetUri: $u }) { ... on PushTarget { id } } }',
    { s: stream.id, u: PUSH_URI },
    token,
  );
  const pushTargetId = target.data?.createPushTarget.id;
  assert.ok(pushTargetId, JSON.stringify(target));
  return {
    token,
    email,
    password,
    streamId: stream.id,
    pullStreamId,
    playbackId: stream.playbackId,
    kid: key.kid,
    pushTargetId,
  };
}

for (const backend of testBackends()) {
  describe(`hostile strings in every mutation on ${backend.name}`, () => {
    let server: TestServer;
    let inputs: StringInputs;
    let mutations: SchemaField[] = [];
    let queries: SchemaField[] = [];
    let owner: Fixture;

    before(async () => {
      server = await startTestServer(backend, { AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES: 'true' });
      const { types, roots } = await introspect(server);
      inputs = new StringInputs(types);
      const mutationType = roots.find((root) => root.name === 'Mutation')?.type ?? '';
      mutations = types.get(mutationType)?.fields ?? [];
      const queryType = roots.find((root) => root.name === 'Query')?.type ?? '';
      queries = (types.get(queryType)?.fields ?? []).filter((field) => {
        const kind = types.get(named(field.type))?.kind;
        return kind === 'OBJECT' || kind === 'UNION' || kind === 'INTERFACE';
      });
      owner = await fixture(server);
    });
    after(() => server.close());

    it('has a table entry, with a read-back for each string input, for every mutation taking strings', () => {
      const problems: string[] = [];
      for (const field of mutations) {
        const paths = inputs.paths(field.args);
        const entry = TABLE[`Mutation.${field.name}`];
        if (paths.length > 0 && !entry) {
          problems.push(
            `Mutation.${field.name} takes string inputs (${paths.join(', ')}) and is not in the hostile-string matrix: ` +
              `add 'Mutation.${field.name}' to TABLE in e2e/hostile-strings.test.ts with valid arguments and, for each ` +
              'input, the success field it reads back from (or a verify function, or why it cannot be read)',
          );
        }
        for (const path of paths.filter((p) => entry && !(p in entry.readBack))) {
          problems.push(
            `Mutation.${field.name} input ${path} has no read-back in e2e/hostile-strings.test.ts: add '${path}' to the readBack of 'Mutation.${field.name}'`,
          );
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(Object.keys(TABLE).length >= 9);
    });

    it('answers each hostile string with a ValidationError on its input, or stores and reads it back identical — never INTERNAL', async () => {
      const failures: string[] = [];
      let calls = 0;
      let n = 0;
      for (const field of mutations) {
        const entry = TABLE[`Mutation.${field.name}`];
        if (!entry) {
          continue;
        }
        const successes = inputs.successTypes(field.type);
        const reads = Object.values(entry.readBack).filter((read): read is string => typeof read === 'string');
        const successSelection =
          reads.length === 0
            ? ''
            : successes.map((type) => `... on ${type} { ${reads.map(selectionOf).join(' ')} }`).join(' ');
        const definitions = field.args.map((arg) => `$${arg.name}: ${printRef(arg.type)}`).join(', ');
        const passing = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
        const document = `mutation Hostile(${definitions}) { result: ${field.name}(${passing}) {
          __typename ... on ValidationError { field constraint } ... on Error { code message } ${successSelection} } }`;
        for (const path of inputs.paths(field.args)) {
          for (const [label, value] of HOSTILE) {
            calls++;
            const args = withValue(entry.args(owner, path, n++), path, value);
            const response = await server.graphql<{ result: Record<string, unknown> | null }>(
              document,
              args,
              entry.signedIn ? owner.token : undefined,
            );
            const where = `Mutation.${field.name} ${path} ← ${label}`;
            const result = response.data?.result;
            const typename = result?.__typename;
            const topLevel = response.errors?.[0];
            if (response.status >= 500 || response.errors?.some((error) => error.extensions?.code === 'INTERNAL')) {
              failures.push(`${where}: INTERNAL ${JSON.stringify(response.errors).slice(0, 200)}`);
            } else if (topLevel) {
              if (topLevel.extensions?.code !== 'VALIDATION_ERROR' || !namesInput(topLevel.extensions.field, path)) {
                failures.push(`${where}: top-level error ${JSON.stringify(topLevel).slice(0, 200)}`);
              }
            } else if (typename === 'ValidationError') {
              if (!namesInput(result?.field, path)) {
                failures.push(`${where}: ValidationError on ${String(result?.field)} (${String(result?.message)})`);
              }
            } else if (typeof typename === 'string' && successes.includes(typename)) {
              const read = entry.readBack[path];
              const problem =
                typeof read === 'string'
                  ? JSON.stringify(valueAt(result, read)) === JSON.stringify(path.endsWith('[]') ? [value] : value)
                    ? undefined
                    : `read back ${JSON.stringify(valueAt(result, read)).slice(0, 80)}`
                  : read && 'verify' in read
                    ? await read.verify(server, args, value)
                    : undefined;
              if (problem) {
                failures.push(`${where}: succeeded but ${problem}`);
              }
            } else if (!(typeof typename === 'string' && entry.alsoAccept?.includes(typename))) {
              failures.push(`${where}: answered ${JSON.stringify(result).slice(0, 200)}`);
            }
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${calls} calls`);
      assert.ok(calls >= 100, `only ${calls} calls made`);
    });

    it('answers NUL or a lone surrogate in any string or ID argument of any query without INTERNAL', async () => {
      const failures: string[] = [];
      let calls = 0;
      for (const field of queries) {
        const scalarArgs = field.args.filter((arg) => ['String', 'ID'].includes(named(arg.type)));
        for (const target of scalarArgs) {
          if (field.args.some((arg) => arg.type.kind === 'NON_NULL' && !['String', 'ID'].includes(named(arg.type)))) {
            continue;
          }
          for (const value of ['before\u0000after', 'before\ud800after']) {
            calls++;
            const args = Object.fromEntries(
              field.args
                .filter((arg) => arg === target || arg.type.kind === 'NON_NULL')
                .map((arg) => [arg.name, arg === target ? value : owner.streamId]),
            );
            const definitions = Object.keys(args)
              .map((name) => `$${name}: ${printRef(field.args.find((arg) => arg.name === name)?.type as TypeRef)}`)
              .join(', ');
            const passing = Object.keys(args)
              .map((name) => `${name}: $${name}`)
              .join(', ');
            const response = await server.graphql(
              `query Hostile(${definitions}) { result: ${field.name}(${passing}) { __typename } }`,
              args,
              owner.token,
            );
            const codes = (response.errors ?? []).map((error) => error.extensions?.code);
            if (response.status >= 500 || codes.includes('INTERNAL')) {
              failures.push(`Query.${field.name} ${target.name}: ${JSON.stringify(response.errors).slice(0, 200)}`);
            }
          }
        }
      }
      assert.deepEqual(failures, [], `${failures.length} of ${calls} calls`);
      assert.ok(calls >= 10, `only ${calls} calls made`);
    });
  });
}
