// A REAL OpenClaw agent turn with the shim installed, end to end and offline: the `openclaw`
// CLI (`openclaw agent --local --deliver`, OpenClaw's own embedded agent loop, plugin loader,
// hook runner, transcript store and channel delivery) runs as a child process against
//   - a LIVE `receiptgate serve` (examples/quickstart/facts.yaml: Node.js IS installed), and
//   - a scripted loopback HTTP server standing in for the model (OpenAI chat completions,
//     OpenClaw's `openai-completions` adapter for a custom provider with a baseUrl) and for the
//     Telegram Bot API (the bundled telegram channel with `apiRoot` on loopback, a dummy token).
// The hooks are fired by OpenClaw's agent loop, not by the test.
//
// Turn 1 (a lying agent): tool call `exec echo …` (passes, runs), tool call
// `exec bird tweet '<lie>'` (before_tool_call blocks it; the model gets the reason as the tool
// result), final text "Node.js is not installed on the build host." (before_message_write keeps
// it out of the session transcript, message_sending cancels the Telegram delivery).
// Turn 2 (control): an honest final text is persisted and reaches the fake Telegram API.
//
// Needs Node >= 24.16 and an installed openclaw (OPENCLAW_PKG; scripts/real-runtime-check.sh
// provisions both); skipped with the reason otherwise. RECEIPTGATE_PYTHON picks the service's
// interpreter (default python3).
import { test as nodeTest, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startReceiptgate, stopProcess } from "./helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const SHIM_DIR = resolve(HERE, "..");
const REPO = resolve(SHIM_DIR, "..", "..");
const PYTHON = process.env.RECEIPTGATE_PYTHON || "python3";
const OPENCLAW_PKG = process.env.OPENCLAW_PKG ? resolve(process.env.OPENCLAW_PKG) : "";
const KEY = "openclaw-agent-turn-validate-0123456789";
const ADMIN = "openclaw-agent-turn-admin-0123456789";
const TG_TOKEN = "123456:offline-dummy-token";
const CHAT = "12345";
const LIE = "Node.js is not installed on the build host.";
const HONEST = "Node.js is installed on the build host.";
const TWEET = "bird tweet 'Node.js is not installed.'";
const PROMPT = "Is Node.js installed on the build host? Check, then answer.";

function skipReason() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (!((major === 24 && minor >= 16) || (major === 26 && minor >= 1) || major > 26)) {
    return `Node ${process.versions.node}: openclaw needs >=24.16 <25 or >=26.1`;
  }
  if (!OPENCLAW_PKG) return "OPENCLAW_PKG is not set (path to an installed openclaw package)";
  for (const f of ["package.json", "openclaw.mjs", "dist/extensions/telegram/openclaw.plugin.json"]) {
    if (!existsSync(join(OPENCLAW_PKG, f))) return `${join(OPENCLAW_PKG, f)} not found`;
  }
  return null;
}
const SKIP = skipReason();
const test = (name, fn) => nodeTest(name, { timeout: 120_000, skip: SKIP || false }, fn);

let tmp;
let service;
let serviceUrl;
let fake;
let fakePort;
// What the scripted model answers: indexed by the number of tool results in the request.
let script = [];
const modelRequests = [];
const telegramCalls = [];

