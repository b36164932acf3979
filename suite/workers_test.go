package suite_test

import (
	"testing"
	"time"

	"github.com/wirebench/wirebench/suite"
)

// The workers block and the link land in the suite's Hosts.
func TestWorkersBlock(t *testing.T) {
	s := mustParse(t, `
		|workers:
		|  server: tcp://10.0.0.1:7000
		|  clients: [tcp://10.0.0.2:7000, "tcp://10.0.0.3:7000"]
		|  token_file: /etc/wirebench/token
		|  server_listen_host: 10.0.0.1
		|link: delay=750us,rate=1gbit
		|targets: [grpc-proto]
		|workloads: [person.get]`)
	h := s.Hosts
	if h.Server != "tcp://10.0.0.1:7000" || len(h.Clients) != 2 || h.Clients[1] != "tcp://10.0.0.3:7000" ||
		h.Auth.TokenFile != "/etc/wirebench/token" || h.ServerListenHost != "10.0.0.1" {
		t.Errorf("hosts %+v", h)
	}
	if h.Link.Delay != 750*time.Microsecond || h.Link.RateBits != 1_000_000_000 {
		t.Errorf("link %+v; want 750µs and 1gbit", h.Link)
	}
	local := mustParse(t, `
		|workers: {client_workers: 3, netns: true}
		|link: loss=0.1%
		|targets: [grpc-proto]
		|workloads: [person.get]`)
	if local.Hosts.LocalClients != 3 || !local.Hosts.Netns || local.Hosts.Link.Loss != 0.001 {
		t.Errorf("hosts %+v; want 3 local clients in namespaces with 0.1%% loss", local.Hosts)
	}
}

func TestWorkersErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown key", `
			|workers:
			|  client: tcp://h:1
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:2:3: unknown key "client" in workers (valid: server, clients, client_workers, token_file, tls_ca, tls_cert, tls_key, tls_server_name, server_listen_host, netns); did you mean clients or client_workers?`},
		{"bad URL", `
			|workers:
			|  server: http://h:1
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:2:11: workers.server: address "http://h:1": unknown scheme "http", want tcp, unix or udp`},
		{"bad URL in the clients", `
			|workers:
			|  clients: [tcp://h:1, tcp://h]
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:2:24: workers.clients: address "tcp://h": want tcp://host:port (port 0 picks a free one, the highest is 65535)`},
		{"clients and a count", `
			|workers:
			|  clients: [tcp://h:1]
			|  client_workers: 2
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:3:3: workers.client_workers: the clients list already says how many client workers there are`},
		{"netns not a boolean", `
			|workers: {netns: yes please}
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:1:18: workers.netns: want true or false, got "yes please"`},
		{"a bad link", `
			|link: delay=10,rate=1gbit
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:1:7: link "delay=10,rate=1gbit": delay: "10": want a duration such as 500us, 1ms or 10ms`},
		{"loss without namespaces", `
			|workers: {server: tcp://h:1}
			|link: loss=1%
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:2:1: link loss needs a link the kernel shapes (network namespaces, as root): a proxy over TCP sees a byte stream and cannot drop packets, and this kernel has no netem`},
		{"namespaces with remote workers", `
			|workers: {server: tcp://h:1, netns: true}
			|targets: [grpc-proto]
			|workloads: [person.get]`,
			`t.yaml:1:1: network namespaces are for workers spawned here, not remote ones`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := suite.Parse("t.yaml", []byte(doc(c.text)))
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got: %v\nwant: %s", err, c.want)
			}
		})
	}
}
