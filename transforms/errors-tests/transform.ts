/** jscodeshift transform of `errors-tests` (transforms/app-tests/transform.ts). */
export { default } from '../app-tests/transform.js';
