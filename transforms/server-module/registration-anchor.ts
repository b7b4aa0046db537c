/**
 * The registration of a middleware a `plugins` step deletes, as the plan reads it: its call's anchor
 * (lib/anchor.ts), by which the transform finds it after an earlier step of the stage edited the
 * file; a middleware whose call is not there stays, with why.
 */
import type { Middleware } from '../../analyzer/model.js';
import type { Anchor } from '../lib/anchor.js';
import { parsedFiles } from '../lib/parsed-files.js';
import { registrationAnchor } from '../lib/registration.js';
import type { PlanContext } from '../model.js';

/** The anchor of `m`'s registration call in its file as the plan reads it, for the step that deletes it; null when the call is not there. */
export function registrationAnchorOf(ctx: PlanContext, m: Middleware): Anchor | null {
  const file = parsedFiles(ctx)(m.registration.file);
  return file ? registrationAnchor(file, m.registration, m.name) : null;
}

/** Why a middleware whose registration the plan cannot find stays (a sentence ending with its place). */
export function notDeletable(m: Middleware): string {
  return `its registration is not a call of the app the step can delete (${m.registration.file}:${m.registration.line})`;
}
