// Helper thread of the synchronous before_message_write call (see index.js): performs the
// fetch, posts the outcome on the job's port, then wakes the waiting thread via Atomics.
import { parentPort } from "node:worker_threads";

parentPort.on("message", async (job) => {
  const flag = new Int32Array(job.shared);
  let out;
  try {
    const res = await fetch(job.url, {
      method: "POST",
      headers: job.headers,
      body: job.body,
      signal: AbortSignal.timeout(job.timeoutMs),
    });
    out = { id: job.id, status: res.status, text: await res.text() };
  } catch (err) {
    const why = err && err.name === "TimeoutError" ? "TimeoutError" : String((err && err.cause && err.cause.code) || err);
    out = { id: job.id, error: why };
  }
  job.port.postMessage(out);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
