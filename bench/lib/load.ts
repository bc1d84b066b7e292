/** autocannon load runs as promises. */
import autocannon from 'autocannon';

/** Runs autocannon with `options` and resolves with its result. */
export function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
