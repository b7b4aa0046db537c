/** jscodeshift transform of `routes-tests` (transforms/app-tests/transform.ts). */
export { default } from '../app-tests/transform.js';
