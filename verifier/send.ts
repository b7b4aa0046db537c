/**
 * Sends one replay request to a lane over loopback HTTP with undici (keep-alive, one connection
 * per lane, requests in order). Loopback HTTP rather than `inject()`: with `@fastify/express`
 * in play `inject()` returns empty bodies (express-fastify-mapping.md §4.5). No redirects are
 * followed and nothing is decompressed by the client; the body is decoded here so both lanes
 * are compared on what the application meant to send.
 */
import zlib from 'node:zlib';
import { Client } from 'undici';
import type { RawResponse, ReplayRequest } from './model.js';

/** A keep-alive connection to one lane. Only loopback origins are accepted. */
export class LaneConnection {
  private readonly client: Client;

  /**
   * @param origin `http://127.0.0.1:<port>` (or `localhost`, `[::1]`)
   * @param timeoutMs per request, for headers and body alike
   * @throws Error when the origin is not a loopback address (DESIGN: only loopback is contacted)
   */
  constructor(
    readonly origin: string,
    timeoutMs = 30_000,
  ) {
    const host = new URL(origin).hostname;
    if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) throw new Error(`refusing to contact ${origin}: the verifier only talks to loopback addresses`);
    this.client = new Client(origin, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4_000 });
  }

  /**
   * Sends `request` (path with query, headers in order, optional body) and returns the
   * response with its body decoded from `Content-Encoding` (gzip, deflate, br).
   * @throws the undici error when the lane does not answer (refused, reset, timeout)
   */
  async send(request: ReplayRequest): Promise<RawResponse> {
    const res = await this.client.request({
      method: request.method as 'GET',
      path: request.path,
      headers: request.headers.flat(),
      body: request.body?.length ? request.body : request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    });
    const raw = Buffer.from(await res.body.arrayBuffer());
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(res.headers)) {
      for (const v of Array.isArray(value) ? value : [value ?? '']) headers.push([name, v]);
    }
    const encoding = String(res.headers['content-encoding'] ?? '');
    return { status: res.statusCode, headers, body: decode(raw, encoding) };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Undoes a Content-Encoding, including a list (`gzip, br`: applied in order, undone in reverse) and
 * raw deflate (a server may omit the zlib header); an unknown or broken encoding leaves the bytes
 * as they came.
 */
export function decode(body: Buffer, encoding: string): Buffer {
  let out = body;
  for (const coding of encoding.split(',').map((c) => c.trim().toLowerCase()).filter(Boolean).reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
      else if (coding === 'br') out = zlib.brotliDecompressSync(out);
      else if (coding === 'deflate') out = inflateEither(out);
      else if (coding !== 'identity') return body;
    } catch {
      return body;
    }
  }
  return out;
}

function inflateEither(body: Buffer): Buffer {
  try {
    return zlib.inflateSync(body);
  } catch {
    return zlib.inflateRawSync(body);
  }
}
