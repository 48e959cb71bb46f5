// Internal product catalogue (data/products.jsonl): retail and wholesale items with stock codes.
// Coffee and equipment belong to warung-kopi, pantry goods to dapur-nusantara. Not public:
// the records carry cost prices and stock levels.
const WK = ['baristas', 'roastery', 'management'];
const DN = ['kitchen', 'management'];

const coffees = [
  ['KG', 'gayo', 'Kopi Gayo wet-hulled', 'Aceh, 1,400 m, giling basah. Dark chocolate, cedar, brown sugar.'],
  ['KGW', 'gayo', 'Kopi Gayo wine process', 'Aceh, cherries fermented in sealed drums for three weeks. Red grape, rum raisin, cacao.'],
  ['TR', 'toraja', 'Toraja Sapan', 'South Sulawesi, 1,600 m, wet-hulled. Dark cherry, cacao nib, clove.'],
  ['KT', 'kintamani', 'Kintamani washed', 'Bali, subak abian, fully washed. Orange zest, honey, lime.'],
  ['FB', 'bajawa', 'Flores Bajawa natural', 'Ngada, Flores, raised-bed natural. Milk chocolate, tamarind, spice.'],
  ['JP', 'preanger', 'Java Preanger Puntang honey', 'West Java, 1,500 m, honey process. Jasmine, brown sugar, peach.'],
  ['MD', 'mandailing', 'Mandailing', 'North Sumatra, wet-hulled. Earth, tobacco, dark chocolate.'],
  ['WM', 'wamena', 'Wamena Baliem Valley', 'Papua, washed Typica. Cocoa, fig, soft spice.'],
  ['LR', 'lampung', 'Lampung fine robusta', 'Red-cherry picked robusta, natural. Peanut, cocoa, malt.']
];

