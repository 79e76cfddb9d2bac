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

// Starts `receiptgate serve` (python -m receiptgate.cli.main) on a free loopback port with the
// quickstart facts and the given keys ("scope:key,…"), optionally a gate config; resolves once
// it is healthy. Returns { proc, url, log() } (log: everything it printed so far).
export async function startReceiptgate({ python, repo, dataDir, keys, config = null }) {
  const { spawn } = await import("node:child_process");
  const { join } = await import("node:path");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [
    "-m", "receiptgate.cli.main", "serve",
    "--port", String(port),
    "--data-dir", dataDir,
    "--facts", join(repo, "examples", "quickstart", "facts.yaml"),
    "--log-level", "warning",
  ];
  if (config) args.push("--config", config);
  let output = "";
  const proc = spawn(python, args, {
    cwd: repo,
    env: { ...process.env, RECEIPTGATE_API_KEYS: keys, RECEIPTGATE_RATE_LIMIT: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.on("error", (err) => (output += `spawn error: ${err}\n`));
  proc.stdout.on("data", (d) => (output += d));
  proc.stderr.on("data", (d) => (output += d));
  const log = () => output;
  await waitHealthy(proc, url, 60_000, log);
  return { proc, url, log };
}

// Stops a child process: SIGTERM, then SIGKILL after 5 s; resolves once it has exited.
export async function stopProcess(proc) {
  if (!proc || proc.exitCode !== null) return;
  proc.kill("SIGTERM");
  await new Promise((r) => {
    const t = setTimeout(() => {
      proc.kill("SIGKILL");
      r();
    }, 5000);
    proc.once("exit", () => {
      clearTimeout(t);
      r();
    });
  });
}
