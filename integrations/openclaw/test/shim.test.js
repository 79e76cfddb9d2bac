// Tests of the OpenClaw shim against a LIVE `receiptgate serve` started as a child process.
// RECEIPTGATE_PYTHON picks the interpreter (default python3); it must have receiptgate installed.
import { test as nodeTest, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import receiptgatePluginEntry, {
  createReceiptgatePlugin,
  HOOKS,
  optionsFromConfig,
  PLUGIN_ID,
} from "../index.js";
import { freePort, startReceiptgate, stopProcess } from "./helpers.js";

// Every case gets a hard bound so a hang fails loudly instead of stalling the run.
const test = (name, fn) => nodeTest(name, { timeout: 30_000 }, fn);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PYTHON = process.env.RECEIPTGATE_PYTHON || "python3";
const KEY = "openclaw-shim-test-key-0123456789";
const LIE = "Node.js is not installed on the build host.";
const HONEST = "Node.js is installed on the build host.";

let server;
let baseUrl;
let dataDir;
let deadUrl;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "receiptgate-openclaw-"));
  deadUrl = `http://127.0.0.1:${await freePort()}`; // nothing listens there
  const started = await startReceiptgate({ python: PYTHON, repo: REPO, dataDir, keys: `validate:${KEY}` });
  server = started.proc;
  baseUrl = started.url;
});

