/** Signing keys for playback tokens: create (private PEM shown once, downloadable), list, revoke. */
import { type FormEvent, useState } from 'react';
import { ApiError, request } from '../api/client';
import { useQuery } from '../api/use-query';
import { graphql } from '../generated';
import { errorFor, Field, type FieldFailure, formError } from '../ui/field';
import { SecretOnce } from '../ui/secret-once';
import { Empty, ErrorBox, Loading } from '../ui/states';
import { formatTime } from './streams';

const SigningKeysDocument = graphql(`
  query SigningKeys {
    signingKeysConnection(page: { first: 100 }) { nodes { id kid name status createdAt lastUsedAt } }
  }
`);

const CreateSigningKeyDocument = graphql(`
  mutation CreateSigningKey($input: CreateSigningKeyInput!) {
    createSigningKey(input: $input) {
      __typename
      ... on CreateSigningKeySuccess { privateKeyPem signingKey { id kid name } }
      ...Failure
    }
  }
`);

const RevokeSigningKeyDocument = graphql(`
  mutation RevokeSigningKey($id: ID!) {
    revokeSigningKey(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

/** The page. */
export function SigningKeysPage() {
  const keys = useQuery(SigningKeysDocument, {});
  const [created, setCreated] = useState<{ pem: string; kid: string }>();
  const [failure, setFailure] = useState<FieldFailure>();

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setFailure(undefined);
    try {
      const { createSigningKey } = await request(CreateSigningKeyDocument, {
        input: { name: String(new FormData(form).get('name') ?? '') },
      });
      if (createSigningKey.__typename === 'CreateSigningKeySuccess') {
        form.reset();
        setCreated({ pem: createSigningKey.privateKeyPem, kid: createSigningKey.signingKey.kid });
        keys.reload();
      } else {
        setFailure({
          message: createSigningKey.message,
          field: 'field' in createSigningKey ? createSigningKey.field : null,
        });
      }
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    }
  };

  const revoke = async (id: string, name: string) => {
    if (!window.confirm(`Revoke “${name}”? Tokens it signed stop playing at once.`)) {
      return;
    }
    try {
      const { revokeSigningKey } = await request(RevokeSigningKeyDocument, { id });
      if (revokeSigningKey.__typename !== 'DeleteSuccess') {
        setFailure({ message: revokeSigningKey.message });
      }
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    }
    keys.reload();
  };

  const list = keys.data?.signingKeysConnection.nodes;
  const top = formError(failure, ['name']);
  return (
    <main>
      <h1>Signing keys</h1>
      <p className="muted">
        ES256 keys sign the viewer tokens of streams with a JWT playback policy. Airwave keeps only the public half.
      </p>
      {created && (
        <SecretOnce
          title={`Private key ${created.kid}`}
          value={created.pem}
          filename={`airwave-${created.kid}.pem`}
          onDone={() => setCreated(undefined)}
        />
      )}
      <form onSubmit={create} className="inline-form">
        {top && (
          <p className="error-box" role="alert">
            {top}
          </p>
        )}
        <Field label="Key name" name="name" required maxLength={128} error={errorFor(failure, 'name')} />
        <button type="submit" className="primary">
          Create signing key
        </button>
      </form>
      {keys.error && <ErrorBox error={keys.error} retry={keys.reload} />}
      {!list && keys.loading && <Loading what="signing keys" />}
      {list && list.length === 0 && <Empty level={2} title="No signing keys yet" />}
      {list && list.length > 0 && (
        <ul className="list">
          {list.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.name}</strong> <code>{key.kid}</code> <span className="badge">{key.status}</span>
                <br />
                <small className="muted">
                  created {formatTime(key.createdAt)}
                  {key.lastUsedAt ? ` · last used ${formatTime(key.lastUsedAt)}` : ''}
                </small>
              </span>
              {key.status === 'ACTIVE' && (
                <button
                  type="button"
                  className="small danger"
                  onClick={() => revoke(key.id, key.name)}
                  aria-label={`Revoke signing key ${key.name}`}
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
