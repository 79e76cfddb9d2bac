// receiptgate OpenClaw plugin shim: forwards four OpenClaw hooks to a running
// `receiptgate serve` (POST /hooks/{event}) and applies its answers.
//
// Plain JavaScript (ESM), no dependencies, no build step; Node >= 18 (global fetch).
//
//   message_sending       -> { cancel, content }            (async hook, awaited)
//   before_message_write  -> { block } / { message }        (SYNCHRONOUS hook, see below)
//   before_tool_call      -> { block, blockReason }         (async hook, awaited)
//   llm_output            -> nothing; fire-and-forget audit (never blocks)
//
// before_message_write is synchronous in OpenClaw: a handler that returns a Promise
// is not awaited there. By default the shim therefore does a *blocking* HTTP call:
// a helper worker thread performs the fetch while the calling thread waits on
// Atomics.wait() and then reads the answer with receiveMessageOnPort(). The hook
// returns a plain object, never a Promise. The wait is bounded by timeoutMs; the
// event loop of the calling thread is stalled for that long at most.
// Set `syncMessageWrite: false` to get an async handler instead (only for a runtime
// that awaits before_message_write handlers).
//
// Failures (service unreachable, timeout, any non-2xx answer, unparsable JSON)
// apply `failMode`, always visibly: console.warn (or your `logger.warn`), the
// `receiptgate` field on the returned result, `plugin.stats`, and `onError`.
//   fail_closed: message_sending -> { cancel: true }, before_message_write ->
//                { block: true }, before_tool_call -> { block: true, blockReason }.
//   fail_open:   the action passes (still warned and recorded).
// llm_output never blocks in either mode.

import { Worker, MessageChannel, receiveMessageOnPort } from "node:worker_threads";

export const HOOKS = Object.freeze([
  "message_sending",
  "before_message_write",
  "before_tool_call",
  "llm_output",
]);

const FAIL_MODES = new Set(["fail_open", "fail_closed"]);

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
 * Build the OpenClaw plugin.
 * @param {object} options
 * @param {string} options.url          Base URL of `receiptgate serve`, e.g. http://127.0.0.1:8000
 * @param {string} options.apiKey       A validate (or admin) key, sent as `Authorization: Bearer`.
 * @param {number} [options.timeoutMs=2000]  Per-call bound (the sync hook waits at most this long).
 * @param {"fail_open"|"fail_closed"} [options.failMode="fail_closed"]
 * @param {boolean} [options.syncMessageWrite=true]  Blocking before_message_write (see header).
 * @param {number} [options.priority=1000]  Priority passed to api.on for the gate hooks.
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
  const base = url.replace(/\/+$/, "");
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` };
  const stats = { calls: 0, failures: 0, lastError: null };
  const pendingAudits = new Set();

  function eventBody(event, ctx) {
    const body = { ...(event || {}) };
    if (ctx && typeof ctx === "object") {
      if (body.agentId == null && typeof ctx.agentId === "string") body.agentId = ctx.agentId;
      if (body.sessionKey == null && typeof ctx.sessionKey === "string") body.sessionKey = ctx.sessionKey;
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

  async function postAsync(event, body) {
    stats.calls += 1;
    try {
      const res = await fetch(`${base}/hooks/${event}`, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return parseAnswer(res.status, await res.text());
    } catch (err) {
      const why = err && err.name === "TimeoutError" ? `timeout after ${timeoutMs} ms` : String((err && err.cause && err.cause.code) || err);
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
      return failMode === "fail_closed" ? { cancel: true, receiptgate: info } : { receiptgate: info };
    }
    const a = r.answer;
    const out = { receiptgate: meta(a) };
    if (a.cancel === true || a.block === true) out.cancel = true;
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
    else if (typeof a.content === "string" && event && event.message) {
      out.message = { ...event.message, content: a.content };
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

  // --- the handlers (OpenClaw signature: (event, hookCtx)) ------------------------------
  const handlers = {
    async message_sending(event, ctx) {
      return applyMessageSending(await postAsync("message_sending", eventBody(event, ctx)));
    },
    before_message_write: syncMessageWrite
      ? function before_message_write(event, ctx) {
          return applyBeforeMessageWrite(event, postSync("before_message_write", eventBody(event, ctx)));
        }
      : async function before_message_write(event, ctx) {
          return applyBeforeMessageWrite(event, await postAsync("before_message_write", eventBody(event, ctx)));
        },
    async before_tool_call(event, ctx) {
      return applyBeforeToolCall(await postAsync("before_tool_call", eventBody(event, ctx)));
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

  return {
    id: "receiptgate",
    name: "receiptgate",
    description: "Claim gate: validates agent output against operator facts via receiptgate serve",
    handlers,
    stats,
    /** OpenClaw entry point: registers the four hooks on the plugin API. */
    register(api) {
      api.on("message_sending", handlers.message_sending, { priority });
      api.on("before_message_write", handlers.before_message_write, { priority });
      api.on("before_tool_call", handlers.before_tool_call, { priority });
      api.on("llm_output", handlers.llm_output, { priority: Math.max(0, priority - 100) });
    },
    /** Wait for in-flight llm_output audit calls (for shutdown and tests). */
    async flush() {
      await Promise.allSettled([...pendingAudits]);
    },
    /** Stop the sync helper thread. */
    async close() {
      await this.flush();
      if (worker) {
        const w = worker;
        worker = null;
        await w.terminate();
      }
    },
  };
}

/** Plugin built from environment: RECEIPTGATE_URL, RECEIPTGATE_API_KEY, RECEIPTGATE_FAIL_MODE, RECEIPTGATE_TIMEOUT_MS. */
export function pluginFromEnv(env = process.env) {
  return createReceiptgatePlugin({
    url: env.RECEIPTGATE_URL || "http://127.0.0.1:8000",
    apiKey: env.RECEIPTGATE_API_KEY,
    failMode: env.RECEIPTGATE_FAIL_MODE || "fail_closed",
    timeoutMs: env.RECEIPTGATE_TIMEOUT_MS ? Number(env.RECEIPTGATE_TIMEOUT_MS) : 2000,
  });
}

export default createReceiptgatePlugin;
