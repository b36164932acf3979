package main

import (
	"github.com/wirebench/wirebench/driver"
	"github.com/wirebench/wirebench/spec"
	"github.com/wirebench/wirebench/spec/link"
)

// hostFlags place the workers of bench and run and put a link between them
// (docs/distributed.md). For run they override the suite's workers block and link,
// key by key.
type hostFlags struct {
	ServerWorker     string   `group:"hosts" help:"Control URL of a remote server worker (wirebench worker --listen tcp://ADDR:PORT --token-file FILE, on that host) instead of starting one here."`
	ClientWorker     []string `group:"hosts" help:"Control URL of a remote client worker (repeatable: the workers share the load, their histograms merge)."`
	ClientWorkers    int      `group:"hosts" help:"Start this many client workers here, all pinned to the client CPUs, sharing the load (default 1)."`
	TokenFile        string   `group:"hosts" help:"Send the token in this file to the remote workers."`
	TLSCA            string   `name:"tls-ca" group:"hosts" help:"Reach the remote workers over TLS, trusting this CA (PEM)."`
	TLSCert          string   `name:"tls-cert" group:"hosts" help:"The driver's certificate for workers with mutual TLS (PEM), with --tls-key."`
	TLSKey           string   `name:"tls-key" group:"hosts" help:"The key of --tls-cert (PEM)."`
	TLSServerName    string   `name:"tls-server-name" group:"hosts" help:"The name the workers' certificates carry (default: the host of each URL)."`
	ServerListenHost string   `group:"hosts" help:"Host the benchmark server listens on, which the client workers must reach (default: the server worker's host; 127.0.0.1 when it runs here)."`
	Link             string   `group:"hosts" help:"Network conditions between clients and server, e.g. delay=1ms,jitter=100us,rate=1gbit,loss=0.1% (delay in each direction; loss needs --netns)."`
	Netns            bool     `group:"hosts" help:"Start the server worker and the client workers in two network namespaces joined by a veth pair that carries the link (needs root)."`
}

// over returns h with every flag that was given in its place.
func (f hostFlags) over(h spec.Hosts) (spec.Hosts, error) {
	if len(f.ClientWorker) > 0 && f.ClientWorkers != 0 {
		return h, usagef("--client-worker and --client-workers: give remote client workers or a number of local ones, not both")
	}
	if f.ServerWorker != "" {
		h.Server = f.ServerWorker
	}
	if len(f.ClientWorker) > 0 {
		h.Clients, h.LocalClients = f.ClientWorker, 0
	}
	if f.ClientWorkers != 0 {
		h.LocalClients, h.Clients = f.ClientWorkers, nil
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&h.Auth.TokenFile, f.TokenFile)
	set(&h.Auth.CAFile, f.TLSCA)
	set(&h.Auth.CertFile, f.TLSCert)
	set(&h.Auth.KeyFile, f.TLSKey)
	set(&h.Auth.ServerName, f.TLSServerName)
	set(&h.ServerListenHost, f.ServerListenHost)
	if f.Link != "" {
		p, err := link.Parse(f.Link)
		if err != nil {
			return h, usagef("--link: %v", err)
		}
		h.Link = p
	}
	if f.Netns {
		h.Netns = true
	}
	if f.ClientWorkers < 0 {
		return h, usagef("--client-workers %d: want 1 or more", f.ClientWorkers)
	}
	if err := driver.CheckHosts(h); err != nil {
		return h, usageError{err}
	}
	return h, nil
}
