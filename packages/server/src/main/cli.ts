#!/usr/bin/env node
/**
 * `airwave start [--flag value …]`: validates configuration, starts the service, prints its
 * URLs, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../config/config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { startAirwave } from './start.js';

const HELP = `usage: airwave start [--host H] [--http-port N] [--rtmp-port N] [--data-dir DIR] [--database-url URL] …
Every flag has a matching environment variable: ${CONFIG_VARIABLES.join(', ')}.`;

async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...rest] = argv;
  if (command === '--help' || command === 'help' || rest.includes('--help')) {
    console.log(HELP);
    return;
  }
  if (command !== 'start') {
    throw new ConfigError(`unknown command "${command}"\n${HELP}`);
  }
  const config = loadConfig(process.env, rest);
  const running = await startAirwave(config);
  const lines = Object.entries(running.urls).map(([name, url]) => `  ${name.padEnd(14)} ${url}`);
  console.log(`Airwave is running (data: ${config.databaseUrl ? 'PostgreSQL' : config.dataDir})\n${lines.join('\n')}`);
  console.log(
    `AIRWAVE_READY ${JSON.stringify({ ports: running.ports, urls: running.urls, nodeId: running.node.nodeId })}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`received ${signal}, shutting down`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`airwave: ${error.message}`);
    process.exit(2);
  }
  console.error('airwave: failed to start:', error);
  process.exit(1);
});
