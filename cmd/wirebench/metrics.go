package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/internal/metrics"
	"github.com/wirebench/wirebench/runner"
)

// metricsServer serves --metrics-addr while a command runs; nil when not asked for
// (its methods then do nothing).
type metricsServer struct {
	x   *metrics.Exporter
	srv *http.Server
}

// startMetrics listens on addr (a refused address is a usage error, before anything
// runs) and says where on stderr.
func startMetrics(e *env, addr string) (*metricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usagef("--metrics-addr: %v", err)
	}
	m := &metricsServer{x: metrics.New()}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.x.Handler())
	m.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(e.stderr, "wirebench: metrics server: %v\n", err)
		}
	}()
	fmt.Fprintf(e.stderr, "wirebench: metrics at http://%s/metrics\n", ln.Addr())
	return m, nil
}

func (m *metricsServer) observe(benchmark string, ev driver.Event) {
	if m == nil || ev.Interval == nil {
		return
	}
	phase := string(ev.Interval.Phase)
	if phase == "" {
		phase = "measure"
	}
	m.x.Observe(benchmark, phase, ev.Interval.Interval)
}

func (m *metricsServer) observeRun(ev runner.Event) {
	if m != nil && ev.Kind == runner.KindInterval && ev.Interval != nil {
		m.observe(ev.Name, *ev.Interval)
	}
}

func (m *metricsServer) stop() {
	if m == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	m.srv.Shutdown(ctx)
}
