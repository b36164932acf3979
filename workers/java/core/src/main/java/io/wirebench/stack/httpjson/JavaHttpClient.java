package io.wirebench.stack.httpjson;

import com.fasterxml.jackson.core.JacksonException;
import io.wirebench.contract.Code;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.Model;
import io.wirebench.stack.Stack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;

/**
 * The java-httpclient client of http-json. Answers are read bounded by the client's
 * message limit (from Content-Length when the server sends one, else while reading;
 * over it: resource_exhausted); refusals map the body's code back to the contract's,
 * or the status when the body is not the contract's JSON. Safe for concurrent use.
 */
final class JavaHttpClient implements Stack.Client {
  private static final String JSON = "application/json";

  private final HttpClient http;
  private final String base;
  private final int limit;

  JavaHttpClient(HttpClient http, String base, int limit) {
    this.http = http;
    this.base = base;
    this.limit = limit;
  }

  @Override
  public List<Model.Person> listPersons() throws Exception {
    Json.PersonList l = get("/persons", Json.PersonList.class);
    return l.persons() == null ? List.of() : l.persons();
  }

  @Override
  public Model.Person getPerson(long id) throws Exception {
    return get("/persons/" + id, Model.Person.class);
  }

  @Override
  public List<Model.PersonLink> getPersonLinks(long id) throws Exception {
    Json.LinkList l = get("/persons/" + id + "/links", Json.LinkList.class);
    return l.links() == null ? List.of() : l.links(); // a Go server writes an empty list as null
  }

  @Override
  public Model.Person createPerson(Model.Person p) throws Exception {
    return post("/persons", p, Model.Person.class);
  }

  @Override
  public String echo(String payload) throws Exception {
    Json.EchoBody b = post("/echo", new Json.EchoBody(payload), Json.EchoBody.class);
    if (b.payload() == null) {
      throw new IOException("http-json POST /echo: answer without a payload");
    }
    return b.payload();
  }

  @Override
  public Model.Stats stats() throws Exception {
    return get("/stats", Model.Stats.class);
  }

  @Override
  public long increment(long n) throws Exception {
    Json.ValueBody b = post("/increment", new Json.ValueBody(n), Json.ValueBody.class);
    if (b.value() == null) {
      throw new IOException("http-json POST /increment: answer without a value");
    }
    return b.value();
  }

  @Override
  public void streamTrades(long count, TradeSink sink) throws Exception {
    stream("/trades?count=" + count, count, Json.MAPPER, Json.StreamLine.class, sink::accept);
  }

  /** GET /trades?count=N&shape=original: the original's trades, read with Jackson's default (camelCase) names. */
  @Override
  public void streamOriginalTrades(long count, OriginalTradeSink sink) throws Exception {
    stream("/trades?count=" + count + "&shape=original", count, Json.ORIGINAL_MAPPER, Json.OriginalLine.class, sink::accept);
  }

  /** Handles one trade of a stream. */
  @FunctionalInterface
  private interface Each<T> {
    void accept(T t) throws Exception;
  }

