package io.wirebench.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wirebench.TestPaths;
import io.wirebench.contract.Model.Person;
import io.wirebench.contract.Model.PersonLink;
import io.wirebench.contract.Model.Trade;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The data set, trades and payloads equal the Go ones: contract/testdata holds what Go
 * built (contract/golden_test.go writes it), and this port must give the same, from the
 * raw PCG outputs up.
 */
class GoldenTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<Path> datasetFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(TestPaths.root().resolve("contract/testdata"), "dataset-*.json")) {
      ds.forEach(files::add);
    }
    assertFalse(files.isEmpty(), "no golden data sets in contract/testdata");
    return files;
  }

  @Test
  void pcgOutputsMatchGo() throws IOException {
    for (Path f : datasetFiles()) {
      JsonNode g = JSON.readTree(f.toFile());
      long seed = Long.parseUnsignedLong(g.get("seed").asText());
      Pcg src = new Pcg(seed, Dataset.SEED2);
      for (JsonNode want : g.get("pcg_uint64")) {
        assertEquals(want.asText(), String.format("%016x", src.uint64()), f + ": PCG output");
      }
      Pcg r = new Pcg(seed, Dataset.SEED2);
      for (JsonNode in : g.get("intn")) {
        long n = in.get("n").asLong();
        for (JsonNode want : in.get("values")) {
          assertEquals(want.asLong(), r.int64N(n), f + ": IntN(" + n + ")");
        }
      }
    }
  }

  @Test
  void datasetsMatchGo() throws IOException {
    for (Path f : datasetFiles()) {
      JsonNode g = JSON.readTree(f.toFile());
      long seed = Long.parseUnsignedLong(g.get("seed").asText());
      int size = g.get("size").asInt();
      Dataset ds = Dataset.of(seed, size);
      JsonNode persons = g.get("persons");
      assertEquals(size, persons.size());
      for (int i = 0; i < size; i++) {
        assertEquals(person(persons.get(i)), ds.persons().get(i), f + ": person " + (i + 1));
      }
      JsonNode links = g.get("links");
      for (int i = 0; i < size; i++) {
        List<PersonLink> got = ds.links(i + 1);
        assertEquals(links.get(i).size(), got.size(), f + ": links of person " + (i + 1));
        for (int k = 0; k < got.size(); k++) {
          assertEquals(links.get(i).get(k).get(0).asLong(), got.get(k).p1().id());
          assertEquals(links.get(i).get(k).get(1).asLong(), got.get(k).p2().id());
          assertEquals(ds.person(got.get(k).p2().id()), got.get(k).p2());
        }
      }
    }
  }

  @Test
  void tradesAndPayloadsMatchGo() throws IOException {
    JsonNode g = JSON.readTree(TestPaths.root().resolve("contract/testdata/trades.json").toFile());
    for (JsonNode t : g.get("trades")) {
      long id = t.get("id").asLong();
      Trade want = new Trade(id, t.get("symbol").asText(), t.get("price").asDouble(), t.get("quantity").asLong(),
          t.get("timestamp_nanos").asLong(), t.get("side").asInt() == 1 ? Model.Side.SELL : Model.Side.BUY);
      assertEquals(want, Contract.tradeAt(id), "TradeAt(" + id + ")");
    }
    g.get("payloads").fields().forEachRemaining(e ->
        assertEquals(e.getValue().asText(), Contract.payload(Integer.parseInt(e.getKey())), "Payload(" + e.getKey() + ")"));
  }

  private static Person person(JsonNode p) {
    JsonNode n = p.get("name");
    JsonNode l = p.get("location");
    JsonNode pic = p.get("picture");
    return new Person(p.get("id").asLong(),
        new Model.PersonName(n.get("title").asText(), n.get("first").asText(), n.get("last").asText()),
        p.get("gender").asText(),
        new Model.Location(l.get("street").asText(), l.get("city").asText(), l.get("state").asText(), l.get("post_code").asText()),
        p.get("email").asText(),
        pic == null ? null : new Model.Picture(pic.get("large").asText(), pic.get("medium").asText(), pic.get("thumbnail").asText()));
  }

  /**
   * The original's trades equal the Go ones: the strings of trades 0 and 9999 are those
   * contract/originaltrade_test.go checks, computed by an independent reimplementation
   * of the recipe; long k of trade i is 259200000000000 + (10 i + k - 1) 250.
   */
  @Test
  void originalTradesMatchGo() {
    String[][] strs = {
        {"DqGTbqvGrM", "NXhhF6rq2c", "TGzzYG0eAq", "VMQJAQMrDY", "XKqwRRsVHN", "CuULHp2tJZ",
            "74FTa68RDw", "WcdWW7PTAp", "b0ikj0a6RF", "5o3Rq6UjTA", "5Zs_u6ufT5", "ksc08aqSh7"},
        {"fP7tE0_mgz", "Y07nVwIHsE", "zvx5JyT7U2", "5kWf5Ez8BM", "ZvdtTGRXfM", "Fxf0gJc044",
            "lC8V5LPyyW", "ABP_z0UpsQ", "udHgc4pct4", "IUAvWcrYbE", "qP8Ls_0JUE", "uuTPR38qHH"}};
    long[] ids = {0, 9999};
    for (int t = 0; t < ids.length; t++) {
      String[] s = strs[t];
      long b = 259_200_000_000_000L + ids[t] * 2500;
      Model.OriginalTrade want = new Model.OriginalTrade(Long.toString(ids[t]), s[0], s[1],
          s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11],
          b, b + 250, b + 500, b + 750, b + 1000, b + 1250, b + 1500, b + 1750, b + 2000, b + 2250);
      assertEquals(want, Contract.originalTradeAt(ids[t]), "original trade " + ids[t]);
    }
  }
}
