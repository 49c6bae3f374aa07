import net from 'node:net';

/**
 * A free port at or above `from`, below the kernel's ephemeral range (32768+), so that no process
 * listening on port 0 (a test harness next door) can take it between this check and our listen.
 */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    const server = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) {
      await new Promise<void>((r) => server.close(() => r()));
      return port;
    }
  }
  throw new Error(`no free port in ${from}..${from + 99}`);
}
