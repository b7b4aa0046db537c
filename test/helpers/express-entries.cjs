/**
 * Preloaded into an app under test (`node --require …/express-entries.cjs`): appends `METHOD url`
 * of every request an Express application handles (express/lib/application.js `app.handle`, which
 * `app(req, res, next)` calls; Express 4 and 5) to the file EXPRESS_ENTRIES names. Patched on the
 * prototype before the app exists: `express()` copies the prototype's methods onto the app.
 */
const { appendFileSync } = require('node:fs');

const express = require(require.resolve('express', { paths: [process.cwd()] }));
const handle = express.application.handle;
express.application.handle = function handleLogged(req, res, callback) {
  appendFileSync(process.env.EXPRESS_ENTRIES, `${req.method} ${req.url}\n`);
  return handle.call(this, req, res, callback);
};
