package dev.ranklab.bench;

import java.util.HashMap;
import java.util.Map;

/**
 * The one JSON shape the harness reads: a flat object of string values per line ({"id":…,"title":…,"body":…}).
 * Hand-written so the harness depends on Lucene alone; anything else is an error naming the file and line.
 */
final class JsonLine {
  private final String s;
  private final String where;
  private int i;

  private JsonLine(String s, String where) {
    this.s = s;
    this.where = where;
  }

  static Map<String, String> parseObject(String line, String file, long lineNo) {
    JsonLine p = new JsonLine(line, file + " line " + lineNo);
    Map<String, String> out = new HashMap<>();
    p.skipSpace();
    p.expect('{');
    p.skipSpace();
    if (p.peek() == '}') return out;
    while (true) {
      p.skipSpace();
      String key = p.string();
      p.skipSpace();
      p.expect(':');
      p.skipSpace();
      if (p.peek() != '"') throw p.error("key \"" + key + "\": only string values are read");
      out.put(key, p.string());
      p.skipSpace();
      char c = p.next();
      if (c == '}') break;
      if (c != ',') throw p.error("expected ',' or '}'");
    }
    p.skipSpace();
    if (p.i != p.s.length()) throw p.error("text after the object");
    return out;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(where + ", column " + (i + 1) + ": " + what);
  }

  private char peek() {
    if (i >= s.length()) throw error("line ends inside the object");
    return s.charAt(i);
  }

  private char next() {
    char c = peek();
    i++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) throw error("expected '" + c + "'");
  }

  private void skipSpace() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\r')) i++;
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') return b.toString();
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (i + 4 > s.length()) throw error("short \\u escape");
          try {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException x) {
            throw error("bad \\u escape");
          }
          i += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  /** A JSON string literal of `v`. */
  static String quote(String v) {
    StringBuilder b = new StringBuilder(v.length() + 2).append('"');
    for (int k = 0; k < v.length(); k++) {
      char c = v.charAt(k);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
