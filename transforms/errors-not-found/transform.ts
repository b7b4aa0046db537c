/** jscodeshift transform of `errors-not-found`: the handler-move recipe (transforms/handler-move/transform.ts). */
export { default } from '../handler-move/transform.js';
