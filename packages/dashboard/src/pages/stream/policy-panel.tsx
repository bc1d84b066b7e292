/** Playback policy of the stream (public, JWT with allowed signing keys, or webhook). */
import { type FormEvent, useState } from 'react';
import { ApiError, request } from '../../api/client';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import type { PlaybackPolicyType, StreamQuery } from '../../generated/graphql';
import { Link } from '../../router';
import { errorFor, Field, type FieldFailure, formError } from '../../ui/field';

const ActiveKeysDocument = graphql(`
  query ActiveSigningKeys {
    signingKeysConnection(status: ACTIVE, page: { first: 100 }) { nodes { id kid name } }
  }
`);

const SetPolicyDocument = graphql(`
  mutation SetPlaybackPolicy($input: SetPlaybackPolicyInput!) {
    setPlaybackPolicy(input: $input) {
      __typename
      ... on Stream { id playbackPolicy { type jwt { allowedKids } webhook { url timeoutMs secretMasked } } }
      ...Failure
    }
  }
`);

type StreamView = NonNullable<StreamQuery['stream']>;

/** The panel. */
export function PolicyPanel({ stream, onSaved }: { stream: StreamView; onSaved: () => void }) {
  const policy = stream.playbackPolicy;
  const [type, setType] = useState<PlaybackPolicyType>(policy.type);
  const [failure, setFailure] = useState<FieldFailure>();
  const [saved, setSaved] = useState(false);
  const keys = useQuery(ActiveKeysDocument, {});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFailure(undefined);
    setSaved(false);
    const secret = String(form.get('secret') ?? '');
    try {
      const { setPlaybackPolicy } = await request(SetPolicyDocument, {
        input: {
          streamId: stream.id,
          policy: {
            type,
            ...(type === 'JWT' ? { jwt: { allowedKids: form.getAll('kid').map(String) } } : {}),
            ...(type === 'WEBHOOK'
              ? {
                  webhook: {
                    url: String(form.get('url') ?? ''),
                    timeoutMs: Number(form.get('timeoutMs') ?? 2000),
                    ...(secret ? { secret } : {}),
                  },
                }
              : {}),
          },
        },
      });
      if (setPlaybackPolicy.__typename === 'Stream') {
        setSaved(true);
        onSaved();
      } else if ('message' in setPlaybackPolicy) {
        setFailure({
          message: setPlaybackPolicy.message,
          field: 'field' in setPlaybackPolicy ? setPlaybackPolicy.field : null,
        });
      }
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    }
  };

  const active = keys.data?.signingKeysConnection.nodes ?? [];
  const top = formError(failure, ['url', 'secret', 'timeoutMs', 'allowedKids']);
  return (
    <section aria-labelledby="policy-heading" className="card">
      <h2 id="policy-heading">Playback access</h2>
      <p className="muted">
        Current: <strong data-testid="policy-type">{policy.type}</strong>. Your own preview here keeps working under any
        policy.
      </p>
      <form onSubmit={submit} noValidate>
        {top && (
          <p className="error-box" role="alert">
            {top}
          </p>
        )}
        <div className="field">
          <label htmlFor="policy-type">Policy</label>
          <select id="policy-type" value={type} onChange={(event) => setType(event.target.value as PlaybackPolicyType)}>
            <option value="PUBLIC">Public: anyone with the playback ID</option>
            <option value="JWT">JWT: viewers need a token signed by your key</option>
            <option value="WEBHOOK">Webhook: your endpoint decides</option>
          </select>
        </div>
        {type === 'JWT' && (
          <fieldset>
            <legend>Accepted signing keys (none checked: any active key)</legend>
            {active.length === 0 && (
              <p className="muted">
                No signing keys yet. <Link href="/signing-keys">Create one</Link> to sign viewer tokens.
              </p>
            )}
            {active.map((key) => (
              <div className="field checkbox" key={key.id}>
                <input
                  id={`kid-${key.kid}`}
                  type="checkbox"
                  name="kid"
                  value={key.kid}
                  defaultChecked={policy.jwt?.allowedKids.includes(key.kid)}
                />
                <label htmlFor={`kid-${key.kid}`}>
                  {key.name} <code>{key.kid}</code>
                </label>
              </div>
            ))}
            {errorFor(failure, 'allowedKids') && (
              <small className="field-error" role="alert">
                {errorFor(failure, 'allowedKids')}
              </small>
            )}
          </fieldset>
        )}
        {type === 'WEBHOOK' && (
          <>
            <Field
              label="Webhook URL"
              name="url"
              type="url"
              defaultValue={policy.webhook?.url ?? ''}
              error={errorFor(failure, 'url')}
            />
            <Field
              label="Shared secret"
              name="secret"
              type="password"
              autoComplete="off"
              hint={
                policy.webhook
                  ? `Current: ${policy.webhook.secretMasked}. Leave empty to keep it.`
                  : '16 to 512 characters.'
              }
              error={errorFor(failure, 'secret')}
            />
            <Field
              label="Timeout (ms)"
              name="timeoutMs"
              type="number"
              defaultValue={policy.webhook?.timeoutMs ?? 2000}
              error={errorFor(failure, 'timeoutMs')}
            />
          </>
        )}
        <button type="submit" className="primary">
          Save policy
        </button>
        {saved && (
          <span role="status" className="muted">
            {' '}
            Saved.
          </span>
        )}
      </form>
    </section>
  );
}
