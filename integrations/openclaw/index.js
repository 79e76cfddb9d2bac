// receiptgate OpenClaw plugin: forwards four OpenClaw typed hooks to a running
// `receiptgate serve` (POST /hooks/{event}) and applies its answers.
//
// Plain JavaScript (ESM), no dependencies, no build step; Node >= 18 (global fetch).
// Checked against the real `openclaw` npm package 2026.9.6 (see README.md): the default
// export is the plugin entry OpenClaw's loader calls (`register(api)`), the manifest is
// openclaw.plugin.json next to this file, and the result shapes below are the ones its
// hook runner merges (dist/hooks-*.mjs, types in dist/cli-backend.types-*.d.ts).
//
//   message_sending       -> { cancel, cancelReason, metadata } / { content }   (async, awaited)
//   before_message_write  -> { block } / { message }                           (SYNCHRONOUS, see below)
//   before_tool_call      -> { block, blockReason }                            (async, awaited)
//   llm_output            -> nothing; fire-and-forget audit (never blocks)
//
// before_message_write is synchronous in OpenClaw: a handler that returns a Promise is
// ignored with a warning by the hook runner. The shim therefore does a *blocking* HTTP call:
// a helper worker thread performs the fetch while the calling thread waits on
// Atomics.wait() and then reads the answer with receiveMessageOnPort(). The hook returns
// a plain object, never a Promise. The wait is bounded by timeoutMs; the event loop of
// the calling thread is stalled for that long at most. `syncMessageWrite: false` only
// changes `plugin.handlers.before_message_write` (for runtimes that await it);
// `register(api)` always wires the synchronous handler, since OpenClaw needs it.
//
// Failures (service unreachable, timeout, any non-2xx answer, unparsable JSON)
// apply `failMode`, always visibly: the logger's warn, the `receiptgate` field on the
// returned result (OpenClaw ignores it), `plugin.stats`, and `onError`.
//   fail_closed: message_sending -> { cancel: true, cancelReason }, before_message_write ->
//                { block: true }, before_tool_call -> { block: true, blockReason }.
//   fail_open:   the action passes (still warned and recorded).
// llm_output never blocks in either mode.

import { Worker, MessageChannel, receiveMessageOnPort } from "node:worker_threads";

export const PLUGIN_ID = "receiptgate";

export const HOOKS = Object.freeze([
  "message_sending",
  "before_message_write",
  "before_tool_call",
  "llm_output",
]);

const FAIL_MODES = new Set(["fail_open", "fail_closed"]);

// Context fields (OpenClaw's second handler argument) forwarded when the event lacks them.
// Only plain strings: the context also carries an AbortSignal, trace objects and callbacks.
const CONTEXT_FIELDS = Object.freeze([
  "agentId",
  "sessionKey",
  "sessionId",
  "runId",
  "channelId",
  "accountId",
  "conversationId",
]);

// The helper thread of the synchronous call (a file, so it loads the same way under any flags).
const SYNC_WORKER_URL = new URL("./sync-worker.js", import.meta.url);

function describeHttpFailure(status, text) {
  let detail = text ? String(text).slice(0, 300) : "";
  try {
    const body = JSON.parse(text);
    if (body && body.error) detail = JSON.stringify(body.error).slice(0, 300);
  } catch {
    // keep the raw text
  }
  return `HTTP ${status}${detail ? `: ${detail}` : ""}`;
}

/**
 * The message with its text replaced, keeping OpenClaw's content shape: an assistant
 * message's `content` is an array of blocks ({type: "text"|"thinking"|"toolCall", ...});
 * the text blocks are replaced by one text block, the other blocks stay in place.
 */
function withText(message, text) {
  const content = message.content;
  if (!Array.isArray(content)) return { ...message, content: text };
  const out = [];
  let placed = false;
  for (const block of content) {
    if (block && block.type === "text") {
      if (!placed) out.push({ type: "text", text });
      placed = true;
    } else {
      out.push(block);
    }
  }
  if (!placed) out.push({ type: "text", text });
  return { ...message, content: out };
}

