/**
 * The client side of RTSP requests on one control connection (RFC 2326 §6–7, §12.17 CSeq,
 * §12.37 Session): each request numbered, written and matched with its response (a response
 * without CSeq answers the oldest request), a 401 answered once with the credentials, a 3xx
 * turned into a redirect to dial through the guard, any other non-2xx status or a response that
 * never comes into the end of the attempt.
 */
import type { PullEndKind } from '../pull-input.js';
import { parseChallenges, type RtspAuthenticator } from './rtsp-auth.js';
import type { RtspResponse } from './rtsp-reader.js';

/** What this client calls itself. */
export const RTSP_USER_AGENT = 'Airwave RTSP pull';

/** An attempt-ending condition found while talking to the source. */
export class RtspEnd extends Error {
  constructor(
    readonly kind: PullEndKind,
    message: string,
    readonly redirectTo?: string,
  ) {
    super(message);
  }
}

interface Waiting {
  resolve(response: RtspResponse): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

/** Requests of one connection and their responses. */
export class RtspRequests {
  private readonly waiting = new Map<number, Waiting>();
  private cseq = 0;
  private closed = false;
  /** The session id (from the first SETUP), sent with every later request but OPTIONS and DESCRIBE. */
  session: string | undefined;

  constructor(
    private readonly write: (text: string) => void,
    private readonly auth: RtspAuthenticator | undefined,
    private readonly timeoutMs: number,
    private readonly redirected: (status: number) => void,
  ) {}

  /** Sends a request and waits for its 2xx response; throws RtspEnd otherwise. */
  async request(method: string, uri: string, headers: Record<string, string> = {}): Promise<RtspResponse> {
    for (let tries = 0; ; tries++) {
      const response = await this.send(method, uri, headers);
      if (response.status === 401 && tries < 2) {
        if (!this.auth) {
          throw new RtspEnd('failed', `the RTSP source asks for credentials (401 on ${method})`);
        }
        if (!this.auth.accept(parseChallenges(response.headers.all('www-authenticate')))) {
          throw new RtspEnd('failed', `the RTSP source refused the credentials (401 on ${method})`);
        }
        continue;
      }
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get('location');
        if (!location) {
          throw new RtspEnd('failed', `RTSP redirect ${response.status} without a Location`);
        }
        this.redirected(response.status);
        throw new RtspEnd('redirected', 'the RTSP source redirected', resolveLocation(location, uri));
      }
      if (response.status < 200 || response.status >= 300) {
        throw new RtspEnd('failed', `the RTSP source answered ${method} with ${response.status} ${response.reason}`);
      }
      return response;
    }
  }

  /** The text of a request (TEARDOWN is written without waiting for its answer). */
  text(method: string, uri: string, headers: Record<string, string> = {}): string {
    const lines = [`${method} ${uri} RTSP/1.0`, `CSeq: ${++this.cseq}`, `User-Agent: ${RTSP_USER_AGENT}`];
    const authorization = this.auth?.header(method, uri);
    if (authorization) {
      lines.push(`Authorization: ${authorization}`);
    }
    if (this.session && method !== 'OPTIONS' && method !== 'DESCRIBE') {
      lines.push(`Session: ${this.session}`);
    }
    for (const [name, value] of Object.entries(headers)) {
      lines.push(`${name}: ${value}`);
    }
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  /** A response arrived: it settles the request it answers. */
  response(response: RtspResponse): void {
    const said = Number(response.headers.get('cseq'));
    // A response without a CSeq answers the oldest request still waiting.
    const cseq = this.waiting.has(said) ? said : this.waiting.keys().next().value;
    const entry = cseq === undefined ? undefined : this.waiting.get(cseq);
    if (cseq === undefined || !entry) {
      return;
    }
    this.waiting.delete(cseq);
    clearTimeout(entry.timer);
    entry.resolve(response);
  }

  /** Ends every wait (the connection is gone); later requests fail at once. */
  close(): void {
    this.closed = true;
    for (const entry of this.waiting.values()) {
      clearTimeout(entry.timer);
      entry.reject(new RtspEnd('stopped', 'the attempt ended'));
    }
    this.waiting.clear();
  }

  private send(method: string, uri: string, headers: Record<string, string>): Promise<RtspResponse> {
    if (this.closed) {
      return Promise.reject(new RtspEnd('stopped', 'the attempt ended'));
    }
    const text = this.text(method, uri, headers);
    const cseq = this.cseq;
    this.write(text);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(cseq);
        reject(new RtspEnd('stalled', `no answer to RTSP ${method} within ${Math.round(this.timeoutMs / 1000)} s`));
      }, this.timeoutMs);
      timer.unref();
      this.waiting.set(cseq, { resolve, reject, timer });
    });
  }
}

/** A redirect's Location, resolved against the request URI. */
function resolveLocation(location: string, uri: string): string {
  try {
    return new URL(location, uri).href;
  } catch {
    throw new RtspEnd('failed', 'the RTSP source redirected to an invalid Location');
  }
}
