package io.wirebench.stack.httpjson;

import com.fasterxml.jackson.core.JacksonException;
import io.wirebench.contract.Code;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.Reference;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/**
 * The base of the stack's servlets: JSON answers and refusals, the methods each route
 * allows (a wrong one is 405 with an Allow header and a JSON body), and request bodies
 * bounded by the server's message limit (over it: 413, and the connection is closed
 * rather than drained).
 */
abstract class JsonServlet extends HttpServlet {
  protected final Reference svc;
  private final int limit;
  private final Set<String> allowed;
  private final String allow;

  JsonServlet(Reference svc, int limit, String... methods) {
    this.svc = svc;
    this.limit = limit;
    this.allowed = Set.of(methods);
    this.allow = String.join(", ", methods);
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException {
    if (!allowed.contains(req.getMethod())) {
      resp.setHeader("Allow", allow);
      writeError(resp, 405, Code.INVALID_ARGUMENT,
          "method " + req.getMethod() + " is not allowed on " + req.getRequestURI() + "; allowed: " + allow);
      return;
    }
    try {
      super.service(req, resp);
    } catch (ContractException e) {
      writeError(resp, Json.status(e.code()), e.code(), e.getMessage());
    } catch (TooLarge e) {
      resp.setHeader("Connection", "close");
      writeError(resp, 413, Code.RESOURCE_EXHAUSTED, e.getMessage());
    } catch (JacksonException e) {
      writeError(resp, 400, Code.INVALID_ARGUMENT, "bad request body: " + e.getOriginalMessage());
    }
  }

  /** Reads the body as a T, bounded by the message limit. */
  protected <T> T readBody(HttpServletRequest req, Class<T> type) throws IOException {
    long n = req.getContentLengthLong();
    if (n > limit) {
      throw new TooLarge("request body of " + n + " bytes is over the limit of " + limit);
    }
    return Json.MAPPER.readValue(new Bounded(req.getInputStream(), limit), type);
  }

  /** Reads the whole body, bounded by the message limit. */
  protected byte[] readBytes(HttpServletRequest req) throws IOException {
    long n = req.getContentLengthLong();
    if (n > limit) {
      throw new TooLarge("request body of " + n + " bytes is over the limit of " + limit);
    }
    return new Bounded(req.getInputStream(), limit).readAllBytes();
  }

  /** Answers 200 with v as JSON, one value and a newline. */
  protected static void writeJson(HttpServletResponse resp, Object v) throws IOException {
    byte[] body = Json.MAPPER.writeValueAsBytes(v);
    resp.setStatus(200);
    resp.setContentType("application/json");
    resp.setContentLength(body.length + 1);
    var out = resp.getOutputStream();
    out.write(body);
    out.write('\n');
  }

  static void writeError(HttpServletResponse resp, int status, Code code, String message) throws IOException {
    if (resp.isCommitted()) {
      return; // the answer has started: nobody to tell
    }
    byte[] body = Json.MAPPER.writeValueAsBytes(new Json.ErrorBody(code.wire(), message));
    resp.setStatus(status);
    resp.setContentType("application/json");
    resp.setContentLength(body.length + 1);
    var out = resp.getOutputStream();
    out.write(body);
    out.write('\n');
  }

  /** A request body over the limit. */
  static final class TooLarge extends IOException {
    TooLarge(String message) {
      super(message);
    }
  }

  /** Fails once more than limit bytes were read (a chunked body shows its length only while read). */
  private static final class Bounded extends FilterInputStream {
    private final int limit;
    private long read;

    Bounded(InputStream in, int limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) throws TooLarge {
      read += n;
      if (read > limit) {
        throw new TooLarge("request body is over the limit of " + limit + " bytes");
      }
    }
  }
}
