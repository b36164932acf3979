package io.wirebench.contract;

/**
 * One operation of a workload over a Service, with its answers verified
 * (contract/workload.go). seq is the op's sequence number, a uint64 carried in a long;
 * it picks the ids the op uses, so runs are repeatable. Safe for concurrent use.
 */
@FunctionalInterface
public interface Workload {
  void run(Service s, long seq) throws Exception;
}
