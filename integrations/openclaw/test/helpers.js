// Shared by the Node tests: a free loopback port, and waiting for a `receiptgate serve` child.
import { createServer } from "node:net";

export function freePort() {
  return new Promise((ok, ko) => {
    const s = createServer();
    s.unref();
    s.on("error", ko);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

// Resolves once `${url}/healthz` answers 2xx; rejects with the server's log when `proc` exits
// or `ms` pass.
export async function waitHealthy(proc, url, ms, log = () => "") {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`receiptgate serve did not become healthy (${last}; exit ${proc.exitCode})\n${log()}`);
}
