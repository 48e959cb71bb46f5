// Hand-written facts about Indonesian coffee origins. The generator turns each entry into an
// overview, cupping notes, a roast profile and (for some) an Indonesian overview and a visit report.
export const ORIGINS = [
  {
    key: 'gayo', name: 'Gayo', title: 'Kopi Gayo: highland Arabica from Aceh', region: 'the Gayo highlands of Aceh, around Lake Laut Tawar and Takengon',
    island: 'Sumatra', altitude: '1,200 to 1,700 metres', varietals: 'Gayo 1, Gayo 2, Timtim and Ateng Super', process: 'wet-hulled (giling basah), with a growing share of fully washed, honey and the fermented "wine process" lots',
    flavour: 'dark chocolate, cedar, brown sugar and, in the wine-process lots, ripe red grapes and rum-soaked raisins', body: 'heavy and syrupy',
    history: 'Smallholders in Bener Meriah and Central Aceh grow most of it, usually on plots under a hectare shaded by lamtoro trees.',
    harvest: 'October to March', extra: 'Many cooperatives here hold organic and Fair Trade certificates, and the wine-process lots are fermented in sealed drums for up to a month before drying.',
    id: {
      title: 'Mengenal kopi Gayo dari dataran tinggi Aceh',
      text: [
        'Kopi Gayo tumbuh di dataran tinggi Gayo, Aceh, pada ketinggian sekitar 1.200 sampai 1.700 meter di atas permukaan laut. Sebagian besar kebun dikelola petani kecil di Bener Meriah dan Aceh Tengah.',
        'Proses yang paling umum adalah giling basah, yang memberi body tebal dan rasa cokelat serta rempah. Belakangan banyak petani mencoba proses natural dan "wine", yaitu buah kopi difermentasi dalam drum tertutup sebelum dijemur, sehingga muncul aroma anggur dan buah matang.',
        'Panen raya biasanya berlangsung antara Oktober dan Maret. Di warung kami, kopi Gayo paling sering dipakai untuk kopi tubruk dan espresso susu.'
      ]
    },
    visit: 'We spent two days with a cooperative near Takengon. The cherries are picked ripe, pulped the same afternoon and fermented overnight in plastic tubs. Farmers sell the parchment still wet to collectors, which is why the beans arrive with that bluish-green colour typical of giling basah. The cooperative now runs a small drying house with raised beds for its natural and wine lots.'
  },
  {
    key: 'toraja', name: 'Toraja', title: 'Toraja: coffee from the Sulawesi highlands', region: 'Tana Toraja and North Toraja in South Sulawesi, around Sapan and Pulu-Pulu',
    island: 'Sulawesi', altitude: '1,400 to 1,900 metres', varietals: 'S795, Typica and local Toraja selections', process: 'mostly wet-hulled, with washed lots from the higher villages',
    flavour: 'dark cherry, cacao nib, clove and a faint herbal finish', body: 'full but cleaner than most Sumatran coffees',
    history: 'Dutch planters brought Arabica to the region in the eighteenth century, and the name "Kalosi" used to be printed on sacks shipped from Makassar.',
    harvest: 'May to September', extra: 'The steep terrain means cherries are often carried down on foot, and the traditional tongkonan houses appear on almost every label from the area.',
    id: {
      title: 'Kopi Toraja, asal dan cita rasanya',
      text: [
        'Kopi Toraja berasal dari pegunungan Sulawesi Selatan, terutama di sekitar Sapan dan Pulu-Pulu, dengan ketinggian 1.400 sampai 1.900 meter.',
        'Rasanya cenderung ceri gelap, kakao dan sedikit cengkih, dengan body penuh namun lebih bersih dibanding kopi Sumatra. Petani di sini sudah menanam Arabika sejak zaman Belanda.',
        'Musim panen jatuh antara Mei dan September. Jalannya terjal, jadi buah kopi sering dipikul turun dari kebun.'
      ]
    },
    visit: 'The road up to Sapan took most of a day. Most households here dry their parchment on tarpaulins beside the road and hull it at a shared machine in the village. We tasted a washed lot from Pulu-Pulu that was noticeably brighter than anything we had bought from the area before.'
  },
  {
    key: 'kintamani', name: 'Kintamani', title: 'Kintamani, Bali: citrus-bright washed coffee', region: 'the Kintamani plateau on the slopes of Mount Batur in Bali',
    island: 'Bali', altitude: '1,000 to 1,600 metres', varietals: 'S795 and Kartika, grown under citrus and tamarillo trees', process: 'fully washed, organised through the subak abian farming groups',
    flavour: 'orange zest, lime, honey and a light floral note that many tasters trace back to the citrus trees planted between the coffee', body: 'light to medium',
    history: 'Kintamani was one of the first Indonesian coffees registered with a geographical indication, and the subak abian groups still decide collectively how cherries are processed.',
    harvest: 'May to October', extra: 'Farmers pick only red cherries and sell them to the group processing unit, which keeps the cup clean and consistent from year to year.',
    id: {
      title: 'Kopi Kintamani Bali dan sistem subak abian',
      text: [
        'Kopi Kintamani ditanam di lereng Gunung Batur, Bali, pada ketinggian 1.000 hingga 1.600 meter, sering berdampingan dengan pohon jeruk.',
        'Petani tergabung dalam subak abian, kelompok tani adat yang mengatur pemetikan buah merah dan proses cuci penuh. Hasilnya kopi dengan rasa jeruk, madu dan asam yang segar.',
        'Kintamani termasuk kopi Indonesia pertama yang mendapat sertifikat indikasi geografis.'
      ]
    },
    visit: 'The subak group we buy from meets in a bale beside the processing unit. Pickers bring cherries in the late afternoon, floaters are removed in a water tank, and the pulped coffee ferments for about 36 hours before washing. The orange trees between the rows were in flower during our visit and the whole hillside smelled of them.'
  },
  {
    key: 'bajawa', name: 'Flores Bajawa', title: 'Flores Bajawa: volcanic soil coffee from the Ngada highlands', region: 'the Ngada regency around Bajawa on Flores, beneath the Inerie volcano',
    island: 'Flores', altitude: '1,200 to 1,600 metres', varietals: 'Typica, S795 and Catimor', process: 'washed and natural, with cooperatives investing in raised drying beds',
    flavour: 'milk chocolate, spice, tobacco and a sweet tamarind-like acidity', body: 'round and medium-heavy',
    history: 'Coffee from Ngada received its geographical indication in 2012, and most of it is processed by farmer groups (UPH) that share wet mills.',
    harvest: 'April to September', extra: 'Volcanic ash soils and cool nights give the cherries time to ripen slowly, which shows up as sweetness in the cup.',
    id: {
      title: 'Kopi Arabika Flores Bajawa',
      text: [
        'Kopi Bajawa berasal dari Kabupaten Ngada, Flores, di kaki Gunung Inerie. Tanah vulkanik dan malam yang dingin membuat buah kopi matang perlahan.',
        'Sebagian besar diproses oleh unit pengolahan hasil (UPH) milik kelompok tani, baik proses cuci maupun natural. Rasanya cokelat susu, rempah dan asam manis seperti asam jawa.'
      ]
    },
    visit: 'In Bajawa we met the UPH that supplies our natural lot. They dry cherries for three to four weeks on raised beds covered at night, turning them every hour in the morning. The chairman showed us a moisture meter they bought with last year\'s premium.'
  },
  {
    key: 'preanger', name: 'Java Preanger', title: 'Java Preanger: the mountains where Indonesian coffee began', region: 'the Priangan highlands of West Java, on Mount Malabar, Puntang, Papandayan and Halu',
    island: 'Java', altitude: '1,300 to 1,700 metres', varietals: 'Sigararutang, Lini S, Typica and Ateng', process: 'washed, natural, honey and anaerobic experiments from a new generation of producers',
    flavour: 'jasmine, brown sugar, stone fruit and a clean, tea-like finish in the washed lots', body: 'medium',
    history: 'The Dutch forced-cultivation system (Preangerstelsel) made this region the source of the "Java" coffee that gave the drink its nickname; today it is the home of many of the country\'s competition lots.',
    harvest: 'May to September', extra: 'Farms such as those on Puntang and Malabar have won national cupping competitions, and many now sell micro-lots directly to roasters.',
    id: {
      title: 'Kopi Java Preanger dari Priangan',
      text: [
        'Java Preanger adalah sebutan untuk kopi dari dataran tinggi Priangan, Jawa Barat, misalnya Gunung Malabar, Puntang dan Papandayan.',
        'Di sinilah sistem tanam paksa Belanda pertama kali membuat kopi Jawa terkenal di dunia. Kini banyak petani muda mengolah proses honey, natural dan anaerob dengan rasa melati, gula aren dan buah.'
      ]
    },
    visit: 'On Puntang the processing is run by a family that moved back from Bandung to take over the farm. They ferment some lots in sealed tanks, measure pH twice a day and dry on a greenhouse floor. Their honey lot became a seasonal filter coffee at the bar.'
  },
  {
    key: 'mandailing', name: 'Mandailing', title: 'Mandailing: the classic Sumatran cup', region: 'Mandailing Natal and Tapanuli in North Sumatra',
    island: 'Sumatra', altitude: '1,000 to 1,500 metres', varietals: 'Sigararutang, Ateng and old Typica', process: 'wet-hulled', flavour: 'earth, dark chocolate, tobacco and a low, sweet acidity', body: 'very heavy',
    history: 'The name comes from the Mandailing people, although much of the coffee sold under it is grown further north around Lake Toba.', harvest: 'October to February',
    extra: 'Its heavy body and low acidity make it a common base for espresso blends and for strong iced milk coffee.'
  },
  {
    key: 'lintong', name: 'Lintong', title: 'Lintong Nihuta, south of Lake Toba', region: 'Lintong Nihuta in Humbang Hasundutan, North Sumatra',
    island: 'Sumatra', altitude: '1,300 to 1,500 metres', varietals: 'Sigararutang and Ateng', process: 'wet-hulled, sometimes washed for export lots', flavour: 'cedar, spice, black pepper and a hint of grapefruit', body: 'heavy',
    history: 'Small farms here sit on the plateau above Lake Toba and sell through collectors in Dolok Sanggul.', harvest: 'September to January',
    extra: 'Cupping scores vary widely between collectors, so we cup every arrival before committing to a roast date.'
  },
  {
    key: 'sidikalang', name: 'Sidikalang', title: 'Sidikalang robusta and arabica from Dairi', region: 'Dairi regency in North Sumatra',
    island: 'Sumatra', altitude: '700 to 1,400 metres', varietals: 'robusta clones at lower altitude and Ateng arabica higher up', process: 'dry processed for robusta, wet-hulled for arabica', flavour: 'roasted nuts, bitter cocoa and malt', body: 'thick',
    history: 'Sidikalang robusta has long been the coffee of the kedai kopi in Medan, brewed strong and served with condensed milk.', harvest: 'year-round with a peak from March to June',
    extra: 'A share of Sidikalang robusta adds crema and punch to a milk-based espresso blend.'
  },
  {
    key: 'kerinci', name: 'Kerinci', title: 'Kerinci: coffee on the slopes of Sumatra\'s highest volcano', region: 'Kerinci regency in Jambi, around Mount Kerinci',
    island: 'Sumatra', altitude: '1,400 to 1,700 metres', varietals: 'Sigararutang and Andungsari', process: 'washed and natural, promoted by women-led cooperatives', flavour: 'red apple, caramel and black tea', body: 'medium',
    history: 'The Alko cooperative and several women-led groups have turned Kerinci into a known speciality origin in less than ten years.', harvest: 'March to July',
    extra: 'The farms border Kerinci Seblat National Park, so new plantings are limited to existing farmland.'
  },
  {
    key: 'semendo', name: 'Semendo', title: 'Semendo, South Sumatra', region: 'Semende Darat in Muara Enim, South Sumatra',
    island: 'Sumatra', altitude: '900 to 1,200 metres', varietals: 'robusta and some arabica', process: 'natural for robusta, wet-hulled arabica', flavour: 'dark chocolate, palm sugar and a little smoke', body: 'heavy',
    history: 'In Semende the tunggu tubang custom passes land to the eldest daughter, who keeps the family coffee gardens.', harvest: 'April to August',
    extra: 'Our robusta buying here focuses on red-cherry picking, which is still uncommon for robusta.'
  },
  {
    key: 'lampung', name: 'Lampung', title: 'Lampung robusta: the backbone of Indonesian coffee exports', region: 'West Lampung and Tanggamus at the southern tip of Sumatra',
    island: 'Sumatra', altitude: '400 to 900 metres', varietals: 'robusta clones such as BP 42 and BP 358', process: 'natural, dried on patios', flavour: 'peanut, dark cocoa, grain and a woody bitterness that softens with milk', body: 'thick with lots of crema',
    history: 'Lampung produces a large share of Indonesia\'s robusta and supplies much of the instant-coffee industry.', harvest: 'April to August',
    extra: 'Fine robusta lots picked ripe and dried on raised beds are sweeter than the commodity grade most people know.'
  },
  {
    key: 'ijen', name: 'Ijen Raung', title: 'Ijen Raung, East Java', region: 'the Ijen plateau and Mount Raung in Bondowoso and Banyuwangi, East Java',
    island: 'Java', altitude: '1,100 to 1,500 metres', varietals: 'Typica, Kartika and USDA', process: 'washed, historically on large state estates', flavour: 'lemongrass, brown sugar and a clean herbal finish', body: 'medium',
    history: 'The estates on the Ijen plateau date from the colonial era and still run large wet mills.', harvest: 'June to September',
    extra: 'Bondowoso branded itself the "Republik Kopi" and now supports smallholder washing stations.'
  },
  {
    key: 'temanggung', name: 'Temanggung', title: 'Temanggung robusta from Central Java', region: 'the slopes of Sindoro and Sumbing in Temanggung, Central Java',
    island: 'Java', altitude: '600 to 1,000 metres', varietals: 'robusta intercropped with tobacco, and arabica at higher farms', process: 'natural and honey', flavour: 'tobacco leaf, dark chocolate, jackfruit and spice', body: 'heavy',
    history: 'Temanggung is better known for tobacco, and the coffee is often grown between tobacco fields.', harvest: 'May to August',
    extra: 'We use a Temanggung fine robusta in the house kopi susu blend.'
  },
  {
    key: 'wamena', name: 'Wamena', title: 'Wamena: Baliem Valley coffee from Papua', region: 'the Baliem Valley around Wamena in the Papua highlands',
    island: 'Papua', altitude: '1,500 to 2,000 metres', varietals: 'old Typica planted in the 1950s', process: 'washed by hand, often without any fertiliser or chemicals', flavour: 'cocoa, dried fig, sweet spice and a soft acidity', body: 'medium-heavy',
    history: 'Missionaries and the Dutch planted Typica in the valley; today the harvest travels by plane to Jayapura before it reaches any port.', harvest: 'April to July',
    extra: 'Because everything leaves by air, supply is small and prices are high, but the lots are remarkably clean.'
  },
  {
    key: 'enrekang', name: 'Kalosi Enrekang', title: 'Kalosi and Enrekang, South Sulawesi', region: 'Enrekang regency north of Makassar, around the old market town of Kalosi',
    island: 'Sulawesi', altitude: '1,200 to 1,700 metres', varietals: 'S795 and Typica', process: 'wet-hulled and washed', flavour: 'brown spice, molasses and dried cherry', body: 'full',
    history: 'Kalosi was the trading town where Toraja and Enrekang coffees were graded before shipment, so the two names are often confused.', harvest: 'May to September',
    extra: 'Enrekang farmers also grow shallots and the famous dangke cheese is made in the same villages.'
  }
];
