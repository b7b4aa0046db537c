/** jscodeshift transform of `errors-handler`: the shared recipe of transforms/errors-handler/move-transform.ts. */
export { default } from './move-transform.js';
