/**
 * The benchmark's timed HTTP calls, made and timed in a worker thread of their own (decision 0788): the
 * benchmark's main thread holds the seeded fixtures, the compiled sources and every sample, and its garbage
 * collections, brought on by the answers' bytes, must not land inside the calls it times. This thread does
 * nothing but the calls, so its heap stays small and its collections short. Plain JavaScript, so that it
 * loads without a TypeScript loader and its heap holds only this file.
 *
 * In: { id, port, path, method, headers, payload (Uint8Array), keepBody }.
 * Out: { id, status, ms, bytes, body (ArrayBuffer, transferred: the whole answer with keepBody, else its
 * first 300 bytes when the status is not 2xx, else empty) } or { id, error }.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.maxSockets });
const EXCERPT = 300;

parentPort.on('message', (message) => {
  if (message === 'close') {
    agent.destroy();
    parentPort.close();
    return;
  }
  const { id, port, path, method, headers, payload, keepBody } = message;
  const started = process.hrtime.bigint();
  const request = http.request({ host: '127.0.0.1', port, path, method, agent, headers }, (response) => {
    const chunks = [];
    let bytes = 0;
    let excerpt = 0;
    const ok = (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;
    response.on('data', (chunk) => {
      bytes += chunk.length;
      if (keepBody) chunks.push(chunk);
      else if (!ok && excerpt < EXCERPT) {
        chunks.push(chunk.subarray(0, EXCERPT - excerpt));
        excerpt += Math.min(chunk.length, EXCERPT - excerpt);
      }
    });
    response.on('end', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // A copy of its own, so that its memory moves to the main thread instead of being copied again.
      const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.length;
      }
      parentPort.postMessage({ id, status: response.statusCode ?? 0, ms, bytes, body: body.buffer }, [
        body.buffer,
      ]);
    });
    response.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
  });
  request.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
  request.end(payload);
});
