/**
 * nginx's WebDAV module taking PUTs into a directory (`dav_methods PUT`, one worker): the peer of
 * an upload path that writes HTTP request bodies to disk, for the VOD upload benchmark.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child-process.js';
import { runNginx } from './nginx-process.js';

/** A running nginx taking PUTs. */
export interface NginxDav {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Starts nginx on 127.0.0.1 with one worker storing every PUT body under a temporary directory. */
export async function startNginxDav(): Promise<NginxDav> {
  const dir = mkdtempSync(join(tmpdir(), 'airwave-nginx-dav-'));
  mkdirSync(join(dir, 'files'));
  mkdirSync(join(dir, 'body'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user root;\ndaemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  server {\n    listen 127.0.0.1:${port};\n` +
      `    root ${dir}/files;\n    client_body_temp_path ${dir}/body;\n    client_max_body_size 0;\n` +
      `    location / { dav_methods PUT; create_full_put_path on; }\n  }\n}\n`,
  );
  const { stop } = await runNginx(dir, port);
  return { baseUrl: `http://127.0.0.1:${port}`, stop };
}
