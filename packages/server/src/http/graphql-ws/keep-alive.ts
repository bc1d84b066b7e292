/**
 * WebSocket keep-alive (RFC 6455 §5.5.2 ping, §5.5.3 pong): pings every interval; a client that
 * has not answered the previous ping by the next one is considered dead and its socket destroyed.
 */
import type { WebSocket } from 'ws';

/** Starts pinging `socket`; `onDead` runs before it is terminated. Returns the stop function. */
export function keepAlive(socket: WebSocket, intervalMs: number, onDead: () => void): () => void {
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    return () => undefined;
  }
  let answered = true;
  const onPong = () => {
    answered = true;
  };
  socket.on('pong', onPong);
  const timer = setInterval(() => {
    if (socket.readyState !== socket.OPEN) {
      return;
    }
    if (!answered) {
      onDead();
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    socket.off('pong', onPong);
  };
}
