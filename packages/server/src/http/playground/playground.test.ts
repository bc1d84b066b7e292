/**
 * The playground: page and assets come from this server (no CDN), and in Debian's Chromium
 * GraphiQL renders, runs the default register mutation against /graphql and gets the session
 * cookie — with every request to another host blocked; its Docs pane lists the schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromiumMissing, launchChromium } from '../../../../../e2e/support/browser.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

describe('GraphiQL playground', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('the page loads React, ReactDOM and GraphiQL from local assets only', async () => {
    const page = await fetch(`${server.baseUrl}/graphql/playground`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    assert.deepEqual(sources, [
      '/graphql/playground/assets/graphiql.min.css',
      '/graphql/playground/assets/react.production.min.js',
      '/graphql/playground/assets/react-dom.production.min.js',
      '/graphql/playground/assets/graphiql.min.js',
      '/graphql/playground/assets/init.js',
    ]);
    for (const source of sources) {
      const asset = await fetch(`${server.baseUrl}${source}`);
      assert.equal(asset.status, 200, source);
      assert.match(
        asset.headers.get('content-type') ?? '',
        source.endsWith('.css') ? /^text\/css/ : /^text\/javascript/,
      );
      assert.ok((await asset.arrayBuffer()).byteLength > 100, source);
    }
    const missing = await fetch(`${server.baseUrl}/graphql/playground/assets/..%2F..%2Fpackage.json`);
    assert.equal(missing.status, 404);
  });

  test('in Chromium, offline, GraphiQL runs the default register mutation and gets the cookie', {
    skip: chromiumMissing,
  }, async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const foreign: string[] = [];
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === '127.0.0.1') {
          return route.continue();
        }
        foreign.push(url.href);
        return route.abort();
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${server.baseUrl}/graphql/playground`);
      await page.locator('.graphiql-execute-button').waitFor({ timeout: 30_000 });
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.graphiql-response');
      await result.getByText('AuthPayload').waitFor({ timeout: 30_000 });
      assert.match((await result.textContent()) ?? '', /me@example\.com/);
      const cookies = await context.cookies(server.baseUrl);
      const session = cookies.find((cookie) => cookie.name === 'airwave_session');
      assert.ok(session?.httpOnly, 'the session cookie is set and httpOnly');
      assert.equal(session?.sameSite, 'Lax');
      assert.deepEqual(foreign, [], 'no request left this server');
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  });

  test("in Chromium, the Docs pane shows the schema (GraphiQL's standard introspection query is answered)", {
    skip: chromiumMissing,
  }, async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${server.baseUrl}/graphql/playground`);
      await page.getByRole('button', { name: 'Show Documentation Explorer' }).click({ timeout: 30_000 });
      const docs = page.locator('.graphiql-doc-explorer');
      await docs.getByText('All Schema Types').waitFor({ timeout: 30_000 });
      const types = await docs.locator('.graphiql-doc-explorer-type-name').allTextContents();
      assert.ok(types.includes('Stream'), `the Docs pane lists: ${types.join(', ')}`);
      assert.doesNotMatch((await docs.textContent()) ?? '', /Error fetching schema/);
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  });
});
