// Hand-written coffee documents for the warung-kopi tenant: brewing guides, bar routines,
// roastery procedures, management notes and supplier pages. Each entry is one document.
const BAR = ['baristas', 'roastery', 'management'];
const ROAST = ['roastery', 'management'];
const MGMT = ['management'];
const SUPP = ['suppliers', 'roastery', 'management'];

export const COFFEE_DOCS = [
  // ---------- brewing guides ----------
  { id: 'brew-v60', dir: 'brewing', title: 'V60 pour-over recipe', tags: ['brewing', 'pour-over', 'filter'], groups: BAR, body: [
    'Our standard V60 uses 15 g of medium-fine coffee and 250 g of water just off the boil, around 93 °C. Rinse the paper filter first so the cone is warm and the papery taste is gone.',
    '## Steps', '1. Bloom with 40 g of water and give the cone a gentle swirl.\n2. At 0:45 pour slowly in circles up to 150 g.\n3. At 1:15 continue to 250 g, keeping the stream thin and close to the bed.\n4. Swirl once more so the bed settles flat. The drawdown should finish between 2:45 and 3:15.',
    'If it runs faster than that, grind finer; if it chokes, go coarser. Washed Kintamani and Preanger lots shine on this recipe.' ] },
  { id: 'brew-tubruk', dir: 'brewing', title: 'Kopi tubruk, the village way', tags: ['brewing', 'tubruk', 'traditional'], groups: BAR, body: [
    'Long before anyone here owned a kettle with a thermometer, coffee was made by putting coarse grounds straight into a glass and pouring boiling water over them. That is kopi tubruk, and it is still the drink most of our older customers order.',
    'Spoon 12 g of coarsely ground coffee into a thick glass, add sugar if the guest wants it, then pour 180 ml of water that has just stopped bubbling. Stir three times, cover the glass with a saucer and wait four minutes. The grounds sink by themselves; the last sip stays in the glass.',
    'Nothing else is needed: no paper, no plunger, no electricity apart from whatever heats the water. A dark Gayo or Mandailing roast gives the thick, chocolatey cup people expect.' ] },
  { id: 'brew-french-press', dir: 'brewing', title: 'French press: ratio and timing', tags: ['brewing', 'immersion'], groups: BAR, body: [
    'Use a 1:15 ratio, for example 30 g of coarse coffee to 450 g of water at 94 °C. Pour all the water, stir the crust after four minutes and skim the foam.',
    'Wait another five minutes before plunging, and only press the filter down to the surface of the coffee rather than squeezing the grounds. The longer rest gives a cleaner cup with less silt.' ] },
  { id: 'brew-aeropress', dir: 'brewing', title: 'AeroPress recipe for the slow bar', tags: ['brewing', 'aeropress'], groups: BAR, body: [
    'Inverted method: 16 g of medium-fine coffee, 230 g of water at 88 °C. Pour, stir ten times, fit the cap with a rinsed paper filter and wait until 1:45.',
    'Flip onto the cup and press gently for about 30 seconds, stopping at the hiss. For iced AeroPress, halve the water and press over 100 g of ice.' ] },
  { id: 'brew-moka', dir: 'brewing', title: 'Moka pot on a gas stove', tags: ['brewing', 'stovetop'], groups: BAR, body: [
    'Fill the base with hot water up to the valve, level the basket with a fine grind without tamping, and screw the pot together with a dry towel.',
    'Keep the flame low and remove the pot as soon as the stream turns blond. Cooling the base under the tap stops extraction and avoids the burnt taste people associate with moka coffee.' ] },
  { id: 'brew-cold-brew', dir: 'brewing', title: 'Cold brew batch for the bar', tags: ['brewing', 'cold-brew', 'iced'], groups: BAR, body: [
    'We make concentrate in the 20-litre Toddy bucket. Grind 2 kg of coffee very coarse, wet it with 4 litres of filtered water at room temperature, then add another 8 litres while stirring gently so no dry pockets remain.',
    'Cover and steep for 16 to 18 hours in the cool room. Drain through the felt filter and then through a paper filter into labelled bottles. The concentrate keeps seven days refrigerated; dilute 1:1 with water or milk over ice.',
    'Write the date and batch number on every bottle. Old concentrate turns flat and woody long before it is unsafe.' ] },
  { id: 'brew-phin', dir: 'brewing', title: 'Vietnamese phin with condensed milk', tags: ['brewing', 'phin'], groups: BAR, body: [
    'Put two spoons of condensed milk in the glass, add 20 g of medium-coarse robusta to the phin, press the insert lightly and bloom with a splash of water for 30 seconds.',
    'Fill the chamber and let it drip for four to five minutes. Stir the milk up from the bottom before serving over ice.' ] },
  { id: 'brew-chemex', dir: 'brewing', title: 'Chemex for sharing', tags: ['brewing', 'pour-over'], groups: BAR, body: [
    'For two cups use 36 g of coffee ground slightly coarser than for V60 and 600 g of water. The thick bonded filter removes most oils, so light, floral coffees such as Kintamani taste especially clean.',
    'Bloom with 80 g, then pour in three stages. Total time should be four to four and a half minutes.' ] },
  { id: 'brew-siphon', dir: 'brewing', title: 'Siphon brewer demonstration notes', tags: ['brewing', 'siphon'], groups: BAR, body: [
    'The siphon is theatre as much as coffee. Heat 300 g of water in the lower bowl, attach the upper bowl once it starts to bubble and let the water rise.',
    'Add 20 g of medium grind, stir once, wait 60 seconds, then remove the heat. The coffee falls back through the cloth filter in about 40 seconds. Clean the cloth in water and keep it refrigerated.' ] },
  { id: 'brew-espresso', dir: 'brewing', title: 'Espresso: our house shot', tags: ['brewing', 'espresso'], groups: BAR, body: [
    'House espresso is 18 g in, 36 g out in 27 to 30 seconds, with the machine at 93 °C and 9 bar. Distribute with the WDT tool, tamp level and lock in without knocking the portafilter.',
    'Taste every morning before opening; the grinder drifts as the burrs warm up, so adjust in small steps.' ] },
  { id: 'brew-kopi-susu', dir: 'brewing', title: 'Es kopi susu gula aren (house recipe)', tags: ['drinks', 'iced', 'gula-aren'], groups: BAR, body: [
    'Our best seller. Per glass: 25 ml gula aren syrup, 120 ml fresh milk, ice to the line and a double shot of the house blend poured on top so it layers.',
    'For the syrup, dissolve 1 kg of shaved palm sugar in 600 ml of water with two pandan leaves over low heat, strain and cool. It keeps two weeks in the fridge.',
    '## Versi Indonesia', 'Es kopi susu gula aren: 25 ml sirup gula aren, 120 ml susu segar, es batu dan dua shot espresso. Sirup dibuat dari 1 kg gula aren, 600 ml air dan dua lembar daun pandan.' ] },
  { id: 'brew-tubruk-id', dir: 'brewing', title: 'Cara membuat kopi tubruk yang enak', lang: 'id', tags: ['brewing', 'tubruk', 'traditional'], groups: BAR, body: [
    'Kopi tubruk adalah cara menyeduh paling sederhana: bubuk kopi kasar langsung diseduh air panas di dalam gelas.',
    '## Langkah', '1. Masukkan 12 gram bubuk kopi kasar ke gelas tebal, tambahkan gula bila suka.\n2. Tuang 180 ml air yang baru mendidih.\n3. Aduk tiga kali, tutup gelas dengan lepek.\n4. Tunggu sekitar empat menit sampai ampas turun, lalu sajikan.',
    'Gunakan sangrai gelap dari Gayo atau Mandailing supaya rasanya tebal dan manis.' ] },
  { id: 'brew-manual-id', dir: 'brewing', title: 'Seduh manual di rumah', lang: 'id', tags: ['brewing', 'pour-over'], groups: BAR, body: [
    'Untuk seduh manual dengan dripper, siapkan 15 gram kopi giling sedang halus dan 250 ml air bersuhu sekitar 92 derajat. Bilas kertas saring dulu.',
    'Tuang 40 ml air untuk blooming, tunggu 30 detik, lalu tuang perlahan memutar sampai habis. Total waktu sekitar tiga menit.' ] },
  { id: 'brew-no-gear', dir: 'brewing', title: 'Brewing at home with what you already own', tags: ['brewing', 'home', 'guide'], groups: BAR, body: [
    'Customers often ask what they should buy before they can brew good coffee at home. The honest answer is: almost nothing. A kettle, a spoon and a jar are enough.',
    'The simplest route is steeping. Put two heaped spoons of coarse grounds in a jug or jam jar, pour over hot water that has rested for half a minute after boiling, stir, and wait four minutes. Pour through a tea strainer or a folded paper towel into your cup.',
    'If you own a cone and paper filters, a slow spiral pour gives a lighter, brighter drink. Either way, buy beans roasted in the last month, grind them as close to brewing as you can, and weigh the grounds once so you learn what "two spoons" really means.' ] },
  { id: 'brew-water', dir: 'brewing', title: 'Water for brewing', tags: ['brewing', 'water'], groups: BAR, body: [
    'Jakarta tap water is hard and varies by district, so every brew at the bar uses water from the reverse-osmosis unit remineralised to about 80 ppm.',
    'Too soft and the coffee tastes flat and sour; too hard and it turns chalky and scales the boiler. Check the TDS meter every Monday and log the reading.' ] },
  { id: 'brew-ratios', dir: 'brewing', title: 'Brew ratio cheat sheet', tags: ['brewing', 'reference'], groups: BAR, body: [
    '| Method | Coffee | Water | Time |\n|---|---|---|---|\n| V60 | 15 g | 250 g | 3:00 |\n| French press | 30 g | 450 g | 9:00 |\n| AeroPress | 16 g | 230 g | 2:15 |\n| Tubruk | 12 g | 180 g | 4:00 |\n| Cold brew | 2 kg | 12 l | 16–18 h |',
    'These are starting points. Adjust grind before changing the ratio.' ] },

  // ---------- bar routines (procedural, generic titles) ----------
  { id: 'ops-weekly-maintenance', dir: 'bar', title: 'Tuesday maintenance routine', tags: ['maintenance', 'checklist'], groups: BAR, body: [
    'Tuesday after closing is maintenance night. Allow an hour and do the steps in this order so nothing is skipped.',
    '## Descaling', 'Every fourth Tuesday we descale the espresso machine. Switch the machine to service mode, empty the steam boiler through the drain valve, and dissolve 100 g of citric acid in 2 litres of warm water in the reservoir. Run the descaling program; on the older two-group machine, draw the solution through each group and the hot water tap until the reservoir is empty, leave it for 20 minutes, then flush with at least 6 litres of clean water. Check the flushing water with a strip before switching back to normal mode.',
    '## Other jobs', 'Soak the portafilter baskets and spouts in detergent, brush the group gaskets, wipe the drip tray sensors, and record the boiler pressure in the logbook. Descaling is skipped only when the water log shows hardness below 40 ppm all month.' ] },
  { id: 'ops-end-of-day', dir: 'bar', title: 'End of day at the bar', tags: ['checklist', 'closing', 'cleaning'], groups: BAR, body: [
    'The last barista on shift owns the closing list. Start it thirty minutes before the doors close so the last guests are not waiting.',
    '1. Backflush each group: insert the blind basket, add half a spoon of detergent, run the pump for ten seconds and stop, five times. Repeat with clean water another five times.\n2. Take out the shower screens, brush them and the gaskets, and put them back.\n3. Purge and wipe the steam wands, then soak the tips in hot water.\n4. Empty the grinder hopper of leftover beans into an airtight tub and vacuum the chute.\n5. Clean the milk fridge seals, count the milk stock, and write tomorrow\'s order.\n6. Mop the floor behind the bar last.',
    'Sign the sheet on the fridge door when you are done.' ] },
  { id: 'ops-opening', dir: 'bar', title: 'Before the doors open', tags: ['checklist', 'opening'], groups: BAR, body: [
    'Arrive 45 minutes before opening. Switch on the machine first; it needs 25 minutes to reach stable temperature.',
    'Fill the hoppers, purge the grinders with 20 g of coffee each, and pull test shots until the house recipe tastes right. Wipe the counters, cut the lemon for the tonic drinks, check the cold brew date, and put the float in the till.' ] },
  { id: 'ops-dial-in', dir: 'bar', title: 'Adjusting the grinder every morning', tags: ['espresso', 'grinder', 'calibration'], groups: BAR, body: [
    'New coffee, humidity and the age of the roast all change how fast water moves through the puck, so we check the espresso grind at the start of every shift.',
    'Pull a shot with the recipe dose. If 36 g arrives in under 25 seconds the cup will be thin and sour: move the grinder one step finer and purge 5 g. If it takes longer than 32 seconds, the shot turns bitter and dry: go coarser. Change one thing at a time and taste each shot, not just the timer.',
    'Sour, salty, sharp shots are under-extracted; hollow, bitter, astringent ones are over-extracted. Write the final setting on the whiteboard next to the grinder.' ] },
  { id: 'ops-burrs', dir: 'bar', title: 'Grinder service notes', tags: ['grinder', 'maintenance'], groups: BAR, body: [
    'The flat burrs on the espresso grinders last about 600 kg; the retail grinder at the counter needs attention far sooner because customers use it for everything from tubruk to filter.',
    'To swap the burrs on the counter unit, unplug it, remove the hopper and turn the upper ring anticlockwise until it lifts out. Pull the cone burr straight up using the wire handle, brush out old grounds, seat the new burr and press down until it clicks. Refit the ring, turn it to the finest setting, then back off to the zero mark before calibrating.',
    'Keep spare burr sets and the calibration tool in the drawer marked SERVICE.' ] },
  { id: 'ops-milk', dir: 'bar', title: 'Texturing milk', tags: ['milk', 'latte'], groups: BAR, body: [
    'Start with cold milk in a cold pitcher, filled to just below the spout. Purge the wand, place the tip just under the surface and open fully.',
    'Let in air for the first three or four seconds until the volume grows by a third for a latte (more for a cappuccino), then sink the tip slightly to spin the milk into a whirlpool. Stop at 60 °C, when the pitcher is too hot to hold for more than a second. Tap, swirl, and pour straight away.' ] },
  { id: 'ops-latte-art', dir: 'bar', title: 'Pouring a heart', tags: ['milk', 'latte-art'], groups: BAR, body: [
    'Tilt the cup towards the pitcher and pour from about ten centimetres until the cup is half full. Bring the spout down to the surface so the white foam starts to spread.',
    'Keep the flow steady while the circle grows, then lift the pitcher and pull through the middle to draw the heart\'s point.' ] },
  { id: 'ops-complaints', dir: 'bar', title: 'When a guest is unhappy', tags: ['service'], groups: BAR, body: [
    'Listen first, apologise, and offer to remake the drink without arguing about the recipe. Note the drink, time and issue in the service log so patterns become visible.' ] },
  { id: 'ops-milk-storage', dir: 'bar', title: 'Milk and alternative milk storage', tags: ['milk', 'food-safety'], groups: BAR, body: [
    'Fresh milk stays at 1–4 °C and is used first-in-first-out. Opened oat and soy cartons are dated and used within four days. Any pitcher left out for more than 20 minutes is poured away.' ] },
  { id: 'ops-id-bersih', dir: 'bar', title: 'Panduan kebersihan bar', lang: 'id', tags: ['cleaning', 'checklist'], groups: BAR, body: [
    'Setiap malam, lakukan backflush pada setiap group head: pasang keranjang buta, tambahkan setengah sendok deterjen, jalankan pompa sepuluh detik lalu matikan, ulangi lima kali, kemudian bilas dengan air bersih.',
    'Sebulan sekali mesin espresso dibersihkan dari kerak: larutkan 100 gram asam sitrat dalam 2 liter air hangat di tangki, jalankan program pembersihan kerak, diamkan 20 menit dan bilas dengan air bersih minimal 6 liter.',
    'Lepas shower screen dan sikat bersama karet gasket. Lap steam wand setelah setiap penggunaan.' ] },
  { id: 'ops-iced', dir: 'bar', title: 'Iced drink station', tags: ['iced', 'drinks'], groups: BAR, body: [
    'Ice machine is cleaned every Friday. Scoop ice with the metal scoop only, never with a glass. Pre-chill the kopi susu glasses in the reach-in fridge during the afternoon rush.' ] },
  { id: 'ops-water-filter', dir: 'bar', title: 'Changing the water filter cartridge', tags: ['maintenance', 'water'], groups: BAR, body: [
    'Replace the cartridge every 3,000 litres or six months, whichever comes first. Close the inlet tap, release pressure through the flush valve, swap the cartridge, and run 10 litres to waste before reconnecting the machine.' ] },
  { id: 'ops-training', dir: 'bar', title: 'First week for new baristas', tags: ['training'], groups: BAR, body: [
    'Day one is about the menu and the till. Days two and three cover grinding, dosing and pulling shots. Milk comes on day four, and on day five the new barista works the bar with a senior next to them. Brewing on the slow bar is only taught after the first month.' ] },

  // ---------- roastery ----------
  { id: 'roast-green-storage', dir: 'roastery', title: 'Warehouse rules for unroasted beans', tags: ['green-coffee', 'storage'], groups: ROAST, body: [
    'Green coffee arrives in jute sacks with GrainPro liners. Stack the sacks on pallets at least 15 cm off the floor and away from the wall, never directly on concrete.',
    'Keep the storeroom below 25 °C and relative humidity between 50 and 60 percent; the dehumidifier runs day and night in the rainy season. Measure moisture of every lot on arrival and again every month: it should stay between 10 and 12 percent. Lots older than a year lose sweetness and start tasting of paper, so rotate stock first-in-first-out.' ] },
  { id: 'roast-receiving', dir: 'roastery', title: 'Receiving a delivery', tags: ['green-coffee', 'quality'], groups: ROAST, body: [
    'Weigh every sack, check the lot code against the contract and take a 300 g sample from three sacks per lot. Record moisture, water activity and screen size, then cup the sample within a week.' ] },
  { id: 'roast-chaff', dir: 'roastery', title: 'Roaster care between batches', tags: ['roaster', 'maintenance', 'safety'], groups: ROAST, body: [
    'Chaff is the main fire risk in the roastery. Empty the chaff collector after every fourth batch and at the end of the day: let the cyclone cool, unlatch the bin, tip the chaff into the metal bin outside and brush the inside of the cyclone.',
    'Once a week, open the exhaust duct cleanout and scrape the oily residue from the elbow. Once a month, remove the drum fan cover and clean the blades. Note every cleaning in the roaster log.' ] },
  { id: 'roast-defects', dir: 'roastery', title: 'Roast defects and what causes them', tags: ['roasting', 'quality'], groups: ROAST, body: [
    'Scorching (dark patches on the flat side) comes from a charge temperature that is too high for the batch size. Tipping (burnt ends) means too much heat late in the roast. Baked coffee tastes flat and bready when the rate of rise stalls before first crack.' ] },
  { id: 'roast-cupping', dir: 'roastery', title: 'Cupping protocol', tags: ['cupping', 'quality'], groups: ROAST, body: [
    'Roast samples light, rest them 8 to 24 hours, and cup at 8.25 g per 150 ml. Smell dry fragrance, pour water at 93 °C, break the crust at four minutes, and start tasting at eight. Score on the SCA form and compare against the previous arrival of the same origin.' ] },
  { id: 'roast-house-blend', dir: 'roastery', title: 'House blend recipe', tags: ['blend', 'espresso'], groups: ROAST, body: [
    'The house espresso is 50 percent Gayo wet-hulled, 30 percent Flores Bajawa natural and 20 percent Temanggung fine robusta. Each component is roasted separately and blended after resting for two days.' ] },
  { id: 'roast-degassing', dir: 'roastery', title: 'Resting roasted coffee', tags: ['roasting', 'freshness'], groups: ROAST, body: [
    'Espresso roasts rest five to seven days before service; filter roasts three to four. Bags with one-way valves let carbon dioxide out without letting oxygen in.' ] },
  { id: 'roast-packing', dir: 'roastery', title: 'Packing retail bags', tags: ['packaging', 'retail'], groups: ROAST, body: [
    'Fill 250 g and 500 g valve bags on the scale, squeeze gently, and heat-seal at setting 4. Stamp the roast date on the back label and put the bag in the retail crate with the correct SKU sticker.' ] },
  { id: 'roast-log-id', dir: 'roastery', title: 'Catatan sangrai harian', lang: 'id', tags: ['roasting', 'log'], groups: ROAST, body: [
    'Setiap batch dicatat: asal kopi, berat hijau, suhu awal, waktu first crack, waktu selesai, berat sangrai dan persentase susut. Catatan ini dipakai untuk mengulang profil yang sudah enak.' ] },
  { id: 'roast-gudang-id', dir: 'roastery', title: 'Menyimpan biji kopi hijau', lang: 'id', tags: ['green-coffee', 'storage'], groups: ROAST, body: [
    'Karung biji kopi hijau disimpan di atas palet, minimal 15 cm dari lantai dan tidak menempel dinding. Suhu gudang dijaga di bawah 25 derajat dan kelembapan 50 sampai 60 persen.',
    'Kadar air setiap lot diukur saat datang dan setiap bulan, idealnya 10 sampai 12 persen. Gunakan stok lama lebih dulu.' ] },

  // ---------- management ----------
  { id: 'mgmt-pricing', dir: 'management', title: 'Menu pricing review, second quarter', tags: ['pricing'], groups: MGMT, body: [
    'Milk prices rose eight percent since January. We will raise milk drinks by Rp 2.000 and keep filter coffee unchanged. Cold brew margins remain the best on the menu.' ] },
  { id: 'mgmt-rota', dir: 'management', title: 'Staff rota guidelines', tags: ['staffing'], groups: MGMT, body: [
    'Two baristas on every shift, three on Saturday and Sunday mornings. No one works more than five closing shifts in a row.' ] },
  { id: 'mgmt-wastage', dir: 'management', title: 'Wastage report, March', tags: ['report'], groups: MGMT, body: [
    'Milk waste fell to 3.1 percent after the smaller pitchers arrived. Pastry waste is still high on Mondays; order fewer croissants for the start of the week.' ] },
  { id: 'mgmt-outlet', dir: 'management', title: 'Second outlet plan', tags: ['planning'], groups: MGMT, body: [
    'Shortlisted locations in Bandung and Yogyakarta. The roastery can supply both from Jakarta with weekly deliveries until volume justifies a second roaster.' ] },
  { id: 'mgmt-contracts', dir: 'management', title: 'Green coffee contracts for next harvest', tags: ['sourcing', 'contracts'], groups: MGMT, body: [
    'We will contract 60 bags of Gayo, 20 of Toraja, 15 of Kintamani and 10 of Flores Bajawa. Price is fixed per kilogram of green coffee at the warehouse, with a quality premium for lots scoring 84 or more.' ] },

  // ---------- suppliers (visible to the suppliers group) ----------
  { id: 'supp-delivery', dir: 'suppliers', title: 'Delivery schedule for partners', tags: ['suppliers', 'logistics'], groups: SUPP, body: [
    'Green coffee deliveries are received Monday to Thursday between 08:00 and 14:00 at the roastery gate on Jalan Kemang Raya. Send the truck plate number and the number of sacks one day in advance by WhatsApp to the roastery manager.' ] },
  { id: 'supp-packaging', dir: 'suppliers', title: 'Packing requirements for sacks', tags: ['suppliers', 'packaging', 'green-coffee'], groups: SUPP, body: [
    'All green coffee must arrive in clean jute sacks of 60 kg with hermetic liners, sewn shut and labelled with the lot code, origin, process and harvest month. Moisture must be between 10 and 12 percent; we reject lots with musty smell, insects or more than 5 full defects per 300 g.' ] },
  { id: 'supp-payment', dir: 'suppliers', title: 'Invoices and payment terms', tags: ['suppliers', 'payment'], groups: SUPP, body: [
    'We pay 50 percent on contract and the rest within 14 days of a delivery that passes the arrival cupping. Invoices go to the finance email with the contract number.' ] },
  { id: 'supp-samples', dir: 'suppliers', title: 'Sending pre-shipment samples', tags: ['suppliers', 'quality'], groups: SUPP, body: [
    'Send 300 g of each lot at least three weeks before shipping. Label samples with the same lot code that will appear on the sacks.' ] }
];
