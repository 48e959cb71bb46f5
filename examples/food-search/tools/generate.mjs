#!/usr/bin/env node
// Deterministic generator for the food-search example workspace.
// Composes documents from the hand-written building blocks in ./blocks and writes corpus/, data/
// and judgments/golden.json. Same input, same output: the only randomness is a seeded PRNG.
// Usage: node examples/food-search/tools/generate.mjs   (rewrites corpus/, data/ and judgments/golden.json)
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORIGINS } from './blocks/origins.mjs';
import { COFFEE_DOCS } from './blocks/coffee-docs.mjs';
import { DISHES } from './blocks/dishes.mjs';
import { KITCHEN_DOCS } from './blocks/kitchen-docs.mjs';
import { STORE_DOCS, HTML_PAGES } from './blocks/store.mjs';
import { buildProducts } from './blocks/products.mjs';
import { QUERIES } from './blocks/queries.mjs';
import { LUNCH_LINES, FEEDBACK_LINES, CATERING_LINES, SOCIAL_LINES } from './blocks/everyday.mjs';

// FOOD_SEARCH_OUT lets a test regenerate into a scratch folder and compare with the committed files.
const ROOT = process.env.FOOD_SEARCH_OUT ? resolve(process.env.FOOD_SEARCH_OUT) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Start from a clean slate so removed building blocks do not leave stale files behind.
for (const dir of ['corpus', 'data']) rmSync(join(ROOT, dir), { recursive: true, force: true });

// mulberry32: small, seedable, good enough for choosing phrasings.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(20240917);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const WK_STAFF = ['baristas', 'roastery', 'management'];
const WK_ROAST = ['roastery', 'management'];
const DN_KITCHEN = ['kitchen', 'management'];

/** Every document written, for id checks and counts. */
const docs = [];

function yamlValue(v) {
  if (Array.isArray(v)) return `[${v.map(yamlValue).join(', ')}]`;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  return /^[\w\- .]+$/.test(v) && !/^(true|false|null|yes|no)$/i.test(v) && !/^[\d.]+$/.test(v) ? v : JSON.stringify(v);
}

function writeMarkdown(dir, d) {
  const meta = { id: d.id, title: d.title, tags: d.tags ?? [], lang: d.lang ?? 'en', tenant: d.tenant, groups: d.groups ?? [], public: d.public ?? false };
  const front = Object.entries(meta).map(([k, v]) => `${k}: ${yamlValue(v)}`).join('\n');
  const text = Array.isArray(d.body) ? d.body.join('\n\n') : d.body;
  const rel = join('corpus', dir, `${d.id}.md`);
  write(rel, `---\n${front}\n---\n\n${text.trim()}\n`);
  docs.push({ ...meta, path: rel, text });
}

