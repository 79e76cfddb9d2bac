// Tests of the OpenClaw shim against a LIVE `receiptgate serve` started as a child process.
// RECEIPTGATE_PYTHON picks the interpreter (default python3); it must have receiptgate installed.
import { test as nodeTest, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { createReceiptgatePlugin, HOOKS } from "../index.js";

// Every case gets a hard bound so a hang fails loudly instead of stalling the run.
const test = (name, fn) => nodeTest(name, { timeout: 30_000 }, fn);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PYTHON = process.env.RECEIPTGATE_PYTHON || "python3";
const KEY = "openclaw-shim-test-key-0123456789";
const LIE = "Node.js is not installed on the build host.";
const HONEST = "Node.js is installed on the build host.";

let server;
let serverLog = "";
let baseUrl;
let dataDir;
let deadUrl;

function freePort() {
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

async function waitHealthy(url, ms) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`receiptgate serve did not become healthy (${last}; exit ${server.exitCode})\n${serverLog}`);
}

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "receiptgate-openclaw-"));
  const port = await freePort();
  deadUrl = `http://127.0.0.1:${await freePort()}`; // nothing listens there
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(
    PYTHON,
    [
      "-m", "receiptgate.cli.main", "serve",
      "--port", String(port),
      "--data-dir", dataDir,
      "--facts", join(REPO, "examples", "quickstart", "facts.yaml"),
      "--log-level", "warning",
    ],
    {
      cwd: REPO,
      env: { ...process.env, RECEIPTGATE_API_KEYS: `validate:${KEY}`, RECEIPTGATE_RATE_LIMIT: "off" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.on("error", (err) => {
    serverLog += `spawn error: ${err}\n`;
  });
  server.stdout.on("data", (d) => (serverLog += d));
  server.stderr.on("data", (d) => (serverLog += d));
  await waitHealthy(baseUrl, 60_000);
});

after(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => {
        server.kill("SIGKILL");
        r();
      }, 5000);
      server.once("exit", () => {
        clearTimeout(t);
        r();
      });
    });
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function quietLogger() {
  const warnings = [];
  return { warnings, warn: (msg) => warnings.push(String(msg)) };
}

function plugin(extra = {}) {
  return createReceiptgatePlugin({ url: baseUrl, apiKey: KEY, timeoutMs: 5000, logger: quietLogger(), ...extra });
}

test("register() wires the four hooks on an OpenClaw-style api", async () => {
  const p = plugin();
  const seen = [];
  p.register({ on: (name, handler, opts) => seen.push([name, typeof handler, typeof opts.priority]) });
  assert.deepEqual(seen.map((s) => s[0]).sort(), [...HOOKS].sort());
  for (const [, kind, prio] of seen) {
    assert.equal(kind, "function");
    assert.equal(prio, "number");
  }
  await p.close();
});

test("before_message_write: a contradicted assistant message is blocked, synchronously", async () => {
  const p = plugin();
  const out = p.handlers.before_message_write({ message: { role: "assistant", content: LIE } }, { agentId: "main" });
  assert.ok(!(out instanceof Promise), "the sync hook must not return a Promise");
  assert.equal(out.block, true);
  assert.match(out.receiptgate.blockReason, /node-installed/);
  assert.deepEqual(out.receiptgate.verdicts, ["block"]);
  await p.close();
});

test("before_message_write: an honest message passes", async () => {
  const p = plugin();
  const out = p.handlers.before_message_write({ message: { role: "assistant", content: HONEST } });
  assert.ok(!(out instanceof Promise));
  assert.equal(out.block, undefined);
  assert.equal(out.message, undefined);
  assert.equal(p.stats.failures, 0);
  await p.close();
});

test("before_message_write: async variant for runtimes that await", async () => {
  const p = plugin({ syncMessageWrite: false });
  const pending = p.handlers.before_message_write({ message: { role: "assistant", content: LIE } });
  assert.ok(pending instanceof Promise);
  assert.equal((await pending).block, true);
  await p.close();
});

test("before_tool_call: exec of `bird tweet '<lie>'` is blocked with a reason", async () => {
  const p = plugin();
  const out = await p.handlers.before_tool_call({
    toolName: "exec",
    params: { command: "bird tweet 'Node.js is not installed.'" },
  });
  assert.equal(out.block, true);
  assert.match(out.blockReason, /receiptgate: block/);
  assert.match(out.blockReason, /node-installed/);
  const ok = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "ls -la" } });
  assert.equal(ok.block, undefined);
  await p.close();
});

test("message_sending: a message that is only a lie is cancelled (notice as content)", async () => {
  const p = plugin();
  const out = await p.handlers.message_sending({ content: LIE, to: "user", channelId: "telegram" });
  assert.equal(out.cancel, true);
  assert.match(out.content, /Governance/);
  await p.close();
});

test("message_sending: a mixed message is rewritten, not cancelled", async () => {
  const p = plugin();
  const out = await p.handlers.message_sending({ content: `${LIE} The pipeline is operational.` });
  assert.equal(out.cancel, undefined);
  assert.equal(typeof out.content, "string");
  assert.ok(!out.content.includes("not installed"), out.content);
  assert.match(out.content, /pipeline is operational/);
  const honest = await p.handlers.message_sending({ content: "Hello, the report is attached." });
  assert.equal(honest.cancel, undefined);
  assert.equal(honest.content, undefined);
  await p.close();
});

