// Hand-written kitchen documents for the dapur-nusantara tenant: techniques, ingredient notes and
// kitchen procedures. Several procedures sit under plain, generic titles on purpose: that is how
// the kitchen actually names its pages.
const K = ['kitchen', 'management'];
const MGMT = ['management'];

export const KITCHEN_DOCS = [
  { id: 'tech-tempe-making', dir: 'techniques', title: 'Weekend project: a tray of our own', tags: ['fermentation', 'soybeans'], groups: K, body: [
    'Once a month the kitchen ferments its own batch instead of buying blocks from the market, and every new cook takes part at least once.',
    'Soak 1 kg of dried soybeans overnight. The next morning rub them between your palms to slip off the hulls, skim the hulls away, and boil the split beans for 30 minutes. Drain them and dry them thoroughly on a clean towel: wet beans rot instead of fermenting.',
    'When the beans are just warm to the touch, sprinkle over 2 g of ragi (Rhizopus starter) per kilogram and mix well. Pack them 3 cm thick into plastic bags pricked every two centimetres with a skewer, or wrap them in banana leaves. Keep them somewhere warm, around 30 °C, for 36 to 48 hours. The beans are ready when white mycelium binds them into a firm cake that smells like mushrooms; grey or black spots near the holes are harmless spores, but an ammonia smell means it went too far.',
    'Slice and fry the fresh cake the same day or keep it in the fridge for up to four days.' ] },
  { id: 'tech-rendang-notes', dir: 'techniques', title: 'Notes from the Padang station', tags: ['slow-cooking', 'coconut'], groups: K, body: [
    'Our head cook learned her rendang in Bukittinggi and the station follows her rules.',
    'Choose a cut with connective tissue, shin or chuck, and cut it in pieces the size of a matchbox; small cubes dry out before they soften. Never add the meat to boiling coconut milk: bring the milk and spice paste up slowly, stirring constantly so it does not curdle, and only then add the beef.',
    'The first two to three hours are gentle simmering while the collagen breaks down; the beef becomes tender here, not at the end. After that the sauce reduces, the coconut oil separates and the meat starts frying in it. Lower the heat and keep stirring with a wide spatula, scraping the bottom, until the pieces are dark and dry. If the beef is still tough when the liquid is nearly gone, add a cup of hot water and keep going: rushing this stage is the usual reason for chewy rendang.' ] },
  { id: 'tech-sambal-base', dir: 'techniques', title: 'Sambal: raw, cooked and fried', tags: ['sambal', 'chilli'], groups: K, body: [
    'We keep three sambals on the pass every day. Raw sambals such as matah are mixed to order and used within the shift. Cooked sambals (terasi, tomat) are ground after frying the ingredients. Fried sambals such as bajak are cooked down in oil until dark and keep for a week in the fridge.',
    'Always use a clean, dry spoon in the tubs, and label each batch with the day it was made.' ] },
  { id: 'tech-coconut-milk', dir: 'techniques', title: 'Fresh coconut milk', tags: ['coconut'], groups: K, body: [
    'Grate the mature coconut, add 200 ml of warm water per coconut, knead and squeeze through a cloth for the thick first milk (santan kental). Repeat with more water for thin milk (santan encer). Use within the day.' ] },
  { id: 'tech-spice-paste', dir: 'techniques', title: 'Bumbu dasar: the three base pastes', tags: ['spice-paste'], groups: K, body: [
    'White base (bumbu putih): shallot, garlic, candlenut. Yellow base (bumbu kuning): the white base plus turmeric, ginger and galangal. Red base (bumbu merah): shallot, garlic and plenty of red chilli. Each is blended in the morning, fried in oil until the raw smell is gone, and stored in labelled containers for three days.' ] },
  { id: 'tech-base-genep', dir: 'techniques', title: 'Base genep, the Balinese mother paste', tags: ['spice-paste', 'bali'], groups: K, body: [
    'Shallot, garlic, chilli, galangal, ginger, turmeric, lesser galangal (kencur), candlenut, coriander, pepper, shrimp paste and palm sugar, pounded together. It seasons betutu, lawar and sate lilit.' ] },
  { id: 'tech-rice', dir: 'techniques', title: 'Cooking rice for service', tags: ['rice'], groups: K, body: [
    'Rinse the rice until the water runs clear, use 1.2 parts water to 1 part rice in the cooker, and rest it ten minutes after the cooker clicks. Rice for nasi goreng is spread on trays and chilled uncovered overnight.' ] },
  { id: 'tech-frying-shallots', dir: 'techniques', title: 'Bawang goreng in bulk', tags: ['shallots'], groups: K, body: [
    'Slice shallots evenly on the mandoline, dry them for an hour, and start them in cold oil. Stir constantly and lift them out while still golden, since they keep darkening on the tray.' ] },
  { id: 'tech-stock', dir: 'techniques', title: 'Chicken stock for the soup station', tags: ['stock', 'soup'], groups: K, body: [
    'Roast the chicken frames, cover with cold water, bring to a bare simmer and skim. Add ginger, lemongrass and spring onion, cook four hours and strain. Cool in an ice bath within two hours.' ] },
  { id: 'tech-peanut-sauce', dir: 'techniques', title: 'Peanut sauce, one batch for everything', tags: ['sauce', 'peanut'], groups: K, body: [
    'The same base serves the sate, the gado-gado and the pecel. Fry 1 kg of skin-on peanuts until deep golden, cool, and grind with garlic, chillies and palm sugar. Loosen with tamarind water for gado-gado, with coconut milk for sate, and add kencur for pecel.' ] },
  { id: 'tech-grill', dir: 'techniques', title: 'Charcoal grill set-up', tags: ['grill'], groups: K, body: [
    'Light coconut-shell charcoal 40 minutes before service. Build a hot zone for sate and a cooler zone for fish. Keep a bowl of kecap and oil with a lemongrass brush next to the grill.' ] },
  { id: 'tech-id-tempe', dir: 'techniques', title: 'Fermentasi kedelai di dapur', lang: 'id', tags: ['fermentation', 'soybeans'], groups: K, body: [
    'Rendam 1 kg kedelai semalaman, kupas kulit arinya, lalu rebus 30 menit. Tiriskan dan keringkan kedelai di atas kain bersih sampai tidak basah.',
    'Setelah hangat-hangat kuku, taburkan 2 gram ragi per kilogram dan aduk rata. Bungkus dalam plastik yang sudah ditusuk-tusuk atau daun pisang, setebal 3 cm. Simpan di tempat hangat sekitar 30 derajat selama 36 sampai 48 jam sampai jamur putih menyatukan kedelai menjadi padat.' ] },
  { id: 'tech-id-rendang', dir: 'techniques', title: 'Tips memasak daging agar empuk', lang: 'id', tags: ['slow-cooking', 'beef'], groups: K, body: [
    'Pilih bagian sengkel atau paha depan yang berurat, potong besar-besar. Masak santan dan bumbu perlahan sambil diaduk, baru masukkan daging.',
    'Dua sampai tiga jam pertama adalah waktu daging menjadi empuk. Jika santan sudah hampir kering tetapi daging masih alot, tambahkan secangkir air panas dan teruskan memasak dengan api kecil.' ] },
  // ingredient guides
  { id: 'ing-terasi', dir: 'ingredients', title: 'Terasi (shrimp paste)', tags: ['ingredient'], groups: K, body: [ 'Fermented ground shrimp pressed into blocks. Toast it in a dry pan or over a flame before use; the smell fades into a deep savoury flavour. Store wrapped in an airtight jar away from other food.' ] },
  { id: 'ing-kecap-manis', dir: 'ingredients', title: 'Kecap manis', tags: ['ingredient'], groups: K, body: [ 'Thick sweet soy sauce made with palm sugar. Different brands vary a lot in sweetness; we use the same one in every station so dishes taste consistent.' ] },
  { id: 'ing-galangal', dir: 'ingredients', title: 'Galangal and kencur', tags: ['ingredient', 'rhizome'], groups: K, body: [ 'Galangal (lengkuas) is woody and piney and is bruised or sliced into soups and braises. Kencur, lesser galangal, is smaller and camphor-scented; it is essential for pecel and urap.' ] },
  { id: 'ing-lemongrass', dir: 'ingredients', title: 'Lemongrass', tags: ['ingredient'], groups: K, body: [ 'Use the pale lower third. Bruise the stalk for soups and curries; slice it paper-thin when it is eaten raw, as in sambal matah.' ] },
  { id: 'ing-candlenut', dir: 'ingredients', title: 'Candlenut (kemiri)', tags: ['ingredient'], groups: K, body: [ 'Oily nut used to thicken spice pastes. Always cook it; raw candlenuts upset the stomach.' ] },
  { id: 'ing-palm-sugar', dir: 'ingredients', title: 'Palm sugar: gula aren and gula jawa', tags: ['ingredient', 'sugar'], groups: K, body: [ 'Gula aren comes from the sugar palm, gula jawa usually from coconut palm sap. Both are sold in cakes; shave or melt them with a little water.' ] },
  { id: 'ing-keluak', dir: 'ingredients', title: 'Keluak nuts', tags: ['ingredient'], groups: K, body: [ 'The seeds of the kepayang tree, poisonous when fresh and made edible by fermenting. Crack and taste before use.' ] },
  { id: 'ing-ragi', dir: 'ingredients', title: 'Starter cultures in the pantry', tags: ['ingredient', 'fermentation'], groups: K, body: [ 'Ragi tempe is Rhizopus powder for soybeans; ragi tape is a different culture for fermenting cassava and glutinous rice. Keep both dry and cool and note the opening date.' ] },
  { id: 'ing-chillies', dir: 'ingredients', title: 'Chillies we use', tags: ['ingredient', 'chilli'], groups: K, body: [ 'Large red chillies (cabai merah besar) give colour with mild heat; curly red chillies (keriting) are hotter; bird\'s eye chillies (rawit) are the hottest. Deseed the large ones for pastes that need colour without burn.' ] },
  { id: 'ing-salam', dir: 'ingredients', title: 'Salam leaf', tags: ['ingredient'], groups: K, body: [ 'Indonesian bay leaf, not the same as the Mediterranean bay. Added whole to rice, soups and braises and removed before serving.' ] },
  // kitchen operations
  { id: 'kops-cold-chain', dir: 'kitchen-ops', title: 'Receiving and storing chilled goods', tags: ['food-safety'], groups: K, body: [ 'Check every chilled delivery with the probe: meat and fish must arrive below 5 °C. Reject anything warmer. Label with the date and move into the walk-in within fifteen minutes.' ] },
  { id: 'kops-haccp', dir: 'kitchen-ops', title: 'Food safety plan', tags: ['food-safety', 'haccp'], groups: K, body: [ 'Critical control points: cooking (core above 75 °C), cooling (from 60 °C to 10 °C within two hours), hot holding (above 63 °C), and cold storage (below 5 °C). Record temperatures on the sheet at every check.' ] },
  { id: 'kops-closing', dir: 'kitchen-ops', title: 'Last hour in the kitchen', tags: ['cleaning', 'closing'], groups: K, body: [ 'Wrap and label all mise en place, cool the stocks, degrease the hood filters on Fridays, scrub the grill, and empty the grease trap every Monday night.' ] },
  { id: 'kops-allergens', dir: 'kitchen-ops', title: 'Allergen list for the menu', tags: ['allergens'], groups: K, body: [ 'Peanuts: gado-gado, pecel, sate. Shellfish: anything with terasi, including most sambals. Soy: tempe, tofu, kecap. Gluten: mie goreng, martabak, bakso (wheat in the noodles).' ] },
  { id: 'kops-prep', dir: 'kitchen-ops', title: 'Morning prep list', tags: ['prep'], groups: K, body: [ 'Blend the base pastes, slice shallots for frying, make the day\'s sambal, portion the beef for rendang, soak the soybeans for tomorrow, and check the coconut milk delivery.' ] },
  { id: 'kops-knives', dir: 'kitchen-ops', title: 'Knife care', tags: ['equipment'], groups: K, body: [ 'Hone before every shift, sharpen on the whetstone on Saturdays, and never put knives in the dishwasher.' ] },
  { id: 'kops-id-kebersihan', dir: 'kitchen-ops', title: 'Aturan kebersihan dapur', lang: 'id', tags: ['food-safety'], groups: K, body: [ 'Cuci tangan setiap berganti pekerjaan, pisahkan talenan daging mentah dan sayur, simpan bahan matang di rak atas kulkas dan bahan mentah di rak bawah.' ] },
  { id: 'kmgmt-menu-costing', dir: 'management', title: 'Menu costing', tags: ['pricing'], groups: MGMT, body: [ 'Food cost target is 32 percent. Rendang sits at 38 percent since beef prices rose; consider a smaller portion with more sides.' ] },
  { id: 'kmgmt-suppliers', dir: 'management', title: 'Market suppliers and ordering days', tags: ['purchasing'], groups: MGMT, body: [ 'Vegetables daily from Pasar Induk, beef Tuesday and Friday, coconuts every morning, dry goods on the first of the month.' ] },
  { id: 'kmgmt-ramadan', dir: 'management', title: 'Ramadan menu plan', tags: ['planning'], groups: MGMT, body: [ 'Open at 16:00 for takjil: kolak, es cendol and gorengan. Opor ayam and ketupat in the last week for Lebaran orders.' ] }
];
