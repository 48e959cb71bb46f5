// Everyday notes that mention dishes and coffees in passing: lunch boards, guest feedback cards,
// catering quotes and social-media drafts. Real knowledge bases are full of these, and they are
// what a plain BM25 ranking trips over when a short note repeats a dish name.
export const LUNCH_LINES = [
  (a, b, c) => `Lunch board: ${a} with rice, ${b}, and ${c} on the side. ${a} sold out by 13:30.`,
  (a, b, c) => `Today the kitchen is serving ${a} and ${b}. ${c} is off the menu until the new supplier delivers.`,
  (a, b, c) => `Specials: ${a}, ${b}. Staff meal is ${c}. Please push ${b}; we prepped too much.`,
  (a, b, c) => `Board for the weekend: ${a} (limited), ${b}, ${c}. Remind guests that the ${a} takes 15 minutes.`,
  (a, b, c) => `${a} is back by popular demand. Also on: ${b} and ${c}. Sambal of the day: ask the pass.`
];
export const FEEDBACK_LINES = [
  (x, y) => `Guest card: "The ${x} was lovely, but we waited twenty minutes for the ${y}." Table 6, Saturday lunch.`,
  (x, y) => `Comment left on the table: "${x} just like my grandmother's. ${y} a bit too sweet for me."`,
  (x, y) => `Online review forwarded by management: four stars, praises the ${x}, says the ${y} portion was small.`,
  (x, y) => `A regular asked whether we could make the ${x} less spicy and whether the ${y} is available to take away.`,
  (x, y) => `Feedback: "${x} and ${y} were the highlight of our trip to Jakarta." Posted with a photo of the bar.`
];
export const CATERING_LINES = [
  (pax, a, b, c) => `Quote for a wedding in Depok, ${pax} guests: ${a}, ${b} and ${c}, with es cendol and two coffee stations.`,
  (pax, a, b, c) => `Office lunch order for ${pax} people next Thursday: ${a}, ${b}, ${c}. Deliver by 11:45, cutlery included.`,
  (pax, a, b, c) => `Arisan gathering, ${pax} guests. Client chose ${a} and ${b}; asked for ${c} without chilli for the children.`,
  (pax, a, b, c) => `Company anniversary, ${pax} pax, buffet: ${a}, ${b}, ${c}, fruit and kopi tubruk.`
];
export const SOCIAL_LINES = [
  (o) => `Caption draft: "New on the slow bar: ${o}. Ask your barista to brew it on V60." Post on Friday morning.`,
  (o) => `Story idea: a 30-second clip of the ${o} roast, from charge to drop. Use the trending audio.`,
  (o) => `Caption draft: "${o} is back. 250 g bags in store and online while stocks last."`,
  (o) => `Reel plan: side-by-side tasting of ${o} brewed as tubruk and as espresso, staff reactions.`
];
