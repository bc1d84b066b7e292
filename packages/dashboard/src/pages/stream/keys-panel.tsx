/** Stream keys: list (masked), create (value shown once), rotate the primary, delete. */
import { type FormEvent, useState } from 'react';
import { request } from '../../api/client';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import { errorFor, Field, formError } from '../../ui/field';
import { SecretOnce } from '../../ui/secret-once';
import { Empty, ErrorBox, Loading } from '../../ui/states';
import { formatTime } from '../streams';

const KeysDocument = graphql(`
  query StreamKeys($streamId: ID!) {
    streamKeysConnection(streamId: $streamId, page: { first: 100 }) {
      nodes { id keyName isActive isPrimary lastUsedAt createdAt }
    }
  }
`);

const CreateKeyDocument = graphql(`
  mutation CreateStreamKey($streamId: ID!, $input: CreateStreamKeyInput!) {
    createStreamKey(streamId: $streamId, input: $input) {
      __typename
      ... on StreamKey { id keyName keyValue }
      ...Failure
    }
  }
`);

const RotateDocument = graphql(`
  mutation RotateStreamKey($id: ID!) {
    refreshStreamKey(id: $id) {
      __typename
      ... on Stream { id streamKey }
      ...Failure
    }
  }
`);

const DeleteKeyDocument = graphql(`
  mutation DeleteStreamKey($streamId: ID!, $keyId: ID!) {
    deleteStreamKey(streamId: $streamId, keyId: $keyId) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

/** Props: the stream, and what to do after the primary key changed (reload the stream). */
export interface KeysPanelProps {
  readonly streamId: string;
  readonly onPrimaryChanged: () => void;
}

/** The panel. */
export function KeysPanel({ streamId, onPrimaryChanged }: KeysPanelProps) {
  const keys = useQuery(KeysDocument, { streamId });
  const [secret, setSecret] = useState<{ title: string; value: string }>();
  const { busy, failure, run } = useAction(keys.reload);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('keyName') ?? '');
    void run(async () => {
      const { createStreamKey } = await request(CreateKeyDocument, { streamId, input: { name } });
      if (createStreamKey.__typename === 'StreamKey') {
        form.reset();
        setSecret({ title: `Stream key “${createStreamKey.keyName}”`, value: createStreamKey.keyValue });
      }
      return createStreamKey;
    });
  };

  const rotate = () => {
    if (!window.confirm('Rotate the primary key? Encoders using the current key must be updated.')) {
      return;
    }
    void run(async () => {
      const { refreshStreamKey } = await request(RotateDocument, { id: streamId });
      if (refreshStreamKey.__typename === 'Stream') {
        setSecret({ title: 'New primary stream key', value: refreshStreamKey.streamKey });
        onPrimaryChanged();
      }
      return refreshStreamKey;
    });
  };

  const remove = (keyId: string, name: string) => {
    if (!window.confirm(`Delete the key “${name}”? Encoders using it are refused from now on.`)) {
      return;
    }
    void run(async () => (await request(DeleteKeyDocument, { streamId, keyId })).deleteStreamKey);
  };

  const top = formError(failure, ['name']);
  const list = keys.data?.streamKeysConnection.nodes;
  return (
    <section aria-labelledby="keys-heading" className="card">
      <h2 id="keys-heading">Stream keys</h2>
      {secret && <SecretOnce title={secret.title} value={secret.value} onDone={() => setSecret(undefined)} />}
      {top && (
        <p className="error-box" role="alert">
          {top}
        </p>
      )}
      {keys.error && <ErrorBox error={keys.error} retry={keys.reload} />}
      {!list && keys.loading && <Loading what="keys" />}
      {list && list.length === 0 && <Empty title="No keys" />}
      {list && list.length > 0 && (
        <ul className="list">
          {list.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.keyName}</strong> {key.isPrimary && <span className="badge">primary</span>}{' '}
                {!key.isActive && <span className="badge">inactive</span>}
                <br />
                <small className="muted">
                  created {formatTime(key.createdAt)}
                  {key.lastUsedAt ? ` · last used ${formatTime(key.lastUsedAt)}` : ' · never used'}
                </small>
              </span>
              <span className="row">
                {key.isPrimary ? (
                  <button type="button" className="small" onClick={rotate} disabled={busy}>
                    Rotate
                  </button>
                ) : (
                  <button
                    type="button"
                    className="small danger"
                    onClick={() => remove(key.id, key.keyName)}
                    disabled={busy}
                    aria-label={`Delete key ${key.keyName}`}
                  >
                    Delete
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} className="inline-form">
        <Field label="New key name" name="keyName" required maxLength={128} error={errorFor(failure, 'name')} />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
    </section>
  );
}