  /** Reads the NDJSON stream at path, each line decoded by mapper as a type, and hands each trade to sink. */
  private <T, L extends Json.Line<T>> void stream(String path, long count, com.fasterxml.jackson.databind.ObjectMapper mapper,
      Class<L> type, Each<T> sink) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).GET().build();
    HttpResponse<InputStream> resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = resp.body()) { // closing before the end drops the connection: the server stops
      if (resp.statusCode() != 200) {
        throw refusal(resp.statusCode(), readBounded(in, resp));
      }
      LineReader lines = new LineReader(in, limit);
      long n = 0;
      byte[] line;
      while ((line = lines.next()) != null) {
        if (line.length == 0) {
          continue;
        }
        L l = mapper.readValue(line, type);
        if (l.error() != null) {
          Code c = Code.fromWire(l.error().code());
          throw new ContractException(c == null ? Code.INTERNAL : c, l.error().message());
        }
        if (l.end() != null) {
          if (l.end().count() != n || n != count) {
            throw new IOException("stream ended after " + n + " of " + count + " trades, its end line says " + l.end().count());
          }
          if (lines.next() != null) {
            throw new IOException("stream: data after the end line");
          }
          return;
        }
        if (n == count) {
          throw new IOException("stream sent more than the " + count + " trades asked");
        }
        n++;
        sink.accept(l.trade());
      }
      throw new IOException("stream cut short after " + n + " of " + count + " trades: no end line");
    }
  }

  private <T> T get(String path, Class<T> type) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).GET().build();
    return exchange(req, type);
  }

  private <T> T post(String path, Object body, Class<T> type) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", JSON)
        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)))
        .build();
    return exchange(req, type);
  }

  private <T> T exchange(HttpRequest req, Class<T> type) throws Exception {
    HttpResponse<InputStream> resp = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    byte[] body;
    try (InputStream in = resp.body()) {
      body = readBounded(in, resp);
    }
    if (resp.statusCode() / 100 != 2) {
      throw refusal(resp.statusCode(), body);
    }
    try {
      return Json.MAPPER.readValue(body, type);
    } catch (JacksonException e) {
      throw new IOException("http-json " + req.method() + " " + req.uri().getPath() + ": bad answer: " + e.getOriginalMessage(), e);
    }
  }

  /** The body, refused over the limit from its Content-Length before reading, or while reading. */
  private byte[] readBounded(InputStream in, HttpResponse<?> resp) throws IOException {
    Optional<String> cl = resp.headers().firstValue("Content-Length");
    if (cl.isPresent()) {
      long n;
      try {
        n = Long.parseLong(cl.get().trim());
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n > limit) {
        throw new ContractException(Code.RESOURCE_EXHAUSTED, "answer of " + n + " bytes is over the client's limit of " + limit);
      }
    }
    byte[] b = in.readNBytes(limit + 1);
    if (b.length > limit) {
      throw new ContractException(Code.RESOURCE_EXHAUSTED, "answer is over the client's limit of " + limit + " bytes");
    }
    return b;
  }

  /** The error of a non-2xx answer: the contract error its body carries, else its status's, else a plain one. */
  private static Exception refusal(int status, byte[] body) {
    try {
      Json.ErrorBody e = Json.MAPPER.readValue(body, Json.ErrorBody.class);
      Code c = e == null ? null : Code.fromWire(e.code());
      if (c != null) {
        return new ContractException(c, e.message() == null ? "" : e.message());
      }
    } catch (IOException notOurs) {
      // fall back on the status
    }
    String msg = "HTTP status " + status + (body.length > 0 ? ": " + new String(body, 0, Math.min(body.length, 200),
        java.nio.charset.StandardCharsets.UTF_8) : "");
    Code c = Json.codeOfStatus(status);
    return c != null ? new ContractException(c, msg) : new IOException("http-json: " + msg);
  }

  @Override
  public void close() {
    // HttpClient has no close before Java 21; its idle connections go with it.
  }

  /** Reads lines ending in \n, each bounded by the limit. */
  private static final class LineReader {
    private final InputStream in;
    private final int limit;
    private final byte[] buf = new byte[64 << 10];
    private int pos;
    private int end;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    LineReader(InputStream in, int limit) {
      this.in = in;
      this.limit = limit;
    }

    /** The next line without its end, or null at the end of the body; a last line without \n is an error. */
    byte[] next() throws IOException {
      line.reset();
      while (true) {
        if (pos == end) {
          end = in.read(buf);
          pos = 0;
          if (end < 0) {
            end = 0;
            if (line.size() > 0) {
              throw new IOException("stream cut short in the middle of a line");
            }
            return null;
          }
        }
        int start = pos;
        while (pos < end && buf[pos] != '\n') {
          pos++;
        }
        line.write(buf, start, pos - start);
        if (line.size() > limit) {
          throw new ContractException(Code.RESOURCE_EXHAUSTED, "stream line over the client's limit of " + limit + " bytes");
        }
        if (pos < end) {
          pos++; // the \n
          byte[] b = line.toByteArray();
          int n = b.length;
          if (n > 0 && b[n - 1] == '\r') {
            return java.util.Arrays.copyOf(b, n - 1);
          }
          return b;
        }
      }
    }
  }
}
