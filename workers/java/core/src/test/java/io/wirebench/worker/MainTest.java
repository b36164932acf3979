package io.wirebench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wirebench.stack.Address;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line's flags, defaults, help and usage errors, without starting a server: the
 * flags are parsed, and only commands that end by themselves (help, list, errors) run.
 */
class MainTest {
  /** A run of the command line: its exit status and what it wrote. */
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status = cl.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  /** The subcommand object args select, its flags parsed. */
  @SuppressWarnings("unchecked")
  private static <T> T parsed(String... args) {
    CommandLine.ParseResult r = Main.commandLine().parseArgs(args);
    return (T) r.subcommand().commandSpec().userObject();
  }

  @Test
  void defaultsAreTheDriversAndTheContracts() {
    Main.Worker w = parsed("worker");
    assertEquals(Address.parse("tcp://127.0.0.1:0").toString(), w.listen.toString());
    Main.Serve s = parsed("serve", "--stack", "jetty-jackson", "--protocol", "http-json");
    assertEquals("tcp://127.0.0.1:8080", s.listen.toString());
    assertEquals(20, s.flags.dataSize);
    assertEquals(1, s.flags.dataSeed);
    assertEquals(16 << 20, s.flags.maxMessageSize);
    assertEquals(Map.of(), s.flags.options());
  }

  @Test
  void theDriversWorkerCommandParses() {
    // What launch/java.go starts: java ... -jar JAR worker --listen unix:///PATH
    Main.Worker w = parsed("worker", "--listen", "unix:///tmp/x/w.sock");
    assertEquals("unix:///tmp/x/w.sock", w.listen.toString());
  }

  @Test
  void checkTakesTheAddressUnderItsFormerNameToo() {
    // --address was --target before 2026-11-29: both name the server.
    Main.Check c = parsed("check", "--stack", "grpc-java-netty", "--protocol", "grpc-proto", "--target", "tcp://127.0.0.1:9");
    assertEquals("tcp://127.0.0.1:9", c.address.toString());
    c = parsed("check", "--stack", "grpc-java-netty", "--protocol", "grpc-proto", "--address", "unix:///tmp/x.sock");
    assertEquals("unix:///tmp/x.sock", c.address.toString());
  }

  @Test
  void flagsTakeSpaceOrEqualsAndOptionsRepeat() {
    Main.Check c = parsed("check", "--stack=grpc-java-netty", "--protocol", "grpc-proto", "--address=tcp://127.0.0.1:9",
        "--data-size", "7", "--data-seed", "18446744073709551615", "--max-message-size", "4MiB",
        "--option", "flow_window=1MiB", "--option=direct_executor=true", "--option", "compressors=a=b");
    assertEquals("grpc-java-netty", c.flags.stack);
    assertEquals("tcp://127.0.0.1:9", c.address.toString());
    assertEquals(7, c.flags.dataSize);
    assertEquals(-1L, c.flags.dataSeed, "2^64-1 is the unsigned seed whose bits are all ones");
    assertEquals(4 << 20, c.flags.maxMessageSize);
    // The value is what follows the first '='.
    assertEquals(Map.of("flow_window", "1MiB", "direct_executor", "true", "compressors", "a=b"), c.flags.options());
  }

  @Test
  void helpGoesToStdoutAndExitsZero() {
    for (String[] args : new String[][] {{"--help"}, {"-h"}, {"help"}, {"help", "serve"}, {"serve", "--help"}}) {
      Run r = run(args);
      assertEquals(0, r.status(), String.join(" ", args));
      assertTrue(r.out().contains("Usage: wirebench-worker"), r.out());
      assertEquals("", r.err());
    }
    Run r = run("serve", "--help");
    for (String flag : new String[] {"--stack", "--protocol", "--listen", "--data-size", "--data-seed", "--max-message-size", "--option"}) {
      assertTrue(r.out().contains(flag), flag + " missing from serve --help:\n" + r.out());
    }
    assertTrue(r.out().contains("default: tcp://127.0.0.1:8080"), r.out());
    r = run("--version");
    assertEquals(0, r.status());
    assertTrue(r.out().startsWith("wirebench-worker-java "), r.out());
  }

