/** jscodeshift transform of `errors-not-found`: the shared recipe of transforms/errors-handler/move-transform.ts. */
export { default } from '../errors-handler/move-transform.js';