after(async () => {
  await stopProcess(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function quietLogger() {
  const warnings = [];
  return { warnings, warn: (msg) => warnings.push(String(msg)) };
}

function plugin(extra = {}) {
  return createReceiptgatePlugin({ url: baseUrl, apiKey: KEY, timeoutMs: 5000, logger: quietLogger(), ...extra });
}

// OpenClaw 2026.9.6: api.on(hookName, handler, opts?) with opts.priority (higher runs first).
function fakeApi(extra = {}) {
  const seen = [];
  const api = { seen, on: (name, handler, opts) => seen.push({ name, handler, opts }), ...extra };
  return api;
}

test("register() wires the four hooks (plus gateway_stop) with api.on(name, handler, { priority })", async () => {
  const p = plugin();
  const api = fakeApi();
  p.register(api);
  const gates = api.seen.filter((s) => s.name !== "gateway_stop");
  assert.deepEqual(gates.map((s) => s.name).sort(), [...HOOKS].sort());
  for (const { handler, opts } of gates) {
    assert.equal(typeof handler, "function");
    assert.equal(typeof opts.priority, "number");
  }
  assert.equal(gates.find((s) => s.name === "llm_output").opts.priority, 900);
  const stop = api.seen.find((s) => s.name === "gateway_stop");
  assert.ok(stop, "gateway_stop closes the helper thread");
  await stop.handler({ reason: "test" }, {});
  await p.close();
});

test("register() always wires a synchronous before_message_write (OpenClaw ignores Promises there)", async () => {
  const logger = quietLogger();
  const p = plugin({ syncMessageWrite: false, logger });
  const api = fakeApi();
  p.register(api);
  assert.ok(logger.warnings.some((w) => /syncMessageWrite: false is ignored/.test(w)), logger.warnings.join("\n"));
  const bmw = api.seen.find((s) => s.name === "before_message_write").handler;
  const out = bmw({ message: { role: "assistant", content: [{ type: "text", text: LIE }] } }, {});
  assert.ok(!(out instanceof Promise));
  assert.equal(out.block, true);
  await p.close();
});

test("the default export is the OpenClaw plugin entry: register(api) builds the gate from api.pluginConfig", async () => {
  // OpenClaw's loader takes the default export's `register` (a bare function default export
  // would itself be called as register(api)); its id must equal openclaw.plugin.json's id.
  assert.equal(typeof receiptgatePluginEntry, "object");
  assert.equal(receiptgatePluginEntry.id, PLUGIN_ID);
  const manifest = JSON.parse(readFileSync(new URL("../openclaw.plugin.json", import.meta.url), "utf8"));
  assert.equal(manifest.id, receiptgatePluginEntry.id);
  assert.equal(manifest.configSchema.type, "object");
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.deepEqual(pkg.openclaw.extensions, ["./index.js"]);
  assert.ok(pkg.files.includes("openclaw.plugin.json"));

  const logger = quietLogger();
  const api = fakeApi({ pluginConfig: { url: baseUrl, apiKey: KEY, timeoutMs: 5000 }, logger });
  assert.equal(receiptgatePluginEntry.register(api), undefined);
  assert.deepEqual(api.seen.map((s) => s.name).sort(), [...HOOKS, "gateway_stop"].sort());
  const tool = api.seen.find((s) => s.name === "before_tool_call").handler;
  const out = await tool({ toolName: "exec", params: { command: "bird tweet 'Node.js is not installed.'" } }, { toolName: "exec" });
  assert.equal(out.block, true);
  await api.seen.find((s) => s.name === "gateway_stop").handler({}, {});
  // Without a key the entry throws, so OpenClaw records a load error instead of running ungated.
  assert.throws(() => receiptgatePluginEntry.register(fakeApi({ pluginConfig: {}, logger })), /apiKey/);
});

test("optionsFromConfig: plugin config first, then RECEIPTGATE_* env, then defaults", () => {
  const env = { RECEIPTGATE_URL: "http://env:1", RECEIPTGATE_API_KEY: "env-key", RECEIPTGATE_TIMEOUT_MS: "700" };
  assert.deepEqual(optionsFromConfig({ url: "http://cfg:2", failMode: "fail_open", syncMessageWrite: false }, env), {
    url: "http://cfg:2",
    apiKey: "env-key",
    failMode: "fail_open",
    timeoutMs: 700,
    priority: 1000,
    syncMessageWrite: false,
  });
  assert.deepEqual(optionsFromConfig(undefined, {}), {
    url: "http://127.0.0.1:8000",
    apiKey: undefined,
    failMode: "fail_closed",
    timeoutMs: 2000,
    priority: 1000,
  });
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

test("before_message_write: OpenClaw's assistant content blocks ([{type: 'text', text}]) are read", async () => {
  const p = plugin();
  const message = { role: "assistant", content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: LIE }] };
  const out = p.handlers.before_message_write({ message, sessionKey: "agent:main:main" }, { agentId: "main" });
  assert.equal(out.block, true);
  assert.match(out.receiptgate.blockReason, /node-installed/);
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

test("message_sending: a message that is only a lie is cancelled with a cancelReason", async () => {
  const p = plugin();
  // OpenClaw's event is { to, content, ... }; channelId/accountId/conversationId/sessionKey
  // come in the context and are forwarded.
  const out = await p.handlers.message_sending({ content: LIE, to: "user" }, { channelId: "telegram", sessionKey: "s" });
  assert.equal(out.cancel, true);
  assert.match(out.cancelReason, /node-installed/);
  assert.deepEqual(out.metadata, { receiptgate: { verdicts: ["block"], blockReason: out.cancelReason } });
  // OpenClaw drops content on a cancel; the notice stays for runtimes that send it instead.
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
  // OpenClaw's PluginHookLlmOutputEvent and agent context.
  const out = p.handlers.llm_output(
    { runId: "r1", sessionId: "s1", provider: "p", model: "m", assistantTexts: [LIE] },
    { agentId: "main", sessionKey: "agent:main:main", runId: "r1" },
  );
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
  assert.match(send.cancelReason, /unavailable \(fail_closed\)/);
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

test("before_tool_call: the tool call's ctx.abortSignal also ends the wait", async () => {
  const sockets = new Set();
  const hang = createServer((sock) => sockets.add(sock));
  await new Promise((r) => hang.listen(0, "127.0.0.1", r));
  const logger = quietLogger();
  const p = createReceiptgatePlugin({
    url: `http://127.0.0.1:${hang.address().port}`,
    apiKey: KEY,
    timeoutMs: 10_000,
    failMode: "fail_closed",
    logger,
  });
  const ac = new AbortController();
  const t0 = Date.now();
  setTimeout(() => ac.abort(), 200);
  const out = await p.handlers.before_tool_call({ toolName: "exec", params: { command: "ls" } }, { toolName: "exec", abortSignal: ac.signal });
  assert.ok(Date.now() - t0 < 5000);
  assert.equal(out.block, true);
  assert.match(out.receiptgate.error, /aborted by the runtime/);
  await p.close();
  for (const sock of sockets) sock.destroy();
  await new Promise((r) => hang.close(r));
});

test("a rewrite keeps OpenClaw's content shape (text blocks replaced, other blocks kept)", async () => {
  // The service answers before_message_write with block only today; a `content` answer is
  // applied as { message } with the same shape. Served by a stub that always rewrites, in a
  // child process: the synchronous call blocks this thread, so it cannot serve itself.
  const stubSource = `
    const http = require("node:http");
    const s = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ content: "REWRITTEN", validations: [{ verdict: "flag" }] }));
      });
    });
    s.listen(0, "127.0.0.1", () => console.log(s.address().port));
  `;
  const stub = spawn(process.execPath, ["-e", stubSource], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((ok) => stub.stdout.once("data", (d) => ok(Number(String(d).trim()))));
  const p = createReceiptgatePlugin({ url: `http://127.0.0.1:${port}`, apiKey: KEY, logger: quietLogger() });
  const call = { type: "toolCall", id: "c1", name: "exec", arguments: {} };
  const message = { role: "assistant", content: [{ type: "text", text: "a" }, call, { type: "text", text: "b" }], model: "m" };
  const out = p.handlers.before_message_write({ message }, {});
  assert.deepEqual(out.message, { role: "assistant", content: [{ type: "text", text: "REWRITTEN" }, call], model: "m" });
  const plain = p.handlers.before_message_write({ message: { role: "assistant", content: "x" } }, {});
  assert.deepEqual(plain.message, { role: "assistant", content: "REWRITTEN" });
  await p.close();
  stub.kill();
});

test("options are checked", () => {
  assert.throws(() => createReceiptgatePlugin({ apiKey: KEY }), /url/);
  assert.throws(() => createReceiptgatePlugin({ url: baseUrl }), /apiKey/);
  assert.throws(() => createReceiptgatePlugin({ url: baseUrl, apiKey: KEY, failMode: "maybe" }), /failMode/);
  assert.throws(() => createReceiptgatePlugin({ url: baseUrl, apiKey: KEY, timeoutMs: Number.NaN }), /timeoutMs/);
});
