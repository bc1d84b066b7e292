/** Developer tokens: create with scopes (value shown once), list, revoke. */
import { type FormEvent, useState } from 'react';
import { ApiError, request } from '../api/client';
import { useQuery } from '../api/use-query';
import { graphql } from '../generated';
import { errorFor, Field, type FieldFailure, formError } from '../ui/field';
import { SecretOnce } from '../ui/secret-once';
import { Empty, ErrorBox, Loading } from '../ui/states';
import { formatTime } from './streams';

const TokensDocument = graphql(`
  query DeveloperTokens {
    developerTokensConnection(page: { first: 100 }) {
      nodes { id tokenName scopes status lastUsedAt expiresAt createdAt }
    }
  }
`);

/** Longest token lifetime the service accepts, in days. */
const TOKEN_MAX_DAYS = 3650;

const CreateTokenDocument = graphql(`
  mutation CreateDeveloperToken($input: CreateDeveloperTokenInput!) {
    createDeveloperToken(input: $input) {
      __typename
      ... on DeveloperToken { id tokenName tokenValue }
      ...Failure
    }
  }
`);

const RevokeTokenDocument = graphql(`
  mutation RevokeDeveloperToken($id: ID!) {
    revokeDeveloperToken(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

/** Scopes offered in the form (the API's list). */
const SCOPES = [
  'streams:read',
  'streams:write',
  'analytics:read',
  'developer:read',
  'developer:write',
  'account:read',
  'account:write',
  'security:read',
  'security:write',
] as const;

/** The page. */
export function TokensPage() {
  const tokens = useQuery(TokensDocument, {});
  const [created, setCreated] = useState<{ name: string; value: string }>();
  const [failure, setFailure] = useState<FieldFailure>();

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const days = Number(data.get('days') ?? 0);
    setFailure(undefined);
    try {
      const { createDeveloperToken } = await request(CreateTokenDocument, {
        input: {
          name: String(data.get('name') ?? ''),
          permissions: data.getAll('scope').map(String).join(','),
          // The service counts expiresIn in days (CreateDeveloperTokenInput).
          ...(days > 0 ? { expiresIn: days } : {}),
        },
      });
      if (createDeveloperToken.__typename === 'DeveloperToken') {
        form.reset();
        setCreated({ name: createDeveloperToken.tokenName, value: createDeveloperToken.tokenValue ?? '' });
        tokens.reload();
      } else {
        setFailure({
          message: createDeveloperToken.message,
          field: 'field' in createDeveloperToken ? createDeveloperToken.field : null,
        });
      }
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    }
  };

  const revoke = async (id: string, name: string) => {
    if (!window.confirm(`Revoke the token “${name}”? Programs using it are refused at once.`)) {
      return;
    }
    try {
      const { revokeDeveloperToken } = await request(RevokeTokenDocument, { id });
      if (revokeDeveloperToken.__typename !== 'DeleteSuccess') {
        setFailure({ message: revokeDeveloperToken.message });
      }
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    }
    tokens.reload();
  };

  const list = tokens.data?.developerTokensConnection.nodes;
  const top = formError(failure, ['name', 'permissions', 'expiresIn']);
  return (
    <main>
      <h1>Developer tokens</h1>
      <p className="muted">
        Send a token as <code>Authorization: Bearer &lt;token&gt;</code> to <code>/graphql</code>. Give it only the
        scopes it needs.
      </p>
      {created && (
        <SecretOnce title={`Token “${created.name}”`} value={created.value} onDone={() => setCreated(undefined)} />
      )}
      <form onSubmit={create} className="card">
        <h2>New token</h2>
        {top && (
          <p className="error-box" role="alert">
            {top}
          </p>
        )}
        <Field label="Token name" name="name" required maxLength={128} error={errorFor(failure, 'name')} />
        <fieldset>
          <legend>Scopes</legend>
          <div className="scopes">
            {SCOPES.map((scope) => (
              <div className="field checkbox" key={scope}>
                <input
                  id={`scope-${scope}`}
                  type="checkbox"
                  name="scope"
                  value={scope}
                  defaultChecked={scope === 'streams:read'}
                />
                <label htmlFor={`scope-${scope}`}>{scope}</label>
              </div>
            ))}
          </div>
          {errorFor(failure, 'permissions') && (
            <small className="field-error" role="alert">
              {errorFor(failure, 'permissions')}
            </small>
          )}
        </fieldset>
        <Field
          label="Expires after (days, empty: never)"
          name="days"
          type="number"
          min={1}
          max={TOKEN_MAX_DAYS}
          step={1}
          error={errorFor(failure, 'expiresIn')}
        />
        <button type="submit" className="primary">
          Create token
        </button>
      </form>
      {tokens.error && <ErrorBox error={tokens.error} retry={tokens.reload} />}
      {!list && tokens.loading && <Loading what="tokens" />}
      {list && list.length === 0 && <Empty title="No developer tokens yet" />}
      {list && list.length > 0 && (
        <ul className="list" aria-label="Developer tokens">
          {list.map((token) => (
            <li key={token.id} data-testid="token-row">
              <span>
                <strong>{token.tokenName}</strong> <span className="badge">{token.status}</span>
                <br />
                <small className="muted">
                  {token.scopes.join(', ')} · created {formatTime(token.createdAt)}
                  {token.expiresAt ? ` · expires ${formatTime(token.expiresAt)}` : ''}
                  {token.lastUsedAt ? ` · last used ${formatTime(token.lastUsedAt)}` : ''}
                </small>
              </span>
              {token.status === 'active' && (
                <button
                  type="button"
                  className="small danger"
                  onClick={() => revoke(token.id, token.tokenName)}
                  aria-label={`Revoke token ${token.tokenName}`}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
