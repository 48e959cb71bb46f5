/** Common Indonesian function words (a small list; extend per corpus with an explicit word list). Lowercase. */
export const INDONESIAN_STOPWORDS: readonly string[] = `
ada adalah agar akan aku anda apa apakah atas atau bagaimana bagi bahkan bahwa banyak beberapa belum bila bisa
boleh dalam dan dapat dari demikian dengan di dia dimana hal hanya harus hingga ia ialah ini itu jadi jika juga
kami kamu karena ke kebanyakan kemudian kepada ketika kita lagi lain lalu maka mana masih mereka meskipun mungkin
namun oleh pada para per perlu saat saja sama sangat saya sebagai sebelum sedang sehingga sejak sekarang selain
seluruh semua sendiri seperti serta setelah sudah supaya tanpa tapi telah tentang terhadap tersebut tetapi tidak
untuk walaupun yaitu yakni yang
`
  .trim()
  .split(/\s+/);
