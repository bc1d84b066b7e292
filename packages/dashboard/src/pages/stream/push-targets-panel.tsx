/** Push targets (restreaming) of a stream: status, bitrate, last error; add, enable/disable, delete. */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, request } from '../../api/client';
import { useQuery } from '../../api/use-query';
import { graphql } from '../../generated';
import { errorFor, Field, type FieldFailure, formError } from '../../ui/field';
import { Empty, ErrorBox, Loading } from '../../ui/states';

const PushTargetsDocument = graphql(`
  query PushTargets($id: ID!) {
    stream(id: $id) {
      id
      pushTargets { id name platform targetUri isEnabled status lastError bitrateKbps bytesSent lastPushedAt }
    }
  }
`);

const CreatePushTargetDocument = graphql(`
  mutation CreatePushTarget($streamId: ID!, $input: CreatePushTargetInput!) {
    createPushTarget(streamId: $streamId, input: $input) {
      __typename
      ... on PushTarget { id }
      ... on ValidationError { message field }
      ... on NotFoundError { message }
      ... on AuthError { message }
    }
  }
`);

const UpdatePushTargetDocument = graphql(`
  mutation UpdatePushTarget($id: ID!, $input: UpdatePushTargetInput!) {
    updatePushTarget(id: $id, input: $input) {
      __typename
      ... on PushTarget { id isEnabled }
      ... on ValidationError { message field }
      ... on NotFoundError { message }
      ... on AuthError { message }
    }
  }
`);

const DeletePushTargetDocument = graphql(`
  mutation DeletePushTarget($id: ID!) {
    deletePushTarget(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ... on ValidationError { message field }
      ... on NotFoundError { message }
      ... on AuthError { message }
    }
  }
`);

const POLL_MS = 5000;

/** Platforms the API accepts. */
const PLATFORMS = ['custom', 'youtube', 'twitch', 'facebook', 'kick', 'x'] as const;

/** The panel; push status has no subscription (spec §6), so it polls while shown. */
export function PushTargetsPanel({ streamId }: { streamId: string }) {
  const targets = useQuery(PushTargetsDocument, { id: streamId });
  const [failure, setFailure] = useState<FieldFailure>();
  const [busy, setBusy] = useState(false);
  useInterval(targets.reload, POLL_MS);

  const run = async (action: () => Promise<{ __typename: string; message?: string; field?: string | null }>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const result = await action();
      if ('message' in result && result.message !== undefined) {
        setFailure({ message: result.message, field: result.field ?? null });
      }
      targets.reload();
      return result;
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    void run(async () => {
      const { createPushTarget } = await request(CreatePushTargetDocument, {
        streamId,
        input: {
          name: String(data.get('name') ?? ''),
          targetUri: String(data.get('targetUri') ?? ''),
          platform: String(data.get('platform') ?? '') || null,
        },
      });
      if (createPushTarget.__typename === 'PushTarget') {
        form.reset();
      }
      return createPushTarget;
    });
  };

  const list = targets.data?.stream?.pushTargets;
  const top = formError(failure, ['name', 'targetUri', 'platform']);
  return (
    <section aria-labelledby="push-heading" className="card">
      <h2 id="push-heading">Push targets</h2>
      {top && (
        <p className="error-box" role="alert">
          {top}
        </p>
      )}
      {targets.error && !list && <ErrorBox error={targets.error} retry={targets.reload} />}
      {!list && targets.loading && <Loading what="push targets" />}
      {list && list.length === 0 && (
        <Empty title="No push targets">
          <p className="muted">Restream to YouTube, Twitch or any RTMP(S)/SRT destination while this stream is live.</p>
        </Empty>
      )}
      {list && list.length > 0 && (
        <ul className="list">
          {list.map((target) => (
            <li key={target.id} data-testid="push-target">
              <span>
                <strong>{target.name}</strong> <span className="badge">{target.status}</span>{' '}
                <span className="muted">{target.platform}</span>
                <br />
                <small className="muted">
                  <code>{target.targetUri}</code>
                  {target.bitrateKbps > 0 ? ` · ${target.bitrateKbps} kbps` : ''}
                  {target.bytesSent > 0 ? ` · ${(target.bytesSent / 1e6).toFixed(1)} MB sent` : ''}
                </small>
                {target.lastError && (
                  <>
                    <br />
                    <small className="field-error">Last error: {target.lastError}</small>
                  </>
                )}
              </span>
              <span className="row">
                <button
                  type="button"
                  className="small"
                  disabled={busy}
                  aria-label={`${target.isEnabled ? 'Disable' : 'Enable'} push target ${target.name}`}
                  onClick={() =>
                    void run(
                      async () =>
                        (
                          await request(UpdatePushTargetDocument, {
                            id: target.id,
                            input: { isEnabled: !target.isEnabled },
                          })
                        ).updatePushTarget,
                    )
                  }
                >
                  {target.isEnabled ? 'Disable' : 'Enable'}
                </button>
                <button
                  type="button"
                  className="small danger"
                  disabled={busy}
                  aria-label={`Delete push target ${target.name}`}
                  onClick={() => {
                    if (window.confirm(`Delete the push target “${target.name}”?`)) {
                      void run(
                        async () => (await request(DeletePushTargetDocument, { id: target.id })).deletePushTarget,
                      );
                    }
                  }}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} noValidate>
        <Field label="Target name" name="name" required maxLength={128} error={errorFor(failure, 'name')} />
        <div className="field">
          <label htmlFor="push-platform">Platform</label>
          <select id="push-platform" name="platform" defaultValue="custom">
            {PLATFORMS.map((platform) => (
              <option key={platform} value={platform}>
                {platform}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Destination URL"
          name="targetUri"
          type="password"
          autoComplete="off"
          required
          hint="rtmp(s)://host/app/streamkey or srt://host:port?streamid=… (kept secret, shown masked)."
          error={errorFor(failure, 'targetUri')}
        />
        <button type="submit" disabled={busy}>
          Add push target
        </button>
      </form>
    </section>
  );
}

/** Calls `callback` every `ms` while mounted and the page is visible. */
function useInterval(callback: () => void, ms: number): void {
  const saved = useRef(callback);
  saved.current = callback;
  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === 'visible') {
        saved.current();
      }
    }, ms);
    return () => window.clearInterval(id);
  }, [ms]);
}
