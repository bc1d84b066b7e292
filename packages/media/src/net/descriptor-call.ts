/**
 * One system call on a socket's descriptor from JavaScript (`readSync`/`writeSync` on the fd of a
 * handle Node keeps): the descriptor is asked again at each call, and a failure answers its error
 * code instead of throwing.
 */

/** A Node socket handle with its descriptor (-1 once closed). */
export interface DescriptorHandle {
  readonly fd: number;
}

/**
 * Runs `call` on the handle's descriptor, asked again each time (a handler may close the socket,
 * and its number may be reused): what it returns, or the error code of its failure (EBADF once
 * closed). The error is made without a stack trace, which would cost ~2 µs on every call that
 * finds the socket empty or full.
 */
export function onDescriptor(handle: DescriptorHandle, call: (fd: number) => number): number | string {
  const fd = handle.fd;
  if (fd < 0) {
    return 'EBADF';
  }
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return call(fd);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}