/**
 * Build the gate: handlers, stats and an OpenClaw `register(api)`.
 * @param {object} options
 * @param {string} options.url          Base URL of `receiptgate serve`, e.g. http://127.0.0.1:8000
 * @param {string} options.apiKey       A validate (or admin) key, sent as `Authorization: Bearer`.
 * @param {number} [options.timeoutMs=2000]  Per-call bound (the sync hook waits at most this long).
 * @param {"fail_open"|"fail_closed"} [options.failMode="fail_closed"]
 * @param {boolean} [options.syncMessageWrite=true]  Blocking `handlers.before_message_write` (see header).
 * @param {number} [options.priority=1000]  Priority passed to api.on for the gate hooks (higher runs first).
 * @param {{warn: Function}} [options.logger=console]
 * @param {(info: object) => void} [options.onError]  Called on every failure.
 */
export function createReceiptgatePlugin(options = {}) {
  const {
    url,
    apiKey,
    timeoutMs = 2000,
    failMode = "fail_closed",
    syncMessageWrite = true,
    priority = 1000,
    logger = console,
    onError,
  } = options;
  if (!url || typeof url !== "string") throw new TypeError("receiptgate: `url` is required");
  if (!apiKey || typeof apiKey !== "string") throw new TypeError("receiptgate: `apiKey` is required");
  if (!FAIL_MODES.has(failMode)) {
    throw new TypeError(`receiptgate: failMode must be "fail_open" or "fail_closed", got ${JSON.stringify(failMode)}`);
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`receiptgate: timeoutMs must be a positive number, got ${JSON.stringify(timeoutMs)}`);
  }
  const base = url.replace(/\/+$/, "");
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` };
  const stats = { calls: 0, failures: 0, lastError: null };
  const pendingAudits = new Set();

  function eventBody(event, ctx) {
    const body = { ...(event || {}) };
    if (ctx && typeof ctx === "object") {
      for (const key of CONTEXT_FIELDS) {
        if (body[key] == null && typeof ctx[key] === "string") body[key] = ctx[key];
      }
    }
    return JSON.stringify(body);
  }

  function parseAnswer(status, text) {
    if (status < 200 || status >= 300) return { error: describeHttpFailure(status, text) };
    try {
      const answer = JSON.parse(text);
      if (!answer || typeof answer !== "object") return { error: "answer is not a JSON object" };
      return { answer };
    } catch (err) {
      return { error: `unparsable answer: ${err.message}` };
    }
  }

  async function postAsync(event, body, abortSignal) {
    stats.calls += 1;
    const timeout = AbortSignal.timeout(timeoutMs);
    // before_tool_call's context carries the tool call's AbortSignal: a cancelled call
    // stops waiting for the gate too.
    const signal =
      abortSignal && typeof AbortSignal.any === "function" ? AbortSignal.any([timeout, abortSignal]) : timeout;
    try {
      const res = await fetch(`${base}/hooks/${event}`, { method: "POST", headers, body, signal });
      return parseAnswer(res.status, await res.text());
    } catch (err) {
      let why;
      if (timeout.aborted) why = `timeout after ${timeoutMs} ms`;
      else if (abortSignal && abortSignal.aborted) why = "aborted by the runtime";
      else why = String((err && err.cause && err.cause.code) || err);
      return { error: `unreachable: ${why}` };
    }
  }

  // --- synchronous transport (before_message_write) ---------------------------------
  let worker = null;
  let jobId = 0;
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);

  function ensureWorker() {
    if (worker) return;
    worker = new Worker(SYNC_WORKER_URL, { execArgv: [] });
    worker.unref();
    worker.on("error", (err) => {
      logger.warn(`[receiptgate] sync worker error: ${err && err.message}`);
      worker = null;
    });
  }

  function postSync(event, body) {
    stats.calls += 1;
    ensureWorker();
    const id = ++jobId;
    Atomics.store(flag, 0, 0);
    // A fresh port per job keeps a late answer of a timed-out job out of the next one.
    const { port1, port2 } = new MessageChannel();
    worker.postMessage(
      { id, url: `${base}/hooks/${event}`, headers, body, timeoutMs, shared, port: port2 },
      [port2],
    );
    const waited = Atomics.wait(flag, 0, 0, timeoutMs + 250);
    const msg = receiveMessageOnPort(port1);
    port1.close();
    if (!msg) return { error: waited === "timed-out" ? `timeout after ${timeoutMs} ms` : "no answer from sync worker" };
    const out = msg.message;
    if (out.error) {
      return { error: out.error.startsWith("TimeoutError") ? `timeout after ${timeoutMs} ms` : `unreachable: ${out.error}` };
    }
    return parseAnswer(out.status, out.text);
  }

  // --- failure handling ---------------------------------------------------------------
  function fail(event, error) {
    stats.failures += 1;
    stats.lastError = { event, error, failMode, at: new Date().toISOString() };
    const blocking = event !== "llm_output";
    const effect = !blocking ? "audit lost" : failMode === "fail_closed" ? "BLOCKING" : "letting it pass";
    logger.warn(`[receiptgate] ${event}: service call failed (${error}); ${failMode}: ${effect}`);
    if (onError) {
      try {
        onError({ event, error, failMode });
      } catch {
        // a failing callback must not change the outcome
      }
    }
    return { event, error, failMode };
  }

  function meta(answer) {
    return {
      event: answer.event,
      blockReason: answer.blockReason,
      verdicts: (answer.validations || []).map((v) => v && v.verdict),
      errors: answer.errors || [],
    };
  }

  // --- appliers -------------------------------------------------------------------------
  function applyMessageSending(r) {
    if (r.error) {
      const info = fail("message_sending", r.error);
      return failMode === "fail_closed"
        ? { cancel: true, cancelReason: `receiptgate unavailable (fail_closed): ${r.error}`, receiptgate: info }
        : { receiptgate: info };
    }
    const a = r.answer;
    const info = meta(a);
    const out = { receiptgate: info };
    if (a.cancel === true || a.block === true) {
      // OpenClaw drops `content` on a cancel (the message is suppressed, nothing is sent);
      // `cancelReason` and `metadata` reach its delivery outcome. `content` (the service's
      // governance notice) stays for runtimes that send a replacement message.
      out.cancel = true;
      out.cancelReason = a.blockReason || "receiptgate: blocked";
      out.metadata = { receiptgate: { verdicts: info.verdicts, blockReason: out.cancelReason } };
    }
    if (typeof a.content === "string") out.content = a.content;
    return out;
  }

  function applyBeforeMessageWrite(event, r) {
    if (r.error) {
      const info = fail("before_message_write", r.error);
      return failMode === "fail_closed" ? { block: true, receiptgate: info } : { receiptgate: info };
    }
    const a = r.answer;
    const out = { receiptgate: meta(a) };
    if (a.block === true) out.block = true;
    else if (typeof a.content === "string" && event && event.message && typeof event.message === "object") {
      out.message = withText(event.message, a.content);
    }
    return out;
  }

  function applyBeforeToolCall(r) {
    if (r.error) {
      const info = fail("before_tool_call", r.error);
      return failMode === "fail_closed"
        ? { block: true, blockReason: `receiptgate unavailable (fail_closed): ${r.error}`, receiptgate: info }
        : { receiptgate: info };
    }
    const a = r.answer;
    const out = { receiptgate: meta(a) };
    if (a.block === true) {
      out.block = true;
      out.blockReason = a.blockReason || "receiptgate: blocked";
    }
    return out;
  }

  // --- the handlers (OpenClaw signature: (event, ctx)) ----------------------------------
  function beforeMessageWriteSync(event, ctx) {
    return applyBeforeMessageWrite(event, postSync("before_message_write", eventBody(event, ctx)));
  }

  const handlers = {
    async message_sending(event, ctx) {
      return applyMessageSending(await postAsync("message_sending", eventBody(event, ctx)));
    },
    before_message_write: syncMessageWrite
      ? function before_message_write(event, ctx) {
          return beforeMessageWriteSync(event, ctx);
        }
      : async function before_message_write(event, ctx) {
          return applyBeforeMessageWrite(event, await postAsync("before_message_write", eventBody(event, ctx)));
        },
    async before_tool_call(event, ctx) {
      const abortSignal = ctx && ctx.abortSignal instanceof AbortSignal ? ctx.abortSignal : undefined;
      return applyBeforeToolCall(await postAsync("before_tool_call", eventBody(event, ctx), abortSignal));
    },
    llm_output(event, ctx) {
      // Void hook: start the audit call and return at once; never blocks, never throws.
      const p = postAsync("llm_output", eventBody(event, ctx))
        .then((r) => {
          if (r.error) fail("llm_output", r.error);
          return r;
        })
        .catch((err) => fail("llm_output", String(err)))
        .finally(() => pendingAudits.delete(p));
      pendingAudits.add(p);
      return undefined;
    },
  };

  const plugin = {
    id: PLUGIN_ID,
    name: "receiptgate",
    description: "Claim gate: validates agent output against operator facts via receiptgate serve",
    handlers,
    stats,
    /**
     * OpenClaw entry point: registers the four typed hooks with `api.on(hook, handler,
     * { priority })` (higher priority runs first) plus a `gateway_stop` observer that
     * waits for pending audits and stops the helper thread.
     */
    register(api) {
      if (!syncMessageWrite) {
        logger.warn(
          "[receiptgate] syncMessageWrite: false is ignored by register(): OpenClaw's before_message_write is synchronous",
        );
      }
      api.on("message_sending", handlers.message_sending, { priority });
      api.on("before_message_write", beforeMessageWriteSync, { priority });
      api.on("before_tool_call", handlers.before_tool_call, { priority });
      // llm_output is a "conversation" hook: a non-bundled plugin needs
      // plugins.entries.receiptgate.hooks.allowConversationAccess=true, otherwise OpenClaw
      // drops this registration with a warning (the three gates above still work).
      api.on("llm_output", handlers.llm_output, { priority: Math.max(0, priority - 100) });
      api.on("gateway_stop", () => plugin.close());
    },
    /** Wait for in-flight llm_output audit calls (for shutdown and tests). */
    async flush() {
      await Promise.allSettled([...pendingAudits]);
    },
    /** Stop the sync helper thread. */
    async close() {
      await plugin.flush();
      if (worker) {
        const w = worker;
        worker = null;
        await w.terminate();
      }
    },
  };
  return plugin;
}

/**
 * Options from OpenClaw plugin config (`plugins.entries.receiptgate.config`, validated
 * against openclaw.plugin.json) with environment fallbacks: RECEIPTGATE_URL (default
 * http://127.0.0.1:8000), RECEIPTGATE_API_KEY, RECEIPTGATE_FAIL_MODE (default fail_closed),
 * RECEIPTGATE_TIMEOUT_MS (default 2000), RECEIPTGATE_PRIORITY (default 1000).
 */
export function optionsFromConfig(config = {}, env = process.env) {
  const cfg = config && typeof config === "object" ? config : {};
  const num = (v) => (v === undefined || v === null || v === "" ? undefined : Number(v));
  const options = {
    url: cfg.url || env.RECEIPTGATE_URL || "http://127.0.0.1:8000",
    apiKey: cfg.apiKey || env.RECEIPTGATE_API_KEY,
    failMode: cfg.failMode || env.RECEIPTGATE_FAIL_MODE || "fail_closed",
    timeoutMs: num(cfg.timeoutMs) ?? num(env.RECEIPTGATE_TIMEOUT_MS) ?? 2000,
    priority: num(cfg.priority) ?? num(env.RECEIPTGATE_PRIORITY) ?? 1000,
  };
  if (typeof cfg.syncMessageWrite === "boolean") options.syncMessageWrite = cfg.syncMessageWrite;
  return options;
}

/** Gate built from the environment (see optionsFromConfig). */
export function pluginFromEnv(env = process.env) {
  return createReceiptgatePlugin(optionsFromConfig({}, env));
}

/**
 * The OpenClaw plugin entry (the module's default export). OpenClaw's loader takes the
 * default export's `register` and calls it with the plugin API; the gate is built from
 * `api.pluginConfig` (env fallbacks) and logs through `api.logger`. A missing API key
 * throws, so OpenClaw records a plugin load error instead of running without the gate.
 */
export const receiptgatePluginEntry = Object.freeze({
  id: PLUGIN_ID,
  name: "receiptgate",
  description: "Claim gate: validates agent output against operator facts via receiptgate serve",
  register(api) {
    const logger = api.logger && typeof api.logger.warn === "function" ? api.logger : console;
    createReceiptgatePlugin({ ...optionsFromConfig(api.pluginConfig), logger }).register(api);
  },
});

export default receiptgatePluginEntry;
