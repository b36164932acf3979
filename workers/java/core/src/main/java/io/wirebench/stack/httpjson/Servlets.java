package io.wirebench.stack.httpjson;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wirebench.contract.Code;
import io.wirebench.contract.Contract;
import io.wirebench.contract.ContractException;
import io.wirebench.contract.Model;
import io.wirebench.contract.Reference;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Iterator;

/** The servlets of the http-json routes (docs/protocols.md). */
final class Servlets {
  private Servlets() {}

  /** GET /persons, POST /persons, GET /persons/{id}, GET /persons/{id}/links. */
  static final class Persons extends JsonServlet {
    Persons(Reference svc, int limit) {
      super(svc, limit, "GET", "HEAD", "POST");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String rest = req.getPathInfo();
      if (rest == null) {
        writeJson(resp, new Json.PersonList(svc.listPersons()));
        return;
      }
      rest = rest.substring(1);
      boolean links = rest.endsWith("/links");
      String idText = links ? rest.substring(0, rest.length() - "/links".length()) : rest;
      long id;
      try {
        id = Long.parseLong(idText);
      } catch (NumberFormatException e) {
        // Not an id, so no person: the same answer as an unknown id.
        throw new ContractException(Code.NOT_FOUND, "no person with id \"" + idText + "\"");
      }
      if (links) {
        writeJson(resp, new Json.LinkList(svc.getPersonLinks(id)));
      } else {
        writeJson(resp, svc.getPerson(id));
      }
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      if (req.getPathInfo() != null) { // /persons/{...} takes GET only, as in the Go server
        resp.setHeader("Allow", "GET, HEAD");
        writeError(resp, 405, Code.INVALID_ARGUMENT, "method POST is not allowed on " + req.getRequestURI() + "; allowed: GET, HEAD");
        return;
      }
      Model.Person p = readBody(req, Model.Person.class);
      writeJson(resp, svc.createPerson(p));
    }
  }

  /** POST /echo with {"payload":"..."}. */
  static final class Echo extends JsonServlet {
    Echo(Reference svc, int limit) {
      super(svc, limit, "POST");
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      Json.EchoBody b = readBody(req, Json.EchoBody.class);
      if (b == null || b.payload() == null) {
        throw new ContractException(Code.INVALID_ARGUMENT, "echo body: missing \"payload\"");
      }
      writeJson(resp, new Json.EchoBody(svc.echo(b.payload())));
    }
  }

  /** POST /increment with {"value":N}. */
  static final class Increment extends JsonServlet {
    Increment(Reference svc, int limit) {
      super(svc, limit, "POST");
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      Json.ValueBody b = readBody(req, Json.ValueBody.class);
      if (b == null || b.value() == null) {
        throw new ContractException(Code.INVALID_ARGUMENT, "increment body: missing \"value\"");
      }
      writeJson(resp, new Json.ValueBody(svc.increment(b.value())));
    }
  }

  /** GET /stats. */
  static final class Stats extends JsonServlet {
    Stats(Reference svc, int limit) {
      super(svc, limit, "GET", "HEAD");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      writeJson(resp, svc.stats());
    }
  }

  /**
   * GET /trades?count=N (shape=original: the original's trades, under its camelCase
   * names): NDJSON, one trade per line, flushed every BATCH trades, ended
   * by {"end":{"count":N}}. A bad count is an ordinary 400 before any trade. When the
   * client goes away the next write fails and the stream stops.
   */
  static final class Trades extends JsonServlet {
    static final int BATCH = 256;

    Trades(Reference svc, int limit) {
      super(svc, limit, "GET", "HEAD");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String c = req.getParameter("count");
      if (c == null) {
        throw new ContractException(Code.INVALID_ARGUMENT, "missing query parameter count, e.g. /trades?count=100");
      }
      long count;
      try {
        count = Long.parseLong(c);
      } catch (NumberFormatException e) {
        throw new ContractException(Code.INVALID_ARGUMENT, "count \"" + c + "\" is not an integer");
      }
      String shape = req.getParameter("shape");
      Iterator<?> trades;
      ObjectMapper mapper = Json.MAPPER;
      if (shape == null || shape.equals(Contract.TRADE_COMPACT)) {
        trades = svc.trades(count);
      } else if (shape.equals(Contract.TRADE_ORIGINAL)) {
        trades = svc.originalTrades(count);
        mapper = Json.ORIGINAL_MAPPER;
      } else {
        throw new ContractException(Code.INVALID_ARGUMENT, "query parameter shape=\"" + shape + "\": want "
            + Contract.TRADE_COMPACT + " or " + Contract.TRADE_ORIGINAL);
      }
      resp.setStatus(200);
      resp.setContentType("application/x-ndjson");
      resp.setHeader("X-Content-Type-Options", "nosniff");
      resp.setHeader("Cache-Control", "no-store");
      if (req.getMethod().equals("HEAD")) {
        return;
      }
      ServletOutputStream out = resp.getOutputStream();
      long n = 0;
      while (trades.hasNext()) {
        out.write(mapper.writeValueAsBytes(trades.next()));
        out.write('\n');
        if (++n % BATCH == 0) {
          out.flush();
        }
      }
      out.write(Json.MAPPER.writeValueAsBytes(new Json.EndLine(new Json.EndCount(n))));
      out.write('\n');
      out.flush();
    }
  }

  /** Every other path: 404 with the contract's JSON body. */
  static final class NotFound extends JsonServlet {
    NotFound(Reference svc, int limit) {
      super(svc, limit, "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      writeError(resp, 404, Code.NOT_FOUND, "no route " + req.getRequestURI());
    }
  }
}