  @Test
  void listPrintsEveryStackOnStdout() {
    Run r = run("list");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("http-json/jetty-jackson\tserver\ttcp, tls, unix"
        + "\toptions: max_threads, min_threads, thread_idle_timeout, output_buffer_size\n"), r.out());
    assertTrue(r.out().contains("grpc-proto/grpc-java-okhttp\tserver, client\ttcp, tls (client)\t"), r.out());
    assertTrue(r.out().contains("grpc-proto/grpc-java-netty\tserver, client\t"), r.out());
  }

  @Test
  void listJsonNeedsTheJarsBuildResources() {
    // core's classes alone carry no class path or family (a family's module writes them).
    Run r = run("list", "--json");
    assertEquals(1, r.status(), r.out());
    assertTrue(r.err().contains("this worker carries no META-INF/wirebench/"), r.err());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''                                                                 | a command is required",
      "frobnicate                                                         | Unmatched argument at index 0: 'frobnicate'",
      "worker --listen http://x:1                                         | unknown scheme \"http\"",
      "worker --listen                                                    | Missing required parameter for option '--listen'",
      "worker --port 1                                                    | Unknown options: '--port', '1'",
      "worker stray                                                       | Unmatched argument at index 1: 'stray'",
      "serve --protocol http-json                                         | Missing required option: '--stack=NAME'",
      "serve --stack jetty-jackson --stack x --protocol http-json         | should be specified only once",
      "serve --stack nope --protocol http-json                            | unknown stack \"nope\" for the server side of http-json",
      "serve --stack jetty-jackson --protocol capnp                       | no server stack of protocol \"capnp\"",
      "serve --stack jetty-jackson --protocol http-json --data-size 0     | data set size 0 out of range",
      "serve --stack jetty-jackson --protocol http-json --data-size x     | Invalid value for option '--data-size'",
      "serve --stack jetty-jackson --protocol http-json --data-seed -1    | want a whole number from 0 to 18446744073709551615",
      "serve --stack jetty-jackson --protocol http-json --max-message-size 0     | want 1 byte to 2GiB",
      "serve --stack jetty-jackson --protocol http-json --max-message-size 3GiB  | want 1 byte to 2GiB",
      "serve --stack jetty-jackson --protocol http-json --max-message-size lots  | want a number of bytes",
      "serve --stack jetty-jackson --protocol http-json --option novalue  | should be in KEY=VALUE format",
      "serve --stack jetty-jackson --protocol http-json --option =v       | want KEY=VALUE, with a key",
      "serve --stack jetty-jackson --protocol http-json --listen tcp://127.0.0.1:0 --option threads=4 | unknown option \"threads\"",
      "check --stack java-httpclient --protocol http-json                 | Missing required option: '--address=ADDR'",
      "check --stack java-httpclient --protocol http-json --address unix:///tmp/x.sock | does not support unix sockets",
      "serve --stack jetty-jackson --protocol http-json --tls-cert /nonexistent/c.pem | --tls-cert and --tls-key go together",
      "serve --stack jetty-jackson --protocol http-json --tls-cert /nonexistent/c.pem --tls-key /nonexistent/k.pem | --tls-cert /nonexistent/c.pem: ",
      "check --stack java-httpclient --protocol http-json --address tcp://127.0.0.1:1 --tls-server-name x | --tls-server-name needs --tls-ca",
      "check --stack java-httpclient --protocol http-json --target tcp://127.0.0.1:1 --tls-ca /nonexistent/ca.pem | --tls-ca /nonexistent/ca.pem: ",
  })
  void usageErrorsExitTwoWithOneClearLine(String line, String want) {
    String[] args = line.isEmpty() ? new String[0] : line.trim().split("\\s+");
    Run r = run(args);
    assertEquals(2, r.status(), line + ": " + r.err());
    assertEquals("", r.out(), line);
    assertTrue(r.err().startsWith("wirebench-worker: "), r.err());
    assertTrue(r.err().contains(want), line + ": want \"" + want + "\" in:\n" + r.err());
    assertTrue(r.err().contains("--help' for usage"), r.err());
  }

  @Test
  void aMisspeltCommandGetsASuggestion() {
    Run r = run("serv");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("Did you mean: wirebench-worker serve"), r.err());
  }
}