// --- the scripted loopback server: model (chat completions) + Telegram Bot API ------------
function startFake() {
  fake = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { raw };
      }
      const json = (obj) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(obj));
      };
      const tg = req.url.match(/^\/bot([^/]+)\/(\w+)/);
      if (tg) {
        telegramCalls.push({ method: tg[2], token: decodeURIComponent(tg[1]), body });
        if (tg[2] === "getMe") return json({ ok: true, result: { id: 123456, is_bot: true, first_name: "rg", username: "rg_bot" } });
        if (tg[2] === "sendMessage") {
          return json({
            ok: true,
            result: { message_id: telegramCalls.length, date: Math.floor(Date.now() / 1000), chat: { id: Number(CHAT), type: "private" }, text: body.text },
          });
        }
        return json({ ok: true, result: true });
      }
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        res.writeHead(404);
        return res.end();
      }
      modelRequests.push(body);
      const step = (body.messages || []).filter((m) => m.role === "tool").length;
      const s = script[Math.min(step, script.length - 1)];
      const id = `chatcmpl-${modelRequests.length}`;
      const created = Math.floor(Date.now() / 1000);
      const call = s.tool && { index: 0, id: `call_${step}`, type: "function", function: { name: s.tool, arguments: JSON.stringify(s.args) } };
      const finish = s.tool ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (!body.stream) {
        const message = s.tool ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: s.text };
        return json({ id, object: "chat.completion", created, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (choices, extra = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices, ...extra })}\n\n`);
      chunk([{ index: 0, delta: { role: "assistant" }, finish_reason: null }]);
      chunk([{ index: 0, delta: s.tool ? { tool_calls: [call] } : { content: s.text }, finish_reason: null }]);
      chunk([{ index: 0, delta: {}, finish_reason: finish }]);
      chunk([], { usage });
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((ok) => fake.listen(0, "127.0.0.1", () => ok(fake.address().port)));
}

before(async () => {
  if (SKIP) return;
  tmp = mkdtempSync(join(tmpdir(), "receiptgate-openclaw-turn-"));
  for (const d of ["state", "home", "work"]) mkdirSync(join(tmp, d));
  fakePort = await startFake();

  const gateConfig = join(tmp, "gate.yaml");
  writeFileSync(gateConfig, "hooks:\n  messageSending: true\n  beforeMessageWrite: true\n  llmOutput: true\n");
  const started = await startReceiptgate({
    python: PYTHON, repo: REPO, dataDir: join(tmp, "data"), config: gateConfig,
    keys: `validate:${KEY},admin:${ADMIN}`,
  });
  service = started.proc;
  serviceUrl = started.url;

  // The OpenClaw config: the scripted model as a custom OpenAI-compatible provider, the shim from
  // this folder (as `openclaw plugins install --link` would add it), the bundled telegram channel
  // pointed at the loopback fake.
  const openclawConfig = {
    // OpenClaw's rolling log defaults to /tmp/openclaw/; keep it in the temp dir. (Its empty
    // state-lock files in /tmp/openclaw-state-locks-<uid>/ have a fixed place.)
    logging: { file: join(tmp, "openclaw.log") },
    agents: { defaults: { model: { primary: "scripted/scripted-model" } } },
    models: {
      mode: "replace",
      providers: {
        scripted: {
          baseUrl: `http://127.0.0.1:${fakePort}/v1`,
          apiKey: "scripted-local",
          api: "openai-completions",
          models: [
            {
              id: "scripted-model",
              name: "Scripted",
              reasoning: false,
              input: ["text"],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    channels: { telegram: { enabled: true, botToken: TG_TOKEN, apiRoot: `http://127.0.0.1:${fakePort}` } },
    plugins: {
      allow: ["receiptgate", "telegram"],
      load: { paths: [SHIM_DIR] },
      entries: {
        receiptgate: {
          enabled: true,
          config: { url: serviceUrl, apiKey: KEY, timeoutMs: 5000 },
          hooks: { allowConversationAccess: true },
        },
      },
    },
  };
  writeFileSync(join(tmp, "openclaw.json"), JSON.stringify(openclawConfig, null, 2));
  const version = JSON.parse(readFileSync(join(OPENCLAW_PKG, "package.json"), "utf8")).version;
  console.log(`# openclaw ${version} from ${OPENCLAW_PKG}, node ${process.versions.node}`);
});

after(async () => {
  if (fake) await new Promise((r) => fake.close(() => r()));
  await stopProcess(service);
  if (tmp && !process.env.RECEIPTGATE_KEEP_TMP) rmSync(tmp, { recursive: true, force: true });
  else if (tmp) console.log(`# kept ${tmp}`);
});

/** One `openclaw agent --local --deliver` turn, state/config/home inside the temp dir. */
function openclawAgentTurn(sessionKey) {
  const args = [
    join(OPENCLAW_PKG, "openclaw.mjs"), "agent", "--local",
    "--session-key", sessionKey,
    "--deliver", "--channel", "telegram", "--reply-to", CHAT,
    "--json", "--timeout", "60",
    "--message", PROMPT,
  ];
  const env = {
    ...process.env,
    OPENCLAW_STATE_DIR: join(tmp, "state"),
    OPENCLAW_HOME: join(tmp, "home"),
    HOME: join(tmp, "home"),
    OPENCLAW_CONFIG_PATH: join(tmp, "openclaw.json"),
    NO_COLOR: "1",
  };
  return new Promise((ok, ko) => {
    const child = spawn(process.execPath, args, { cwd: join(tmp, "work"), env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", ko);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      ok({ code, signal, stdout, stderr });
    });
  });
}

function parseResult(run) {
  assert.equal(run.code, 0, `openclaw agent exited ${run.code} ${run.signal}\n${run.stdout}\n${run.stderr}`);
  try {
    return JSON.parse(run.stdout);
  } catch {
    assert.fail(`openclaw agent --json printed no JSON:\n${run.stdout}\n${run.stderr}`);
  }
}