function write(rel, content) {
  const abs = join(ROOT, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

// ---------------------------------------------------------------- coffee origins
const overviewOpeners = [
  (o) => `${o.name} coffee comes from ${o.region}, on ${o.island}.`,
  (o) => `Grown in ${o.region}, ${o.name} is one of the ${o.island} coffees we roast all year.`,
  (o) => `On ${o.island}, ${o.region} is home to the coffee sold as ${o.name}.`,
  (o) => `If a guest asks where ${o.name} comes from, the short answer is ${o.region}.`
];
const altitudeLines = [
  (o) => `Farms sit at ${o.altitude} and grow ${o.varietals}.`,
  (o) => `Most plots lie between ${o.altitude}; the trees are ${o.varietals}.`,
  (o) => `Expect altitudes of ${o.altitude}, with ${o.varietals} the usual varieties.`
];
const processLines = [
  (o) => `Processing is ${o.process}.`,
  (o) => `The typical process is ${o.process}.`,
  (o) => `Lots reach us ${o.process.startsWith('mostly') || o.process.startsWith('washed') ? '' : 'as '}${o.process}.`
];
const cupLines = [
  (o) => `In the cup it shows ${o.flavour}, with a ${o.body} body.`,
  (o) => `Tasters usually describe ${o.flavour}; the body is ${o.body}.`,
  (o) => `Look for ${o.flavour}. Body: ${o.body}.`
];
const barLines = [
  'At the bar it works as a filter coffee and as a single-origin espresso on the guest grinder.',
  'We serve it on the slow bar and, roasted a little darker, as tubruk.',
  'Baristas should mention the origin story when serving it; guests like to know.',
  'It is part of the retail range in 250 g and 500 g bags.'
];

const roastingLines = [
  'For filter we stop the roast shortly after first crack ends its rolling phase; for espresso we give it another twenty to thirty seconds of development.',
  'The roastery keeps one profile for filter and one for espresso, and both are adjusted after the first cupping of each new arrival.',
  'Light roasts keep the fruit but can taste grassy if rushed; medium roasts are the safe middle and what most guests prefer.'
];
const brewingLines = [
  'On the slow bar, start with 15 g to 250 g of water on a cone dripper and adjust the grind until the drawdown ends around three minutes.',
  'As tubruk, use a slightly coarser grind and let the glass rest four minutes before serving.',
  'With milk it holds up well; pull it as a double ristretto for a small flat white.',
  'Served iced, brew it a little stronger and pour it over ice so the dilution does not wash out the sweetness.'
];
const buyingLines = [
  'We buy from the same farmer group every season and pay a premium above the local market price for ripe-cherry picking and careful drying.',
  'Contracts are signed before the harvest and the coffee travels in hermetic bags to keep moisture stable on the way to Jakarta.',
  'Prices at the farm gate swing with the New York market and the rupiah, so we agree a floor price with the growers in advance.',
  'Collectors still handle most of the trade in the area, but we try to buy directly from groups with their own processing.'
];
function originOverview(o) {
  const body = [
    [pick(overviewOpeners)(o), pick(altitudeLines)(o), o.history].join(' '),
    [pick(processLines)(o), pick(cupLines)(o)].join(' '),
    [`Harvest runs from ${o.harvest}.`, o.extra, pick(barLines)].join(' '),
    `## Buying, roasting and brewing\n\n${[pick(buyingLines), pick(roastingLines), pick(brewingLines)].join(' ')}`
  ];
  writeMarkdown('origins', { id: `origin-${o.key}`, title: o.title, tags: ['origin', o.island.toLowerCase(), 'coffee'], tenant: 'warung-kopi', groups: WK_STAFF, body });
}

const cupAttributes = {
  acidity: ['bright', 'soft', 'juicy', 'low', 'gentle malic', 'lively citric', 'round'],
  finish: ['long and sweet', 'short and clean', 'lingering cocoa', 'slightly drying', 'syrupy', 'spicy'],
  defects: ['none found', 'one quaker in five cups', 'slight earthiness in cup 3', 'none; very uniform', 'faint ferment in one cup']
};
function cupping(o, harvestYear, lot) {
  const score = (82 + rand() * 5).toFixed(2);
  const flavourWords = o.flavour.split(/,\s*|\s+and\s+/).filter(Boolean);
  const highlight = pick(flavourWords.filter((w) => !/^(in|a) /.test(w) && w.split(' ').length <= 3));
  const body = [
    `Arrival sample, lot ${lot}, harvest ${harvestYear}. Roasted light for cupping, rested overnight, five cups.`,
    `| Attribute | Note |\n|---|---|\n| Fragrance | ${pick(['sweet', 'spicy', 'nutty', 'floral', 'chocolate'])}, ${highlight} |\n| Acidity | ${pick(cupAttributes.acidity)} |\n| Body | ${o.body} |\n| Finish | ${pick(cupAttributes.finish)} |\n| Defects | ${pick(cupAttributes.defects)} |\n| Score | ${score} |`,
    pick([
      `Compared with last year this ${o.name} lot is ${pick(['sweeter', 'cleaner', 'a little flatter', 'more complex', 'heavier'])}. ${pick(['Approve for filter.', 'Approve for the house blend.', 'Approve for retail.', 'Hold: cup again after two weeks of resting.'])}`,
      `${pick(['Good', 'Solid', 'Very good', 'Decent'])} ${o.name}. ${pick(['Recommend buying more of this lot.', 'Use for espresso.', 'Keep for the slow bar.', 'Fine for retail but not a competition lot.'])}`
    ])
  ];
  writeMarkdown('cupping', { id: `cup-${o.key}-${harvestYear}`, title: `Cupping notes: ${o.name} lot ${lot}`, tags: ['cupping', o.key], tenant: 'warung-kopi', groups: WK_ROAST, body });
}

function roastProfile(o) {
  const charge = between(195, 215), fc = `${between(7, 9)}:${String(between(0, 59)).padStart(2, '0')}`, dev = between(12, 22);
  const body = [
    `Profile for ${o.name} on the 15 kg drum roaster, batch size ${pick([8, 10, 12])} kg green.`,
    `Charge at ${charge} °C, turning point around 1:30. Gas at 70 percent until yellowing, then step down to 50 percent. First crack expected at ${fc}. Development ${dev} percent of total time; drop at ${between(205, 218)} °C bean temperature.`,
    pick([`${o.name} is ${o.body.includes('heavy') ? 'dense and takes heat well early' : 'softer and scorches easily, so keep the charge low'}.`, `Watch the rate of rise after first crack; ${o.name} can taste baked if it stalls.`, `For espresso extend development by ten seconds.`])
  ];
  writeMarkdown('roastery/profiles', { id: `roast-${o.key}`, title: `Roast profile: ${o.name}`, tags: ['roasting', 'profile', o.key], tenant: 'warung-kopi', groups: WK_ROAST, body });
}

for (const o of ORIGINS) {
  originOverview(o);
  cupping(o, 2023, `${o.key.slice(0, 3).toUpperCase()}-${between(10, 99)}`);
  cupping(o, 2024, `${o.key.slice(0, 3).toUpperCase()}-${between(100, 199)}`);
  roastProfile(o);
  if (o.id) writeMarkdown('origins', { id: `origin-${o.key}-id`, title: o.id.title, lang: 'id', tags: ['origin', 'coffee'], tenant: 'warung-kopi', groups: WK_STAFF, body: o.id.text });
  if (o.visit) writeMarkdown('origins/visits', { id: `visit-${o.key}`, title: `Field trip report: ${o.region.split(',')[0].replace(/^the /, '')}`, tags: ['sourcing', 'visit', o.key], tenant: 'warung-kopi', groups: WK_ROAST, body: [o.visit] });
}

// Weekly slow-bar menus: which origins were on offer and how they were brewed.
const methods = ['V60', 'Chemex', 'AeroPress', 'French press', 'tubruk', 'siphon', 'batch brew'];
for (let week = 1; week <= 16; week++) {
  const a = pick(ORIGINS), b = pick(ORIGINS.filter((x) => x !== a));
  const note = pick([
    'Guests asked for more iced options this week.',
    'The new milk pitchers arrived.',
    'Sold out of retail bags by Saturday afternoon.',
    'Rainy week, hot drinks outsold iced ones two to one.',
    'Pastry supplier was late twice.',
    'A cupping group from a Bandung café visited on Thursday.'
  ]);
  writeMarkdown('bar/menus', { id: `menu-week-${String(week).padStart(2, '0')}`, title: `Slow bar, week ${week}`, tags: ['menu', 'slow-bar'], tenant: 'warung-kopi', groups: WK_STAFF, body: [
    `Single origins this week: ${a.name} on ${pick(methods)} and ${b.name} on ${pick(methods)}. Suggested pairing: ${pick(['banana bread', 'pisang goreng', 'klepon', 'martabak manis', 'tiramisu'])}.`,
    note
  ] });
}

for (const d of COFFEE_DOCS) writeMarkdown(d.dir, { ...d, tenant: 'warung-kopi' });

// ---------------------------------------------------------------- kitchen
const recipeIntros = [
  (d) => `${d.about}`,
  (d) => `From ${d.region}: ${d.about.charAt(0).toLowerCase()}${d.about.slice(1)}`,
  (d) => `${d.about} This is the version we cook in the restaurant.`
];
const servingLines = [
  'Serve it with steamed white rice, a bowl of sambal and crackers; guests can add lime at the table.',
  'In the restaurant it goes out with rice, acar (quick pickle of cucumber and carrot) and a small dish of fried shallots.',
  'At home most families eat this with rice and whatever vegetables are in season, and nobody minds if the spice is adjusted.',
  'For catering, keep the components separate until the last minute so nothing goes soggy on the buffet.'
];
const keepingLines = [
  'Leftovers keep two days in the fridge; reheat only the portion you need.',
  'Cool quickly, cover and refrigerate; it tastes better the next day once the flavours settle.',
  'It does not freeze well, so cook only what will be eaten within a day.',
  'Kept covered in the fridge it lasts three days; bring it back to a simmer before serving.'
];
const yields = ['Serves 4.', 'Serves 4 to 6.', 'Makes 6 portions.', 'For 4 people.'];
function recipeEn(d) {
  const body = [
    pick(recipeIntros)(d),
    `## Ingredients\n${d.ingredients.map((x) => `- ${x}`).join('\n')}`,
    `## Method\n${d.steps.map((x, i) => `${i + 1}. ${x}`).join('\n')}`,
    `${pick(['Tip:', 'Kitchen note:', 'From the chef:'])} ${d.tip} ${pick(yields)}`,
    `## Serving and keeping\n\n${pick(servingLines)} ${pick(keepingLines)}`
  ];
  writeMarkdown('recipes', { id: `recipe-${d.key}`, title: `${d.name}`, tags: ['recipe', d.kind], tenant: 'dapur-nusantara', groups: DN_KITCHEN, body });
}
function recipeId(d) {
  const body = [
    `## Bahan\n${d.id.ingredients.map((x) => `- ${x}`).join('\n')}`,
    `## Cara membuat\n${d.id.steps.map((x, i) => `${i + 1}. ${x}`).join('\n')}`,
    pick(['Untuk 4 porsi.', 'Cukup untuk 4–6 orang.', 'Sajikan selagi hangat.'])
  ];
  writeMarkdown('recipes/id', { id: `resep-${d.key}`, title: d.id.title, lang: 'id', tags: ['recipe', d.kind], tenant: 'dapur-nusantara', groups: DN_KITCHEN, body });
}
function specSheet(d) {
  const body = [
    `Menu item: ${d.name}. Station: ${pick({ main: ['wok', 'braise'], soup: ['soup'], rice: ['wok', 'rice'], sambal: ['cold'], salad: ['cold'], snack: ['fryer'], side: ['fryer', 'wok'], grill: ['grill'], noodles: ['wok'], dessert: ['pastry'], drink: ['bar'], breakfast: ['brunch'], baking: ['pastry'] }[d.kind] ?? ['wok'])}.`,
    `Portion: ${pick(['one bowl, 450 ml', 'one plate, 320 g', 'two pieces', 'one portion, 250 g', 'one glass, 350 ml'])}. Plate ${pick(['on the white rimmed plate', 'in the clay bowl', 'on banana leaf over the rattan plate', 'in the enamel bowl'])}, garnish ${pick(['with fried shallots', 'with celery leaf', 'with a lime wedge', 'with krupuk on the side'])}.`,
    `Allergens: ${pick(['soy', 'peanut, soy', 'shellfish (terasi)', 'egg, gluten', 'none declared', 'dairy, egg'])}. Ticket time target: ${between(4, 14)} minutes.`
  ];
  writeMarkdown('kitchen-ops/spec', { id: `spec-${d.key}`, title: `Spec sheet: ${d.name}`, tags: ['spec', d.kind], tenant: 'dapur-nusantara', groups: DN_KITCHEN, body });
}
for (const d of DISHES) {
  recipeEn(d);
  if (d.id) recipeId(d);
  specSheet(d);
}
for (const d of KITCHEN_DOCS) writeMarkdown(d.dir === 'management' ? 'kitchen-ops/management' : d.dir, { ...d, tenant: 'dapur-nusantara' });

const products = buildProducts();

// ---------------------------------------------------------------- everyday notes
const dishName = (d) => d.name.replace(/ with .*$/, '');
const menuDishes = DISHES.filter((d) => !['baking', 'breakfast'].includes(d.kind));
const pickDistinct = (xs, n) => {
  const out = [];
  while (out.length < n) { const x = pick(xs); if (!out.includes(x)) out.push(x); }
  return out;
};
const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
for (let i = 1; i <= 20; i++) {
  const [a, b, c] = pickDistinct(menuDishes, 3).map(dishName);
  writeMarkdown('kitchen-ops/boards', { id: `board-${String(i).padStart(2, '0')}`, title: `Lunch board, ${days[i % 7]} week ${Math.ceil(i / 3)}`, tags: ['board'], tenant: 'dapur-nusantara', groups: DN_KITCHEN,
    body: [pick(LUNCH_LINES)(a, b, c)] });
}
for (let i = 1; i <= 14; i++) {
  const coffeeSide = i % 2 === 0;
  const [x, y] = coffeeSide ? pickDistinct(ORIGINS, 2).map((o) => `${o.name} ${pick(['filter', 'espresso', 'tubruk', 'cold brew'])}`) : pickDistinct(menuDishes, 2).map(dishName);
  writeMarkdown(coffeeSide ? 'bar/feedback' : 'kitchen-ops/feedback', { id: `feedback-${String(i).padStart(2, '0')}`, title: `Guest feedback #${100 + i}`, tags: ['feedback'],
    tenant: coffeeSide ? 'warung-kopi' : 'dapur-nusantara', groups: coffeeSide ? WK_STAFF : DN_KITCHEN, body: [pick(FEEDBACK_LINES)(x, y)] });
}
for (let i = 1; i <= 10; i++) {
  const [a, b, c] = pickDistinct(menuDishes, 3).map(dishName);
  writeMarkdown('kitchen-ops/catering', { id: `catering-${String(i).padStart(2, '0')}`, title: `Catering quote ${2400 + i * 7}`, tags: ['catering'], tenant: 'dapur-nusantara', groups: ['management'],
    body: [pick(CATERING_LINES)(between(4, 30) * 10, a, b, c), `Deposit ${pick(['30', '50'])} percent. ${pick(['Confirmed.', 'Waiting for the client.', 'Tasting booked for next week.'])}`] });
}
for (let i = 1; i <= 10; i++) {
  const o = pick(ORIGINS);
  writeMarkdown('management/social', { id: `social-${String(i).padStart(2, '0')}`, title: `Social post idea ${i}`, tags: ['marketing'], tenant: 'warung-kopi', groups: ['management'],
    body: [pick(SOCIAL_LINES)(`${o.name} coffee`)] });
}

// Roast schedules, stock counts and prep sheets: list-like operational pages that repeat origin,
// product and dish names many times without being about any one of them.
const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
for (let i = 1; i <= 12; i++) {
  const regulars = pickDistinct(ORIGINS, 4);
  const lines = weekdays.map((day) => {
    const slots = pickDistinct(regulars, between(2, 3)).map((o) => `${o.name} ${pick(['espresso', 'filter', 'tubruk', 'retail'])} (${((n) => `${n} batch${n > 1 ? 'es' : ''}`)(between(1, 4))})`);
    return `- ${day}: ${slots.join(', ')}`;
  });
  writeMarkdown('roastery/schedules', { id: `roast-schedule-${String(i).padStart(2, '0')}`, title: `Roast schedule, week ${i + 20}`, tags: ['schedule', 'roasting'], tenant: 'warung-kopi', groups: WK_ROAST,
    body: [lines.join('\n'), pick(['Green stock is low on the first origin; reorder.', 'Machine service on Friday afternoon, finish early.', 'Two wholesale orders due Thursday.', 'New trainee roasting under supervision on Tuesday.'])] });
}
for (let i = 1; i <= 8; i++) {
  const items = pickDistinct(products.filter((p) => p.tenant === 'warung-kopi'), 9);
  writeMarkdown('roastery/stock', { id: `stock-count-${String(i).padStart(2, '0')}`, title: `Stock count ${i}`, tags: ['stock'], tenant: 'warung-kopi', groups: WK_ROAST,
    body: [`Counted at close. ${items.map((p) => `${p.sku} ${p.title.replace(/ \(.*\)$/, '')}: ${between(0, 30)}`).join('; ')}.`, pick(['Reorder anything under 5.', 'Two bags found with damaged valves, written off.', 'Count matches the till report.'])] });
}
for (let i = 1; i <= 10; i++) {
  const items = pickDistinct(menuDishes, 5);
  writeMarkdown('kitchen-ops/prep', { id: `prep-sheet-${String(i).padStart(2, '0')}`, title: `Prep quantities, ${days[i % 7]}`, tags: ['prep'], tenant: 'dapur-nusantara', groups: DN_KITCHEN,
    body: [items.map((d) => `- ${dishName(d)}: ${pick(['prep for', 'enough for', 'portion'])} ${between(2, 8) * 5} covers${rand() < 0.4 ? `; ${dishName(d)} garnish in the top fridge` : ''}`).join('\n'), pick(['Large booking at 19:00.', 'Quiet day expected, rain forecast.', 'Public holiday tomorrow, double the soups.'])] });
}

// ---------------------------------------------------------------- public pages
for (const d of STORE_DOCS) writeMarkdown('store', { ...d, tenant: 'public', groups: [], public: true });
for (const p of HTML_PAGES) {
  const html = `<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>${p.title}</title>\n  <meta name="id" content="${p.id}">\n  <meta name="tenant" content="public">\n  <meta name="public" content="true">\n  <meta name="lang" content="en">\n</head>\n<body>${p.body}\n</body>\n</html>\n`;
  const rel = join('corpus', 'store', p.file);
  write(rel, html);
  docs.push({ id: p.id, title: p.title, tenant: 'public', groups: [], public: true, lang: 'en', tags: ['page'], path: rel, text: p.body.replace(/<[^>]+>/g, ' ') });
}

// ---------------------------------------------------------------- product records (JSONL)
write('data/products.jsonl', products.map((p) => JSON.stringify(p)).join('\n') + '\n');
for (const p of products) docs.push({ ...p, path: 'data/products.jsonl' });

// ---------------------------------------------------------------- judgments
const ids = new Set();
for (const d of docs) {
  if (ids.has(d.id)) throw new Error(`duplicate document id ${d.id}`);
  ids.add(d.id);
}
for (const q of QUERIES) {
  for (const id of Object.keys(q.judgments)) if (!ids.has(id)) throw new Error(`query ${q.id} judges unknown document ${id}`);
}
write('judgments/golden.json', JSON.stringify(QUERIES, null, 2) + '\n');

console.log(`wrote ${docs.length} documents (${products.length} product records) and ${QUERIES.length} queries`);