test("llm_output: returns at once and never blocks, even for a lie", async () => {
  const p = plugin();
  const out = p.handlers.llm_output({ assistantTexts: [LIE], model: "m" });
  assert.equal(out, undefined);
  await p.flush();
  assert.equal(p.stats.failures, 0);
  assert.equal(p.stats.calls, 1);
  await p.close();
});

test("service down, fail_closed: blocking hooks block visibly; llm_output still passes", async () => {
  const logger = quietLogger();
  const errors = [];
  const p = createReceiptgatePlugin({
    url: deadUrl,
    apiKey: KEY,
    timeoutMs: 1500,
    failMode: "fail_closed",
    logger,
    onError: (e) => errors.push(e),
  });
  const write = p.handlers.before_message_write({ message: { role: "assistant", content: HONEST } });
  assert.equal(write.block, true);
  assert.equal(write.receiptgate.failMode, "fail_closed");
  const send = await p.handlers.message_sending({ content: HONEST });
  assert.equal(send.cancel, true);
  const tool = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "ls" } });
  assert.equal(tool.block, true);
  assert.match(tool.blockReason, /unavailable \(fail_closed\)/);
  assert.equal(p.handlers.llm_output({ assistantTexts: [HONEST] }), undefined);
  await p.flush();
  assert.equal(p.stats.failures, 4);
  assert.equal(errors.length, 4);
  assert.equal(logger.warnings.length, 4);
  assert.ok(logger.warnings.some((w) => /BLOCKING/.test(w)), logger.warnings.join("\n"));
  await p.close();
});

test("service down, fail_open: hooks pass but warn and record the error", async () => {
  const logger = quietLogger();
  const p = createReceiptgatePlugin({ url: deadUrl, apiKey: KEY, timeoutMs: 1500, failMode: "fail_open", logger });
  const write = p.handlers.before_message_write({ message: { role: "assistant", content: LIE } });
  assert.equal(write.block, undefined);
  assert.match(write.receiptgate.error, /unreachable|timeout/);
  const send = await p.handlers.message_sending({ content: LIE });
  assert.equal(send.cancel, undefined);
  assert.equal(send.receiptgate.failMode, "fail_open");
  const tool = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "bird tweet 'x'" } });
  assert.equal(tool.block, undefined);
  assert.equal(p.stats.failures, 3);
  assert.equal(logger.warnings.length, 3);
  assert.ok(logger.warnings.every((w) => /letting it pass/.test(w)), logger.warnings.join("\n"));
  await p.close();
});

test("a rejected key is a failure too (fail_closed blocks, not a silent pass)", async () => {
  const logger = quietLogger();
  const p = createReceiptgatePlugin({ url: baseUrl, apiKey: "wrong-key-wrong-key-wrong", failMode: "fail_closed", logger });
  const out = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "ls" } });
  assert.equal(out.block, true);
  assert.match(out.receiptgate.error, /HTTP 401/);
  const write = p.handlers.before_message_write({ message: { role: "assistant", content: HONEST } });
  assert.equal(write.block, true);
  await p.close();
});

test("timeout applies the fail mode (server that never answers)", async () => {
  const sockets = new Set();
  const hang = createServer((sock) => sockets.add(sock)); // accepts connections, never replies
  await new Promise((r) => hang.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${hang.address().port}`;
  const logger = quietLogger();
  const p = createReceiptgatePlugin({ url, apiKey: KEY, timeoutMs: 300, failMode: "fail_closed", logger });
  const t0 = Date.now();
  const write = p.handlers.before_message_write({ message: { role: "assistant", content: HONEST } });
  assert.equal(write.block, true);
  assert.match(write.receiptgate.error, /timeout/);
  assert.ok(Date.now() - t0 < 3000, "the sync wait is bounded by timeoutMs");
  const tool = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "ls" } });
  assert.equal(tool.block, true);
  assert.match(tool.receiptgate.error, /timeout/);
  await p.close();
  for (const sock of sockets) sock.destroy();
  await new Promise((r) => hang.close(r));
});

test("sync before_message_write also works inside an ESM --input-type=module process", async () => {
  const script = `
    import { createReceiptgatePlugin } from ${JSON.stringify(new URL("../index.js", import.meta.url).href)};
    const p = createReceiptgatePlugin({ url: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(KEY)}, timeoutMs: 5000 });
    const out = p.handlers.before_message_write({ message: { role: "assistant", content: ${JSON.stringify(LIE)} } });
    console.log(JSON.stringify(out));
    await p.close();
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((r) => child.on("exit", r));
  assert.equal(code, 0, stderr);
  const out = JSON.parse(stdout.trim().split("\n").pop());
  assert.equal(out.block, true, stdout + stderr);
  assert.equal(out.receiptgate.error, undefined, stdout + stderr);
});

test("options are checked", () => {
  assert.throws(() => createReceiptgatePlugin({ apiKey: KEY }), /url/);
  assert.throws(() => createReceiptgatePlugin({ url: baseUrl }), /apiKey/);
  assert.throws(() => createReceiptgatePlugin({ url: baseUrl, apiKey: KEY, failMode: "maybe" }), /failMode/);
});
