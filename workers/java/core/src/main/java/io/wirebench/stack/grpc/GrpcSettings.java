package io.wirebench.stack.grpc;

import io.wirebench.stack.Options;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The grpc-java knobs the original REST-vs-gRPC sweep varied, as stack options of both
 * sides: direct_executor (run handlers and callbacks on the transport threads,
 * ServerBuilder/ManagedChannelBuilder.directExecutor()) and flow_window (the HTTP/2
 * flow-control window, flowControlWindow(int)). flow_window takes the sweep's names,
 * with the byte counts of its FlowWindowSize enum (AlexeyPirogov/RestVsGrpc,
 * GrpcClientServerUtils.java): SMALL = 16383, MEDIUM = 65535, SIMILAR_TO_REST = 131070,
 * or any size from 1 byte to 2GiB-1 (64KiB, 1MiB, ...). compressors=none gives the server
 * and channel builders an empty compressor registry (compressorRegistry(
 * CompressorRegistry.newEmptyInstance())), as the sweep's servers and clients had;
 * compressors=default keeps grpc-java's (gzip), which it uses only for a call that asks
 * for compression, so neither changes what the wirebench stacks send. An option left out
 * keeps the stack's production setting: a 1MiB window (grpc-java's), grpc-java's
 * compressors, and on the server a work-stealing ForkJoinPool sized to the CPUs
 * (ServerExecutors; docs/java-worker.md, "How each stack is set up"), the client keeping
 * grpc-java's executor. direct_executor=false is the sweep's "pool" rows: grpc-java's
 * own default executor (its static cached pool) on both sides, which is what the sweep's
 * builders had when they did not call directExecutor().
 *
 * <p>direct is the direct_executor option as given: null when left out.
 */
record GrpcSettings(Boolean direct, Integer flowWindow, boolean noCompressors) {
  static final String DIRECT_EXECUTOR = "direct_executor";
  static final String FLOW_WINDOW = "flow_window";
  static final String COMPRESSORS = "compressors";
  static final List<String> NAMES = List.of(DIRECT_EXECUTOR, FLOW_WINDOW, COMPRESSORS);

  static final Map<String, Integer> PRESETS = Map.of("SMALL", 16383, "MEDIUM", 65535, "SIMILAR_TO_REST", 131070);

  static GrpcSettings parse(String stack, Map<String, String> opts) {
    Options.check(stack, opts, NAMES);
    Boolean direct = null;
    Integer window = null;
    String d = opts.get(DIRECT_EXECUTOR);
    if (d != null) {
      direct = Options.parseBool(stack, DIRECT_EXECUTOR, d);
    }
    String w = opts.get(FLOW_WINDOW);
    if (w != null) {
      window = PRESETS.get(w.trim().toUpperCase(Locale.ROOT));
      if (window == null) {
        long n;
        try {
          n = Options.parseSize(w);
        } catch (IllegalArgumentException e) {
          n = -1;
        }
        if (n < 1 || n > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(stack + ": option " + FLOW_WINDOW + ": want SMALL, MEDIUM, SIMILAR_TO_REST"
              + " or a size from 1B to 2GiB-1 such as 64KiB or 1MiB, got \"" + w + "\"");
        }
        window = (int) n;
      }
    }
    boolean noCompressors = false;
    String c = opts.get(COMPRESSORS);
    if (c != null) {
      switch (c.trim().toLowerCase(Locale.ROOT)) {
        case "none" -> noCompressors = true;
        case "default" -> noCompressors = false;
        default -> throw new IllegalArgumentException(stack + ": option " + COMPRESSORS
            + ": want none (an empty compressor registry) or default, got \"" + c + "\"");
      }
    }
    return new GrpcSettings(direct, window, noCompressors);
  }

  /** Whether handlers and callbacks run on the transport threads (direct_executor=true). */
  boolean directExecutor() {
    return Boolean.TRUE.equals(direct);
  }

  /**
   * Whether a server gets the stack's production executor (ServerExecutors): true when
   * direct_executor is left out; false for direct_executor=true (directExecutor()) and
   * =false (grpc-java's default executor, as the original sweep's builders had).
   */
  boolean productionServerExecutor() {
    return direct == null;
  }
}