export function buildProducts() {
  const out = [];
  for (const [code, origin, name, notes] of coffees) {
    const variants = [['250', 'WB', '250 g whole bean', 95000], ['250', 'GR', '250 g ground', 95000], ['500', 'WB', '500 g whole bean', 180000]];
    if (code === 'FB') variants.push(['1KG', 'NAT', '1 kg whole bean, natural lot', 340000]);
    if (code === 'LR' || code === 'WM' || code === 'MD') variants.splice(1, 1);
    for (const [size, form, label, price] of variants) {
      const sku = `${code}-${size}-${form}`;
      const grind = form === 'GR' ? ' Ground for filter or tubruk on order; say which in the notes.' : '';
      out.push({ id: `sku-${sku.toLowerCase()}`, title: `${name}, ${label} (${sku})`, sku,
        text: `${notes} Stock code ${sku}. Retail price Rp ${price.toLocaleString('id-ID')}; wholesale 20 percent less above 5 kg.${grind}`,
        tags: ['product', 'coffee', origin], lang: 'en', tenant: 'warung-kopi', groups: WK, public: false, stock: 12 + (sku.length * 7) % 40 });
    }
  }
  const gear = [
    ['BRZ-ENC-2', 'Conical burr grinder BRZ-ENC-2', 'Entry-level electric grinder with 40 settings and 40 mm steel conical burrs. Good from espresso-fine to French press. The one we sell at the counter and use for customer orders.', 2650000],
    ['BRZ-ENC-2-BURR', 'Replacement burr set for BRZ-ENC-2', 'Upper ring burr and cone burr pair, with the calibration tool. Replace after roughly 250 to 400 kg of coffee.', 420000],
    ['BRZ-VRT-1', 'Flat burr grinder BRZ-VRT-1', '54 mm flat burrs, stepless adjustment, built for espresso at home.', 6900000],
    ['HND-MIL-C2', 'Hand grinder HND-MIL-C2', 'Aluminium body hand mill with 38 mm stainless burrs; fits inside an AeroPress for travel.', 1150000],
    ['GK-600', 'Gooseneck kettle GK-600, 600 ml', 'Stovetop pour-over kettle with a thin spout and a built-in thermometer.', 450000],
    ['GK-900-E', 'Electric gooseneck kettle GK-900-E', 'Variable temperature 40–100 °C, hold mode for one hour.', 1250000],
    ['HV-02-WH', 'Cone dripper size 02, white ceramic', 'Spiral-ribbed cone dripper for one to four cups.', 280000],
    ['HV-02-F100', 'Paper filters size 02, 100 pcs', 'Bleached cone papers for size 02 drippers. Rinse before use.', 65000],
    ['CHX-6', 'Glass pour-over brewer, six cups', 'Hourglass glass brewer with wooden collar. Use bonded square filters.', 790000],
    ['AP-ORIG', 'AeroPress coffee maker', 'Plastic press brewer with 350 micro-filters.', 650000],
    ['FP-800', 'French press 800 ml', 'Borosilicate glass with a stainless double mesh.', 385000],
    ['MOKA-3', 'Aluminium moka pot, 3 cups', 'Classic stovetop brewer for gas and electric hobs.', 420000],
    ['PHIN-SS', 'Stainless steel phin filter', 'Single-cup Vietnamese drip filter.', 85000],
    ['SCL-01', 'Brewing scale SCL-01', '0.1 g resolution with timer, 2 kg capacity.', 350000],
    ['DSC-CIT-500', 'Descaling powder 500 g', 'Food-grade citric acid for espresso machines and kettles. One dose is 100 g in 2 litres.', 95000],
    ['CLN-TAB-100', 'Group head cleaning tablets, 100 pcs', 'For backflushing espresso machines with a blind basket.', 210000],
    ['ESP-DB-2', 'Espresso machine ESP-DB-2, dual boiler', 'Two-boiler home espresso machine with PID and rotary pump. Installation and a first descaling lesson included.', 24500000],
    ['ESP-SB-1', 'Espresso machine ESP-SB-1, single boiler', 'Compact single-boiler espresso machine for small offices.', 8900000],
    ['PITCH-350', 'Milk pitcher 350 ml', 'Stainless pitcher with a sharp spout for latte art.', 160000],
    ['TDY-CB-20', 'Cold brew bucket system, 20 litres', 'Commercial steeping bucket with felt and paper filters.', 1350000]
  ];
  for (const [sku, title, text, price] of gear) {
    out.push({ id: `sku-${sku.toLowerCase()}`, title: title.includes(sku) ? title : `${title} (${sku})`, sku, text: `${text} Model ${sku}. Retail price Rp ${price.toLocaleString('id-ID')}.`,
      tags: ['product', 'equipment'], lang: 'en', tenant: 'warung-kopi', groups: WK, public: false, stock: 3 + (price % 17) });
  }
  const pantry = [
    ['SMB-MTH-150', 'Sambal matah jar, 150 g', 'Raw Balinese shallot and lemongrass relish in coconut oil. Keep refrigerated, eat within five days of opening.'],
    ['SMB-TRS-150', 'Sambal terasi jar, 150 g', 'Cooked chilli and shrimp paste sambal from the restaurant kitchen.'],
    ['SMB-BJK-200', 'Sambal bajak jar, 200 g', 'Slow-fried red chilli sambal with palm sugar. Keeps four weeks refrigerated.'],
    ['RGT-100', 'Ragi tempe starter, 100 g', 'Rhizopus starter powder for fermenting soybeans; 2 g per kilogram of cooked beans.'],
    ['BMB-RDG-250', 'Rendang spice paste, 250 g', 'Our kitchen\'s cooked rendang paste. One jar seasons 1 kg of beef.'],
    ['BMB-SOTO-200', 'Soto ayam spice paste, 200 g', 'Yellow paste with turmeric, candlenut and ginger for two litres of broth.'],
    ['GLA-500', 'Gula aren syrup, 500 ml', 'Palm sugar syrup with pandan, as used in our es kopi susu.'],
    ['KCP-600', 'Kecap manis, 600 ml', 'The sweet soy sauce used in every station of the kitchen.'],
    ['KRP-UDG-250', 'Prawn crackers, 250 g', 'Uncooked krupuk udang to fry at home.'],
    ['KCG-SAUCE-300', 'Peanut sauce for gado-gado, 300 g', 'Thick peanut paste; loosen with warm water.']
  ];
  for (const [sku, title, text] of pantry) {
    out.push({ id: `sku-${sku.toLowerCase()}`, title: `${title} (${sku})`, sku, text: `${text} Product code ${sku}.`, tags: ['product', 'pantry'], lang: 'en', tenant: 'dapur-nusantara', groups: DN, public: false, stock: 20 + sku.length });
  }
  return out;
}
