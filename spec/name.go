package spec

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/spec/load"
)

// Name returns the benchmark's stable name: series/transport/workload[params]/load,
// e.g. "grpc-proto/tcp/echo[payload=1024]/closed-c50",
// "http-json[server=go-tuned-json]/tcp/person.get/closed-c50".
func (s Spec) Name() string {
	return s.Series() + "/" + s.Transport + "/" + s.Group()
}

// Series names the target without its transport: the protocol, followed in brackets
// by the label and the stacks that are not the protocol's defaults, e.g.
// "grpc-proto[win-64KiB]" or "http-json[server=go-tuned-json,client=instrument]".
func (s Spec) Series() string {
	var tags []string
	if s.Label != "" {
		tags = append(tags, s.Label)
	}
	if s.Call != nil {
		// An outside server's series is its own: named by its address and call, never
		// merged with wirebench's servers of the same protocol and workload. The tag
		// keeps its first name, target=, so that the series stays the one recorded
		// (history, baselines) before the address was called an address (2026-11-29).
		_, addr, _ := strings.Cut(s.Address, "://")
		tags = append(tags, "target="+strings.ReplaceAll(addr, "/", "."), "call="+s.Call.Name())
	}
	if s.ServerStack != "" {
		tags = append(tags, "server="+s.ServerStack)
	}
	if s.ClientStack != "" {
		tags = append(tags, "client="+s.ClientStack)
	}
	if len(tags) == 0 {
		return s.Protocol
	}
	return s.Protocol + "[" + strings.Join(tags, ",") + "]"
}

// Group is the name without the target (series and transport): the workload, its
// parameters and the load, e.g. "echo[payload=1024]/closed-c50". Benchmarks of one
// suite with the same Group (and settings) form a comparison group.
func (s Spec) Group() string {
	g := s.Workload
	if ps := s.paramString(); ps != "" {
		g += "[" + ps + "]"
	}
	if s.Capacity != nil {
		return g + "/" + s.Capacity.Name(s.Load.Concurrency, s.Load.Connections)
	}
	return g + "/" + LoadName(s.Load)
}

// RoundsGroup is the key of the rounds the benchmark is measured in: Group, and with
// InterleaveBy server also the server, named server (the server stack's name, as the
// registry resolved it; "" reads "default"), e.g.
// "person.get/closed-c50 on grpc-proto/tcp server tonic". Benchmarks of one suite
// with the same RoundsGroup (and plan, SamePlan) are one comparison group.
func (s Spec) RoundsGroup(server string) string {
	if s.InterleaveBy != InterleaveServer {
		return s.Group()
	}
	if server == "" {
		server = "default"
	}
	g := s.Group() + " on " + s.Protocol + "/" + s.Transport + " server " + server
	if len(s.ServerOptions) > 0 {
		kv := make([]string, 0, len(s.ServerOptions))
		for k, v := range s.ServerOptions {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		g += " (" + strings.Join(kv, ",") + ")"
	}
	return g
}

// LoadName names a load model: closed-c50 (and -x4 for 4 connections), or
// open-r14000-poisson-c100.
func LoadName(m load.Model) string {
	s := fmt.Sprintf("closed-c%d", m.Concurrency)
	if m.Kind == load.Open {
		s = fmt.Sprintf("open-r%g-%s-c%d", m.Rate, m.Arrival, m.Concurrency)
	}
	if m.Connections > 1 {
		s += fmt.Sprintf("-x%d", m.Connections)
	}
	return s
}

func (s Spec) paramString() string {
	var parts []string
	for k, v := range s.ParamMap() {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// ParamMap returns the workload parameters the benchmark uses, by name (the
// workload's Uses): {"payload": 1024}. An unknown workload has none.
func (s Spec) ParamMap() map[string]any {
	out := map[string]any{}
	w, err := contract.LookupWorkload(s.Workload)
	if err != nil {
		return out
	}
	for _, u := range w.Uses {
		switch u {
		case "payload":
			out[u] = s.Params.Payload
		case "increments":
			out[u] = s.Params.Increments
		case "trades":
			out[u] = s.Params.Trades
		case "message":
			out[u] = s.MessageName
		case "trade":
			// Only the original's shape is named: the compact one is every stream's
			// default, and its benchmarks keep the names they had.
			if s.Params.Trade == contract.TradeOriginal {
				out[u] = s.Params.Trade
			}
		}
	}
	return out
}
