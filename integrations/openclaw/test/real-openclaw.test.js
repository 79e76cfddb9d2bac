// The shim inside the REAL OpenClaw runtime: OpenClaw's own plugin loader
// (dist/plugins/loader.js: discovery via plugins.load.paths, openclaw.plugin.json,
// config validation, module load, register(api)) and its own global hook runner
// (dist/plugins/hook-runner-global.js) fire the four hooks against a LIVE
// `receiptgate serve` started here.
//
// Needs Node >= 24 (OpenClaw's engines) and an installed openclaw package:
//   OPENCLAW_PKG=/path/to/node_modules/openclaw  (scripts/real-runtime-check.sh provisions both)
// Without them every case is SKIPPED with the reason. RECEIPTGATE_PYTHON picks the interpreter
// of the service (default python3; it must have receiptgate installed).
import { test as nodeTest, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort, startReceiptgate, stopProcess } from "./helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const SHIM_DIR = resolve(HERE, "..");
const REPO = resolve(SHIM_DIR, "..", "..");
const PYTHON = process.env.RECEIPTGATE_PYTHON || "python3";
const OPENCLAW_PKG = process.env.OPENCLAW_PKG ? resolve(process.env.OPENCLAW_PKG) : "";
const KEY = "openclaw-real-runtime-validate-0123456789";
const ADMIN = "openclaw-real-runtime-admin-0123456789";
const LIE = "Node.js is not installed on the build host.";
const HONEST = "Node.js is installed on the build host.";

function skipReason() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) return `Node ${process.versions.node} < 24 (openclaw needs >=24.16)`;
  if (!OPENCLAW_PKG) return "OPENCLAW_PKG is not set (path to an installed openclaw package)";
  for (const f of ["package.json", "dist/plugins/loader.js", "dist/plugins/hook-runner-global.js"]) {
    if (!existsSync(join(OPENCLAW_PKG, f))) return `${join(OPENCLAW_PKG, f)} not found`;
  }
  return null;
}
const SKIP = skipReason();
const test = (name, fn) => nodeTest(name, { timeout: 120_000, skip: SKIP || false }, fn);

let server;
let baseUrl;
let deadUrl;
let tmp;
let loader;
let hookRunnerGlobal;
let openclawVersion = null;

before(async () => {
  if (SKIP) return;
  tmp = mkdtempSync(join(tmpdir(), "receiptgate-openclaw-rt-"));
  // OpenClaw state, config and home stay inside the temp dir (set before OpenClaw is imported).
  process.env.OPENCLAW_STATE_DIR = join(tmp, "state");
  process.env.OPENCLAW_HOME = join(tmp, "home");
  process.env.HOME = join(tmp, "home");
  process.env.OPENCLAW_CONFIG_PATH = join(tmp, "openclaw.json");
  writeFileSync(process.env.OPENCLAW_CONFIG_PATH, "{}\n");

  // llm_output validation is off by default in receiptgate; turn it on to see the audit.
  const config = join(tmp, "gate.yaml");
  writeFileSync(config, "hooks:\n  messageSending: true\n  beforeMessageWrite: true\n  llmOutput: true\n");
  deadUrl = `http://127.0.0.1:${await freePort()}`;
  const started = await startReceiptgate({
    python: PYTHON, repo: REPO, dataDir: join(tmp, "data"), config,
    keys: `validate:${KEY},admin:${ADMIN}`,
  });
  server = started.proc;
  baseUrl = started.url;

  openclawVersion = JSON.parse(readFileSync(join(OPENCLAW_PKG, "package.json"), "utf8")).version;
  loader = await import(pathToFileURL(join(OPENCLAW_PKG, "dist/plugins/loader.js")).href);
  hookRunnerGlobal = await import(pathToFileURL(join(OPENCLAW_PKG, "dist/plugins/hook-runner-global.js")).href);
  console.log(`# openclaw ${openclawVersion} from ${OPENCLAW_PKG}, node ${process.versions.node}`);
});

