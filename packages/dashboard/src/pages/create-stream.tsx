/** Create a stream: name, record, and push (an encoder sends) or pull (the service fetches a source URI). */
import { type FormEvent, useState } from 'react';
import { ApiError, request } from '../api/client';
import { graphql } from '../generated';
import { navigate } from '../router';
import { errorFor, Field, type FieldFailure, formError } from '../ui/field';

const CreateStreamDocument = graphql(`
  mutation CreateStream($input: CreateStreamInput!) {
    createStream(input: $input) {
      __typename
      ... on Stream { id }
      ...Failure
    }
  }
`);

/** The page. */
export function CreateStreamPage() {
  const [failure, setFailure] = useState<FieldFailure>();
  const [mode, setMode] = useState<'PUSH' | 'PULL'>('PUSH');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setFailure(undefined);
    try {
      const { createStream } = await request(CreateStreamDocument, {
        input: {
          name: String(form.get('name') ?? ''),
          record: form.get('record') === 'on',
          ingestMode: mode,
          ...(mode === 'PULL'
            ? {
                pullSource: { sourceUri: String(form.get('sourceUri') ?? ''), onDemand: form.get('onDemand') === 'on' },
              }
            : {}),
        },
      });
      if (createStream.__typename === 'Stream') {
        navigate(`/streams/${encodeURIComponent(createStream.id)}`);
        return;
      }
      setFailure({ message: createStream.message, field: 'field' in createStream ? createStream.field : null });
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const top = formError(failure, ['name', 'sourceUri', 'pullSource', 'ingestMode']);
  return (
    <main>
      <h1>Create stream</h1>
      <form onSubmit={submit} noValidate className="narrow">
        {top && (
          <p className="error-box" role="alert">
            {top}
          </p>
        )}
        <Field label="Name" name="name" required maxLength={256} error={errorFor(failure, 'name')} />
        <div className="field checkbox">
          <input id="record" name="record" type="checkbox" />
          <label htmlFor="record">Record (DVR) while live</label>
        </div>
        <fieldset>
          <legend>Input</legend>
          <div className="field checkbox">
            <input id="mode-push" type="radio" name="mode" checked={mode === 'PUSH'} onChange={() => setMode('PUSH')} />
            <label htmlFor="mode-push">Push: my encoder sends RTMP, SRT or WHIP</label>
          </div>
          <div className="field checkbox">
            <input id="mode-pull" type="radio" name="mode" checked={mode === 'PULL'} onChange={() => setMode('PULL')} />
            <label htmlFor="mode-pull">Pull: Airwave fetches a source</label>
          </div>
        </fieldset>
        {mode === 'PULL' && (
          <>
            <Field
              label="Source URI"
              name="sourceUri"
              required
              placeholder="rtsp://camera.example.com/live"
              hint="rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm), dtsc or udp."
              error={errorFor(failure, 'sourceUri') ?? errorFor(failure, 'pullSource')}
            />
            <div className="field checkbox">
              <input id="onDemand" name="onDemand" type="checkbox" />
              <label htmlFor="onDemand">Pull only while someone watches</label>
            </div>
          </>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create stream'}
        </button>
      </form>
    </main>
  );
}
