package dev.ranklab.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene baseline for `npm run bench:lucene`: indexes a JSON Lines corpus ({"id","title","body"} per line) the way
 * Ranklab's default lexical config does as far as Lucene allows (tokens = runs of letters and digits, lowercased,
 * Ranklab's English stop list read from a file, no stemming; BM25 with Ranklab's k1 and b; term frequencies without
 * positions), then runs a query file (one query per line) as Σ_terms (boost · title:term + body:term), top `depth`,
 * everything on one thread (serial merges, a searcher without executor). Prints one JSON object of figures.
 */
public final class LuceneBench {
  /** Ranklab's SEPARATOR (src/core/retrieval/analyzer.ts): anything but letters and digits splits tokens. */
  private static final Pattern SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");

  public static void main(String[] argv) throws Exception {
    Map<String, String> a = args(argv);
    Path corpus = Path.of(need(a, "corpus"));
    Path queriesFile = Path.of(need(a, "queries"));
    Path indexDir = Path.of(need(a, "index"));
    float k1 = Float.parseFloat(a.getOrDefault("k1", "1.2"));
    float b = Float.parseFloat(a.getOrDefault("b", "0.75"));
    float titleBoost = Float.parseFloat(a.getOrDefault("title-boost", "3"));
    int depth = Integer.parseInt(a.getOrDefault("depth", "100"));
    int keep = Integer.parseInt(a.getOrDefault("keep", "10"));
    double ramBufferMB = Double.parseDouble(a.getOrDefault("ram-buffer-mb", "256"));
    CharArraySet stop = new CharArraySet(Files.readAllLines(Path.of(need(a, "stopwords")), StandardCharsets.UTF_8).stream()
        .map(String::strip).filter(w -> !w.isEmpty()).toList(), false);
    Analyzer analyzer = ranklabLike(stop);
    BM25Similarity similarity = new BM25Similarity(k1, b);
    // CPU time of the whole JVM (its JIT and GC threads too), like process.cpuUsage() on Ranklab's side: on a shared
    // machine it moves less than wall time.
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    // Reading and parsing alone, so that the index time below can be read without it (Ranklab's build starts from
    // documents already in memory).
    long t0 = System.nanoTime();
    long docs = forEachRecord(corpus, r -> { });
    double parseMs = ms(t0);

    if (Files.exists(indexDir)) deleteTree(indexDir);
    FieldType text = new FieldType();
    text.setTokenized(true);
    text.setIndexOptions(IndexOptions.DOCS_AND_FREQS); // Ranklab keeps term frequencies, no positions
    text.freeze();
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setSimilarity(similarity)
        .setMergeScheduler(new SerialMergeScheduler())
        .setRAMBufferSizeMB(ramBufferMB)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    double indexMs;
    double mergeMs;
    double buildCpuMs;
    try (FSDirectory dir = FSDirectory.open(indexDir); IndexWriter writer = new IndexWriter(dir, config)) {
      t0 = System.nanoTime();
      long cpu0 = os.getProcessCpuTime();
      forEachRecord(corpus, r -> {
        Document d = new Document();
        // Ids as doc values, not stored fields: reading 100 stored documents per query (LZ4 blocks) would cost more
        // than the search itself; doc values are how a Lucene application reads a key per hit.
        d.add(new BinaryDocValuesField("id", new BytesRef(r.get("id"))));
        d.add(new Field("title", r.getOrDefault("title", ""), text));
        d.add(new Field("body", r.getOrDefault("body", ""), text));
        writer.addDocument(d);
      });
      writer.commit();
      indexMs = ms(t0);
      t0 = System.nanoTime();
      writer.forceMerge(1);
      writer.commit();
      mergeMs = ms(t0);
      buildCpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
    }
    long indexBytes = treeSize(indexDir);

    List<String> queries = Files.readAllLines(queriesFile, StandardCharsets.UTF_8).stream().filter(q -> !q.isBlank()).toList();
    List<List<String>> top = new ArrayList<>();
    double openMs;
    double[] warm;
    double[] timed;
    double warmWallMs;
    double timedWallMs;
    double queryCpuMs;
    try (FSDirectory dir = FSDirectory.open(indexDir); DirectoryReader reader = DirectoryReader.open(dir)) {
      t0 = System.nanoTime();
      IndexSearcher searcher = new IndexSearcher(reader); // no executor: one thread
      searcher.setSimilarity(similarity);
      openMs = ms(t0);
      // The first pass warms the JIT and the page cache (Ranklab's bench side runs the same two passes).
      t0 = System.nanoTime();
      warm = runQueries(searcher, analyzer, queries, titleBoost, depth, keep, null);
      warmWallMs = ms(t0);
      t0 = System.nanoTime();
      long cpu0 = os.getProcessCpuTime();
      timed = runQueries(searcher, analyzer, queries, titleBoost, depth, keep, top);
      timedWallMs = ms(t0);
      queryCpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
    }

    long peakHeap = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) peakHeap += pool.getPeakUsage().getUsed();
    }
    System.gc();
    long heapAfterGc = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();

    StringBuilder o = new StringBuilder("{");
    o.append("\"engine\":\"lucene\",\"luceneVersion\":").append(JsonLine.quote(org.apache.lucene.util.Version.LATEST.toString()));
    o.append(",\"java\":").append(JsonLine.quote(System.getProperty("java.version")));
    o.append(",\"docs\":").append(docs).append(",\"queries\":").append(queries.size());
    o.append(",\"k1\":").append(k1).append(",\"b\":").append(b).append(",\"titleBoost\":").append(titleBoost).append(",\"depth\":").append(depth);
    o.append(",\"parseMs\":").append(parseMs).append(",\"indexMs\":").append(indexMs).append(",\"mergeMs\":").append(mergeMs);
    o.append(",\"indexBytes\":").append(indexBytes).append(",\"openMs\":").append(openMs);
    o.append(",\"maxHeapBytes\":").append(Runtime.getRuntime().maxMemory());
    o.append(",\"peakHeapBytes\":").append(peakHeap).append(",\"heapAfterGcBytes\":").append(heapAfterGc);
    o.append(",\"peakRssBytes\":").append(peakRssBytes());
    o.append(",\"cpuMs\":").append(os.getProcessCpuTime() / 1e6);
    o.append(",\"buildCpuMs\":").append(buildCpuMs).append(",\"queryCpuMs\":").append(queryCpuMs);
    o.append(",\"warm\":").append(timing(warm, warmWallMs)).append(",\"timed\":").append(timing(timed, timedWallMs));
    o.append(",\"top\":[");
    for (int q = 0; q < top.size(); q++) {
      if (q > 0) o.append(',');
      o.append('[');
      for (int k = 0; k < top.get(q).size(); k++) o.append(k > 0 ? "," : "").append(JsonLine.quote(top.get(q).get(k)));
      o.append(']');
    }
    o.append("]}");
    String out = a.get("out");
    if (out == null) System.out.println(o);
    else try (Writer w = Files.newBufferedWriter(Path.of(out), StandardCharsets.UTF_8)) {
      w.write(o.toString());
    }
  }

  /** Runs every query (analysis, search, the ids of all `depth` hits); per-query milliseconds; top `keep` ids into `top`. */
  private static double[] runQueries(IndexSearcher searcher, Analyzer analyzer, List<String> queries, float titleBoost,
      int depth, int keep, List<List<String>> top) throws IOException {
    double[] lat = new double[queries.size()];
    for (int q = 0; q < queries.size(); q++) {
      long t = System.nanoTime();
      BooleanQuery.Builder bq = new BooleanQuery.Builder();
      for (String term : terms(analyzer, queries.get(q))) {
        bq.add(new BoostQuery(new TermQuery(new Term("title", term)), titleBoost), BooleanClause.Occur.SHOULD);
        bq.add(new TermQuery(new Term("body", term)), BooleanClause.Occur.SHOULD);
      }
      TopDocs hits = searcher.search(bq.build(), depth);
      String[] ids = ids(searcher.getIndexReader().leaves(), hits.scoreDocs);
      lat[q] = ms(t);
      if (top != null) top.add(Arrays.asList(ids).subList(0, Math.min(keep, ids.length)));
    }
    return lat;
  }

  /** The id of every hit, in rank order (read in doc order: doc values iterate forwards only). */
  private static String[] ids(List<LeafReaderContext> leaves, ScoreDoc[] hits) throws IOException {
    Integer[] order = new Integer[hits.length];
    for (int k = 0; k < order.length; k++) order[k] = k;
    Arrays.sort(order, (x, y) -> Integer.compare(hits[x].doc, hits[y].doc));
    String[] ids = new String[hits.length];
    int leaf = -1;
    BinaryDocValues values = null;
    for (int k : order) {
      int doc = hits[k].doc;
      int l = ReaderUtil.subIndex(doc, leaves);
      if (l != leaf) {
        leaf = l;
        values = DocValues.getBinary(leaves.get(l).reader(), "id");
      }
      if (!values.advanceExact(doc - leaves.get(l).docBase)) throw new IllegalStateException("document " + doc + " has no id");
      ids[k] = values.binaryValue().utf8ToString();
    }
    return ids;
  }

  /** Distinct analyzed terms in order (Ranklab's top-k scores each distinct query term once). */
  private static Set<String> terms(Analyzer analyzer, String query) throws IOException {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream("body", query)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    }
    return out;
  }

  private static Analyzer ranklabLike(CharArraySet stop) {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        Tokenizer source = new PatternTokenizer(SEPARATOR, -1);
        TokenStream s = new LowerCaseFilter(source);
        s = new StopFilter(s, stop);
        return new TokenStreamComponents(source, s);
      }
    };
  }

  private interface RecordSink {
    void accept(Map<String, String> record) throws IOException;
  }

  private static long forEachRecord(Path file, RecordSink sink) throws IOException {
    long n = 0;
    long lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        lineNo++;
        if (line.isBlank()) continue;
        Map<String, String> rec = JsonLine.parseObject(line, file.toString(), lineNo);
        if (rec.get("id") == null) throw new IllegalArgumentException(file + " line " + lineNo + ": no \"id\" key");
        sink.accept(rec);
        n++;
      }
    }
    return n;
  }

  private static String timing(double[] lat, double wallMs) {
    double[] s = lat.clone();
    Arrays.sort(s);
    double p50 = s.length == 0 ? Double.NaN : s[Math.min(s.length - 1, (int) Math.floor(0.5 * s.length))];
    double p99 = s.length == 0 ? Double.NaN : s[Math.min(s.length - 1, (int) Math.floor(0.99 * s.length))];
    return "{\"p50\":" + p50 + ",\"p99\":" + p99 + ",\"wallMs\":" + wallMs + ",\"qps\":" + (lat.length / (wallMs / 1000)) + ",\"n\":" + lat.length + "}";
  }

  /** VmHWM of /proc/self/status (Linux), else -1. */
  private static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux: reported as unknown
    }
    return -1;
  }

  private static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }

  private static long treeSize(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted((x, y) -> y.getNameCount() - x.getNameCount()).toList()) Files.delete(p);
    }
  }

  private static Map<String, String> args(String[] argv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < argv.length; i++) {
      if (!argv[i].startsWith("--") || i + 1 >= argv.length) throw new IllegalArgumentException("arguments are --name value pairs; bad: " + argv[i]);
      m.put(argv[i].substring(2), argv[++i]);
    }
    return m;
  }

  private static String need(Map<String, String> a, String key) {
    String v = a.get(key);
    if (v == null) throw new IllegalArgumentException("--" + key + " is required");
    return v;
  }
}
