/** The text report's route lines: method and path always apart, whatever the method's length. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { renderText } from '../../report/text.js';
import { project } from '../helpers/tmp.js';

describe('text report', () => {
  it('separates long methods from their path (OPTIONS *, PROPFIND)', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 't', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': "const express = require('express');\nconst app = express();\napp.options('*', (req, res) => res.end());\napp.propfind('/dav', (req, res) => res.end());\n",
    });
    const text = renderText(await analyze({ dir }));
    expect(text).toMatch(/^ {4}OPTIONS +\* +<anonymous>/m);
    expect(text).toMatch(/^ {4}PROPFIND +\/dav +<anonymous>/m);
  });
});
