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
	ServerWorker     string   `group:"hosts" help:"${help_server_worker}"`
	ClientWorker     []string `group:"hosts" help:"${help_client_worker}"`
	ClientWorkers    int      `group:"hosts" help:"${help_client_workers}"`
	TokenFile        string   `group:"hosts" help:"${help_token_file}"`
	TLSCA            string   `name:"tls-ca" group:"hosts" help:"${help_tls_ca}"`
	TLSCert          string   `name:"tls-cert" group:"hosts" help:"${help_tls_cert}"`
	TLSKey           string   `name:"tls-key" group:"hosts" help:"${help_tls_key}"`
	TLSServerName    string   `name:"tls-server-name" group:"hosts" help:"${help_tls_server_name}"`
	ServerListenHost string   `group:"hosts" help:"${help_server_listen_host}"`
	Link             string   `group:"hosts" help:"${help_link}"`
	Netns            bool     `group:"hosts" help:"${help_netns}"`
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
