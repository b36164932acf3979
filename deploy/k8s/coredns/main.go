// Command coredns is CoreDNS with only the plugins the local cluster's Corefile uses
// (deploy/k8s/cluster.sh): the kubernetes plugin answers the pods' names, bind keeps it
// on the cluster's own bridge. Upstream's main imports every plugin (cloud DNS
// providers included); this one builds in a fraction of the time.
package main

import (
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/log"

	"github.com/coredns/coredns/coremain"
)

func main() { coremain.Run() }
