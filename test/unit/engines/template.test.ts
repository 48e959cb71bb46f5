import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TemplateError, renderTemplate, templatePlaceholders } from '../../../src/core/config/engine-template';

const vars = { query: 'boundary layer', k: 10, params: { titleBoost: 3, op: 'or' } };

test("a whole-string placeholder keeps the value's JSON type; inside a string it is text", () => {
  const out = renderTemplate(
    {
      size: '{{k}}',
      query: { multi_match: { query: '{{query}}', fields: ['title^{{params.titleBoost}}', 'body'], operator: '{{ params.op }}' } },
    },
    vars,
  );
  assert.deepEqual(out, { size: 10, query: { multi_match: { query: 'boundary layer', fields: ['title^3', 'body'], operator: 'or' } } });
});

test('a query with quotes, backslashes, braces and newlines cannot break the JSON or inject placeholders', () => {
  const nasty = 'say "hi"} ], "size": 9999, \\ \n {{params.titleBoost}} {{principal.tenant}} \u2028';
  const template = { size: '{{k}}', query: { match: { body: { query: '{{query}}' } } }, _name: 'q: {{query}}' };
  const out = renderTemplate(template, { ...vars, query: nasty }) as Record<string, any>;
  const roundTrip = JSON.parse(JSON.stringify(out));
  assert.equal(roundTrip.size, 10, 'the size the template set, not one smuggled in by the query');
  assert.equal(roundTrip.query.match.body.query, nasty, 'the query arrives exactly as typed (placeholders in it are not filled)');
  assert.equal(roundTrip._name, `q: ${nasty}`);
  assert.deepEqual(Object.keys(roundTrip), ['size', 'query', '_name']);
});

test('principal attributes: lists as JSON arrays, joined with commas inside a string', () => {
  const principal = { name: 'ana', tenant: 'acme', groups: ['sales', 'hr'] };
  const out = renderTemplate(
    {
      terms: { groups: '{{principal.groups}}' },
      term: { tenant: '{{principal.tenant}}' },
      fq: '{!terms f=groups}{{principal.groups}}',
    },
    { ...vars, principal },
  );
  assert.deepEqual(out, { terms: { groups: ['sales', 'hr'] }, term: { tenant: 'acme' }, fq: '{!terms f=groups}sales,hr' });
});

test('the result shares nothing with the template or the variables', () => {
  const params = { fields: ['title', 'body'] };
  const template = { fields: '{{params.fields}}', nested: { a: [1, 2] } };
  const out = renderTemplate(template, { ...vars, params }) as any;
  out.fields.push('x');
  out.nested.a.push(3);
  assert.deepEqual(params.fields, ['title', 'body']);
  assert.deepEqual(template.nested.a, [1, 2]);
});

test('{{filter}} is spliced in as a value, and its member or element disappears without a principal', () => {
  const template = {
    query: { bool: { must: { match: { body: '{{query}}' } }, filter: '{{filter}}' } },
    knn: { filters: ['{{filter}}', { term: { lang: 'en' } }] },
  };
  const filter = { term: { tenant: 'acme' } };
  assert.deepEqual(renderTemplate(template, { ...vars, filter }), {
    query: { bool: { must: { match: { body: 'boundary layer' } }, filter } },
    knn: { filters: [filter, { term: { lang: 'en' } }] },
  });
  assert.deepEqual(renderTemplate(template, vars), {
    query: { bool: { must: { match: { body: 'boundary layer' } } } },
    knn: { filters: [{ term: { lang: 'en' } }] },
  });
});

test('keys may hold placeholders; the vector comes in as a list of numbers', () => {
  const out = renderTemplate(
    { query: { knn: { '{{params.field}}': { vector: '{{vector}}', k: '{{k}}' } } } },
    { ...vars, params: { field: 'vec' }, vector: [0.5, -1] },
  );
  assert.deepEqual(out, { query: { knn: { vec: { vector: [0.5, -1], k: 10 } } } });
});

test('a placeholder without a value is an error naming it and where it is', () => {
  const cases: [unknown, RegExp][] = [
    [
      { a: { b: ['{{params.missing}}'] } },
      /template\.a\.b\[0\]: \{\{params\.missing\}\}: "params" has no "missing" \(it has titleBoost, op, obj\)/,
    ],
    [{ t: '{{principal.tenant}}' }, /template\.t: \{\{principal\.tenant\}\}: no principal is given/],
    [{ v: '{{vector}}' }, /no query vector/],
    [{ x: 'a {{nope}}' }, /unknown variable/],
    [{ x: 'in a string: {{params.obj}}' }, /an object and cannot be put inside a string/],
  ];
  for (const [template, message] of cases) {
    assert.throws(
      () => renderTemplate(template, { ...vars, params: { ...vars.params, obj: { a: 1 } } }),
      (e: Error) => e instanceof TemplateError && message.test(e.message),
    );
  }
  assert.throws(
    () => renderTemplate({ t: '{{principal.region}}' }, { ...vars, principal: { name: 'ana', groups: [] } }),
    /principal "ana" has no attribute "region"/,
  );
});

test('templatePlaceholders lists every placeholder with its JSON pointer', () => {
  const uses = templatePlaceholders(
    { size: '{{k}}', q: { 'a/b': 'x {{query}} {{params.b}}' }, f: ['{{filter}}'], '{{params.k}}': 1 },
    '/engine/template',
  );
  assert.deepEqual(uses, [
    { name: 'k', pointer: '/engine/template/size', whole: true },
    { name: 'query', pointer: '/engine/template/q/a~1b', whole: false },
    { name: 'params.b', pointer: '/engine/template/q/a~1b', whole: false },
    { name: 'filter', pointer: '/engine/template/f/0', whole: true },
    { name: 'params.k', pointer: '/engine/template/{{params.k}}', whole: false },
  ]);
});