after(async () => {
  await stopProcess(server);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** OpenClaw config enabling the shim from this folder (plugins.load.paths). */
function openclawConfig(pluginConfig, { conversationAccess = true } = {}) {
  return {
    plugins: {
      allow: ["receiptgate"],
      load: { paths: [SHIM_DIR] },
      entries: {
        receiptgate: {
          enabled: true,
          config: pluginConfig,
          ...(conversationAccess ? { hooks: { allowConversationAccess: true } } : {}),
        },
      },
    },
  };
}

/** Load through OpenClaw's loader, activate, and return the registry and the global runner. */
function load(pluginConfig, opts) {
  const registry = loader.loadOpenClawPlugins({
    config: openclawConfig(pluginConfig, opts),
    workspaceDir: join(tmp, "workspace"),
    onlyPluginIds: ["receiptgate"],
    activate: true,
    cache: false,
  });
  hookRunnerGlobal.initializeGlobalHookRunner(registry);
  return { registry, runner: hookRunnerGlobal.getGlobalHookRunner() };
}

function pluginRecord(registry) {
  const rec = registry.plugins.find((p) => p.id === "receiptgate");
  assert.ok(rec, `receiptgate not in the registry: ${JSON.stringify(registry.diagnostics)}`);
  return rec;
}

function hooksOf(registry) {
  return Object.fromEntries(
    registry.typedHooks.filter((h) => h.pluginId === "receiptgate").map((h) => [h.hookName, h.priority]),
  );
}

async function auditHooks() {
  const res = await fetch(`${baseUrl}/audit?limit=200`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  assert.equal(res.status, 200);
  const body = await res.json();
  return body.records.map((r) => r.trigger_hook ?? r.triggerHook);
}

test("OpenClaw's loader loads the shim (manifest, config, register) and wires its hooks", async () => {
  const { registry, runner } = load({ url: baseUrl, apiKey: KEY, timeoutMs: 5000 });
  const rec = pluginRecord(registry);
  assert.equal(rec.status, "loaded", `${rec.error} ${JSON.stringify(registry.diagnostics)}`);
  assert.equal(realpathSync(rec.source), realpathSync(join(SHIM_DIR, "index.js")));
  assert.deepEqual(hooksOf(registry), {
    message_sending: 1000,
    before_message_write: 1000,
    before_tool_call: 1000,
    llm_output: 900,
    gateway_stop: undefined,
  });
  for (const h of ["message_sending", "before_message_write", "before_tool_call", "llm_output"]) {
    assert.equal(runner.hasHooks(h), true, h);
  }
  await runner.runGatewayStop({ reason: "test" }, {});
});

test("OpenClaw's hook runner: the four hooks against the live service", async () => {
  const { runner } = load({ url: baseUrl, apiKey: KEY, timeoutMs: 5000 });
  const ctx = { agentId: "main", sessionKey: "agent:main:main" };

  // before_message_write: synchronous; OpenClaw's assistant content is an array of blocks.
  const lie = { role: "assistant", content: [{ type: "text", text: LIE }] };
  const written = runner.runBeforeMessageWrite({ message: lie, ...ctx }, ctx);
  assert.ok(!(written instanceof Promise));
  assert.deepEqual(written, { block: true });
  const honest = { role: "assistant", content: [{ type: "text", text: HONEST }] };
  assert.equal(runner.runBeforeMessageWrite({ message: honest }, ctx), undefined);

  // message_sending: a lie only -> cancelled with a reason; a mixed message -> rewritten.
  const sent = await runner.runMessageSending({ to: "user", content: LIE }, { channelId: "telegram", ...ctx });
  assert.equal(sent.cancel, true);
  assert.match(sent.cancelReason, /node-installed/);
  assert.deepEqual(sent.metadata.receiptgate.verdicts, ["block"]);
  const mixed = await runner.runMessageSending(
    { to: "user", content: `${LIE} The pipeline is operational.` },
    { channelId: "telegram" },
  );
  assert.equal(mixed.cancel, undefined);
  assert.ok(!mixed.content.includes("not installed"), mixed.content);
  assert.match(mixed.content, /pipeline is operational/);
  const plain = await runner.runMessageSending({ to: "user", content: "Hello, the report is attached." }, { channelId: "x" });
  assert.equal(plain?.cancel, undefined);
  assert.equal(plain?.content ?? "Hello, the report is attached.", "Hello, the report is attached.");

  // before_tool_call: exec of `bird tweet '<lie>'` is blocked with a reason; `ls` passes.
  const tool = await runner.runBeforeToolCall(
    { toolName: "exec", params: { command: "bird tweet 'Node.js is not installed.'" } },
    { toolName: "exec", ...ctx },
  );
  assert.equal(tool.block, true);
  assert.match(tool.blockReason, /node-installed/);
  const ls = await runner.runBeforeToolCall({ toolName: "exec", params: { command: "ls -la" } }, { toolName: "exec" });
  assert.notEqual(ls?.block, true);

  // llm_output: void; the audit call reaches the service (visible in its audit).
  const before = (await auditHooks()).filter((h) => h === "llm_output").length;
  assert.equal(
    await runner.runLlmOutput({ runId: "r1", sessionId: "s1", provider: "p", model: "m", assistantTexts: [LIE] }, ctx),
    undefined,
  );
  let seen = before;
  for (let i = 0; i < 50 && seen === before; i += 1) {
    await new Promise((r) => setTimeout(r, 100));
    seen = (await auditHooks()).filter((h) => h === "llm_output").length;
  }
  assert.equal(seen, before + 1, "llm_output audit not recorded by the service");
  await runner.runGatewayStop({ reason: "test" }, {});
});

test("OpenClaw's hook runner: service down, fail_closed blocks every gate", async () => {
  const { runner } = load({ url: deadUrl, apiKey: KEY, timeoutMs: 1500, failMode: "fail_closed" });
  const honest = { role: "assistant", content: [{ type: "text", text: HONEST }] };
  assert.deepEqual(runner.runBeforeMessageWrite({ message: honest }, {}), { block: true });
  const sent = await runner.runMessageSending({ to: "user", content: HONEST }, { channelId: "x" });
  assert.equal(sent.cancel, true);
  assert.match(sent.cancelReason, /unavailable \(fail_closed\)/);
  const tool = await runner.runBeforeToolCall({ toolName: "exec", params: { command: "ls" } }, { toolName: "exec" });
  assert.equal(tool.block, true);
  assert.match(tool.blockReason, /unavailable \(fail_closed\)/);
  await runner.runGatewayStop({ reason: "test" }, {});
});

test("without hooks.allowConversationAccess OpenClaw drops llm_output (the gates stay)", async () => {
  const { registry, runner } = load({ url: baseUrl, apiKey: KEY }, { conversationAccess: false });
  assert.equal(pluginRecord(registry).status, "loaded");
  const hooks = hooksOf(registry);
  assert.equal("llm_output" in hooks, false);
  for (const h of ["message_sending", "before_message_write", "before_tool_call"]) assert.ok(h in hooks, h);
  assert.ok(
    registry.diagnostics.some((d) => /llm_output.*allowConversationAccess/.test(d.message)),
    JSON.stringify(registry.diagnostics),
  );
  await runner.runGatewayStop({ reason: "test" }, {});
});

test("a config OpenClaw's manifest schema rejects does not load", async () => {
  const { registry } = load({ url: baseUrl, apiKey: KEY, failMode: "maybe" });
  const rec = registry.plugins.find((p) => p.id === "receiptgate");
  assert.ok(!rec || rec.status !== "loaded", JSON.stringify(rec));
});
