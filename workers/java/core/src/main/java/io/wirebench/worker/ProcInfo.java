package io.wirebench.worker;

import io.wirebench.control.v1.Host;
import io.wirebench.control.v1.ProcStats;
import io.wirebench.engine.Clock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Readings of this process and descriptions of its machine, as the Go worker's sysstat
 * package takes them: CPU time of the whole process (user + system, all threads, from
 * the JVM's OperatingSystemMXBean, which JDK 17 on Linux reads in clock ticks: it moves
 * in steps of 10 ms, where the Go worker reads the process CPU clock in nanoseconds),
 * RSS and peak RSS from /proc/self/status (VmRSS, VmHWM), the CPUs the process may run
 * on from its affinity (Cpus_allowed_list), which the driver sets before the JVM starts.
 */
final class ProcInfo {
  private ProcInfo() {}

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  static ProcStats read() {
    long now = Clock.nowUnixNanos();
    long cpu = cpuNanos();
    long rss = 0;
    long peak = 0;
    for (String line : lines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = kib(line);
      } else if (line.startsWith("VmHWM:")) {
        peak = kib(line);
      }
    }
    return ProcStats.newBuilder().setTimeUnixNanos(now).setCpuNanos(cpu).setRssBytes(rss).setPeakRssBytes(peak)
        .setCpus(cpus()).build();
  }

  /** The CPU time of the whole process so far, in nanoseconds. */
  static long cpuNanos() {
    return OS.getProcessCpuTime();
  }

  /** The number of CPUs in the process's affinity mask (the JVM's count as fallback). */
  static int cpus() {
    String list = cpuList();
    if (list.isEmpty()) {
      return Runtime.getRuntime().availableProcessors();
    }
    int n = 0;
    for (String part : list.split(",")) {
      String[] r = part.trim().split("-");
      try {
        n += r.length == 2 ? Integer.parseInt(r[1]) - Integer.parseInt(r[0]) + 1 : 1;
      } catch (NumberFormatException e) {
        return Runtime.getRuntime().availableProcessors();
      }
    }
    return n;
  }

  /** The Linux CPU list the process may run on, e.g. "0" or "0-3"; empty when unknown. */
  static String cpuList() {
    for (String line : lines(Path.of("/proc/self/status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring("Cpus_allowed_list:".length()).trim();
      }
    }
    return "";
  }

  static Host host() {
    Host.Builder h = Host.newBuilder();
    h.setHostname(first(Path.of("/proc/sys/kernel/hostname")));
    h.setCpuModel(value(Path.of("/proc/cpuinfo"), "model name", ":"));
    h.setCores(onlineCpus());
    String mem = value(Path.of("/proc/meminfo"), "MemTotal", ":");
    try {
      h.setMemoryBytes(Long.parseLong(mem.replace("kB", "").trim()) * 1024);
    } catch (NumberFormatException e) {
      // left 0: unknown
    }
    h.setKernel(first(Path.of("/proc/sys/kernel/osrelease")));
    String arch = System.getProperty("os.arch");
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT) + "/" + ("x86_64".equals(arch) ? "amd64" : arch);
    String distro = value(Path.of("/etc/os-release"), "PRETTY_NAME", "=").replace("\"", "");
    h.setOs(distro.isEmpty() ? os : os + " (" + distro + ")");
    h.setCpus(cpuList());
    return h.build();
  }

  /** The machine's online CPUs (sysfs), which pinning does not narrow. */
  private static int onlineCpus() {
    String list = first(Path.of("/sys/devices/system/cpu/online"));
    int n = 0;
    for (String part : list.split(",")) {
      String[] r = part.trim().split("-");
      try {
        n += r.length == 2 ? Integer.parseInt(r[1]) - Integer.parseInt(r[0]) + 1 : Integer.parseInt(r[0]) >= 0 ? 1 : 0;
      } catch (NumberFormatException e) {
        return Runtime.getRuntime().availableProcessors();
      }
    }
    return n;
  }

  private static long kib(String line) {
    String v = line.substring(line.indexOf(':') + 1).replace("kB", "").trim();
    try {
      return Long.parseLong(v) * 1024;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static List<String> lines(Path p) {
    try {
      return Files.readAllLines(p);
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  private static String first(Path p) {
    List<String> l = lines(p);
    return l.isEmpty() ? "" : l.get(0).trim();
  }

  private static String value(Path p, String key, String sep) {
    for (String line : lines(p)) {
      int i = line.indexOf(sep);
      if (i > 0 && line.substring(0, i).trim().equals(key)) {
        return line.substring(i + sep.length()).trim();
      }
    }
    return "";
  }
}