async function audit() {
  const res = await fetch(`${serviceUrl}/audit?limit=200`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  assert.equal(res.status, 200);
  return (await res.json()).records;
}

/** The persisted session transcript (OpenClaw's per-agent SQLite store), as JSON strings. */
async function transcriptEvents(sessionId) {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(join(tmp, "state", "agents", "main", "agent", "openclaw-agent.sqlite"), { readOnly: true });
  try {
    return db
      .prepare("SELECT event_json FROM transcript_events WHERE session_id = ? ORDER BY seq")
      .all(sessionId)
      .map((r) => r.event_json);
  } finally {
    db.close();
  }
}

function deliveryStatus(result) {
  const status = result?.meta?.deliveryStatus ?? result?.deliveryStatus;
  assert.ok(status, `no deliveryStatus in the result: ${JSON.stringify(result).slice(0, 2000)}`);
  return status;
}

test("a real OpenClaw agent turn: the gate blocks the lying tool call, the transcript write and the delivery", async () => {
  script = [
    { tool: "exec", args: { command: "echo hello-from-tool" } },
    { tool: "exec", args: { command: TWEET } },
    { text: LIE },
  ];
  modelRequests.length = 0;
  telegramCalls.length = 0;
  const run = await openclawAgentTurn("agent:main:lie");
  const result = parseResult(run);
  const out = `${run.stdout}\n${run.stderr}`;

  // The agent loop called the scripted model three times: after each tool result, then done.
  assert.equal(modelRequests.length, 3, out);
  console.log(`lie turn: model requests = ${JSON.stringify(modelRequests.map((r) => ({ stream: r.stream, messages: r.messages?.length, tools: r.tools?.length })))}`);
  const toolResults = modelRequests[2].messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  assert.match(toolResults[0], /hello-from-tool/); // `echo` passed the gate and ran
  // before_tool_call blocked the tweet; OpenClaw handed the block reason to the model instead.
  assert.match(toolResults[1], /^receiptgate: block .*node-installed/);

  // The reply: `openclaw agent` still returns it to the caller (payloads), but the channel
  // delivery was cancelled by message_sending, with the shim's reason and metadata recorded.
  assert.equal(result.payloads?.[0]?.text, LIE, out);
  const status = deliveryStatus(result);
  assert.equal(status.status, "suppressed", JSON.stringify(status));
  assert.equal(status.reason, "cancelled_by_message_sending_hook");
  const effect = status.payloadOutcomes?.[0]?.hookEffect;
  assert.match(effect?.cancelReason ?? "", /node-installed/, JSON.stringify(status));
  assert.deepEqual(effect.metadata.receiptgate.verdicts, ["block"]);
  assert.equal(telegramCalls.filter((c) => c.method === "sendMessage").length, 0, JSON.stringify(telegramCalls));
  console.log(`lie turn: tool result 2 = ${JSON.stringify(toolResults[1])}`);
  console.log(`lie turn: deliveryStatus = ${JSON.stringify({ status: status.status, reason: status.reason, cancelReason: effect.cancelReason })}`);

  // The persisted session transcript: the prompt and the tool results are there, the lie is not.
  const sessionId = result.meta?.agentMeta?.sessionId;
  assert.ok(sessionId, out);
  const events = await transcriptEvents(sessionId);
  assert.ok(events.some((e) => e.includes(PROMPT)), "user prompt not persisted");
  assert.ok(events.some((e) => e.includes("hello-from-tool")), "tool result not persisted");
  assert.ok(!events.some((e) => e.includes(LIE)), "the blocked assistant text was persisted");

  // What receiptgate saw: the four hooks, fired by OpenClaw's agent loop, each blocking the lie.
  // llm_output is fire-and-forget; OpenClaw fires it before the delivery, so it has landed.
  const records = (await audit()).filter((r) => r.session_id === "agent:main:lie");
  const hooks = records.map((r) => r.trigger_hook).sort();
  assert.deepEqual(hooks, ["before_message_write", "before_tool_call", "llm_output", "message_sending"], JSON.stringify(records));
  for (const r of records) {
    assert.equal(r.verdict, "block", JSON.stringify(r));
    assert.match(JSON.stringify(r.output_validation), /node-installed/);
  }
  assert.equal(records.find((r) => r.trigger_hook === "message_sending").channel, "telegram");
  console.log(`lie turn: audit = ${JSON.stringify(records.map((r) => [r.trigger_hook, r.verdict, r.channel]))}`);
});

test("control: an honest OpenClaw agent turn is persisted and delivered", async () => {
  script = [{ text: HONEST }];
  modelRequests.length = 0;
  telegramCalls.length = 0;
  const run = await openclawAgentTurn("agent:main:honest");
  const result = parseResult(run);
  const out = `${run.stdout}\n${run.stderr}`;

  assert.equal(modelRequests.length, 1, out);
  assert.equal(result.payloads?.[0]?.text, HONEST, out);
  const status = deliveryStatus(result);
  assert.notEqual(status.status, "suppressed", JSON.stringify(status));
  const sent = telegramCalls.filter((c) => c.method === "sendMessage");
  assert.equal(sent.length, 1, JSON.stringify(telegramCalls));
  assert.equal(sent[0].token, TG_TOKEN);
  assert.equal(String(sent[0].body.chat_id), CHAT);
  assert.match(sent[0].body.text, /Node\.js is installed on the build host/);
  console.log(`honest turn: deliveryStatus.status = ${status.status}; Telegram calls = ${JSON.stringify(telegramCalls.map((c) => c.method))}`);

  const events = await transcriptEvents(result.meta.agentMeta.sessionId);
  assert.ok(events.some((e) => e.includes(HONEST)), "the honest assistant text was not persisted");
  const records = (await audit()).filter((r) => r.session_id === "agent:main:honest");
  assert.ok(records.every((r) => r.verdict !== "block"), JSON.stringify(records));
});
