// Public pages of the shop (tenant "public", public: true): FAQ pages in Markdown and a few HTML pages.
export const STORE_DOCS = [
  { id: 'faq-shipping', title: 'Shipping and delivery', tags: ['faq', 'shipping'], body: [
    'We ship roasted coffee and pantry goods anywhere in Indonesia. Orders placed before 13:00 WIB leave the roastery the same working day.',
    'Jakarta, Bogor, Depok, Tangerang and Bekasi: same-day courier, Rp 15.000 to Rp 35.000 depending on distance. Other cities in Java, including Bandung, Semarang, Yogyakarta and Surabaya: two to three days by regular courier, from Rp 18.000 per kilogram. Outside Java: three to seven days, priced at checkout.',
    'Orders above Rp 400.000 ship free within Java.' ] },
  { id: 'faq-returns', title: 'Returns and refunds', tags: ['faq', 'returns'], body: [
    'If a bag arrives damaged or you received the wrong grind, send us a photo within seven days and we will replace it or refund you. Because coffee is food, we cannot accept opened bags back for a change of mind. Equipment can be returned unused within 14 days in its original box.' ] },
  { id: 'faq-hours', title: 'Opening hours and locations', tags: ['faq', 'store'], body: [
    'Warung Kopi Kemang: Monday to Friday 07:00–21:00, Saturday and Sunday 08:00–22:00. Dapur Nusantara restaurant next door: daily 11:00–22:00, closed on the first day of Eid. The roastery is not open to the public except on the last Saturday of the month for cupping sessions.' ] },
  { id: 'faq-wholesale', title: 'Coffee for cafés, offices and hotels', tags: ['faq', 'wholesale'], body: [
    'We roast for about forty cafés and offices. Wholesale partners get roast-to-order coffee delivered weekly, barista training for their staff, and help setting up their grinders. Minimum order is 5 kg per week. Write to us with your expected volume and the drinks on your menu.' ] },
  { id: 'faq-gift', title: 'Gift cards', tags: ['faq', 'gift'], body: [
    'Digital gift cards from Rp 100.000 to Rp 1.000.000 can be used online, at the bar and in the restaurant. They are valid for twelve months.' ] },
  { id: 'faq-id', title: 'Pertanyaan yang sering diajukan', lang: 'id', tags: ['faq'], body: [
    '**Jam buka?** Warung Kopi buka Senin–Jumat pukul 07.00–21.00, Sabtu–Minggu 08.00–22.00. Dapur Nusantara buka setiap hari pukul 11.00–22.00.',
    '**Pengiriman?** Pesanan sebelum pukul 13.00 WIB dikirim hari yang sama. Gratis ongkir di Pulau Jawa untuk belanja di atas Rp 400.000.',
    '**Bisa pesan kopi giling?** Bisa. Pilih ukuran gilingan untuk tubruk, V60, French press atau espresso saat memesan.' ] }
];

// HTML pages. Metadata is given as <meta> tags; the newsletter page carries a <script> element and,
// in its visible text, an onerror= attribute quoted from a customer comment (escaping tests use it).
export const HTML_PAGES = [
  { file: 'about.html', id: 'page-about', title: 'About Warung Kopi and Dapur Nusantara', body: `
  <h1>About us</h1>
  <p>Warung Kopi started in 2016 as a coffee cart outside a Kemang office block. Today we roast Indonesian coffee in a small roastery in South Jakarta and run a bar and a restaurant, Dapur Nusantara, on the same street.</p>
  <p>We buy directly from farmer groups in Gayo, Toraja, Kintamani, Flores Bajawa and the Priangan highlands, and visit most of them every harvest.</p>` },
  { file: 'visit.html', id: 'page-visit', title: 'Visit the roastery', body: `
  <h1>Open roastery Saturdays</h1>
  <p>On the last Saturday of every month the roastery opens its doors from 09:00 to 12:00. Watch a roast, join a public cupping of the newest arrivals and ask the roasters anything.</p>
  <ul><li>Free entry, no booking needed</li><li>Children welcome with an adult</li><li>Parking is limited; take the MRT to Blok M and walk ten minutes</li></ul>` },
  { file: 'newsletter.html', id: 'page-newsletter', title: 'Newsletter sign-up', body: `
  <h1>Get the harvest letter</h1>
  <p>Once a month we write about what arrived at the roastery, which lots are on the slow bar, and a recipe from the kitchen.</p>
  <form action="/subscribe" method="post"><input type="email" name="email" placeholder="you@example.com"><button>Subscribe</button></form>
  <script>document.querySelector('form').addEventListener('submit', function () { window.dataLayer = window.dataLayer || []; window.dataLayer.push({ event: 'newsletter' }); });</script>
  <h2>From the comments</h2>
  <p>A reader once pasted this into our old comment box: <code>&lt;img src="x" onerror="alert('kopi')"&gt;</code>. Nothing happened, because comments are shown as plain text. We kept it here as a reminder.</p>
  <p>Another tried <code>&lt;script&gt;alert(document.cookie)&lt;/script&gt;</code> and got a free tubruk voucher for honesty.</p>` },
  { file: 'careers.html', id: 'page-careers', title: 'Work with us', body: `
  <h1>Jobs</h1>
  <p>We are looking for a morning barista for the Kemang bar and a line cook for the Dapur Nusantara grill station. Experience helps, curiosity matters more. Send a short note about yourself.</p>` }
];
