// The recording's traffic (`migrate record --run "node traffic.mjs"`): every route once.
const base = process.env.MIGRATE_RECORD_URL;
for (const [method, path, body] of [['GET', '/health'], ['GET', '/products'], ['GET', '/products/3'], ['GET', '/products/99'], ['POST', '/products', '{"name":"new"}'], ['GET', '/nowhere']]) {
  await fetch(base + path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
}
