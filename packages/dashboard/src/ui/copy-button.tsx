/** Copies a value to the clipboard and says so (aria-live), without keeping it anywhere. */
import { useState } from 'react';

/** A button that copies `value`; `label` names what is copied for screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    window.setTimeout(() => setCopied('idle'), 2000);
  };
  return (
    <button type="button" className="small" onClick={copy}>
      <span aria-live="polite">{copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}</span>
      <span className="visually-hidden"> {label}</span>
    </button>
  );
}

/** A read-only value with its copy button (URLs, keys). */
export function CopyField({ label, value, secret }: { label: string; value: string; secret?: boolean }) {
  const [shown, setShown] = useState(!secret);
  return (
    <div className="copy-field">
      <span className="copy-label">{label}</span>
      <code className="copy-value">{shown ? value : '•'.repeat(Math.min(24, value.length))}</code>
      <span className="copy-actions">
        {secret && (
          <button
            type="button"
            className="small"
            onClick={() => setShown(!shown)}
            aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
        <CopyButton value={value} label={label} />
      </span>
    </div>
  );
}
