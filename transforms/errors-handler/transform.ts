/** jscodeshift transform of `errors-handler`: the handler-move recipe (transforms/handler-move/transform.ts). */
export { default } from '../handler-move/transform.js';
