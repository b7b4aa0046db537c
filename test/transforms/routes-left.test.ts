import { describe, expect, it } from 'vitest';
import { leftRoutes } from '../../transforms/routes-move/left.js';
import type { RouteState } from '../../transforms/routes-move/state.js';

/** A staying route with the given blockers (only what leftRoutes reads). */
function staying(blockers: Array<{ code: string; reason: string }>): RouteState {
  return {
    route: { method: 'GET', path: { full: '/articles/:slug' }, registration: { file: 'routes/articles.js', line: 25 } },
    blockers,
    todoAt: { anchor: { file: 'routes/articles.js', line: 25, column: 0 }, key: 'routes/articles.js:25' },
  } as unknown as RouteState;
}

describe('leftRoutes', () => {
  it("joins a route's reasons into one sentence: a reason's own full stop goes before the next", () => {
    const left = leftRoutes([staying([
      { code: 'route-finding', reason: "GET /articles/:slug calls next('route')." },
      { code: 'route-param-elsewhere', reason: 'its param callback for :slug is registered in routes/index.js, not next to the route' },
    ])]);
    const text = "GET /articles/:slug calls next('route'); its param callback for :slug is registered in routes/index.js, not next to the route";
    expect(left.manual.map((m) => [m.line, m.code, m.reason])).toEqual([[25, 'route-finding', `GET /articles/:slug stays on Express: ${text}`]]);
    expect(left.todos.map((t) => t.reason)).toEqual([`route stays on Express: ${text}`]);
  });

  it('keeps the full stop of the last reason', () => {
    const left = leftRoutes([staying([{ code: 'route-finding', reason: "GET /articles/:slug calls next('route')." }])]);
    expect(left.manual[0].reason).toBe("GET /articles/:slug stays on Express: GET /articles/:slug calls next('route').");
  });
});
